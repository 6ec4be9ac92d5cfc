// Oware, docs/rules.md section 5: one test per rule, exact boards after known
// moves (positions from the O01-O16 edge cases where they fit).

#include <gtest/gtest.h>

#include "tests/engine/test_util.h"

namespace mancala::engine {
namespace {

using testing::Describe;
using testing::DescribeNoDrops;
using testing::MustFromBoard;
using testing::MustParse;
using testing::Pits;
using testing::Play;
using testing::Rows;
using testing::Stores;
using testing::TotalSeeds;

Rules Oware(const OptionMap& options = {}) {
  return MustParse("oware", options);
}
Rules OwareIllegal() { return Oware({{"grand_slam", "illegal"}}); }

TEST(OwareTest, O1_StartHasSixHousesOfSeedsAndNoCaptures) {
  for (int seeds : {4, 5, 6}) {
    State s(Oware({{"seeds", std::to_string(seeds)}}));
    EXPECT_EQ(Pits(s), Rows(2, std::vector<int>(6, seeds)));
    EXPECT_EQ(Stores(s), (std::vector<int>{0, 0}));
    EXPECT_EQ(TotalSeeds(s), 12 * seeds);
  }
  EXPECT_FALSE(Oware().stores_on_ring());
}

TEST(OwareTest, O2_TheOriginHouseIsSkippedOnEveryLap) {
  // O01: 12 seeds from house 2: 11 houses + the 12th in house 3 (-> 2).
  State s = MustFromBoard(Oware(), {{0, 0, 12, 0, 0, 0}, {1, 1, 1, 1, 1, 1}},
                          {15, 15}, 0);
  MoveRecord rec = Play(s, 2);
  EXPECT_EQ(Pits(s), (Rows{{1, 1, 0, 2, 1, 1}, {2, 2, 2, 2, 2, 2}}));
  EXPECT_EQ(rec.captured, 0);  // Last seed in the own row (O.5).
  // O12: 23 seeds, two full laps of 11, the 23rd in P1 house 0.
  State o12 = MustFromBoard(Oware(), {{0, 0, 0, 0, 0, 23}, {0, 0, 0, 0, 0, 0}},
                            {10, 15}, 0);
  rec = Play(o12, 5);
  EXPECT_EQ(Pits(o12), (Rows{{2, 2, 2, 2, 2, 0}, {0, 2, 2, 2, 2, 2}}));
  EXPECT_EQ(Stores(o12), (std::vector<int>{13, 15}));
  EXPECT_EQ(rec.captured, 3);
  EXPECT_TRUE(rec.must_feed);
}

TEST(OwareTest, O3_LegalMovesAreNonEmptyHousesWhenTheOpponentHasSeeds) {
  State s = MustFromBoard(Oware(), {{0, 3, 0, 0, 2, 0}, {0, 0, 1, 0, 0, 0}},
                          {19, 23}, 0);
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{1, 4}));
}

TEST(OwareTest, O4_MustFeedAnEmptyOpponent) {
  // O06: house 1 (3 seeds) cannot reach, house 4 (2 seeds) can.
  State s = MustFromBoard(Oware(), {{0, 3, 0, 0, 2, 0}, {0, 0, 0, 0, 0, 0}},
                          {19, 24}, 0);
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{4}));
  const Board before = s.board();
  EXPECT_EQ(s.Apply(1), MoveError::kNotLegal);  // 1.11.
  EXPECT_EQ(s.board(), before);
  MoveRecord rec = Play(s, 4);
  EXPECT_TRUE(rec.must_feed);
  EXPECT_EQ(Pits(s), (Rows{{0, 3, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 0}}));
}

TEST(OwareTest, O5_CaptureChainsBackwardsExactEvents) {
  // O02: chain 3, 2, 3 then a 4: captures 8, stops at the 4.
  State s = MustFromBoard(Oware(), {{0, 0, 0, 0, 0, 4}, {3, 2, 1, 2, 0, 1}},
                          {14, 21}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(Describe(rec), (std::vector<std::string>{
                               "pick_up 0:5 x4", "drop 1:0", "drop 1:1",
                               "drop 1:2", "drop 1:3", "capture p0 1:3 x3",
                               "capture p0 1:2 x2", "capture p0 1:1 x3"}));
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 0}, {4, 0, 0, 0, 0, 1}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{22, 21}));
  EXPECT_EQ(rec.captured, 8);
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{5}));  // P1 must feed.
}

TEST(OwareTest, O5_ChainStopsAtTheRowBoundary) {
  // O03: own houses holding 2 are never taken.
  State s = MustFromBoard(Oware(), {{0, 0, 0, 0, 2, 2}, {1, 1, 0, 0, 0, 3}},
                          {19, 20}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(rec.captured, 4);
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 2, 0}, {0, 0, 0, 0, 0, 3}}));
}

TEST(OwareTest, O5_NoCaptureInTheOwnRow) {
  // O04: the last seed makes an own house 2.
  State s = MustFromBoard(Oware(), {{1, 1, 0, 0, 0, 0}, {4, 4, 4, 4, 4, 4}},
                          {11, 11}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(rec.captured, 0);
  EXPECT_EQ(Pits(s), (Rows{{0, 2, 0, 0, 0, 0}, {4, 4, 4, 4, 4, 4}}));
}

TEST(OwareTest, O5_TheChainStartsOnlyAtTheLastHouse) {
  // O11: the last house holds 4; the 3 before it is not taken.
  State s = MustFromBoard(Oware(), {{1, 0, 0, 0, 0, 2}, {2, 3, 0, 0, 0, 0}},
                          {20, 20}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(rec.captured, 0);
  EXPECT_EQ(Pits(s), (Rows{{1, 0, 0, 0, 0, 0}, {3, 4, 0, 0, 0, 0}}));
  // O15: a single 2 in opponent house 0.
  State o15 = MustFromBoard(Oware(), {{0, 0, 0, 0, 0, 1}, {1, 4, 4, 4, 4, 4}},
                            {13, 13}, 0);
  EXPECT_EQ(Play(o15, 5).captured, 2);
  EXPECT_EQ(Stores(o15), (std::vector<int>{15, 13}));
}

TEST(OwareTest, O6_GrandSlamNoCaptureIsPlayedWithoutCapturing) {
  // O05: the capture would take 2, 3, 3 = every opponent seed.
  State s = MustFromBoard(Oware(), {{1, 0, 0, 0, 0, 3}, {1, 2, 2, 0, 0, 0}},
                          {19, 20}, 0);
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{0, 5}));
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(DescribeNoDrops(rec),
            (std::vector<std::string>{"pick_up 0:5 x3",
                                      "grand_slam_nullified p0 1:2"}));
  EXPECT_TRUE(rec.grand_slam_nullified);
  EXPECT_EQ(rec.captured, 0);
  EXPECT_EQ(Pits(s), (Rows{{1, 0, 0, 0, 0, 0}, {2, 3, 3, 0, 0, 0}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{19, 20}));
  EXPECT_EQ(s.to_move(), 1);
}

TEST(OwareTest, O6_GrandSlamIllegalRemovesTheMove) {
  State s = MustFromBoard(
      OwareIllegal(), {{1, 0, 0, 0, 0, 3}, {1, 2, 2, 0, 0, 0}}, {19, 20}, 0);
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{0}));
  const Board before = s.board();
  EXPECT_EQ(s.Apply(5), MoveError::kNotLegal);
  EXPECT_EQ(s.board(), before);
  EXPECT_EQ(s.to_move(), 0);
}

TEST(OwareTest, O6_MustFeedGrandSlamDependsOnTheOption) {
  // O08: P1 empty; house 5 (17 seeds) makes P1's row all 2s.
  const Rows pits = {{0, 0, 2, 7, 5, 17}, {0, 0, 0, 0, 0, 0}};
  State no_capture = MustFromBoard(Oware(), pits, {12, 5}, 0);
  EXPECT_EQ(no_capture.LegalMoves(), (std::vector<int>{3, 4, 5}));
  MoveRecord rec = Play(no_capture, 5);
  EXPECT_TRUE(rec.grand_slam_nullified);
  EXPECT_TRUE(rec.must_feed);
  EXPECT_EQ(Pits(no_capture), (Rows{{1, 1, 3, 8, 6, 0}, {2, 2, 2, 2, 2, 2}}));
  State illegal = MustFromBoard(OwareIllegal(), pits, {12, 5}, 0);
  EXPECT_EQ(illegal.LegalMoves(), (std::vector<int>{3, 4}));
}

TEST(OwareTest, O6_GrandSlamIllegalLeavingNoMoveEndsTheGameByO8) {
  // P1 captures 4, leaving P0 only house 5 (1 seed), whose capture would
  // take P1's last seed: no legal move, each player takes their own row.
  const Rows pits = {{1, 1, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 2}};
  State s = MustFromBoard(OwareIllegal(), pits, {22, 20}, 1);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(rec.captured, 4);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kNoLegalMove);
  EXPECT_EQ(Pits(s.outcome().pre_sweep),
            (Rows{{0, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 0}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{23, 25}));
  // Under no_capture P0 may play house 5.
  State open = MustFromBoard(Oware(), pits, {22, 20}, 1);
  Play(open, 5);
  EXPECT_FALSE(open.is_over());
  EXPECT_EQ(open.LegalMoves(), (std::vector<int>{5}));
}

TEST(OwareTest, O7_TheTurnAlwaysPasses) {
  State s(Oware());
  for (int k = 0; k < 6 && !s.is_over(); ++k) {
    const int mover = s.to_move();
    Play(s, s.LegalMoves().back());
    EXPECT_EQ(s.to_move(), 1 - mover);
  }
}

TEST(OwareTest, O8_NoLegalMoveEndsAndTheMoverTakesTheOwnRow) {
  // O07: P1 sows into P0's row; P0 must feed but house 0 (4) cannot reach.
  State s = MustFromBoard(Oware(), {{3, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1}},
                          {21, 23}, 1);
  MoveRecord rec = Play(s, 5);
  EXPECT_FALSE(rec.must_feed);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kNoLegalMove);
  EXPECT_EQ(DescribeNoDrops(rec),
            (std::vector<std::string>{"pick_up 1:5 x1", "sweep 0:0 x4",
                                      "game_over p0"}));
  EXPECT_EQ(Stores(s), (std::vector<int>{25, 23}));
  EXPECT_EQ(s.outcome().winner, 0);
}

TEST(OwareTest, O9_MajorityEndsAndLeavesTheBoardUnscored) {
  // O09: a capture of 2 takes P1 to 26 > 24; P0's last seed stays.
  State s = MustFromBoard(Oware(), {{1, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}},
                          {21, 24}, 1);
  Play(s, 5);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kMajority);
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 0}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{21, 26}));
  EXPECT_EQ(s.outcome().pre_sweep, s.board());
  EXPECT_EQ(s.outcome().remaining[0], 1);
  EXPECT_EQ(s.outcome().winner, 1);
}

TEST(OwareTest, O9_MajorityIsMeasuredAgainstTheSeedsInPlay) {
  // O16: seeds = 5 (T = 60): 32 > 30 ends the game.
  State s =
      MustFromBoard(Oware({{"seeds", "5"}}),
                    {{0, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 5}}, {30, 23}, 0);
  Play(s, 5);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kMajority);
  EXPECT_EQ(Stores(s), (std::vector<int>{32, 23}));
}

TEST(OwareTest, O10_HalfEachIsADraw) {
  // O10: P1 cannot feed, takes its 4: 24-24.
  State s = MustFromBoard(Oware(), {{0, 0, 0, 0, 0, 1}, {3, 0, 0, 0, 0, 0}},
                          {24, 20}, 0);
  Play(s, 5);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(Stores(s), (std::vector<int>{24, 24}));
  EXPECT_EQ(s.outcome().winner, -1);
  EXPECT_EQ(testing::Ranks(s), (std::vector<int>{1, 1}));
}

TEST(OwareTest, O11_ARepeatedPositionEndsTheGame) {
  // O14: two single seeds chase each other; 12 plies later the start
  // position recurs; each player takes their own row: 24-24.
  State s = MustFromBoard(Oware(), {{0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}},
                          {23, 23}, 0);
  const int moves[] = {5, 5, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4};
  for (int k = 0; k < 12; ++k) {
    ASSERT_FALSE(s.is_over()) << "ply " << k;
    Play(s, moves[k]);
  }
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kRepetition);
  EXPECT_EQ(Pits(s.outcome().pre_sweep),
            (Rows{{0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{24, 24}));
  EXPECT_EQ(s.outcome().winner, -1);
}

TEST(OwareTest, O11_MoveCapEndsAfterThatManyPlies) {
  State s(Oware({{"cycle_rule", "move_cap:3"}}));
  Play(s, 0);
  Play(s, 0);
  EXPECT_FALSE(s.is_over());
  MoveRecord rec = Play(s, 1);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kMoveCap);
  EXPECT_EQ(rec.swept[0] + rec.swept[1], 48);
  EXPECT_EQ(Stores(s)[0] + Stores(s)[1], 48);
  // move_cap does not end a game on repetition.
  State chase =
      MustFromBoard(Oware({{"cycle_rule", "move_cap:200"}}),
                    {{0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}}, {23, 23}, 0);
  for (int k = 0; k < 24; ++k) Play(chase, chase.LegalMoves()[0]);
  EXPECT_FALSE(chase.is_over());
}

TEST(OwareTest, O12_MajorityIsCheckedBeforeNoLegalMove) {
  // P0 captures 2 (25 > 24) and leaves P1 unable to feed: the game ends by
  // majority (O.9), so P1's last seed is not swept (O.8 is not reached).
  State s = MustFromBoard(Oware(), {{0, 0, 0, 0, 0, 1}, {1, 1, 0, 0, 0, 0}},
                          {23, 22}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(rec.captured, 2);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kMajority);
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{25, 22}));
}

TEST(OwareTest, O13_HigherStoreWins) {
  State s = MustFromBoard(Oware(), {{3, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1}},
                          {21, 23}, 1);
  Play(s, 5);
  EXPECT_EQ(s.outcome().winner, 0);
  EXPECT_EQ(testing::Ranks(s), (std::vector<int>{1, 2}));
}

TEST(OwareTest, ResignationIsALoss) {
  State s(Oware());
  Play(s, 0);
  ASSERT_FALSE(s.Resign(1).has_value());
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().winner, 0);
  EXPECT_EQ(s.outcome().end_reason, EndReason::kResignation);
  EXPECT_EQ(testing::Ranks(s), (std::vector<int>{1, 2}));
}

TEST(OwareTest, FromBoardRejectsAPlayerToMoveWithoutAMove) {
  Board b;
  b.pits[1][0] = 4;
  b.stores = {20, 24};
  auto s = State::FromBoard(Oware(), b, 0);
  EXPECT_TRUE(std::holds_alternative<RulesError>(s));
}

}  // namespace
}  // namespace mancala::engine
