// Congkak, docs/rules.md section 6: one test per rule, exact boards after known
// moves (positions from the C01-C10 edge cases where they fit).

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

Rules Congkak(const OptionMap& options = {}) {
  return MustParse("congkak", options);
}

TEST(CongkakTest, C1_StartHasSevenHousesOfSevenSeeds) {
  State s(Congkak());
  EXPECT_EQ(Pits(s), Rows(2, std::vector<int>(7, 7)));
  EXPECT_EQ(Stores(s), (std::vector<int>{0, 0}));
  EXPECT_EQ(TotalSeeds(s), 98);
  // Optional 5/5 and 9/9 boards.
  State small(Congkak({{"houses", "5"}, {"seeds", "5"}}));
  EXPECT_EQ(Pits(small), Rows(2, std::vector<int>(5, 5)));
  State large(Congkak({{"houses", "9"}, {"seeds", "9"}}));
  EXPECT_EQ(TotalSeeds(large), 162);
  EXPECT_EQ(large.LegalMoves().size(), 9u);
}

TEST(CongkakTest, C2_AfterAnExtraTurnAnyNonEmptyOwnHouseIsLegal) {
  // C02: pit 6 (1 seed) -> store, free choice (only pit 5 left).
  State s = MustFromBoard(
      Congkak(), {{0, 0, 0, 0, 0, 3, 1}, {7, 7, 7, 7, 7, 7, 7}}, {22, 23}, 0);
  MoveRecord rec = Play(s, 6);
  EXPECT_TRUE(rec.extra_turn);
  EXPECT_EQ(s.to_move(), 0);
  EXPECT_EQ(s.LegalMoves(), (std::vector<int>{5}));
}

TEST(CongkakTest, C3_SowingIsTheKalahRing) {
  // C03: own store sown, then opponent house 0.
  State s = MustFromBoard(
      Congkak(), {{1, 0, 0, 0, 0, 0, 2}, {0, 3, 3, 3, 3, 3, 3}}, {38, 39}, 0);
  MoveRecord rec = Play(s, 6);
  EXPECT_EQ(Describe(rec), (std::vector<std::string>{"pick_up 0:6 x2",
                                                     "drop 0:S", "drop 1:0"}));
  EXPECT_EQ(Pits(s), (Rows{{1, 0, 0, 0, 0, 0, 0}, {1, 3, 3, 3, 3, 3, 3}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{39, 39}));
}

TEST(CongkakTest, C3_TheOpponentsStoreNeverReceivesASeed) {
  // 9 seeds from pit 6: store, P1's 7 houses, (P1's store skipped), pit 0.
  State s = MustFromBoard(
      Congkak(), {{0, 0, 0, 0, 0, 0, 9}, {1, 1, 1, 1, 1, 1, 1}}, {40, 42}, 0);
  MoveRecord rec = Play(s, 6);
  EXPECT_EQ(s.store(1), 42);
  for (const Event& e : rec.events) {
    EXPECT_FALSE(e.type == EventType::kDrop && e.place.player == 1 &&
                 e.place.is_store());
  }
}

TEST(CongkakTest, C4_RelayPicksUpTheLandingHouseExactEvents) {
  // C01: opening from pit 1: 5 own houses, store, opponent pit 0 (8) ->
  // relay 8 -> ends in the emptied origin: capture opposite 8 + 1.
  State s(Congkak());
  MoveRecord rec = Play(s, 1);
  EXPECT_EQ(
      DescribeNoDrops(rec),
      (std::vector<std::string>{"pick_up 0:1 x7", "pick_up 1:0 x8",
                                "capture p0 1:5 x8", "capture p0 0:1 x1"}));
  EXPECT_EQ(rec.relays, 1);
  EXPECT_EQ(rec.sown, 15);
  EXPECT_EQ(rec.captured, 9);
  EXPECT_EQ(Pits(s), (Rows{{8, 0, 8, 8, 8, 8, 8}, {0, 8, 8, 8, 8, 0, 8}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{10, 0}));
  EXPECT_EQ(s.to_move(), 1);
}

TEST(CongkakTest, C4_RelayContinuesOnTheOwnSide) {
  // C08: the last seed makes own house 1 hold 2: relay 2.
  State s = MustFromBoard(
      Congkak(), {{1, 1, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 5}}, {45, 46}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(Describe(rec), (std::vector<std::string>{
                               "pick_up 0:0 x1", "drop 0:1", "pick_up 0:1 x2",
                               "drop 0:2", "drop 0:3"}));
  EXPECT_EQ(rec.relays, 1);
  EXPECT_EQ(rec.sown, 3);
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 1, 1, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 5}}));
  EXPECT_EQ(s.to_move(), 1);
}

TEST(CongkakTest, C5_LastSeedInOwnStoreEndsTheTurnWithAnExtraTurn) {
  State s = MustFromBoard(
      Congkak(), {{0, 0, 0, 0, 0, 3, 1}, {7, 7, 7, 7, 7, 7, 7}}, {22, 23}, 0);
  MoveRecord rec = Play(s, 6);
  EXPECT_EQ(Describe(rec), (std::vector<std::string>{
                               "pick_up 0:6 x1", "drop 0:S", "extra_turn p0"}));
}

TEST(CongkakTest, C6_LastSeedInAnEmptyOpponentHouseStays) {
  State s = MustFromBoard(
      Congkak(), {{1, 0, 0, 0, 0, 0, 2}, {0, 3, 3, 3, 3, 3, 3}}, {38, 39}, 0);
  MoveRecord rec = Play(s, 6);
  EXPECT_EQ(s.pit(1, 0), 1);
  EXPECT_EQ(rec.captured, 0);
  EXPECT_EQ(s.to_move(), 1);
}

TEST(CongkakTest, C6_SeedToOpponentStoreOption) {
  State s = MustFromBoard(
      Congkak({{"empty_opponent_house", "seed_to_opponent_store"}}),
      {{1, 0, 0, 0, 0, 0, 2}, {0, 3, 3, 3, 3, 3, 3}}, {38, 39}, 0);
  MoveRecord rec = Play(s, 6);
  EXPECT_EQ(Describe(rec),
            (std::vector<std::string>{"pick_up 0:6 x2", "drop 0:S", "drop 1:0",
                                      "capture p1 1:0 x1"}));
  EXPECT_EQ(rec.captured, 0);  // Not the mover's capture.
  EXPECT_EQ(Pits(s), (Rows{{1, 0, 0, 0, 0, 0, 0}, {0, 3, 3, 3, 3, 3, 3}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{39, 40}));
}

TEST(CongkakTest, C7a_OwnEmptyHouseCapturesOppositeAndTheLastSeed) {
  // C06: opposite 3, no lap needed by default.
  State s = MustFromBoard(
      Congkak(), {{1, 0, 0, 0, 0, 0, 0}, {3, 3, 3, 3, 3, 3, 3}}, {38, 38}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(rec.captured, 4);
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 0, 0}, {3, 3, 3, 3, 3, 0, 3}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{42, 38}));
  EXPECT_EQ(s.to_move(), 1);  // C.10 mover_empty: P1 has seeds.
  EXPECT_FALSE(s.is_over());
}

TEST(CongkakTest, C7b_EmptyOppositeSeedStaysByDefault) {
  // C04.
  State s = MustFromBoard(
      Congkak(), {{1, 0, 0, 0, 0, 0, 0}, {3, 3, 3, 3, 3, 0, 3}}, {39, 40}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(rec.captured, 0);
  EXPECT_EQ(Pits(s), (Rows{{0, 1, 0, 0, 0, 0, 0}, {3, 3, 3, 3, 3, 0, 3}}));
}

TEST(CongkakTest, C7b_SeedToStoreOption) {
  // C05.
  State s = MustFromBoard(Congkak({{"empty_opposite", "seed_to_store"}}),
                          {{1, 0, 0, 0, 0, 0, 0}, {3, 3, 3, 3, 3, 0, 3}},
                          {39, 40}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(rec.captured, 1);
  EXPECT_EQ(DescribeNoDrops(rec),
            (std::vector<std::string>{"pick_up 0:0 x1", "capture p0 0:1 x1"}));
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 0, 0}, {3, 3, 3, 3, 3, 0, 3}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{40, 40}));
}

TEST(CongkakTest, C7c_CaptureRequiresLapBlocksACaptureWithoutALap) {
  // C07.
  State s = MustFromBoard(Congkak({{"capture_requires_lap", "on"}}),
                          {{1, 0, 0, 0, 0, 0, 0}, {3, 3, 3, 3, 3, 3, 3}},
                          {38, 38}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(rec.captured, 0);
  EXPECT_EQ(Pits(s), (Rows{{0, 1, 0, 0, 0, 0, 0}, {3, 3, 3, 3, 3, 3, 3}}));
}

TEST(CongkakTest, C7c_CaptureRequiresLapAllowsItAfterPassingTheStore) {
  // 9 seeds from pit 6 pass the own store and end in own pit 0 (empty);
  // the opposite P1 pit 6 holds 1 + 1.
  State s = MustFromBoard(Congkak({{"capture_requires_lap", "on"}}),
                          {{0, 0, 0, 0, 0, 0, 9}, {1, 1, 1, 1, 1, 1, 1}},
                          {40, 42}, 0);
  MoveRecord rec = Play(s, 6);
  EXPECT_EQ(rec.captured, 3);
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 0, 0, 0, 0, 0}, {2, 2, 2, 2, 2, 2, 0}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{44, 42}));
}

TEST(CongkakTest, C4_RelaysChainUntilTheOwnStore) {
  // Every house holds 1: pit 1, 3 and 5 each reach 2 and relay; the last
  // seed of the third relay lands in the own store (C.5).
  State s = MustFromBoard(
      Congkak(), {{1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1}}, {40, 44}, 0);
  MoveRecord rec = Play(s, 0);
  EXPECT_EQ(rec.relays, 3);
  EXPECT_EQ(rec.sown, 7);
  EXPECT_TRUE(rec.extra_turn);
  EXPECT_EQ(Pits(s), (Rows{{0, 0, 2, 0, 2, 0, 2}, {1, 1, 1, 1, 1, 1, 1}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{41, 44}));
}

TEST(CongkakTest, C8_ARelayThatLapsManyTimesEnds) {
  // Found by random search: 12 relays, 136 seeds sown, 10 passes of P1's
  // store (+1 each), the opponent's store untouched, then an extra turn.
  State s = MustFromBoard(Congkak(),
                          {{2, 10, 1, 0, 1, 20, 7}, {1, 0, 6, 2, 0, 1, 22}},
                          {15, 10}, 1);
  MoveRecord rec = Play(s, 6);
  EXPECT_EQ(rec.relays, 12);
  EXPECT_EQ(rec.sown, 136);
  EXPECT_TRUE(rec.extra_turn);
  EXPECT_EQ(Pits(s), (Rows{{4, 5, 10, 3, 0, 1, 2}, {4, 9, 3, 11, 1, 6, 4}}));
  EXPECT_EQ(Stores(s), (std::vector<int>{15, 20}));
  EXPECT_EQ(TotalSeeds(s), 98);
}

TEST(CongkakTest, C9_AlternatingOpeningWithTheChosenFirstPlayer) {
  State s(Congkak(), 1);
  EXPECT_EQ(s.to_move(), 1);
  Play(s, 0);  // 7 seeds from P1 pit 0 end in P1's store: again.
  EXPECT_EQ(s.to_move(), 1);
}

TEST(CongkakTest, C10_MoverEmptyEndsAndTheOpponentTakesItsSeeds) {
  // C09: an extra turn with the own side empty ends the round.
  State s = MustFromBoard(
      Congkak(), {{0, 0, 0, 0, 0, 0, 1}, {2, 2, 0, 0, 0, 0, 0}}, {41, 52}, 0);
  MoveRecord rec = Play(s, 6);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(DescribeNoDrops(rec),
            (std::vector<std::string>{"pick_up 0:6 x1", "extra_turn p0",
                                      "sweep 1:0 x2", "sweep 1:1 x2",
                                      "game_over p1"}));
  EXPECT_EQ(Stores(s), (std::vector<int>{42, 56}));
}

TEST(CongkakTest, C10_EmptyingTheOwnSideDependsOnTheEndRule) {
  // C10: the mover empties its side and the turn passes.
  const Rows pits = {{0, 0, 0, 0, 0, 0, 2}, {0, 0, 0, 0, 0, 5, 0}};
  State mover_empty = MustFromBoard(Congkak(), pits, {40, 51}, 0);
  Play(mover_empty, 6);
  EXPECT_FALSE(mover_empty.is_over());
  EXPECT_EQ(mover_empty.LegalMoves(), (std::vector<int>{0, 5}));
  State any_side = MustFromBoard(Congkak({{"end_rule", "any_side_empty"}}),
                                 pits, {40, 51}, 0);
  MoveRecord rec = Play(any_side, 6);
  ASSERT_TRUE(any_side.is_over());
  EXPECT_EQ(rec.swept[1], 6);
  EXPECT_EQ(Stores(any_side), (std::vector<int>{41, 57}));
}

TEST(CongkakTest, C11_SingleRoundHigherStoreWinsEqualDraws) {
  State s = MustFromBoard(
      Congkak(), {{0, 0, 0, 0, 0, 0, 1}, {2, 2, 0, 0, 0, 0, 0}}, {41, 52}, 0);
  Play(s, 6);
  EXPECT_EQ(s.outcome().winner, 1);
  State draw = MustFromBoard(
      Congkak(), {{0, 0, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 0, 0}}, {48, 48}, 0);
  Play(draw, 6);
  ASSERT_TRUE(draw.is_over());
  EXPECT_EQ(Stores(draw), (std::vector<int>{49, 49}));
  EXPECT_EQ(draw.outcome().winner, -1);
}

TEST(CongkakTest, C12_TraditionalRoundsAreNotSupportedYet) {
  const std::string error =
      testing::ParseError("congkak", {{"rounds", "traditional"}});
  EXPECT_NE(error.find("not supported yet"), std::string::npos) << error;
}

TEST(CongkakTest, C13_ResultHasStoresWinnerAndEndReason) {
  State s = MustFromBoard(
      Congkak(), {{0, 0, 0, 0, 0, 0, 1}, {2, 2, 0, 0, 0, 0, 0}}, {41, 52}, 0);
  Play(s, 6);
  EXPECT_EQ(EndReasonName(s.outcome().end_reason), "side_empty");
  EXPECT_EQ(testing::Ranks(s), (std::vector<int>{2, 1}));
}

TEST(CongkakTest, ResignationIsALoss) {
  State s(Congkak());
  ASSERT_FALSE(s.Resign(0).has_value());
  EXPECT_EQ(s.outcome().winner, 1);
  EXPECT_EQ(s.outcome().end_reason, EndReason::kResignation);
}

TEST(CongkakTest, Rule1_11_AnEmptyHouseIsRejected) {
  State s = MustFromBoard(
      Congkak(), {{0, 0, 0, 0, 0, 3, 1}, {7, 7, 7, 7, 7, 7, 7}}, {22, 23}, 0);
  const Board before = s.board();
  EXPECT_EQ(s.Apply(0), MoveError::kPitEmpty);
  EXPECT_EQ(s.Apply(7), MoveError::kPitOutOfRange);
  EXPECT_EQ(s.board(), before);
}

}  // namespace
}  // namespace mancala::engine
