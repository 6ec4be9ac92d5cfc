// One player's last 20 matches (AdminService.ListMatches by player) with
// 10,000 and with 1,000,000 stored matches, in one run: with the history
// index the time per query should be of the same order at both sizes.
//
//   build/tests/bench/history_bench
//
// The databases are generated once per size under the system temp folder
// (bulk inserts straight into SQLite; building the million takes a minute).

#include <SQLiteCpp/SQLiteCpp.h>
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "storage/sqlite_store.h"

namespace {

using mancala::storage::MatchFilter;
using mancala::storage::SqliteStore;

constexpr int kPlayers = 10'000;
constexpr char kStar[] = "star";  // Seated in every 50th match.

std::string Fill(int matches) {
  const auto path =
      std::filesystem::temp_directory_path() /
      ("mancala_history_bench_" + std::to_string(matches) + ".db");
  if (std::filesystem::exists(path)) return path.string();
  {
    auto store = SqliteStore::Open(path.string());  // Creates the schema.
    if (!store.ok()) return "";
  }
  SQLite::Database db(path.string(), SQLite::OPEN_READWRITE);
  db.exec("PRAGMA synchronous = OFF");
  SQLite::Transaction tx(db);
  SQLite::Statement m(
      db,
      "INSERT INTO matches (id, game, options, first_seat, status, ply, "
      "created_by, created_at_ms, updated_at_ms, ended_at_ms, result, ranked, "
      "turn_limit_s, invite_code, rotate_first_player, rematch_of, "
      "rematch_id) VALUES (?, 'kalah', '{\"seeds\":\"4\"}', 0, 'finished', "
      "40, ?, ?, ?, ?, x'', 1, 0, NULL, 1, NULL, NULL)");
  SQLite::Statement p(
      db,
      "INSERT OR IGNORE INTO match_players (player_id, match_id, "
      "created_at_ms) VALUES (?, ?, ?)");
  SQLite::Statement s(
      db,
      "INSERT INTO seats (match_id, seat, kind, player_id, cpu_level) "
      "VALUES (?, ?, 'player', ?, 0)");
  for (int i = 0; i < matches; ++i) {
    char id[32];
    std::snprintf(id, sizeof id, "m%09d", i);
    const int64_t t = 1'700'000'000'000 + int64_t{i} * 1000;
    const std::string a =
        i % 50 == 0 ? kStar : "p" + std::to_string(i % kPlayers);
    const std::string b = "p" + std::to_string((i * 7 + 1) % kPlayers);
    m.bind(1, id);
    m.bind(2, a);
    m.bind(3, t);
    m.bind(4, t + 600'000);
    m.bind(5, t + 600'000);
    m.exec();
    m.reset();
    int seat = 0;
    for (const std::string& player : {a, b}) {
      p.bind(1, player);
      p.bind(2, id);
      p.bind(3, t);
      p.exec();
      p.reset();
      s.bind(1, id);
      s.bind(2, seat++);
      s.bind(3, player);
      s.exec();
      s.reset();
    }
  }
  tx.commit();
  return path.string();
}

void BM_LastTwentyMatchesOfOnePlayer(benchmark::State& state) {
  const int matches = static_cast<int>(state.range(0));
  const std::string path = Fill(matches);
  auto store = SqliteStore::Open(path);
  if (!store.ok()) {
    state.SkipWithError("cannot open the bench database");
    return;
  }
  MatchFilter filter;
  filter.player_id = kStar;
  for (auto _ : state) {
    auto page = (*store)->ListMatches(filter, std::nullopt, 20);
    if (!page.ok() || page->size() != 20) {
      state.SkipWithError("query failed");
      return;
    }
    benchmark::DoNotOptimize(page);
  }
  state.counters["stored_matches"] = matches;
}
BENCHMARK(BM_LastTwentyMatchesOfOnePlayer)
    ->Arg(10'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
