// Computer players: every level returns legal moves in every game, is
// deterministic with a seed and a node limit, honours `stop` and the time
// budget, takes the obvious tactics (level 2) and finds a forced win
// (level 4).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "engine/cpu/cpu_player.h"
#include "engine/cpu/evaluation.h"
#include "engine/cpu/rng.h"
#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

struct Config {
  std::string name;
  std::string game;
  OptionMap options;
  int players = 2;
};

// Every game, player count and the options that change how play goes.
std::vector<Config> AllConfigs() {
  return {
      {"kalah", "kalah", {}, 2},
      {"kalah_any_side_6",
       "kalah",
       {{"end_rule", "any_side_empty"}, {"seeds", "6"}},
       2},
      {"oware", "oware", {}, 2},
      {"oware_illegal_slam_cap",
       "oware",
       {{"grand_slam", "illegal"}, {"cycle_rule", "move_cap:200"}},
       2},
      {"congkak", "congkak", {}, 2},
      {"congkak_options",
       "congkak",
       {{"capture_requires_lap", "on"},
        {"empty_opposite", "seed_to_store"},
        {"empty_opponent_house", "seed_to_opponent_store"}},
       2},
      {"congkak_5", "congkak", {{"houses", "5"}, {"seeds", "5"}}, 2},
      {"basic_2", "mancala_basic", {}, 2},
      {"basic_2_7pits", "mancala_basic", {{"pits", "7"}, {"stones", "3"}}, 2},
      {"basic_3", "mancala_basic", {}, 3},
      {"basic_4", "mancala_basic", {}, 4},
      {"basic_4_first_finisher",
       "mancala_basic",
       {{"determine_all_ranks", "off"}, {"pits", "4"}},
       4},
  };
}

Rules RulesOf(const Config& c) {
  auto parsed = ParseRules(c.game, c.options, c.players);
  if (const auto* error = std::get_if<RulesError>(&parsed)) {
    ADD_FAILURE() << c.name << ": " << error->message;
    return Rules{};
  }
  return std::get<Rules>(parsed);
}

// `count` positions reached by random play from the start (some near the
// end of the game), all with a player to move.
std::vector<State> RandomPositions(const Rules& rules, int count,
                                   std::uint64_t seed) {
  std::vector<State> positions;
  cpu::Rng rng(seed);
  while (static_cast<int>(positions.size()) < count) {
    State s(rules, rng.Below(rules.players));
    const int plies = rng.Below(120);
    for (int i = 0; i < plies && !s.is_over(); ++i) {
      const std::vector<int> legal = s.LegalMoves();
      s.Apply(legal[static_cast<std::size_t>(
          rng.Below(static_cast<int>(legal.size())))]);
    }
    if (!s.is_over()) positions.push_back(s);
  }
  return positions;
}

CpuOptions Options(int level, std::uint64_t seed, std::uint64_t nodes) {
  CpuOptions o;
  o.level = level;
  o.seed = seed;
  o.node_limit = nodes;
  o.budget = std::chrono::hours(1);  // The node limit decides.
  return o;
}

State FromBoard(const Rules& rules, const Board& board, int to_move) {
  auto s = State::FromBoard(rules, board, to_move);
  if (const auto* error = std::get_if<RulesError>(&s)) {
    ADD_FAILURE() << error->message;
  }
  return std::get<State>(s);
}

Board KalahBoard(std::array<int, 6> p0, std::array<int, 6> p1, int s0, int s1) {
  Board b;
  b.players = 2;
  b.pits_per_player = 6;
  for (int i = 0; i < 6; ++i) {
    b.pits[0][i] = p0[i];
    b.pits[1][i] = p1[i];
  }
  b.stores[0] = s0;
  b.stores[1] = s1;
  return b;
}

// --- Legality ------------------------------------------------------------

TEST(CpuLegality, EveryLevelPlaysLegalMovesInEveryGame) {
  for (const Config& config : AllConfigs()) {
    const Rules rules = RulesOf(config);
    const auto positions = RandomPositions(rules, 60, 17);
    for (std::size_t k = 0; k < positions.size(); ++k) {
      const State& s = positions[k];
      for (int level = kMinCpuLevel; level <= kMaxCpuLevel; ++level) {
        const CpuReport r = AnalyzeMove(s, Options(level, k, 3000));
        ASSERT_TRUE(s.IsLegal(r.move))
            << config.name << " position " << k << " level " << level
            << " chose " << r.move;
        EXPECT_EQ(ChooseMove(s, Options(level, k, 3000)), r.move);
      }
    }
  }
}

TEST(CpuLegality, WholeGamesBetweenAllLevelsEndWithLegalMoves) {
  for (const Config& config : AllConfigs()) {
    const Rules rules = RulesOf(config);
    State s(rules, 0);
    while (!s.is_over()) {
      // Seats take levels 1..4 in turn; the last seat is always level 4.
      const int level = 1 + (s.to_move() + s.ply()) % kMaxCpuLevel;
      const int pit = ChooseMove(s, Options(level, s.ply(), 2000));
      ASSERT_FALSE(s.Apply(pit).has_value()) << config.name;
    }
  }
}

TEST(CpuLegality, LevelsOutOfRangeAreClamped) {
  const State s(RulesOf(AllConfigs()[0]), 0);
  EXPECT_TRUE(s.IsLegal(ChooseMove(s, Options(0, 1, 1000))));
  EXPECT_TRUE(s.IsLegal(ChooseMove(s, Options(9, 1, 1000))));
}

// --- Determinism -----------------------------------------------------------

TEST(CpuDeterminism, SameSeedAndNodeLimitGiveTheSameMove) {
  for (const Config& config : AllConfigs()) {
    const Rules rules = RulesOf(config);
    const auto positions = RandomPositions(rules, 12, 99);
    for (std::size_t k = 0; k < positions.size(); ++k) {
      for (int level = kMinCpuLevel; level <= kMaxCpuLevel; ++level) {
        const CpuOptions o = Options(level, 1234 + k, 5000);
        const CpuReport a = AnalyzeMove(positions[k], o);
        CpuReport b;
        // Another thread, a fresh search: the same answer.
        std::thread([&] { b = AnalyzeMove(positions[k], o); }).join();
        EXPECT_EQ(a.move, b.move) << config.name << " level " << level;
        EXPECT_EQ(a.nodes, b.nodes) << config.name << " level " << level;
        EXPECT_EQ(a.value, b.value) << config.name << " level " << level;
      }
    }
  }
}

TEST(CpuDeterminism, SeededGamesReplayIdentically) {
  for (const Config& config : AllConfigs()) {
    const Rules rules = RulesOf(config);
    auto play = [&] {
      std::vector<int> moves;
      State s(rules, 0);
      while (!s.is_over()) {
        const int level = s.to_move() == 0 ? 4 : 3;
        moves.push_back(ChooseMove(s, Options(level, s.ply(), 4000)));
        s.Apply(moves.back());
      }
      return moves;
    };
    EXPECT_EQ(play(), play()) << config.name;
  }
}

TEST(CpuDeterminism, SeedsVaryTheRandomPlayer) {
  const State s(RulesOf(AllConfigs()[0]), 0);
  std::array<int, kMaxPits> counts{};
  for (std::uint64_t seed = 0; seed < 600; ++seed) {
    ++counts[static_cast<std::size_t>(ChooseMove(s, Options(1, seed, 0)))];
  }
  for (int pit = 0; pit < 6; ++pit) {
    EXPECT_GT(counts[static_cast<std::size_t>(pit)], 60) << "pit " << pit;
  }
}

// --- Limits ----------------------------------------------------------------

TEST(CpuLimits, NodeLimitIsRespected) {
  for (const Config& config : AllConfigs()) {
    const Rules rules = RulesOf(config);
    for (const State& s : RandomPositions(rules, 8, 5)) {
      for (std::uint64_t limit : {100u, 1000u, 10000u}) {
        const CpuReport r = AnalyzeMove(s, Options(4, 1, limit));
        // Depth 1 always completes: one position per legal root move.
        EXPECT_LE(r.nodes, limit + static_cast<std::uint64_t>(rules.pits))
            << config.name;
        EXPECT_TRUE(s.IsLegal(r.move));
      }
    }
  }
}

TEST(CpuLimits, StopSetBeforeTheCallReturnsALegalMoveAtOnce) {
  std::atomic<bool> stop{true};
  for (const Config& config : AllConfigs()) {
    const State s(RulesOf(config), 0);
    for (int level = kMinCpuLevel; level <= kMaxCpuLevel; ++level) {
      CpuOptions o;
      o.level = level;
      o.budget = std::chrono::seconds(60);
      o.stop = &stop;
      const auto start = Clock::now();
      const CpuReport r = AnalyzeMove(s, o);
      EXPECT_LT(Clock::now() - start, milliseconds(200)) << config.name;
      EXPECT_TRUE(s.IsLegal(r.move)) << config.name;
      if (level >= 3) {
        EXPECT_LE(r.depth, 1) << config.name;
      }
    }
  }
}

TEST(CpuLimits, StopSetDuringTheSearchEndsIt) {
  for (const Config& config : AllConfigs()) {
    const State s(RulesOf(config), 0);
    std::atomic<bool> stop{false};
    CpuOptions o;
    o.level = 4;
    o.budget = std::chrono::seconds(60);
    o.stop = &stop;
    const auto start = Clock::now();
    std::thread stopper([&] {
      std::this_thread::sleep_for(milliseconds(30));
      stop = true;
    });
    const CpuReport r = AnalyzeMove(s, o);
    stopper.join();
    EXPECT_LT(Clock::now() - start, milliseconds(1000)) << config.name;
    EXPECT_TRUE(s.IsLegal(r.move)) << config.name;
  }
}

TEST(CpuLimits, TimeBudgetIsHonoured) {
  for (const Config& config : AllConfigs()) {
    const State s(RulesOf(config), 0);
    CpuOptions o;
    o.level = 4;
    o.budget = milliseconds(50);
    const auto start = Clock::now();
    const CpuReport r = AnalyzeMove(s, o);
    EXPECT_LT(Clock::now() - start, milliseconds(500)) << config.name;
    EXPECT_TRUE(s.IsLegal(r.move)) << config.name;
    EXPECT_GT(r.nodes, 0u) << config.name;
  }
}

TEST(CpuLimits, ZeroBudgetReturnsALegalMove) {
  const State s(RulesOf(AllConfigs()[0]), 0);
  CpuOptions o;
  o.level = 4;
  o.budget = milliseconds(0);
  const CpuReport r = AnalyzeMove(s, o);
  EXPECT_TRUE(s.IsLegal(r.move));
  EXPECT_LE(r.depth, 1);
}

TEST(CpuLimits, OneLegalMoveIsPlayedWithoutSearching) {
  const Rules rules = RulesOf(AllConfigs()[0]);
  const State s = FromBoard(
      rules, KalahBoard({0, 0, 0, 3, 0, 0}, {1, 1, 1, 1, 1, 1}, 20, 19), 0);
  const CpuReport r = AnalyzeMove(s, Options(4, 1, 100000));
  EXPECT_EQ(r.move, 3);
  EXPECT_EQ(r.nodes, 0u);
}

// --- What the levels mean ---------------------------------------------------

TEST(CpuLevels, LevelThreeSearchesAFewPliesAndLevelFourDeeper) {
  for (const Config& config : AllConfigs()) {
    const Rules rules = RulesOf(config);
    const State s(rules, 0);
    const CpuReport three = AnalyzeMove(s, Options(3, 1, 0));
    const CpuReport four = AnalyzeMove(s, Options(4, 1, 200000));
    EXPECT_LE(three.depth, Level3Depth(rules.players)) << config.name;
    if (rules.players > 2) {
      // Level 4 samples whole games (monte_carlo.h): it looks at far more
      // positions, and its tree grows past the replies to its own moves.
      EXPECT_GT(four.nodes, 20 * three.nodes) << config.name;
      EXPECT_GE(four.depth, rules.players) << config.name;
    } else {
      // Even where the first turn decides the game (Congkak), level 4
      // deepens on: the margin still counts (evaluation.h).
      EXPECT_GT(four.depth, three.depth) << config.name;
    }
  }
}

// Mancala Basic, 4 players: P0 holds {0,0,0,3,1,2} and can finish first
// this turn in one way only (found by trying every order): pit 3 reaches
// the store (MB.10: play again), leaving {0,0,0,0,2,3}; pit 4 reaches it
// again, leaving {0,0,0,0,0,4}; pit 5 then empties the side, which
// finishes P0 wherever its last stone lands (MB.9). Pits 4 or 5 first pass
// the turn with stones left. Level 4's Monte Carlo search finds the order
// whatever its seed.
TEST(CpuLevels, LevelFourFinishesFirstInFourPlayerBasic) {
  const Rules rules = RulesOf(AllConfigs()[10]);
  ASSERT_EQ(rules.players, 4);
  Board b;
  b.players = 4;
  b.pits_per_player = 6;
  b.pits[0] = {0, 0, 0, 3, 1, 2};
  for (int p = 1; p < 4; ++p) b.pits[p] = {4, 4, 4, 4, 4, 4};
  b.stores = {8, 4, 3, 3};
  const State s = FromBoard(rules, b, 0);
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    const CpuReport r = AnalyzeMove(s, Options(4, seed, 50000));
    EXPECT_EQ(r.move, 3) << "seed " << seed;
    // Mean reward x 1000: first place, but for the simulations that
    // explored the wrong second move.
    EXPECT_GT(r.value, 900) << "seed " << seed;
  }
  State after = s;
  after.Apply(3);
  ASSERT_EQ(after.to_move(), 0);
  EXPECT_EQ(ChooseMove(after, Options(4, 1, 50000)), 4);
}

// Level 2 takes a capture: P0's pit 0 (1 seed) lands in empty pit 1 and
// takes P1's pit 4 (8 seeds), K.5; the other move sows 5 seeds from pit 5.
TEST(CpuLevels, LevelTwoTakesAKalahCapture) {
  const Rules rules = RulesOf(AllConfigs()[0]);
  const State s = FromBoard(
      rules, KalahBoard({1, 0, 0, 0, 0, 5}, {2, 2, 2, 2, 8, 2}, 12, 12), 0);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    EXPECT_EQ(ChooseMove(s, Options(2, seed, 0)), 0) << "seed " << seed;
  }
}

// Level 2 takes an extra turn: pit 5 (1 seed) ends in the store (K.4) and
// then pit 3 still scores; pit 3 first would pass the turn.
TEST(CpuLevels, LevelTwoTakesAKalahExtraTurn) {
  const Rules rules = RulesOf(AllConfigs()[0]);
  const State s = FromBoard(
      rules, KalahBoard({0, 0, 0, 5, 0, 1}, {3, 3, 3, 3, 3, 3}, 12, 12), 0);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    EXPECT_EQ(ChooseMove(s, Options(2, seed, 0)), 5) << "seed " << seed;
  }
}

// Oware with move_cap:2 (O.11): the game ends after P1's reply and each
// player takes their own row. From the start, P0's pit 5 sends its 4 seeds
// to P1's row (rows 20 and 28, no capture) and pit 0 keeps them at home
// (24 and 24). At ply 1 of 2 a seat's row counts half: -8 seeds x 100 / 2.
// Without a cap only the stores count (both 0).
TEST(CpuEvaluation, OwareMoveCapValuesTheSeedsAtHome) {
  const Rules capped =
      std::get<Rules>(ParseRules("oware", {{"cycle_rule", "move_cap:2"}}, 2));
  const Rules plain = std::get<Rules>(ParseRules("oware", {}, 2));
  for (const Rules& rules : {capped, plain}) {
    State away(rules, 0);
    away.Apply(5);
    State home(rules, 0);
    home.Apply(0);
    const bool cap = rules.move_cap > 0;
    EXPECT_EQ(cpu::Evaluate(away, 0), cap ? -400 : 0);
    EXPECT_EQ(cpu::Evaluate(away, 1), cap ? 400 : 0);
    EXPECT_EQ(cpu::Evaluate(home, 0), 0);
  }
  // So level 2 keeps its seeds at home when the cap is near.
  const State start(capped, 0);
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    EXPECT_LE(ChooseMove(start, Options(2, seed, 0)), 1) << "seed " << seed;
  }
}

// Level 4's Oware row terms (evaluation.h EvaluateDeep), by hand: P0's row
// 0 1 2 3 0 12 holds 18 seeds, two small houses and two empty ones,
// 180 + 120 - 120 = 180; P1's 4 4 1 0 0 5 holds 14, one small and two
// empty, 140 + 60 - 120 = 80. With stores 10 and 6: 400 + 180 - 80 = 500
// for P0, -500 for P1. Evaluate (levels 2-3) counts the stores only: 400.
TEST(CpuEvaluation, DeepOwareCountsHomeSeedsSmallAndEmptyHouses) {
  const Rules rules = std::get<Rules>(ParseRules("oware", {}, 2));
  const State s = FromBoard(
      rules, KalahBoard({0, 1, 2, 3, 0, 12}, {4, 4, 1, 0, 0, 5}, 10, 6), 0);
  EXPECT_EQ(cpu::EvaluateDeep(s, 0), 500);
  EXPECT_EQ(cpu::EvaluateDeep(s, 1), -500);
  EXPECT_EQ(cpu::Evaluate(s, 0), 400);
  // Kalah: the same as Evaluate.
  const Rules kalah = std::get<Rules>(ParseRules("kalah", {}, 2));
  const State k = FromBoard(
      kalah, KalahBoard({0, 1, 2, 3, 0, 12}, {4, 4, 1, 0, 0, 5}, 10, 6), 0);
  EXPECT_EQ(cpu::EvaluateDeep(k, 0), cpu::Evaluate(k, 0));
}

// `board` with P0 to move, after P0 plays `pit`, which must end the game.
State FinishedBy(const Rules& rules, const Board& board, int pit) {
  State s = FromBoard(rules, board, 0);
  s.Apply(pit);
  EXPECT_TRUE(s.is_over());
  return s;
}

// A known result keeps its margin (evaluation.h): kWinValue plus 100 per
// seed (or stone) of margin for a win, -kWinValue plus it for a loss.
TEST(CpuEvaluation, DecidedGamesKeepCountingTheMargin) {
  const Rules kalah = RulesOf(AllConfigs()[0]);
  // Kalah, 48 seeds, P0's store holds 30: decided, not over. Estimate: 15
  // seeds of store difference, one side seed less (a quarter seed each).
  const Board won = KalahBoard({0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 2}, 30, 15);
  const State decided = FromBoard(kalah, won, 0);
  EXPECT_EQ(cpu::Evaluate(decided, 0), cpu::kWinValue + 1500 - 25);
  EXPECT_EQ(cpu::Evaluate(decided, 1), -cpu::kWinValue - 1500 + 25);
  // P0 sows its last seed into its store (K.4) and, to move with an empty
  // side, ends the game (K.8); P1 sweeps its 2 seeds (K.9): 31 to 17.
  const State big = FinishedBy(kalah, won, 5);
  EXPECT_EQ(cpu::FinalMargin(big, 0), 14);
  EXPECT_EQ(cpu::Evaluate(big, 0), cpu::kWinValue + 1400);
  EXPECT_EQ(cpu::Evaluate(big, 1), -cpu::kWinValue - 1400);
  // The same ending from 24 to 21: 25 to 23. A win by more is worth more,
  // a loss by less is worth more, and both are known results.
  const State close = FinishedBy(
      kalah, KalahBoard({0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 2}, 24, 21), 5);
  EXPECT_EQ(cpu::FinalMargin(close, 0), 2);
  EXPECT_GT(cpu::Evaluate(big, 0), cpu::Evaluate(close, 0));
  EXPECT_GT(cpu::Evaluate(close, 1), cpu::Evaluate(big, 1));
  EXPECT_GE(cpu::Evaluate(close, 0), cpu::kDecidedValue);
  EXPECT_LE(cpu::Evaluate(close, 1), -cpu::kDecidedValue);

  // Mancala Basic, two players: P0 sows its last stone into its store and
  // finishes first (MB.9, MB.11a); P1 is left with 6 stones (MB.16).
  const State race =
      FinishedBy(RulesOf(AllConfigs()[7]),
                 KalahBoard({0, 0, 0, 0, 0, 1}, {1, 2, 0, 0, 0, 3}, 20, 21), 5);
  EXPECT_EQ(cpu::FinalMargin(race, 0), 6);
  EXPECT_EQ(cpu::Evaluate(race, 0), cpu::kWinValue + 600);
  EXPECT_EQ(cpu::Evaluate(race, 1), -cpu::kWinValue - 600);
}

// `me`'s final margin under play that maximises it for `me` and minimises
// it for the other player (exhaustive; small endgames only).
int BestMargin(const State& s, int me, int alpha, int beta) {
  if (s.is_over()) return cpu::FinalMargin(s, me);
  const bool maximizing = s.to_move() == me;
  int best = maximizing ? -1000 : 1000;
  for (int pit : s.LegalMoves()) {
    State child = s;
    child.Apply(pit);
    const int v = BestMargin(child, me, alpha, beta);
    if (maximizing) {
      best = std::max(best, v);
      alpha = std::max(alpha, v);
    } else {
      best = std::min(best, v);
      beta = std::min(beta, v);
    }
    if (alpha >= beta) break;
  }
  return best;
}

// Kalah endgames in which exactly one move wins (checked here by solving
// them: the best margin's sign is the result), which levels 2 and 3 miss
// and level 4 finds.
TEST(CpuLevels, LevelFourFindsAForcedKalahWin) {
  const Rules rules = RulesOf(AllConfigs()[0]);
  struct Case {
    Board board;
    int winning_pit;
  };
  const Case cases[] = {
      {KalahBoard({0, 0, 1, 2, 0, 3}, {0, 2, 0, 0, 0, 0}, 20, 20), 5},
      {KalahBoard({0, 0, 0, 2, 2, 3}, {0, 3, 0, 0, 0, 0}, 20, 18), 5},
  };
  for (const Case& c : cases) {
    const State s = FromBoard(rules, c.board, 0);
    int winning = 0;
    for (int pit : s.LegalMoves()) {
      State child = s;
      child.Apply(pit);
      const bool wins = BestMargin(child, 0, -1000, 1000) > 0;
      if (wins) ++winning;
      EXPECT_EQ(wins, pit == c.winning_pit) << "pit " << pit;
    }
    ASSERT_EQ(winning, 1);
    EXPECT_NE(ChooseMove(s, Options(2, 1, 0)), c.winning_pit);
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      const CpuReport r = AnalyzeMove(s, Options(4, seed, 100000));
      EXPECT_EQ(r.move, c.winning_pit) << "seed " << seed;
      EXPECT_GE(r.value, cpu::kDecidedValue);
    }
  }
}

// Kalah endgames whose result is already known (a store holds more than
// half the 48 seeds): levels 3 and 4 play the one move that wins by the
// most or loses by the least (checked here exhaustively). Level 2 and,
// before they counted margins, levels 3-4 (which stopped once the result was
// known) took a move worth 6 to 16 seeds less.
TEST(CpuLevels, LevelsThreeAndFourPlayForTheLargestMargin) {
  const Rules rules = RulesOf(AllConfigs()[0]);
  struct Case {
    Board board;
    int best_pit;
    int best_margin;
  };
  const Case cases[] = {
      {KalahBoard({0, 0, 1, 0, 4, 2}, {0, 0, 0, 0, 1, 0}, 27, 13), 2, 20},
      {KalahBoard({1, 1, 1, 1, 1, 2}, {0, 3, 0, 0, 0, 2}, 28, 8), 3, 26},
      {KalahBoard({0, 2, 2, 0, 1, 2}, {0, 1, 1, 1, 1, 1}, 9, 27), 5, -16},
      {KalahBoard({2, 2, 1, 2, 3, 0}, {0, 0, 1, 0, 0, 1}, 10, 26), 2, -6},
  };
  for (const Case& c : cases) {
    const State s = FromBoard(rules, c.board, 0);
    int worst = 1000;
    for (int pit : s.LegalMoves()) {
      State child = s;
      child.Apply(pit);
      const int margin = BestMargin(child, 0, -1000, 1000);
      worst = std::min(worst, margin);
      if (pit == c.best_pit) {
        EXPECT_EQ(margin, c.best_margin);
      } else {
        EXPECT_LT(margin, c.best_margin) << "pit " << pit;
      }
    }
    ASSERT_LE(worst, c.best_margin - 6);  // The choice matters.
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      EXPECT_EQ(ChooseMove(s, Options(3, seed, 0)), c.best_pit)
          << "level 3 seed " << seed;
      const CpuReport r = AnalyzeMove(s, Options(4, seed, 100000));
      EXPECT_EQ(r.move, c.best_pit) << "level 4 seed " << seed;
      EXPECT_GE(std::abs(r.value), cpu::kDecidedValue);
    }
  }
}

// The Congkak finding behind the strength criterion (strength_test.cc):
// under the default alternating opening (C.9) the first player chains
// extra turns (C.5) and relays (C.4) to more than half of the 98 seeds
// before the second player ever moves, and every level from 2 up finds
// such a first turn. So whoever starts wins, and what tells the levels
// apart is how much they store: levels 3 and 4 store at least as many
// seeds as level 2 in that turn. The node limit is far below the server's
// budgets: level 4 searches some 6 million positions per move in its
// 1000 ms, and level 3's 4 plies end its search after some 8000 (well
// inside its 300 ms). Measured at those budgets: level 2 stores
// 79 seeds, level 3 83, level 4 84-85 (before margins counted: 76, 57 and 57).
TEST(CpuLevels, CongkakFirstPlayerWinsDuringTheFirstTurn) {
  const Rules rules = RulesOf(AllConfigs()[4]);
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    int level_two_store = 0;
    for (int level = 2; level <= kMaxCpuLevel; ++level) {
      State s(rules, 0);
      while (!s.is_over() && s.to_move() == 0) {
        s.Apply(ChooseMove(s, Options(level, seed + s.ply(), 20000)));
      }
      EXPECT_GT(2 * s.store(0), 98) << "level " << level << " seed " << seed;
      if (level == 2) {
        level_two_store = s.store(0);
      } else {
        EXPECT_GE(s.store(0), level_two_store)
            << "level " << level << " seed " << seed;
      }
    }
  }
}

}  // namespace
}  // namespace mancala::engine
