// The SQLite store alone, on disk with synchronous=FULL: AppendMove
// throughput at 1, 8 and 64 concurrent callers (each caller plays its own
// match), group commit against the one-transaction-per-move path measured
// in the same run as the baseline; and WAL bytes written per move.
//
//   build/tests/bench/store_bench [--seconds 2] [--reps 3] [--dir DIR]
//                                 [--wal-moves 1024]
//
// Also GetMatch latency alone and while 64 callers append (reads have their
// own connections and should not wait for a commit's fsync).
//
// Prints one table of medians over --reps runs (modes alternate within a
// repetition, so drift hits both) and the load average before and after.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "storage/sqlite_store.h"
#include "tests/bench/store_load.h"

namespace {

using mancala::bench::AppendLoad;
using mancala::bench::LoadMatch;
using mancala::bench::LoadMove;
using mancala::bench::MeasureAppends;
using mancala::storage::SqliteStore;

// GetMatch latency (p50, p99 in microseconds) from one reader for
// `seconds`, while `writers` callers append with group commit.
std::pair<double, double> ReadLatency(const std::filesystem::path& dir,
                                      int writers, double seconds) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto store = *SqliteStore::Open((dir / "bench.db").string());
  for (int i = 0; i < std::max(1, writers); ++i) {
    if (!store->CreateMatch(LoadMatch(i)).ok()) std::exit(1);
  }
  std::atomic<bool> running = true;
  std::vector<std::thread> threads;
  for (int i = 0; i < writers; ++i) {
    threads.emplace_back([&, i] {
      const std::string id = "match" + std::to_string(i);
      for (int64_t ply = 1; running; ++ply) {
        (void)store->AppendMove(LoadMove(id, ply), {});
      }
    });
  }
  std::vector<double> micros;
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!store->GetMatch("match0").ok()) std::exit(1);
    micros.push_back(std::chrono::duration<double, std::micro>(
                         std::chrono::steady_clock::now() - t0)
                         .count());
    // Paced like a client: a reader looping on a shared lock would starve
    // the writers and hide any wait behind them.
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  running = false;
  for (auto& t : threads) t.join();
  store.reset();
  std::filesystem::remove_all(dir);
  std::sort(micros.begin(), micros.end());
  return {micros[micros.size() / 2], micros[micros.size() * 99 / 100]};
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string LoadAverage() {
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) != 3) return "?";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.2f %.2f %.2f", load[0], load[1], load[2]);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 2;
  int reps = 3;
  int wal_moves = 1024;
  std::filesystem::path base = std::filesystem::temp_directory_path();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--seconds") seconds = std::atof(argv[i + 1]);
    if (flag == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--dir") base = argv[i + 1];
    if (flag == "--wal-moves") wal_moves = std::max(64, std::atoi(argv[i + 1]));
  }
  const auto dir = base / ("mancala_store_bench_" + std::to_string(getpid()));
  std::printf("store_bench: %g s per run, median of %d, database in %s\n",
              seconds, reps, dir.c_str());
  std::printf("load average before: %s\n\n", LoadAverage().c_str());
  std::printf("%-8s %16s %16s %8s %14s\n", "callers", "per-move tx/s",
              "group commit/s", "ratio", "moves/commit");
  for (int callers : {1, 8, 64}) {
    std::vector<double> base_rate, group_rate, batch;
    for (int rep = 0; rep < reps; ++rep) {
      base_rate.push_back(
          MeasureAppends(dir, false, callers, seconds, 0, 1000).appends_per_s);
      AppendLoad g = MeasureAppends(dir, true, callers, seconds, 0, 1000);
      group_rate.push_back(g.appends_per_s);
      batch.push_back(g.moves_per_batch);
    }
    const double b = Median(base_rate), g = Median(group_rate);
    std::printf("%-8d %16.0f %16.0f %8.2f %14.1f\n", callers, b, g, g / b,
                Median(batch));
  }
  // WAL bytes per move with checkpoints off (the WAL only grows): one caller
  // (a commit per move either way) and 64 (group commit shares pages).
  std::printf("\nWAL bytes per move (checkpoints off, %d moves):\n", wal_moves);
  for (int callers : {1, 64}) {
    std::vector<double> base_wal, group_wal;
    const int each = wal_moves / callers;
    for (int rep = 0; rep < reps; ++rep) {
      base_wal.push_back(
          MeasureAppends(dir, false, callers, 0, each, 0).wal_bytes_per_move);
      group_wal.push_back(
          MeasureAppends(dir, true, callers, 0, each, 0).wal_bytes_per_move);
    }
    std::printf("  %2d callers: per-move tx %.0f, group commit %.0f\n", callers,
                Median(base_wal), Median(group_wal));
  }
  // Reads use their own connections: they should not wait for the
  // writer's fsync.
  std::vector<double> idle50, idle99, busy50, busy99;
  for (int rep = 0; rep < reps; ++rep) {
    auto idle = ReadLatency(dir, 0, seconds);
    auto busy = ReadLatency(dir, 64, seconds);
    idle50.push_back(idle.first);
    idle99.push_back(idle.second);
    busy50.push_back(busy.first);
    busy99.push_back(busy.second);
  }
  std::printf(
      "\nGetMatch latency, alone / while 64 callers append (us): "
      "p50 %.0f / %.0f, p99 %.0f / %.0f\n",
      Median(idle50), Median(busy50), Median(idle99), Median(busy99));
  std::printf("\nload average after: %s\n", LoadAverage().c_str());
  return 0;
}
