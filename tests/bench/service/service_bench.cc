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
// against Health at the same concurrency. With --web, a server with its
// web port (--web-listen): Health/Check and GetMatch at 8 clients through
// it and natively, a move's delivery to 500 web watchers and to 500
// native ones, and 2,000 WatchMatch streams open through it at once (the
// server's threads and memory against idle; every move must reach every
// stream). In the same run, the store alone appends the same rows with its
// group commit (store_load.h) at the lowest and highest level: rows "bare
// group commit". With --syscalls, perf stat counts the tmpfs server's
// system calls and new threads per call in its 8-client phases. Each run
// starts fresh servers;
// the table shows the median of --runs runs and every ratio of the issue
// against its goal. --smoke runs a few seconds (CI); no thresholds.
//
//   build/tests/bench/service_bench --mancalad build/services/mancalad

#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "storage/sqlite_store.h"
#include "tests/bench/service/report.h"
#include "tests/bench/service/sessions.h"
#include "tests/bench/service/web_load.h"
#include "tests/bench/store_load.h"

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
  bool syscalls = false;    // perf stat on the CPU-comparison phases.
  bool web = false;         // The web port's phases (WebPhases).
  int web_streams = 2000;   // Open at once through the web port.
  int web_watchers = 500;   // Per move in the delivery phase, each kind.
  int web_per_match = 500;  // Streams per match in the streams phase.
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
  if (r.syscalls >= 0 && r.calls > 0) {
    row.syscalls_per_call = r.syscalls / static_cast<double>(r.calls);
    row.new_threads_per_call = r.new_threads / static_cast<double>(r.calls);
  }
  for (auto [code, n] : r.errors) row.errors += static_cast<double>(n);
  return row;
}

std::vector<std::string> ServerArgs(const Config& cfg, int most_watchers = 0) {
  // Nobody is ever absent: the CPU must not start standing in for the
  // benchmark's players between phases.
  // It creates hundreds of players from one address: no creation limit.
  // Servers stop at once when a phase is over (no load balancer to drain
  // for).
  // Every watcher of the fan-out phase is let in: the server's default
  // limits per match and per connection are below the top level.
  const int watchers = std::max(
      most_watchers,
      *std::max_element(cfg.watcher_levels.begin(), cfg.watcher_levels.end()));
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
  // Counted where the report compares CPU per call: the tmpfs server (the
  // disk one without it) at the lowest level.
  const bool count = cfg.syscalls && n == cfg.levels.front() &&
                     suffix == (cfg.tmpfs_dir.empty() ? "" : "tmpfs");
  for (int i = 0; i < n; ++i) {
    sessions.push_back(NewHealthSession(connection(i)));
  }
  out->rows[RowName("Health/Check", n, suffix)] = ToRow(
      RunClosedLoop(sessions, cfg.warmup, cfg.measure, servers, count), n);
  sessions.clear();
  for (int i = 0; i < n; ++i) {
    sessions.push_back(NewMoverSession(connection(i), guests[2 * i],
                                       guests[2 * i + 1], 1000 + i));
  }
  out->rows[RowName("SubmitMove", n, suffix)] = ToRow(
      RunClosedLoop(sessions, cfg.warmup, cfg.measure, servers, count), n);
}

// The store alone, on the same disk as mancalad's database: `n` threads
// append the rows a move writes, through the same group commit
// (store_load.h), with mancalad's checkpoint setting.
void BareGroupCommit(const Config& cfg, int n, RunResult* out) {
  const std::filesystem::path dir =
      std::filesystem::path(cfg.db_dir) /
      ("mancala_bare_commit_" + std::to_string(getpid()));
  const double seconds = std::chrono::duration<double>(cfg.measure).count();
  const AppendLoad load =
      MeasureAppends(dir, true, n, seconds, 0,
                     storage::SqliteStoreOptions().wal_autocheckpoint_pages);
  Row row;
  row.concurrency = n;
  row.qps = load.appends_per_s;
  row.calls = load.appends_per_s * seconds;
  row.p50_ms = load.p50_ms;
  row.p99_ms = load.p99_ms;
  out->rows[RowName(kBareCommitRow, n, "")] = row;
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

// The web port against native gRPC on one server (--web): the unary rows
// at cfg.get_clients, then delivery to cfg.web_watchers of each kind, then
// cfg.web_streams web streams open at once over whole matches.
void WebPhases(const Config& cfg, RunResult* out) {
  std::vector<std::string> args =
      ServerArgs(cfg, std::max(cfg.web_watchers, cfg.web_per_match));
  args.insert(args.end(), {"--web-listen", "127.0.0.1:0"});
  auto server = ServerProcess::Start(cfg.mancalad, cfg.db_dir, args);
  Clients clients(server->address(), cfg.connections);
  WebClient web(server->web_port(), 2);
  const int n = cfg.get_clients;
  std::vector<Guest> guests = CreateGuests(clients, 2 * n + 2, 16);
  std::vector<v1::Match> matches;
  for (int i = 0; i < n; ++i) {
    matches.push_back(
        CreateMatch(clients.Pick(i), guests[2 * i], guests[2 * i + 1]));
  }
  using Make = std::function<std::unique_ptr<Session>(int)>;
  const std::pair<std::string, std::pair<Make, Make>> unary[] = {
      {"Health/Check",
       {[&](int i) { return NewHealthSession(clients.Pick(i)); },
        [&](int) { return NewWebHealthSession(web); }}},
      {"GetMatch",
       {[&](int i) {
          return NewGetMatchSession(clients.Pick(i), matches[i].name(), "");
        },
        [&](int i) { return NewWebGetMatchSession(web, matches[i].name()); }}},
  };
  for (const auto& [call, make] : unary) {
    for (bool through_web : {false, true}) {
      std::vector<std::unique_ptr<Session>> sessions;
      for (int i = 0; i < n; ++i) {
        sessions.push_back((through_web ? make.second : make.first)(i));
      }
      out->rows[RowName(call, n,
                        through_web ? kWebSuffix : kNativeBesideWebSuffix)] =
          ToRow(RunClosedLoop(sessions, cfg.warmup, cfg.measure, server.get()),
                n);
    }
  }
  const Guest& a = guests[2 * n];
  const Guest& b = guests[2 * n + 1];
  for (bool through_web : {false, true}) {
    const OpenFleet open = [&](const std::string& match, int w,
                               MoveArrival on_move) {
      return through_web
                 ? WebWatchers(web, match, w, std::move(on_move))
                 : NativeWatchers(clients, match, w, std::move(on_move));
    };
    PhaseResult r;
    r.latencies_ms = DeliveryLatencies(clients, a, b, cfg.web_watchers,
                                       cfg.watched_matches, 11, open);
    r.calls = static_cast<int64_t>(r.latencies_ms.size());
    out->rows[DeliveryRowName(cfg.web_watchers, through_web)] = ToRow(r, 1);
  }

  // Many streams at once: whole matches of `per` watchers each, all open
  // before the first move; each stream counts its moves.
  const int per = cfg.web_per_match;
  const int count = (cfg.web_streams + per - 1) / per;
  std::vector<v1::Match> watched;
  for (int m = 0; m < count; ++m) {
    watched.push_back(CreateMatch(clients.Pick(m), a, b));
  }
  std::mutex mu;
  std::vector<std::vector<int64_t>> moves(count);  // [match][stream]
  const ProcStats idle = server->Stats();
  std::vector<std::unique_ptr<WatchFleet>> fleets;
  int opened = 0;
  for (int m = 0; m < count; ++m) {
    const int w = std::min(per, cfg.web_streams - opened);
    opened += w;
    moves[m].assign(w, 0);
    fleets.push_back(
        WebWatchers(web, watched[m].name(), w,
                    [&mu, &moves, m](int stream, int64_t,
                                     std::chrono::steady_clock::time_point) {
                      std::lock_guard lock(mu);
                      ++moves[m][stream];
                    }));
  }
  for (auto& f : fleets) {
    if (!f->WaitSnapshots(std::chrono::seconds(60))) {
      throw std::runtime_error("web streams got no snapshot within 60 s");
    }
  }
  const ProcStats open_stats = server->Stats();
  std::mt19937 rng(5);
  int64_t missed = 0;
  for (int m = 0; m < count; ++m) {
    v1::Match match = watched[m];
    while (match.state() == v1::Match::IN_PROGRESS) {
      match = PlayRandomMove(clients.Pick(0), match, a, b, rng).match();
    }
    // Each stream must come to the match's last ply.
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      int64_t short_by = 0;
      {
        std::lock_guard lock(mu);
        for (int64_t got : moves[m]) short_by += match.ply() - got;
      }
      if (short_by == 0 || std::chrono::steady_clock::now() > deadline) {
        missed += short_by;
        break;
      }
      std::this_thread::sleep_for(milliseconds(20));
    }
  }
  fleets.clear();
  out->web.streams = opened;
  out->web.threads_idle = idle.threads;
  out->web.threads_open = open_stats.threads;
  out->web.kib_per_stream =
      static_cast<double>(open_stats.rss_kib - idle.rss_kib) / opened;
  out->web.moves_missed = static_cast<double>(missed);
}

RunResult RunOnce(const Config& cfg) {
  RunResult run;
  LoadPhases(cfg, cfg.levels, "", &run);
  for (int n : {cfg.levels.front(), cfg.levels.back()}) {
    if (!run.rows.count(RowName(kBareCommitRow, n, ""))) {
      BareGroupCommit(cfg, n, &run);
    }
  }
  if (!cfg.tmpfs_dir.empty()) {
    LoadPhases(cfg, {cfg.levels.front()}, "tmpfs", &run);
  }
  if (!cfg.postgres_url.empty()) {
    LoadPhases(cfg, cfg.levels, "postgres", &run);
    if (cfg.two_nodes) TwoNodePhases(cfg, &run);
  }
  if (cfg.web) WebPhases(cfg, &run);
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
  app.add_flag("--syscalls", cfg.syscalls,
               "count the server's system calls and new threads per call "
               "(perf stat, Debian's linux-perf) in the 8-client Health and "
               "SubmitMove phases of the tmpfs server");
  app.add_flag("--web", cfg.web,
               "also the web port's phases: unary calls and move delivery "
               "through it against native gRPC, and --web-streams streams "
               "open at once");
  app.add_option("--web-streams", cfg.web_streams,
                 "WatchMatch streams open at once through the web port")
      ->check(CLI::Range(1, 20000))
      ->capture_default_str();
  app.add_option("--web-watchers", cfg.web_watchers,
                 "watchers of each kind in the web delivery phase")
      ->check(CLI::Range(1, 5000))
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
    if (app.count("--web-streams") == 0) cfg.web_streams = 40;
    if (app.count("--web-watchers") == 0) cfg.web_watchers = 5;
    cfg.web_per_match = 20;
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
  if (cfg.web) {
    header.web_clients = cfg.get_clients;
    header.web_watchers = cfg.web_watchers;
  }
  PrintReport(header, cfg.levels, cfg.watcher_levels, !cfg.tmpfs_dir.empty(),
              results, std::cout);
  std::cout << std::flush;
  return 0;
}
