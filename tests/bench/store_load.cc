#include "tests/bench/store_load.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "storage/sqlite_store.h"

namespace mancala::bench {

using storage::SeatRecord;

storage::MatchRecord LoadMatch(int i) {
  storage::MatchRecord m;
  m.id = "match" + std::to_string(i);
  m.game = "kalah";
  m.options = {{"seeds", "4"}};
  m.seats = {{SeatRecord::Kind::kPlayer, "p1", 0},
             {SeatRecord::Kind::kPlayer, "p2", 0}};
  m.created_by = "p1";
  m.created_at_ms = m.updated_at_ms = 1000 + i;
  return m;
}

storage::MoveRow LoadMove(const std::string& match_id, int64_t ply) {
  storage::MoveRow r;
  r.match_id = match_id;
  r.ply = ply;
  r.seat = static_cast<int>(ply % 2);
  r.pit = static_cast<int>(ply % 6);
  r.played_at_ms = 2000 + ply;
  r.events.assign(200, 'e');  // About a real move's serialized events.
  r.request_id = "req" + std::to_string(ply);
  r.reply.assign(300, 'r');  // About a real SubmitMove reply.
  return r;
}

AppendLoad MeasureAppends(const std::filesystem::path& dir, bool group_commit,
                          int callers, double seconds, int moves_each,
                          int checkpoint_pages) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "bench.db").string();
  storage::SqliteStoreOptions options;
  options.group_commit = group_commit;
  options.wal_autocheckpoint_pages = checkpoint_pages;
  auto opened = storage::SqliteStore::Open(path, options);
  if (!opened.ok()) {
    std::fprintf(stderr, "open: %s\n", opened.status().ToString().c_str());
    std::exit(1);
  }
  auto store = *std::move(opened);
  for (int i = 0; i < callers; ++i) {
    if (!store->CreateMatch(LoadMatch(i)).ok()) std::exit(1);
  }
  const auto wal_before = std::filesystem::file_size(path + "-wal");
  const auto stats_before = store->writer_stats();
  std::atomic<int64_t> total = 0;
  std::atomic<bool> failed = false;
  std::mutex mu;
  std::vector<double> latencies_ms;
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + std::chrono::duration<double>(seconds);
  std::vector<std::thread> threads;
  for (int i = 0; i < callers; ++i) {
    threads.emplace_back([&, i] {
      const std::string id = "match" + std::to_string(i);
      std::vector<double> mine;
      for (int64_t ply = 1;; ++ply) {
        const auto t0 = std::chrono::steady_clock::now();
        if (moves_each > 0 ? ply > moves_each : t0 >= until) break;
        if (!store->AppendMove(LoadMove(id, ply), {}).ok()) failed = true;
        mine.push_back(std::chrono::duration<double, std::milli>(
                           std::chrono::steady_clock::now() - t0)
                           .count());
        ++total;
      }
      std::lock_guard lock(mu);
      latencies_ms.insert(latencies_ms.end(), mine.begin(), mine.end());
    });
  }
  for (auto& t : threads) t.join();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (failed) {
    std::fprintf(stderr, "an append failed\n");
    std::exit(1);
  }
  const auto stats = store->writer_stats();
  AppendLoad r;
  r.appends_per_s = total / elapsed;
  r.moves_per_batch =
      static_cast<double>(total) /
      std::max<int64_t>(1, stats.batches - stats_before.batches);
  r.wal_bytes_per_move =
      static_cast<double>(std::filesystem::file_size(path + "-wal") -
                          wal_before) /
      std::max<int64_t>(1, total);
  std::sort(latencies_ms.begin(), latencies_ms.end());
  if (!latencies_ms.empty()) {
    r.p50_ms = latencies_ms[latencies_ms.size() / 2];
    r.p99_ms = latencies_ms[latencies_ms.size() * 99 / 100];
  }
  store.reset();
  std::filesystem::remove_all(dir);
  return r;
}

}  // namespace mancala::bench
