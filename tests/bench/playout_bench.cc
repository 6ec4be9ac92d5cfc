// Random playouts per game: each benchmark iteration copies the start
// position (as a search would) and plays uniformly random legal moves to the
// end, without a MoveRecord. Reports games/s and moves/s.
//
//   build/tests/bench/playout_bench [--benchmark_filter=Kalah]

#include <benchmark/benchmark.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>

#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine {
namespace {

Rules MustParse(const std::string& game, const OptionMap& options,
                int players) {
  return std::get<Rules>(ParseRules(game, options, players));
}

void RandomPlayouts(benchmark::State& bench, const Rules& rules,
                    bool with_record) {
  const State start(rules);
  std::mt19937_64 rng(20260914);
  MoveRecord record;
  MoveRecord* rec = with_record ? &record : nullptr;
  std::int64_t games = 0;
  std::int64_t moves = 0;
  for (auto _ : bench) {
    State s = start;
    while (!s.is_over()) {
      std::uint32_t mask = s.LegalMask();
      for (int k = static_cast<int>(rng() % std::popcount(mask)); k > 0; --k) {
        mask &= mask - 1;
      }
      s.Apply(std::countr_zero(mask), rec);
      ++moves;
    }
    benchmark::DoNotOptimize(s.outcome().winner);
    ++games;
  }
  bench.counters["games/s"] = benchmark::Counter(static_cast<double>(games),
                                                 benchmark::Counter::kIsRate);
  bench.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves),
                                                 benchmark::Counter::kIsRate);
  bench.counters["moves/game"] =
      static_cast<double>(moves) / static_cast<double>(games > 0 ? games : 1);
}

void BM_Kalah(benchmark::State& bench) {
  RandomPlayouts(bench, MustParse("kalah", {}, 2), false);
}
void BM_Oware(benchmark::State& bench) {
  RandomPlayouts(bench, MustParse("oware", {}, 2), false);
}
void BM_OwareGrandSlamIllegal(benchmark::State& bench) {
  RandomPlayouts(bench, MustParse("oware", {{"grand_slam", "illegal"}}, 2),
                 false);
}
void BM_Congkak(benchmark::State& bench) {
  RandomPlayouts(bench, MustParse("congkak", {}, 2), false);
}
void BM_MancalaBasic2p(benchmark::State& bench) {
  RandomPlayouts(bench, MustParse("mancala_basic", {}, 2), false);
}
void BM_MancalaBasic4p(benchmark::State& bench) {
  RandomPlayouts(bench, MustParse("mancala_basic", {}, 4), false);
}
// The cost of asking for events (what a live match does for every move).
void BM_KalahWithRecord(benchmark::State& bench) {
  RandomPlayouts(bench, MustParse("kalah", {}, 2), true);
}

BENCHMARK(BM_Kalah);
BENCHMARK(BM_Oware);
BENCHMARK(BM_OwareGrandSlamIllegal);
BENCHMARK(BM_Congkak);
BENCHMARK(BM_MancalaBasic2p);
BENCHMARK(BM_MancalaBasic4p);
BENCHMARK(BM_KalahWithRecord);

}  // namespace
}  // namespace mancala::engine

BENCHMARK_MAIN();
