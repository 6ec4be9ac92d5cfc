// Move appends per second through the Store interface, on SQLite and on
// PostgreSQL in one run (store_bench.cc measures SQLite's group commit alone)
// (the SQLite figure is the same-run baseline), with 1 and 8 threads, each
// appending to a match of its own: what AppendMove costs a SubmitMove on each
// backend.
//
//   eval "$(deploy/pg.sh env)"   # PostgreSQL cases need MANCALA_TEST_PG_DSN
//   build/tests/bench/backend_bench
//
// Each backend gets a fresh database (tests/support/test_database.h); both
// commit durably (SQLite WAL synchronous=FULL; PostgreSQL fsync on).

#include <benchmark/benchmark.h>

#include <memory>
#include <mutex>
#include <string>

#include "storage/open_store.h"
#include "tests/bench/bench_records.h"
#include "tests/support/test_database.h"

namespace {

using mancala::storage::MatchRecord;
using mancala::storage::MoveRow;
using mancala::storage::Store;
using mancala::testing::Backend;
using mancala::testing::TestDatabase;

// One database and store per backend for the whole run, shared by threads.
struct Shared {
  std::unique_ptr<TestDatabase> db;
  std::unique_ptr<Store> store;
  std::string error;
};

Shared& For(Backend backend) {
  static std::mutex mu;
  static Shared shared[2];
  std::lock_guard lock(mu);
  Shared& s = shared[static_cast<int>(backend)];
  if (!s.store && s.error.empty()) {
    auto db = TestDatabase::Create(backend, "backend_bench");
    if (!db.ok()) {
      s.error = std::string(db.status().message());
      return s;
    }
    s.db = *std::move(db);
    auto opened = mancala::storage::OpenStore(s.db->url());
    if (!opened.ok()) {
      s.error = std::string(opened.status().message());
      return s;
    }
    s.store = std::move(opened->store);
  }
  return s;
}

void BM_AppendMove(benchmark::State& state) {
  const Backend backend = static_cast<Backend>(state.range(0));
  Shared& shared = For(backend);
  if (!shared.store) {
    state.SkipWithError(shared.error.c_str());
    return;
  }
  static std::atomic<int> next_match{0};
  const MatchRecord m =
      mancala::bench::BenchMatch("bench" + std::to_string(next_match++));
  if (!shared.store->CreateMatch(m).ok()) {
    state.SkipWithError("create match failed");
    return;
  }
  MoveRow move = mancala::bench::BenchMove(m.id);
  int64_t ply = 0;
  for (auto _ : state) {
    move.ply = ++ply;
    move.request_id = "r" + std::to_string(ply);
    if (!shared.store->AppendMove(move, {}).ok()) {
      state.SkipWithError("append failed");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(mancala::testing::BackendName(backend));
}
BENCHMARK(BM_AppendMove)
    ->Arg(static_cast<int>(Backend::kSqlite))
    ->Arg(static_cast<int>(Backend::kPostgres))
    ->Threads(1)
    ->Threads(8)
    ->UseRealTime()
    ->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
