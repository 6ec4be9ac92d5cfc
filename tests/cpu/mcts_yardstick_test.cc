// The MCTS yardstick (engine/cpu/mcts_yardstick.h): legal and reproducible
// moves within its limits, a solver whose proofs agree with an exact
// minimax of small endgames in every two-player game, and a search that
// plays far better than random.

#include "engine/cpu/mcts_yardstick.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <variant>

#include "engine/cpu/random_player.h"
#include "engine/cpu/rng.h"
#include "engine/cpu/self_play.h"
#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine::cpu {
namespace {

Rules RulesOf(const std::string& game) {
  return std::get<Rules>(ParseRules(game, {}, 2));
}

SearchLimits Nodes(std::uint64_t nodes, std::uint64_t seed = 1) {
  SearchLimits limits;
  limits.node_limit = nodes;
  limits.seed = seed;
  return limits;
}

// The game-theoretic result for player 0 (+1, 0, -1) with both sides
// playing perfectly: plain minimax over the whole tree (small endgames).
int Exact(const State& s) {
  if (s.is_over()) {
    const auto& r = s.outcome().ranks;
    return r[0] == r[1] ? 0 : r[0] < r[1] ? 1 : -1;
  }
  const bool max = s.to_move() == 0;
  int best = max ? -2 : 2;
  for (const int pit : s.LegalMoves()) {
    State next = s;
    next.Apply(pit);
    const int v = Exact(next);
    best = max ? std::max(best, v) : std::min(best, v);
    if (best == (max ? 1 : -1)) break;
  }
  return best;
}

int SeedsInPits(const State& s) {
  int seeds = 0;
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < s.rules().pits; ++i) seeds += s.pit(p, i);
  }
  return seeds;
}

// A position of a seeded random game once at most `seeds` seeds are left
// in the pits, the game still on; nullopt-like: an over state if none.
State Endgame(const Rules& rules, std::uint64_t seed, int seeds) {
  Rng rng(seed);
  State s(rules, 0);
  while (!s.is_over() && SeedsInPits(s) > seeds) {
    s.Apply(RandomPit(s.LegalMask(), rng));
  }
  return s;
}

TEST(MctsYardstickTest, LegalWithinItsNodeLimitAndReproducible) {
  for (const char* game : {"kalah", "oware", "congkak", "mancala_basic"}) {
    SCOPED_TRACE(game);
    const State start(RulesOf(game), 0);
    const YardstickResult a = MctsYardstickSearch(start, Nodes(20000, 7));
    const YardstickResult b = MctsYardstickSearch(start, Nodes(20000, 7));
    EXPECT_TRUE(start.IsLegal(a.search.move));
    EXPECT_LE(a.search.nodes, 20000u);
    EXPECT_GT(a.simulations, 50u);
    EXPECT_TRUE(a.search.cut_short);
    EXPECT_FALSE(a.proven);
    EXPECT_EQ(a.search.move, b.search.move);
    EXPECT_EQ(a.simulations, b.simulations);
    EXPECT_EQ(a.search.value, b.search.value);
    EXPECT_GE(a.search.depth, 2);
  }
}

TEST(MctsYardstickTest, AStoppedSearchStillAnswersALegalMove) {
  const State start(RulesOf("kalah"), 0);
  const std::atomic<bool> stop{true};
  SearchLimits limits;
  limits.stop = &stop;
  const YardstickResult r = MctsYardstickSearch(start, limits);
  EXPECT_TRUE(start.IsLegal(r.search.move));
  EXPECT_EQ(r.simulations, 0u);
  EXPECT_EQ(r.search.nodes, 0u);
}

// The solver's proofs are right: on endgames with few seeds left, each
// game's search proves the root, with the exact minimax result, and a
// proven win is played by a winning move.
// (Oware's endgames are left out: with few seeds its game tree runs until a
// position repeats, too deep for the plain minimax above.)
TEST(MctsYardstickTest, ProofsMatchAnExactMinimaxOfSmallEndgames) {
  for (const char* game : {"kalah", "congkak", "mancala_basic"}) {
    SCOPED_TRACE(game);
    const Rules rules = RulesOf(game);
    int proven = 0, wins = 0, losses = 0, tried = 0;
    for (std::uint64_t seed = 1; tried < 30 && seed < 1000; ++seed) {
      const State s = Endgame(rules, seed, 7);
      if (s.is_over()) continue;
      ++tried;
      SCOPED_TRACE("seed " + std::to_string(seed));
      const YardstickResult r = MctsYardstickSearch(s, Nodes(3'000'000, seed));
      ASSERT_TRUE(s.IsLegal(r.search.move));
      if (!r.proven) continue;
      ++proven;
      const int mover = s.to_move();
      const int exact = mover == 0 ? Exact(s) : -Exact(s);
      EXPECT_EQ(r.search.value, 1000 * exact);
      EXPECT_FALSE(r.search.cut_short);
      State after = s;
      after.Apply(r.search.move);
      const int got = mover == 0 ? Exact(after) : -Exact(after);
      EXPECT_EQ(got, exact) << "the move played does not keep the result";
      wins += exact == 1;
      losses += exact == -1;
    }
    EXPECT_EQ(tried, 30);
    // Seven seeds or fewer: small trees, proven well within the limit.
    EXPECT_GE(proven, 27);
    EXPECT_GT(wins, 0);
    EXPECT_GT(losses + (proven - wins - losses), 0);  // Not only wins.
  }
}

TEST(MctsYardstickTest, BeatsRandomPlayInKalahAndOware) {
  for (const char* game : {"kalah", "oware"}) {
    SCOPED_TRACE(game);
    SelfPlayConfig config;
    config.rules = RulesOf(game);
    config.level_a = 1;  // Uniformly random.
    config.b_yardstick = true;
    config.games = 10;
    config.node_limit = 20000;
    config.budget = std::chrono::hours(1);
    const SelfPlayResult r = RunSelfPlay(config);
    EXPECT_EQ(r.games, 10);
    EXPECT_LE(r.wins, 0) << "random play beat the yardstick";
    EXPECT_GT(r.b_simulations, 0u);
    EXPECT_EQ(r.aborted_games, 0);
  }
}

}  // namespace
}  // namespace mancala::engine::cpu
