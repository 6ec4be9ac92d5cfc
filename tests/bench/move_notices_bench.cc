// What move notices (storage/move_notices.h) cost PostgreSQL commits: move
// appends per second through PgStore with no notices (the same-run
// baseline) and with a notice published after every commit, sent in
// batches by PgMoveNotices on its own connection while a listener (as a
// second node would) receives them. 1 and 8 threads, each appending to a
// match of its own; the two modes alternate, 3 rounds of 2 s each, and the
// medians are printed with their ratio and the load average.
//
//   eval "$(deploy/pg.sh env)"   # needs MANCALA_TEST_PG_DSN
//   build/tests/bench/move_notices_bench

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "storage/pg_move_notices.h"
#include "storage/pg_store.h"
#include "tests/bench/bench_records.h"
#include "tests/support/test_database.h"

namespace {

using mancala::storage::MatchRecord;
using mancala::storage::MoveRow;
using mancala::storage::PgMoveNotices;
using mancala::storage::PgStore;
using mancala::testing::Backend;
using mancala::testing::TestDatabase;

constexpr auto kRound = std::chrono::seconds(2);
constexpr int kRounds = 3;

// Appends per second by `threads` threads for kRound, each on a new match;
// `notices` (may be null) is told every commit.
double Run(PgStore& store, PgMoveNotices* notices, int threads) {
  static std::atomic<int> next_match{0};
  std::atomic<long> appended{0};
  std::atomic<bool> failed{false};
  const auto end = std::chrono::steady_clock::now() + kRound;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      const MatchRecord m =
          mancala::bench::BenchMatch("bench" + std::to_string(next_match++));
      if (!store.CreateMatch(m).ok()) {
        failed = true;
        return;
      }
      MoveRow move = mancala::bench::BenchMove(m.id);
      while (std::chrono::steady_clock::now() < end) {
        ++move.ply;
        move.request_id = "r" + std::to_string(move.ply);
        if (!store.AppendMove(move, {}).ok()) {
          failed = true;
          return;
        }
        if (notices != nullptr) notices->Publish(m.id, move.ply);
        ++appended;
      }
    });
  }
  for (auto& w : workers) w.join();
  if (failed) return -1;
  return appended / std::chrono::duration<double>(kRound).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  auto db = TestDatabase::Create(Backend::kPostgres, "move_notices_bench");
  if (!db.ok()) {
    std::fprintf(stderr, "no PostgreSQL: %s\n",
                 std::string(db.status().message()).c_str());
    return 1;
  }
  auto store = PgStore::Open((*db)->url(), 8);
  if (!store.ok()) {
    std::fprintf(stderr, "open: %s\n",
                 std::string(store.status().message()).c_str());
    return 1;
  }
  PgMoveNotices notices((*db)->url());
  std::atomic<long> received{0};
  notices.Listen([&](const std::string&, int64_t) { ++received; }, [] {});
  for (int threads : {1, 8}) {
    std::vector<double> off, on;
    for (int round = 0; round < kRounds; ++round) {
      off.push_back(Run(**store, nullptr, threads));
      on.push_back(Run(**store, &notices, threads));
    }
    const double base = Median(off), with = Median(on);
    std::printf(
        "threads %d: appends/s without notices %.0f, with notices %.0f, "
        "ratio %.3f (medians of %d)\n",
        threads, base, with, with / base, kRounds);
  }
  notices.Stop();
  std::string load;
  std::getline(std::ifstream("/proc/loadavg"), load);
  std::printf("notices received by the listener: %ld\nload average: %s\n",
              received.load(), load.c_str());
  return 0;
}
