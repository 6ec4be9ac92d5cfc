// service_bench: the service measured from outside.
//
// Starts a real `mancalad` on a temporary database on disk, then, at each
// concurrency level, calls grpc.health.v1.Health/Check (the same-run
// baseline: a unary call that does no work) and SubmitMove with random
// legal pits in two-player casual matches of guest players; GetMatch with
// and without a bearer token; a mover's SubmitMove latency while 0, 1, 10,
// 100 and 500 spectators watch the match; memory per live match. With a
// tmpfs folder (default /dev/shm) it also runs the 8-client SubmitMove and
// Health phases on a second server whose database is fsync-free there,
// which is where CPU per call is compared. With --postgres URL the Health
// and SubmitMove phases run again with mancalad on PostgreSQL, and with
// --two-nodes once more on two mancalad nodes sharing that database, the
// calls spread over both: ratios against the one node and
// against Health at the same concurrency. Each run starts fresh servers;
// the table shows the median of --runs runs and every ratio of the issue
// against its goal. --smoke runs a few seconds (CI); no thresholds.
//
//   build/tests/bench/service_bench --mancalad build/services/mancalad

#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <thread>

#include "tests/bench/service/report.h"
#include "tests/bench/service/sessions.h"

namespace mancala::bench {
namespace {

using std::chrono::milliseconds;

struct Config {
  std::string mancalad;
  std::string db_dir;
  std::string tmpfs_dir;
  std::vector<std::string> server_args;
  // A PostgreSQL server for a second backend in the same run (the SubmitMove
  // phases again, rows named "postgres"); empty = SQLite only.
  std::string postgres_url;
  bool two_nodes = false;  // Also two nodes on postgres_url (kTwoNodesSuffix).
  std::vector<int> levels = {8, 64, 256};
  std::vector<int> watcher_levels = {0, 1, 10, 100, 500};
  int get_clients = 8;
  int watched_matches = 3;  // Whole matches per watcher level.
  int memory_matches = 1000;
  int connections = 4;
  milliseconds warmup{1000}, measure{4000};
};

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

Row ToRow(const PhaseResult& r, int concurrency) {
  Row row;
  row.concurrency = concurrency;
  row.calls = static_cast<double>(r.calls);
  row.qps = r.qps();
  row.p50_ms = r.Percentile(50);
  row.p99_ms = r.Percentile(99);
  row.cpu_us = r.cpu_us_per_call();
  row.threads = r.max_threads;
  for (auto [code, n] : r.errors) row.errors += static_cast<double>(n);
  return row;
}

std::vector<std::string> ServerArgs(const Config& cfg) {
  // Nobody is ever absent: the CPU must not start standing in for the
  // benchmark's players between phases.
  // It creates hundreds of players from one address: no creation limit.
  // Servers stop at once when a phase is over (no load balancer to drain
  // for).
  // Every watcher of the fan-out phase is let in: the server's default
  // limits per match and per connection are below the top level.
  const int watchers =
      *std::max_element(cfg.watcher_levels.begin(), cfg.watcher_levels.end());
  std::vector<std::string> args = {"--grace-seconds",
                                   "86400",
                                   "--create-burst",
                                   "0",
                                   "--drain-seconds",
                                   "0",
                                   "--max-watchers-per-match",
                                   std::to_string(std::max(watchers, 1)),
                                   "--max-streams-per-connection",
                                   "10000"};
  args.insert(args.end(), cfg.server_args.begin(), cfg.server_args.end());
  return args;
}

// Health/Check, then SubmitMove, with `n` sessions; session i calls through
// connection(i) and moves in the matches of guests 2i and 2i+1, so each
// match stays on one node. Rows named with `suffix`.
void MeasureLevel(const Config& cfg, int n,
                  const std::function<Clients::Connection&(int)>& connection,
                  const std::vector<Guest>& guests,
                  const std::vector<const ServerProcess*>& servers,
                  const std::string& suffix, RunResult* out) {
  std::vector<std::unique_ptr<Session>> sessions;
  for (int i = 0; i < n; ++i) {
    sessions.push_back(NewHealthSession(connection(i)));
  }
  out->rows[RowName("Health/Check", n, suffix)] =
      ToRow(RunClosedLoop(sessions, cfg.warmup, cfg.measure, servers), n);
  sessions.clear();
  for (int i = 0; i < n; ++i) {
    sessions.push_back(NewMoverSession(connection(i), guests[2 * i],
                                       guests[2 * i + 1], 1000 + i));
  }
  out->rows[RowName("SubmitMove", n, suffix)] =
      ToRow(RunClosedLoop(sessions, cfg.warmup, cfg.measure, servers), n);
}

// Two mancalad nodes on one PostgreSQL database, sessions alternating
// between them (session i on node i % 2). Until moves of one match through
// two nodes are coherent (the cache catch-up), a match stays on the node that
// made it, as MeasureLevel keeps it.
void TwoNodePhases(const Config& cfg, RunResult* out) {
  std::vector<std::string> args = ServerArgs(cfg);
  args.insert(args.end(), {"--storage", "postgres"});
  auto a = ServerProcess::Start(cfg.mancalad, cfg.db_dir, args);
  auto b = ServerProcess::Start(cfg.mancalad, cfg.db_dir, args);
  Clients on_a(a->address(), cfg.connections);
  Clients on_b(b->address(), cfg.connections);
  const int most = *std::max_element(cfg.levels.begin(), cfg.levels.end());
  std::vector<Guest> guests = CreateGuests(on_a, 2 * most, 16);
  auto connection = [&](int i) -> Clients::Connection& {
    return (i % 2 == 0 ? on_a : on_b).Pick(i / 2);
  };
  for (int n : cfg.levels) {
    MeasureLevel(cfg, n, connection, guests, {a.get(), b.get()},
                 kTwoNodesSuffix, out);
  }
}

// The health and SubmitMove phases at `levels`, rows named with `suffix`.
void LoadPhases(const Config& cfg, const std::vector<int>& levels,
                const std::string& suffix, RunResult* out) {
  std::vector<std::string> args = ServerArgs(cfg);
  if (suffix == "postgres") {
    // mancalad reads the URL from MANCALAD_DATABASE_URL (set in main()).
    args.insert(args.end(), {"--storage", "postgres"});
  }
  auto server = ServerProcess::Start(
      cfg.mancalad, suffix == "tmpfs" ? cfg.tmpfs_dir : cfg.db_dir, args);
  if (suffix.empty()) out->db_fs = server->db_fs();
  Clients clients(server->address(), cfg.connections);
  const int most = std::max(cfg.get_clients,
                            *std::max_element(levels.begin(), levels.end()));
  std::vector<Guest> guests = CreateGuests(clients, 2 * most, 16);
  if (suffix.empty()) {
    // Memory: resident size before and after making many matches that stay
    // live (in progress, in memory), first, on a server that has
    // served little else.
    const ProcStats before = server->Stats();
    std::atomic<int> next{0};
    std::vector<std::thread> pool;
    std::mutex mu;
    std::string error;
    for (int t = 0; t < 8; ++t) {
      pool.emplace_back([&, t] {
        try {
          for (int i = next++; i < cfg.memory_matches; i = next++) {
            const size_t a = (2 * i) % guests.size();
            CreateMatch(clients.Pick(t), guests[a], guests[a + 1]);
          }
        } catch (const std::exception& e) {
          std::lock_guard lock(mu);
          error = e.what();
        }
      });
    }
    for (std::thread& t : pool) t.join();
    if (!error.empty()) throw std::runtime_error(error);
    const ProcStats after = server->Stats();
    out->kib_per_match = static_cast<double>(after.rss_kib - before.rss_kib) /
                         cfg.memory_matches;
  }
  for (int n : levels) {
    MeasureLevel(
        cfg, n,
        [&clients](int i) -> Clients::Connection& { return clients.Pick(i); },
        guests, {server.get()}, suffix, out);
  }
  // Fan-out: one mover (sequential calls), W spectators. On the tmpfs
  // server when there is one: the fsync time of a shared disk varies more
  // than the fan-out costs, and the fan-out is what this phase measures.
  if (suffix == (cfg.tmpfs_dir.empty() ? "" : "tmpfs")) {
    for (int w : cfg.watcher_levels) {
      const ProcStats before = server->Stats();
      std::vector<double> ms = MoverLatencyWithWatchers(
          clients, guests[0], guests[1], w, cfg.watched_matches, 7 + w);
      const ProcStats after = server->Stats();
      PhaseResult r;
      r.latencies_ms = ms;
      r.calls = static_cast<int64_t>(ms.size());
      double total = 0;
      for (double x : ms) total += x;
      r.seconds = total / 1000;
      r.cpu_seconds = after.cpu_seconds - before.cpu_seconds;
      r.max_threads = after.threads;
      out->rows[WatchRowName(w)] = ToRow(r, 1);
    }
  }
  if (!suffix.empty()) return;

  // GetMatch: the same matches read anonymously and with a seat's token.
  std::vector<v1::Match> matches;
  for (int i = 0; i < cfg.get_clients; ++i) {
    matches.push_back(
        CreateMatch(clients.Pick(i), guests[2 * i], guests[2 * i + 1]));
  }
  for (bool with_token : {false, true}) {
    std::vector<std::unique_ptr<Session>> sessions;
    for (int i = 0; i < cfg.get_clients; ++i) {
      sessions.push_back(
          NewGetMatchSession(clients.Pick(i), matches[i].name(),
                             with_token ? guests[2 * i].token : std::string()));
    }
    out->rows[with_token
                  ? RowName("GetMatch, token", cfg.get_clients, "")
                  : RowName("GetMatch, anonymous", cfg.get_clients, "")] =
        ToRow(RunClosedLoop(sessions, cfg.warmup, cfg.measure, server.get()),
              cfg.get_clients);
  }
}

RunResult RunOnce(const Config& cfg) {
  RunResult run;
  LoadPhases(cfg, cfg.levels, "", &run);
  if (!cfg.tmpfs_dir.empty()) {
    LoadPhases(cfg, {cfg.levels.front()}, "tmpfs", &run);
  }
  if (!cfg.postgres_url.empty()) {
    LoadPhases(cfg, cfg.levels, "postgres", &run);
    if (cfg.two_nodes) TwoNodePhases(cfg, &run);
  }
  return run;
}

}  // namespace
}  // namespace mancala::bench

int main(int argc, char** argv) {
  using namespace mancala::bench;
  Config cfg;
  bool smoke = false;
  int runs = 3;
  cfg.db_dir = std::filesystem::temp_directory_path().string();
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec)) cfg.tmpfs_dir = "/dev/shm";
  CLI::App app{"service_bench: mancalad measured from outside"};
  app.add_option("--mancalad", cfg.mancalad, "the mancalad binary")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_flag("--smoke", smoke,
               "a few seconds: small levels, short phases, one run (CI)");
  app.add_option("--runs", runs, "runs; the table shows their medians")
      ->check(CLI::Range(1, 20))
      ->capture_default_str();
  app.add_option("--db-dir", cfg.db_dir,
                 "folder for the temporary database (on disk)")
      ->capture_default_str();
  app.add_option("--tmpfs-dir", cfg.tmpfs_dir,
                 "tmpfs folder for the fsync-free diagnostic server; empty "
                 "skips it")
      ->capture_default_str();
  app.add_option(
      "--server-arg", cfg.server_args,
      "extra mancalad argument (repeat), e.g. --server-arg=--max-threads=64");
  app.add_option("--postgres", cfg.postgres_url,
                 "postgresql:// URL: also run the Health and SubmitMove phases "
                 "with mancalad on PostgreSQL (deploy/pg.sh start)");
  app.add_flag("--two-nodes", cfg.two_nodes,
               "with --postgres: those phases once more on two mancalad "
               "nodes sharing the database, calls spread over both")
      ->needs("--postgres");
  app.add_option("--connections", cfg.connections,
                 "client connections the calls are spread over")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  int measure_ms = static_cast<int>(cfg.measure.count());
  app.add_option("--measure-ms", measure_ms, "length of each measured phase")
      ->check(CLI::Range(100, 600000))
      ->capture_default_str();
  app.add_option("--levels", cfg.levels,
                 "concurrent calls of the SubmitMove and Health phases")
      ->delimiter(',')
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  app.add_option("--watchers", cfg.watcher_levels,
                 "watch streams per match in the fan-out phases (0 first: "
                 "the baseline)")
      ->delimiter(',')
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  cfg.measure = milliseconds(measure_ms);
  if (!cfg.postgres_url.empty()) {
    setenv("MANCALAD_DATABASE_URL", cfg.postgres_url.c_str(), 1);
  }
  if (smoke) {
    cfg.levels = {4, 16};
    if (app.count("--watchers") == 0) cfg.watcher_levels = {0, 5};
    cfg.get_clients = 4;
    cfg.watched_matches = 1;
    cfg.memory_matches = 100;
    cfg.warmup = milliseconds(100);
    cfg.measure = milliseconds(400);
    if (app.count("--runs") == 0) runs = 1;
  }
  const std::string load_before = LoadAverage();
  std::vector<RunResult> results;
  try {
    for (int i = 0; i < runs; ++i) {
      results.push_back(RunOnce(cfg));
      std::fprintf(stderr, "run %d/%d done (load average %s)\n", i + 1, runs,
                   LoadAverage().c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "service_bench: %s\n", e.what());
    return 1;
  }
  Header header;
  header.runs = runs;
  header.load_before = load_before;
  header.load_after = LoadAverage();
  header.cores = static_cast<int>(std::thread::hardware_concurrency());
  header.server_args = cfg.server_args;
  header.measure_ms = static_cast<int>(cfg.measure.count());
  PrintReport(header, cfg.levels, cfg.watcher_levels, !cfg.tmpfs_dir.empty(),
              results, std::cout);
  std::cout << std::flush;
  return 0;
}
