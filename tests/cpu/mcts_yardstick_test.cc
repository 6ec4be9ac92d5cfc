// The MCTS yardstick (engine/cpu/mcts_yardstick.h): its solver proves the
// result of small endgames and plays the winning move, it is reproducible
// with a simulation limit, and it plays legal moves in every two-player
// game.

#include "engine/cpu/mcts_yardstick.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <variant>

#include "engine/cpu/rng.h"
#include "engine/rules.h"
#include "engine/state.h"
#include "tests/cpu/test_positions.h"

namespace mancala::engine {
namespace {

Rules Parse(const std::string& game) {
  return std::get<Rules>(ParseRules(game, {}, 2));
}

cpu::MctsLimits Simulations(std::uint64_t n, std::uint64_t seed) {
  cpu::MctsLimits limits;
  limits.max_simulations = n;
  limits.seed = seed;
  return limits;
}

// The endgames of CpuLevels.LevelFourFindsAForcedKalahWin: only pit 5
// wins (checked there by exhaustive search, and here again).
TEST(MctsYardstick, SolverProvesAForcedKalahWin) {
  const Rules rules = Parse("kalah");
  const Board boards[] = {
      KalahBoard({0, 0, 1, 2, 0, 3}, {0, 2, 0, 0, 0, 0}, 20, 20),
      KalahBoard({0, 0, 0, 2, 2, 3}, {0, 3, 0, 0, 0, 0}, 20, 18),
  };
  for (const Board& board : boards) {
    const State s = FromBoard(rules, board, 0);
    State after = s;
    after.Apply(5);
    ASSERT_GT(BestMargin(after, 0, -1000, 1000), 0);
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      const cpu::MctsResult r =
          cpu::MctsYardstick(s, Simulations(200000, seed));
      EXPECT_EQ(r.move, 5) << "seed " << seed;
      EXPECT_TRUE(r.proven);
      EXPECT_EQ(r.proven_result, 1);
      // Proven long before the limit: the tree of this endgame is small.
      EXPECT_LT(r.simulations, 200000u);
    }
  }
}

// After each move of player 0 in the first of those endgames, the solver
// proves the result for the player to move, wins, draws and losses alike:
// the sign of the exhaustive search's best margin.
TEST(MctsYardstick, SolverProvesWinsDrawsAndLosses) {
  const Rules rules = Parse("kalah");
  const State s = FromBoard(
      rules, KalahBoard({0, 0, 1, 2, 0, 3}, {0, 2, 0, 0, 0, 0}, 20, 20), 0);
  int checked = 0;
  for (const int pit : s.LegalMoves()) {
    State child = s;
    child.Apply(pit);
    if (child.is_over()) continue;
    const int margin = BestMargin(child, child.to_move(), -1000, 1000);
    const int expected = margin > 0 ? 1 : (margin < 0 ? -1 : 0);
    const cpu::MctsResult r = cpu::MctsYardstick(child, Simulations(200000, 1));
    EXPECT_TRUE(r.proven) << "pit " << pit;
    EXPECT_EQ(r.proven_result, expected) << "pit " << pit;
    ++checked;
  }
  EXPECT_GE(checked, 3);
}

TEST(MctsYardstick, ASimulationLimitMakesItReproducible) {
  const State s(Parse("kalah"), 0);
  const cpu::MctsResult a = cpu::MctsYardstick(s, Simulations(3000, 7));
  const cpu::MctsResult b = cpu::MctsYardstick(s, Simulations(3000, 7));
  EXPECT_EQ(a.move, b.move);
  EXPECT_EQ(a.simulations, 3000u);
  EXPECT_EQ(b.simulations, 3000u);
  EXPECT_FALSE(a.proven);
}

TEST(MctsYardstick, PlaysLegalMovesInEveryTwoPlayerGame) {
  for (const std::string game :
       {"kalah", "oware", "congkak", "mancala_basic"}) {
    const Rules rules = Parse(game);
    cpu::Rng rng(3);
    for (int g = 0; g < 2; ++g) {
      State s(rules, g);
      for (int ply = 0; ply < 400 && !s.is_over(); ++ply) {
        const int move =
            cpu::MctsYardstick(s, Simulations(200, rng.Next())).move;
        ASSERT_TRUE(s.IsLegal(move)) << game << " ply " << ply;
        s.Apply(move);
      }
    }
  }
}

TEST(MctsYardstick, AStopAlreadySetStillReturnsALegalMove) {
  const State s(Parse("oware"), 0);
  std::atomic<bool> stop{true};
  cpu::MctsLimits limits;
  limits.stop = &stop;
  const cpu::MctsResult r = cpu::MctsYardstick(s, limits);
  EXPECT_TRUE(s.IsLegal(r.move));
  EXPECT_EQ(r.simulations, 1u);
}

}  // namespace
}  // namespace mancala::engine
