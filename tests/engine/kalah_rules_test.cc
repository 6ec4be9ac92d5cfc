// Kalah, docs/rules.md section 4: one test per rule, exact boards after known
// moves (positions from the K01-K16 edge cases where they fit).

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

Rules Kalah(const OptionMap& options = {}) {
  return MustParse("kalah", options);
}
Rules KalahAnySide() { return Kalah({{"end_rule", "any_side_empty"}}); }

TEST(KalahTest, K1_StartHasSixPitsOfSeedsAndEmptyStores) {
  for (int seeds : {4, 5, 6}) {
    State s(Kalah({{"seeds", std::to_string(seeds)}}));
    EXPECT_EQ(Pits(s), Rows(2, std::vector<int>(6, seeds)));
    EXPECT_EQ(Stores(s), (std::vector<int>{0, 0}));
    EXPECT_EQ(TotalSeeds(s), 12 * seeds);
    EXPECT_EQ(s.to_move(), 0);
  }
  EXPECT_EQ(State(Kalah(), 1).to_move(), 1);
}

TEST(KalahTest, K2_LegalMovesAreTheMoversNonEmptyPits) {
  State s = MustFromBoard(Kalah(), {{0, 4, 0, 4, 4, 0}, {4, 0, 4, 4, 4, 4}},
                          {10, 10}, 0);
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{1, 3, 4}));
  EXPECT_EQ(s.LegalMask(), 0b011010u);
  EXPECT_TRUE(s.IsLegal(3));
  EXPECT_FALSE(s.IsLegal(0));
  EXPECT_FALSE(s.IsLegal(6));
}

TEST(KalahTest, K3_SowingSkipsTheOpponentsStoreExactEvents) {
  // K08: 8 seeds from pit 5: own store, six opponent pits, opponent store
  // skipped, last seed in own pit 0 whose opposite got a seed this move.
  State s = MustFromBoard(Kalah(), {{0, 0, 0, 0, 0, 8}, {1, 1, 1, 1, 1, 1}},
                          {17, 17}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(Describe(rec),
            (std::vector<std::string>{
                "pick_up 0:5 x8", "drop 0:S", "drop 1:0", "drop 1:1",
                "drop 1:2", "drop 1:3", "drop 1:4", "drop 1:5", "drop 0:0",
                "capture p0 1:5 x2", "capture p0 0:0 x1"}));
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 0}, {2, 2, 2, 2, 2, 0}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{21, 17}));
  EXPECT_EQ(rec.sown, 8);
  EXPECT_EQ(rec.captured, 3);
  EXPECT_EQ(s.to_move(), 1);
}

TEST(KalahTest, K3_ThirteenSeedsLapAndRefillTheOriginPit) {
  // K01: the 13th seed lands in the emptied origin (empty before it), so
  // it captures the opposite pit (1 + 1 seeds).
  State s = MustFromBoard(Kalah(), {{0, 0, 13, 0, 0, 0}, {1, 1, 1, 1, 1, 1}},
                          {14, 15}, 0);
  MoveRecord rec = Play(s, 2);
  EXPECT_EQ(Pits(s), (Rows{{1, 1, 0, 1, 1, 1}, {2, 2, 2, 0, 2, 2}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{18, 15}));
  EXPECT_EQ(rec.captured, 3);
  EXPECT_EQ(s.to_move(), 1);
}

TEST(KalahTest, K4_LastSeedInOwnStoreGivesAnotherMoveAndChains) {
  // K03: pit 5 (1) -> store, again; pit 4 (2) -> pit 5, store, again.
  State s = MustFromBoard(Kalah(), {{0, 0, 0, 0, 2, 1}, {4, 4, 4, 4, 4, 4}},
                          {10, 11}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(Describe(rec), (std::vector<std::string>{
                               "pick_up 0:5 x1", "drop 0:S", "extra_turn p0"}));
  EXPECT_TRUE(rec.extra_turn);
  EXPECT_EQ(s.to_move(), 0);
  rec = Play(s, 4);
  EXPECT_TRUE(rec.extra_turn);
  EXPECT_EQ(s.to_move(), 0);
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 1}, {4, 4, 4, 4, 4, 4}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{12, 11}));
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{5}));
}

TEST(KalahTest, K4_PlayerOneStoreExtraTurn) {
  // K14: player 1's pit 5 (1 seed) goes to player 1's store.
  State s = MustFromBoard(Kalah(), {{4, 4, 4, 4, 4, 4}, {4, 4, 4, 4, 4, 1}},
                          {1, 2}, 1);
  MoveRecord rec = Play(s, 5);
  EXPECT_TRUE(rec.extra_turn);
  EXPECT_EQ(Stores(s), (std::vector<int>{1, 3}));
  EXPECT_EQ(s.to_move(), 1);
}

TEST(KalahTest, K5_LastSeedInOwnEmptyPitCapturesOpposite) {
  State s = MustFromBoard(Kalah(), {{1, 0, 4, 4, 4, 4}, {4, 4, 4, 4, 4, 4}},
                          {3, 2}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(Describe(rec), (std::vector<std::string>{
                               "pick_up 0:0 x1", "drop 0:1",
                               "capture p0 1:4 x4", "capture p0 0:1 x1"}));
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 4, 4, 4, 4}, {4, 4, 4, 4, 0, 4}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{8, 2}));
  EXPECT_EQ(rec.captured, 5);
  EXPECT_FALSE(rec.extra_turn);
  EXPECT_EQ(s.to_move(), 1);
}

TEST(KalahTest, K5_OppositeFilledDuringTheMoveIsCaptured) {
  // K11: P1 pit 4 was empty before the move and receives a seed.
  State s = MustFromBoard(Kalah(), {{0, 0, 0, 0, 0, 9}, {1, 1, 1, 1, 0, 1}},
                          {17, 17}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(rec.captured, 2);
  EXPECT_EQ(Pits(s), (Rows{{1, 0, 0, 0, 0, 0}, {2, 2, 2, 2, 0, 2}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{20, 17}));
}

TEST(KalahTest, K5_PlayerOneCapturesIntoOwnStore) {
  // K15 (mover_empty): P1 pit 0 -> pit 1 (empty), opposite P0 pit 4 (4).
  State s = MustFromBoard(Kalah(), {{4, 4, 4, 4, 4, 4}, {1, 0, 0, 0, 0, 0}},
                          {11, 12}, 1);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(rec.captured, 5);
  EXPECT_EQ(Pits(s), (Rows{{4, 4, 4, 4, 0, 4}, {0, 0, 0, 0, 0, 0}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{11, 17}));
  EXPECT_EQ(s.to_move(), 0);  // P1 empty but P0 to move: play goes on.
  EXPECT_FALSE(s.is_over());
}

TEST(KalahTest, K6_OwnEmptyPitWithEmptyOppositeKeepsTheSeed) {
  // K02.
  State s = MustFromBoard(Kalah(), {{1, 0, 0, 0, 0, 2}, {3, 3, 3, 3, 0, 3}},
                          {15, 15}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(rec.captured, 0);
  EXPECT_EQ(Describe(rec),
            (std::vector<std::string>{"pick_up 0:0 x1", "drop 0:1"}));
  EXPECT_EQ(Pits(s), (Rows{{0, 1, 0, 0, 0, 2}, {3, 3, 3, 3, 0, 3}}));
  EXPECT_EQ(s.to_move(), 1);
}

TEST(KalahTest, K7_LastSeedInANonEmptyOwnPitPassesTheTurn) {
  // K10: 15 seeds; own pit 4 got a seed earlier in the lap: not empty.
  State s = MustFromBoard(Kalah(), {{0, 0, 15, 0, 0, 0}, {1, 1, 1, 1, 1, 1}},
                          {13, 14}, 0);
  MoveRecord rec = Play(s, 2);
  EXPECT_EQ(rec.captured, 0);
  EXPECT_EQ(Pits(s), (Rows{{1, 1, 1, 2, 2, 1}, {2, 2, 2, 2, 2, 2}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{14, 14}));
  EXPECT_EQ(s.to_move(), 1);
}

TEST(KalahTest, K7_LastSeedInAnOpponentPitPassesTheTurn) {
  // K09 (mover_empty): no capture in an empty opponent pit.
  State s = MustFromBoard(Kalah(), {{0, 0, 0, 0, 0, 3}, {0, 0, 5, 5, 5, 5}},
                          {12, 13}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(rec.captured, 0);
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 0}, {1, 1, 5, 5, 5, 5}}));
  EXPECT_EQ(s.to_move(), 1);
  EXPECT_FALSE(s.is_over());
}

TEST(KalahTest, K8_MoverEmptyEndsWhenThePlayerToMoveHasNoSeeds) {
  // K04: an extra turn with an empty side ends the game.
  State s = MustFromBoard(Kalah(), {{0, 0, 0, 0, 0, 1}, {2, 0, 0, 0, 0, 0}},
                          {22, 23}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(s.to_move(), -1);
  EXPECT_TRUE(s.LegalMoves().empty());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kSideEmpty);
  // K.9: P1 sweeps its 2 seeds: 23-25.
  EXPECT_EQ(Describe(rec), (std::vector<std::string>{
                               "pick_up 0:5 x1", "drop 0:S", "extra_turn p0",
                               "sweep 1:0 x2", "game_over p1"}));
  EXPECT_EQ(Stores(s), (std::vector<int>{23, 25}));
  EXPECT_EQ(rec.swept[1], 2);
}

TEST(KalahTest, K8_MoverEmptyGoesOnWhenOnlyTheOtherSideIsEmpty) {
  // K05: P0 empties its side, P1 to move with seeds: the game continues.
  State k05 = MustFromBoard(Kalah(), {{0, 0, 0, 0, 0, 2}, {0, 0, 0, 3, 0, 0}},
                            {20, 23}, 0);
  Play(k05, 5);
  EXPECT_FALSE(k05.is_over());
  EXPECT_EQ(k05.LegalMoves(), (std::vector<int>{0, 3}));
  // K06: P1 empty, P0 has an extra turn: P0 keeps playing.
  State k06 = MustFromBoard(Kalah(), {{0, 0, 0, 1, 1, 1}, {0, 0, 0, 0, 0, 0}},
                            {23, 22}, 0);
  Play(k06, 5);
  EXPECT_FALSE(k06.is_over());
  EXPECT_EQ(k06.LegalMoves(), (std::vector<int>{3, 4}));
}

TEST(KalahTest, K8Prime_AnySideEmptyEndsAsSoonAsARowIsEmpty) {
  // K05 under any_side_empty: over, P1 sweeps 4: 21-27.
  State k05 = MustFromBoard(
      KalahAnySide(), {{0, 0, 0, 0, 0, 2}, {0, 0, 0, 3, 0, 0}}, {20, 23}, 0);
  MoveRecord rec = Play(k05, 5);
  EXPECT_TRUE(k05.is_over());
  EXPECT_EQ(Stores(k05), (std::vector<int>{21, 27}));
  EXPECT_EQ(rec.swept[1], 4);
  EXPECT_EQ(k05.outcome().winner, 1);
  // K06 under any_side_empty: over, P0 sweeps 2: 26-22.
  State k06 = MustFromBoard(
      KalahAnySide(), {{0, 0, 0, 1, 1, 1}, {0, 0, 0, 0, 0, 0}}, {23, 22}, 0);
  Play(k06, 5);
  EXPECT_TRUE(k06.is_over());
  EXPECT_EQ(Stores(k06), (std::vector<int>{26, 22}));
}

TEST(KalahTest, K9_SweepKeepsTheBoardBeforeItInPreSweep) {
  // K07: P0 captures P1's last 4 (+1); P1 to move, empty: P0 sweeps 3.
  State s = MustFromBoard(Kalah(), {{1, 0, 0, 0, 0, 3}, {0, 0, 0, 0, 4, 0}},
                          {20, 20}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(DescribeNoDrops(rec),
            (std::vector<std::string>{"pick_up 0:0 x1", "capture p0 1:4 x4",
                                      "capture p0 0:1 x1", "sweep 0:5 x3",
                                      "game_over p0"}));
  EXPECT_EQ(Pits(s.outcome().pre_sweep),
            (Rows{{0, 0, 0, 0, 0, 3}, {0, 0, 0, 0, 0, 0}}));
  EXPECT_EQ(Stores(s.outcome().pre_sweep), (std::vector<int>{25, 20}));
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{28, 20}));
  EXPECT_EQ(rec.swept[0], 3);
  EXPECT_EQ(s.outcome().remaining[0], 0);
}

TEST(KalahTest, K10_HigherStoreWinsEqualStoresDraw) {
  // K12: 24-24.
  State s = MustFromBoard(Kalah(), {{0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}},
                          {23, 23}, 0);
  Play(s, 5);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(Stores(s), (std::vector<int>{24, 24}));
  EXPECT_EQ(s.outcome().winner, -1);
  EXPECT_EQ(testing::Ranks(s), (std::vector<int>{1, 1}));
}

TEST(KalahTest, K11_TheEmptySideIsNeverToMove) {
  // K16 (mover_empty): extra turn then a capture; P1 keeps a legal move.
  State s = MustFromBoard(Kalah(), {{0, 0, 0, 1, 0, 1}, {0, 6, 0, 0, 0, 2}},
                          {19, 19}, 0);
  Play(s, 5);
  MoveRecord rec = Play(s, 3);
  EXPECT_EQ(rec.captured, 7);
  EXPECT_EQ(Stores(s), (std::vector<int>{27, 19}));
  EXPECT_EQ(s.to_move(), 1);
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{5}));
}

TEST(KalahTest, K12_ResultHasStoresWinnerEndReasonAndSwept) {
  State s = MustFromBoard(Kalah(), {{0, 0, 0, 0, 0, 1}, {2, 0, 0, 0, 0, 0}},
                          {22, 23}, 0);
  Play(s, 5);
  const Outcome& o = s.outcome();
  EXPECT_EQ(o.winner, 1);
  EXPECT_EQ(testing::Ranks(s), (std::vector<int>{2, 1}));
  EXPECT_EQ(EndReasonName(o.end_reason), "side_empty");
}

TEST(KalahTest, ResignationIsALoss) {
  State s(Kalah());
  Play(s, 2);
  MoveRecord rec;
  ASSERT_FALSE(s.Resign(0, &rec).has_value());
  EXPECT_EQ(Describe(rec),
            (std::vector<std::string>{"resign p0 r2", "game_over p1"}));
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().winner, 1);
  EXPECT_EQ(testing::Ranks(s), (std::vector<int>{2, 1}));
  EXPECT_EQ(s.outcome().end_reason, EndReason::kResignation);
  EXPECT_EQ(Pits(s), (Rows{{4, 4, 0, 5, 5, 5}, {4, 4, 4, 4, 4, 4}}));
  EXPECT_EQ(s.Resign(1), MoveError::kGameOver);
}

TEST(KalahTest, ResignationByThePlayerNotToMove) {
  State s(Kalah());
  EXPECT_EQ(s.Resign(2), MoveError::kNotActive);
  ASSERT_FALSE(s.Resign(1).has_value());
  EXPECT_EQ(s.outcome().winner, 0);
}

TEST(KalahTest, Rule1_11_IllegalMovesChangeNothing) {
  State s = MustFromBoard(Kalah(), {{0, 4, 4, 4, 4, 4}, {4, 4, 4, 4, 4, 4}},
                          {2, 2}, 0);
  const Board before = s.board();
  MoveRecord rec;
  rec.sown = 99;
  EXPECT_EQ(s.Apply(0, &rec), MoveError::kPitEmpty);  // K13.
  EXPECT_EQ(s.Apply(-1), MoveError::kPitOutOfRange);
  EXPECT_EQ(s.Apply(6), MoveError::kPitOutOfRange);
  EXPECT_EQ(s.board(), before);
  EXPECT_EQ(s.to_move(), 0);
  EXPECT_EQ(s.ply(), 0);
  EXPECT_EQ(rec.sown, 99);  // The record is untouched too.
  // Game over.
  ASSERT_FALSE(s.Resign(0).has_value());
  const Board after = s.board();
  EXPECT_EQ(s.Apply(1), MoveError::kGameOver);
  EXPECT_EQ(s.board(), after);
}

TEST(KalahTest, PlyCountsMovesNotResignations) {
  State s(Kalah());
  Play(s, 2);  // Last seed in the store: extra turn.
  Play(s, 0);
  EXPECT_EQ(s.ply(), 2);
}

}  // namespace
}  // namespace mancala::engine
