// Level-4 search speed per game (Google Benchmark): positions searched per
// second ("nodes" counter, a rate) on fixed positions: the start, and the
// position after 12 plies of seeded random play (see Position). Each iteration
// is one level-4 ChooseMove cut by a node limit, so the work per iteration is
// the same on every machine. With 4 players level 4 is the Monte Carlo
// search, whose positions are mostly the moves of its simulated games.
// BM_Yardstick runs the MCTS yardstick (mcts_yardstick.h) on the same
// positions with the same node limit: "simulations" per second, and
// "nodes" (moves applied, in the tree and in rollouts) beside the others.
// Not a ctest test: run build/tests/bench/cpu_bench.

#include <benchmark/benchmark.h>

#include <string>
#include <variant>

#include "engine/cpu/cpu_player.h"
#include "engine/cpu/evaluation.h"
#include "engine/cpu/mcts_yardstick.h"
#include "engine/cpu/random_player.h"
#include "engine/cpu/rng.h"
#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine {
namespace {

constexpr std::uint64_t kNodesPerMove = 200000;

// The start (plies = 0), or a position after at least `plies` seeded
// random moves where the player to move has 3 or more moves and the result
// is still open.
State Position(const std::string& game, int players, int plies) {
  const Rules rules = std::get<Rules>(ParseRules(game, {}, players));
  for (std::uint64_t seed = 1;; ++seed) {
    State s(rules, 0);
    CpuOptions random;
    random.level = 1;
    while (!s.is_over() && s.ply() < plies) {
      random.seed = seed * 1000 + static_cast<std::uint64_t>(s.ply());
      s.Apply(ChooseMove(s, random));
    }
    if (plies == 0) return s;
    if (s.is_over() || s.LegalMoves().size() < 3) continue;
    if (players > 2 || seed > 1000) return s;  // (Ranks are not "decided".)
    const int value = cpu::Evaluate(s, s.to_move());
    if (value > -cpu::kDecidedValue && value < cpu::kDecidedValue) return s;
  }
}

void BM_Level4(benchmark::State& bench, const std::string& game, int players,
               int plies) {
  const State position = Position(game, players, plies);
  CpuOptions options;
  options.level = 4;
  options.seed = 1;
  options.node_limit = kNodesPerMove;
  options.budget = std::chrono::hours(1);
  std::uint64_t nodes = 0;
  int depth = 0;
  for (auto _ : bench) {
    const CpuReport report = AnalyzeMove(position, options);
    benchmark::DoNotOptimize(report.move);
    nodes += report.nodes;
    depth = report.depth;
  }
  bench.counters["nodes"] = benchmark::Counter(static_cast<double>(nodes),
                                               benchmark::Counter::kIsRate);
  bench.counters["depth"] = depth;
}

// The baseline for the search rates, measured in the same run: level-1
// moves (uniformly random) played from the same position to the end of the
// game, moves per second ("nodes", so the two read side by side). A search
// rate divided by this one is the share of the engine's raw move speed the
// search keeps after its own bookkeeping.
void BM_RandomPlay(benchmark::State& bench, const std::string& game,
                   int players, int plies) {
  const State position = Position(game, players, plies);
  cpu::Rng rng(1);
  std::uint64_t moves = 0;
  for (auto _ : bench) {
    State s = position;
    while (!s.is_over()) {
      s.Apply(cpu::RandomPit(s.LegalMask(), rng));
      ++moves;
    }
    benchmark::DoNotOptimize(s.outcome().winner);
  }
  bench.counters["nodes"] = benchmark::Counter(static_cast<double>(moves),
                                               benchmark::Counter::kIsRate);
}

// The MCTS yardstick (issue 31's measure of level 4) on the same positions
// and node limit as BM_Level4.
void BM_Yardstick(benchmark::State& bench, const std::string& game,
                  int plies) {
  const State position = Position(game, 2, plies);
  cpu::SearchLimits limits;
  limits.seed = 1;
  limits.node_limit = kNodesPerMove;
  std::uint64_t nodes = 0;
  std::uint64_t simulations = 0;
  for (auto _ : bench) {
    const cpu::YardstickResult r = cpu::MctsYardstickSearch(position, limits);
    benchmark::DoNotOptimize(r.search.move);
    nodes += r.search.nodes;
    simulations += r.simulations;
  }
  bench.counters["nodes"] = benchmark::Counter(static_cast<double>(nodes),
                                               benchmark::Counter::kIsRate);
  bench.counters["simulations"] = benchmark::Counter(
      static_cast<double>(simulations), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(BM_RandomPlay, kalah_mid, "kalah", 2, 12);
BENCHMARK_CAPTURE(BM_RandomPlay, oware_mid, "oware", 2, 12);
BENCHMARK_CAPTURE(BM_RandomPlay, congkak_mid, "congkak", 2, 12);
BENCHMARK_CAPTURE(BM_RandomPlay, basic2_mid, "mancala_basic", 2, 12);
BENCHMARK_CAPTURE(BM_RandomPlay, basic4_mid, "mancala_basic", 4, 12);

BENCHMARK_CAPTURE(BM_Level4, kalah_start, "kalah", 2, 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Level4, kalah_mid, "kalah", 2, 12)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Level4, oware_start, "oware", 2, 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Level4, oware_mid, "oware", 2, 12)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Level4, congkak_start, "congkak", 2, 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Level4, congkak_mid, "congkak", 2, 12)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Level4, basic2_start, "mancala_basic", 2, 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Level4, basic2_mid, "mancala_basic", 2, 12)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Level4, basic4_start, "mancala_basic", 4, 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Level4, basic4_mid, "mancala_basic", 4, 12)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(BM_Yardstick, kalah_start, "kalah", 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Yardstick, kalah_mid, "kalah", 12)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Yardstick, oware_mid, "oware", 12)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mancala::engine

BENCHMARK_MAIN();
