// Mancala Basic, docs/rules.md section 3: one test per rule, exact boards after
// known moves (positions from the B01-B16 edge cases where they fit).

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
using testing::Ranks;
using testing::Rows;
using testing::Stores;
using testing::TotalSeeds;

Rules Basic(int players = 2, const OptionMap& options = {}) {
  return MustParse("mancala_basic", options, players);
}
Rules BasicFirstWins(int players) {
  return Basic(players, {{"determine_all_ranks", "off"}});
}

TEST(MancalaBasicTest, MB1_PitsNotAllowedForThePlayerCountBecomeSix) {
  EXPECT_EQ(Basic(2, {{"pits", "7"}}).pits, 7);
  EXPECT_EQ(Basic(3, {{"pits", "4"}}).pits, 4);
  EXPECT_EQ(Basic(4, {{"pits", "4"}}).pits, 4);
  EXPECT_EQ(Basic(2, {{"pits", "4"}}).pits, 6);  // 4 only with 3-4 players.
  EXPECT_EQ(Basic(3, {{"pits", "7"}}).pits, 6);  // 7 only with 2 players.
  EXPECT_EQ(Basic(4, {{"pits", "5"}}).pits, 6);
  EXPECT_EQ(Basic(2, {{"pits", "0"}}).pits, 6);
  EXPECT_EQ(Basic(2, {{"pits", "100"}}).pits, 6);
  EXPECT_EQ(Basic(2).pits, 6);
}

TEST(MancalaBasicTest, MB2_EveryPitStartsWithStonesAndStoresEmpty) {
  for (int players : {2, 3, 4}) {
    for (int stones : {3, 4}) {
      State s(Basic(players, {{"stones", std::to_string(stones)}}));
      EXPECT_EQ(TotalSeeds(s), players * 6 * stones);
      EXPECT_EQ(Stores(s), std::vector<int>(players, 0));
    }
  }
  EXPECT_EQ(TotalSeeds(State(Basic(2, {{"pits", "7"}}))), 56);
}

TEST(MancalaBasicTest, MB3_RingOfSixteenWithSevenPits) {
  // B13: 16 stones from pit 0 go round once: back into pit 0.
  State s =
      MustFromBoard(Basic(2, {{"pits", "7"}}),
                    {{16, 0, 0, 0, 0, 0, 0}, {4, 4, 4, 4, 4, 4, 4}}, {6, 6}, 0);
  Play(s, 0);
  EXPECT_EQ(Pits(s), (Rows{{1, 1, 1, 1, 1, 1, 1}, {5, 5, 5, 5, 5, 5, 5}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{7, 7}));
  EXPECT_EQ(s.to_move(), 1);
}

TEST(MancalaBasicTest, MB3a_FourPlayersShareOneRing) {
  // B14: 4 x 4 pits (ring 20): 21 stones pass all four stores; the 21st
  // lands in S0: P0 moves again.
  State s =
      MustFromBoard(Basic(4, {{"pits", "4"}}),
                    {{0, 0, 0, 21}, {4, 4, 4, 4}, {4, 4, 4, 4}, {4, 4, 4, 4}},
                    {0, 0, 0, 0}, 0);
  MoveRecord rec = Play(s, 3);
  EXPECT_EQ(Pits(s),
            (Rows{{1, 1, 1, 1}, {5, 5, 5, 5}, {5, 5, 5, 5}, {5, 5, 5, 5}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{2, 1, 1, 1}));
  EXPECT_TRUE(rec.extra_turn);
  EXPECT_EQ(s.to_move(), 0);
}

TEST(MancalaBasicTest, MB4_TurnsFollowTheRing) {
  State s(Basic(4), 2);
  EXPECT_EQ(s.to_move(), 2);
  Play(s, 0);  // 4 stones stay in P2's row: the turn passes.
  EXPECT_EQ(s.to_move(), 3);
  Play(s, 0);
  EXPECT_EQ(s.to_move(), 0);
}

TEST(MancalaBasicTest, MB5_LegalMovesAreNonEmptyPits) {
  State s = MustFromBoard(Basic(), {{0, 4, 4, 4, 4, 4}, {4, 4, 4, 4, 4, 4}},
                          {2, 2}, 0);
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{1, 2, 3, 4, 5}));
}

TEST(MancalaBasicTest, MB6_EveryStoreIsSownExactEvents) {
  // B03: 9 stones from pit 5: S0, P1's six pits, S1, P0 pit 0.
  State s = MustFromBoard(Basic(), {{0, 0, 0, 0, 0, 9}, {4, 4, 4, 4, 4, 4}},
                          {7, 8}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(Describe(rec), (std::vector<std::string>{
                               "pick_up 0:5 x9", "drop 0:S", "drop 1:0",
                               "drop 1:1", "drop 1:2", "drop 1:3", "drop 1:4",
                               "drop 1:5", "drop 1:S", "drop 0:0"}));
  EXPECT_EQ(Pits(s), (Rows{{1, 0, 0, 0, 0, 0}, {5, 5, 5, 5, 5, 5}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{8, 9}));
  EXPECT_EQ(s.to_move(), 1);
}

TEST(MancalaBasicTest, MB6_TheOriginPitIsSownOnALap) {
  // B04: 15 stones (ring 14): the origin gets 1, pit 3 gets 2.
  State s = MustFromBoard(Basic(), {{0, 0, 15, 0, 0, 0}, {4, 4, 4, 4, 4, 4}},
                          {4, 5}, 0);
  Play(s, 2);
  EXPECT_EQ(Pits(s), (Rows{{1, 1, 1, 2, 1, 1}, {5, 5, 5, 5, 5, 5}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{5, 6}));
}

TEST(MancalaBasicTest, MB7_MB8_StoresOnlyGrowAndNothingIsCaptured) {
  State s(Basic(3));
  std::vector<int> stores = Stores(s);
  for (int k = 0; k < 40 && !s.is_over(); ++k) {
    MoveRecord rec = Play(s, s.LegalMoves().front());
    for (const Event& e : rec.events) {
      EXPECT_NE(e.type, EventType::kCapture);
      EXPECT_NE(e.type, EventType::kSweep);
    }
    for (int p = 0; p < 3; ++p) EXPECT_GE(s.store(p), stores[p]);
    stores = Stores(s);
  }
}

TEST(MancalaBasicTest, MB9_FinishingComesBeforeTheExtraTurn) {
  // B05: the last stone of the only non-empty pit lands in a store.
  State s = MustFromBoard(Basic(), {{0, 0, 0, 0, 0, 1}, {4, 4, 4, 4, 4, 4}},
                          {10, 13}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(Describe(rec),
            (std::vector<std::string>{"pick_up 0:5 x1", "drop 0:S",
                                      "finish p0 r1", "game_over p0"}));
  EXPECT_FALSE(rec.extra_turn);
  EXPECT_TRUE(rec.finished);
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(Ranks(s), (std::vector<int>{1, 2}));
}

TEST(MancalaBasicTest, MB10_LastStoneInAnyStoreGivesAnotherMove) {
  // B01: 8 stones from pit 5 end in the opponent's store S1.
  State s = MustFromBoard(Basic(), {{0, 4, 4, 4, 4, 8}, {4, 4, 4, 4, 4, 4}},
                          {0, 0}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_TRUE(rec.extra_turn);
  EXPECT_EQ(s.to_move(), 0);
  EXPECT_EQ(Stores(s), (std::vector<int>{1, 1}));
  // B02: the own store.
  State own(Basic());
  EXPECT_TRUE(Play(own, 2).extra_turn);
  EXPECT_EQ(own.to_move(), 0);
}

TEST(MancalaBasicTest, MB10_ChainedExtraTurnsThenFinish) {
  // B15: pit 5 -> S0 (again), pit 4 -> pit 5, S0 (again), pit 5 -> S0 with
  // the side now empty: P0 wins after the third move.
  State s = MustFromBoard(Basic(), {{0, 0, 0, 0, 2, 1}, {4, 4, 4, 4, 4, 4}},
                          {10, 11}, 0);
  EXPECT_TRUE(Play(s, 5).extra_turn);
  EXPECT_TRUE(Play(s, 4).extra_turn);
  EXPECT_TRUE(Play(s, 5).finished);
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().winner, 0);
  EXPECT_EQ(Stores(s), (std::vector<int>{13, 11}));
}

TEST(MancalaBasicTest, MB11a_TwoPlayersTheFinisherWins) {
  // B06: the mover empties its side by sowing into P1's pits.
  State s = MustFromBoard(Basic(), {{0, 0, 0, 0, 0, 3}, {4, 4, 4, 4, 4, 4}},
                          {10, 11}, 0);
  Play(s, 5);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kEmptiedSide);
  EXPECT_EQ(Ranks(s), (std::vector<int>{1, 2}));
  EXPECT_EQ(s.outcome().winner, 0);
  EXPECT_EQ(s.outcome().finish_order, (std::vector<int>{0}));
  EXPECT_EQ(s.outcome().remaining, (std::array<int, kMaxPlayers>{0, 26, 0, 0}));
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 0}, {5, 5, 4, 4, 4, 4}}));
}

TEST(MancalaBasicTest, MB11a_DetermineAllRanksOffChangesNothingForTwo) {
  for (const Rules& rules : {Basic(2), BasicFirstWins(2)}) {
    State s = MustFromBoard(rules, {{0, 0, 0, 0, 0, 3}, {4, 4, 4, 4, 4, 4}},
                            {10, 11}, 0);
    Play(s, 5);
    EXPECT_EQ(s.outcome().end_reason, EndReason::kEmptiedSide);
    EXPECT_EQ(Ranks(s), (std::vector<int>{1, 2}));
  }
}

TEST(MancalaBasicTest, MB11b_TheFinisherLeavesTheRing) {
  // B07: P0 finishes; P1 then sows 9 from pit 5, skipping P0's pits and S0.
  State s = MustFromBoard(
      Basic(3), {{0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 9}, {4, 4, 4, 4, 4, 4}},
      {5, 5, 5}, 0);
  MoveRecord rec = Play(s, 5);
  EXPECT_EQ(Describe(rec), (std::vector<std::string>{
                               "pick_up 0:5 x1", "drop 0:S", "finish p0 r1"}));
  EXPECT_EQ(s.to_move(), 1);
  EXPECT_FALSE(s.is_active(0));
  Play(s, 5);
  EXPECT_EQ(Pits(s),
            (Rows{{0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0}, {5, 5, 5, 5, 5, 5}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{6, 6, 6}));  // MB.12: S0 frozen.
  EXPECT_EQ(s.to_move(), 2);
  EXPECT_EQ(Ranks(s), (std::vector<int>{1, 0, 0}));
}

TEST(MancalaBasicTest, MB11b_TheLastPlayerLeftTakesTheLastRank) {
  // B09: P0/P1 ranked 1/2; P2 finishes: P2 third, P3 fourth.
  State s = MustFromBoard(Basic(4),
                          {{0, 0, 0, 0, 0, 0},
                           {0, 0, 0, 0, 0, 0},
                           {0, 0, 0, 0, 0, 1},
                           {1, 1, 1, 1, 1, 1}},
                          {9, 9, 9, 9}, 2, {2, 3}, {1, 2, 0, 0});
  MoveRecord rec = Play(s, 5);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(Ranks(s), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(s.outcome().end_reason, EndReason::kAllRanksDetermined);
  EXPECT_EQ(DescribeNoDrops(rec),
            (std::vector<std::string>{"pick_up 2:5 x1", "finish p2 r3",
                                      "game_over p0"}));
  EXPECT_EQ(s.outcome().remaining[3], 6);
}

TEST(MancalaBasicTest, MB11c_FirstFinisherEndsAndOthersRankByStonesLeft) {
  // B08: P1 has 6 stones, P2 has 5: ranks P0 1, P2 2, P1 3.
  State s = MustFromBoard(
      BasicFirstWins(3),
      {{0, 0, 0, 0, 0, 1}, {1, 1, 1, 1, 1, 1}, {0, 0, 3, 0, 2, 0}}, {5, 5, 5},
      0);
  Play(s, 5);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().end_reason, EndReason::kFirstFinisher);
  EXPECT_EQ(Ranks(s), (std::vector<int>{1, 3, 2}));
  EXPECT_EQ(s.outcome().remaining, (std::array<int, kMaxPlayers>{0, 6, 5, 0}));
}

TEST(MancalaBasicTest, MB11c_TiesShareARankAndSkipTheNext) {
  // B16 (3 players): P1 and P2 both hold 2: ranks 1, 2, 2.
  State s = MustFromBoard(
      BasicFirstWins(3),
      {{0, 0, 0, 0, 0, 1}, {1, 1, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 2}}, {5, 5, 5},
      0);
  Play(s, 5);
  EXPECT_EQ(Ranks(s), (std::vector<int>{1, 2, 2}));
  // 4 players: 1, 2, 2, 4 (competition ranking, MB-D2).
  State four = MustFromBoard(BasicFirstWins(4),
                             {{0, 0, 0, 0, 0, 1},
                              {1, 1, 0, 0, 0, 0},
                              {0, 0, 0, 0, 0, 2},
                              {3, 0, 0, 0, 0, 0}},
                             {5, 5, 5, 5}, 0);
  Play(four, 5);
  EXPECT_EQ(Ranks(four), (std::vector<int>{1, 2, 2, 4}));
}

TEST(MancalaBasicTest, MB13_MB14_TwoPlayerResignationLoses) {
  // B10.
  State s(Basic());
  MoveRecord rec;
  ASSERT_FALSE(s.Resign(0, &rec).has_value());
  EXPECT_EQ(Describe(rec),
            (std::vector<std::string>{"resign p0 r2", "game_over p1"}));
  EXPECT_EQ(Ranks(s), (std::vector<int>{2, 1}));
  EXPECT_EQ(s.outcome().end_reason, EndReason::kResignation);
  EXPECT_TRUE(s.outcome().finish_order.empty());
  EXPECT_EQ(Pits(s), Rows(2, std::vector<int>(6, 4)));
}

TEST(MancalaBasicTest, MB15_ResignerLeavesTheRingAndTheNextPlayerMoves) {
  // B11: 4 players, P1 (to move) resigns: rank 4, P2 to move.
  State s(Basic(4), 1);
  ASSERT_FALSE(s.Resign(1).has_value());
  EXPECT_EQ(Ranks(s), (std::vector<int>{0, 4, 0, 0}));
  EXPECT_FALSE(s.is_active(1));
  EXPECT_EQ(s.to_move(), 2);
  EXPECT_FALSE(s.is_over());
  EXPECT_EQ(s.Resign(1), MoveError::kNotActive);
  // A sowing from P0 now skips P1's pits and store.
  ASSERT_FALSE(s.Resign(2).has_value());  // Rank 3; P3 to move.
  EXPECT_EQ(s.to_move(), 3);
  State ring = MustFromBoard(Basic(4),
                             {{0, 0, 0, 0, 0, 3},
                              {4, 4, 4, 4, 4, 4},
                              {4, 4, 4, 4, 4, 4},
                              {4, 4, 4, 4, 4, 4}},
                             {0, 0, 0, 0}, 0, {0, 2, 3}, {0, 4, 0, 0});
  Play(ring, 5);
  EXPECT_EQ(Pits(ring), (Rows{{0, 0, 0, 0, 0, 0},
                              {4, 4, 4, 4, 4, 4},
                              {5, 5, 4, 4, 4, 4},
                              {4, 4, 4, 4, 4, 4}}));
  EXPECT_EQ(Ranks(ring), (std::vector<int>{1, 4, 0, 0}));
  EXPECT_EQ(ring.to_move(), 2);
}

TEST(MancalaBasicTest, MB15_ResigningNotOnTurnKeepsTheMover) {
  State s(Basic(3), 0);
  ASSERT_FALSE(s.Resign(2).has_value());
  EXPECT_EQ(s.to_move(), 0);
  Play(s, 0);  // 4 stones stay in P0's row.
  EXPECT_EQ(s.to_move(), 1);
  Play(s, 0);
  EXPECT_EQ(s.to_move(), 0);  // P2 is skipped.
}

TEST(MancalaBasicTest, MB15_LastActivePlayerTakesTheBestFreeRank) {
  State s(Basic(3));
  ASSERT_FALSE(s.Resign(0).has_value());  // Rank 3.
  MoveRecord rec;
  ASSERT_FALSE(s.Resign(2, &rec).has_value());  // Rank 2; P1 is left.
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(Ranks(s), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(s.outcome().winner, 1);
  EXPECT_EQ(s.outcome().end_reason, EndReason::kResignation);
  EXPECT_EQ(Describe(rec),
            (std::vector<std::string>{"resign p2 r2", "game_over p1"}));
}

TEST(MancalaBasicTest, MB15_FirstFinisherAfterAResignationRanksTheRest) {
  // determine_all_ranks off: P3 resigned (4th); P0 finishes (1st); P1 and
  // P2 are ranked from 2 by stones left.
  State s = MustFromBoard(BasicFirstWins(4),
                          {{0, 0, 0, 0, 0, 1},
                           {1, 1, 1, 0, 0, 0},
                           {0, 0, 0, 0, 0, 2},
                           {4, 4, 4, 4, 4, 4}},
                          {5, 5, 5, 5}, 0, {0, 1, 2}, {0, 0, 0, 4});
  Play(s, 5);
  EXPECT_EQ(Ranks(s), (std::vector<int>{1, 3, 2, 4}));
  EXPECT_EQ(s.outcome().end_reason, EndReason::kFirstFinisher);
}

TEST(MancalaBasicTest, MB16_ResultHasRanksFinishOrderAndStonesLeft) {
  State s = MustFromBoard(
      Basic(3), {{0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}, {4, 4, 4, 4, 4, 4}},
      {5, 5, 5}, 0);
  Play(s, 5);  // P0 finishes (1).
  Play(s, 5);  // P1 finishes (2); P2 left: 3.
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.outcome().finish_order, (std::vector<int>{0, 1}));
  EXPECT_EQ(Ranks(s), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(s.outcome().remaining, (std::array<int, kMaxPlayers>{0, 0, 24, 0}));
  EXPECT_EQ(s.outcome().winner, 0);
}

TEST(MancalaBasicTest, Rule1_11_IllegalMovesChangeNothing) {
  // B12.
  State s = MustFromBoard(Basic(), {{0, 4, 4, 4, 4, 4}, {4, 4, 4, 4, 4, 4}},
                          {2, 2}, 0);
  const Board before = s.board();
  EXPECT_EQ(s.Apply(0), MoveError::kPitEmpty);
  EXPECT_EQ(s.Apply(6), MoveError::kPitOutOfRange);
  EXPECT_EQ(s.board(), before);
  EXPECT_EQ(s.to_move(), 0);
}

TEST(MancalaBasicTest, FromBoardChecksTheShape) {
  Board b;
  b.players = 3;
  b.pits_per_player = 6;
  auto s = State::FromBoard(Basic(2), b, 0);
  EXPECT_TRUE(std::holds_alternative<RulesError>(s));
  Board two;
  two.pits[0][0] = 1;
  two.pits[1][0] = 1;
  two.pits[0][7] = 1;  // Outside a 6-pit row.
  EXPECT_TRUE(
      std::holds_alternative<RulesError>(State::FromBoard(Basic(2), two, 0)));
}

}  // namespace
}  // namespace mancala::engine
