// mancalad: the mancala match server. Flags only; wiring is in server.cc.

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "services/admin_token.h"
#include "services/api/protobuf_log.h"
#include "services/base/build_info.h"
#include "services/base/logging.h"
#include "services/base/mutex.h"
#include "services/server.h"
#include "storage/open_store.h"

namespace {

// postgresql://user:secret@host/db -> postgresql://user:***@host/db, for logs.
std::string RedactPassword(std::string url) {
  const size_t scheme = url.find("://");
  const size_t at = url.find('@', scheme == std::string::npos ? 0 : scheme);
  if (scheme == std::string::npos || at == std::string::npos) return url;
  const size_t colon = url.find(':', scheme + 3);
  if (colon != std::string::npos && colon < at) {
    url.replace(colon + 1, at - colon - 1, "***");
  }
  return url;
}

}  // namespace

int main(int argc, char** argv) {
  // gRPC's locks without abseil's debug-build lock graph (mutex.h).
  mancala::services::SkipAbseilDeadlockDetection();
  mancala::services::ServerOptions options;
  std::vector<int> budgets(options.cpu_budget_ms.begin(),
                           options.cpu_budget_ms.end());
  double grace_seconds = options.grace.count() / 1000.0;
  int64_t tick_ms = options.tick.count();
  CLI::App app{"mancalad: mancala match and rating server (gRPC)"};
  app.add_option("--listen", options.address,
                 "host:port to serve on; port 0 picks a free port")
      ->capture_default_str();
  CLI::Option* tls_cert =
      app.add_option("--tls-cert-file", options.tls.cert,
                     "serve the gRPC port over TLS with this certificate "
                     "chain (PEM, the server's certificate first); re-read "
                     "every second while serving, so a renewed certificate "
                     "needs no restart; plaintext when not given");
  CLI::Option* tls_key =
      app.add_option("--tls-key-file", options.tls.key,
                     "the certificate's private key (PEM, no passphrase)");
  tls_cert->needs(tls_key);
  tls_key->needs(tls_cert);
  app.add_option("--tls-client-ca-file", options.tls.client_ca,
                 "require clients to present a certificate signed by one "
                 "of these CAs (PEM; mutual TLS)")
      ->needs(tls_cert);
  std::string storage = "sqlite";
  app.add_option("--db", options.db_path,
                 "SQLite database file (created if missing), or a "
                 "postgresql:// URL")
      ->capture_default_str();
  app.add_option("--storage", storage,
                 "sqlite (the --db file), or postgres: the URL is read from "
                 "MANCALAD_DATABASE_URL, out of process listings")
      ->check(CLI::IsMember({"sqlite", "postgres"}))
      ->capture_default_str();
  app.add_option("--db-pool", options.db_pool_size,
                 "PostgreSQL: connections in the fixed pool")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  app.add_option("--db-busy-timeout-ms", options.db_busy_timeout_ms,
                 "how long a write waits while another process locks the "
                 "database before the call answers UNAVAILABLE (ms; "
                 "PostgreSQL: the sessions' lock_timeout)")
      ->check(CLI::Range(0, 600000))
      ->capture_default_str();
  app.add_option("--db-call-timeout-ms", options.db_call_timeout_ms,
                 "the longest a request's database work may take when its "
                 "deadline is later or unset (ms; PostgreSQL: also every "
                 "pooled call and the sessions' statement_timeout); an "
                 "earlier deadline ends it sooner")
      ->check(CLI::Range(100, 600000))
      ->capture_default_str();
  app.add_option("--db-max-size-mb", options.db_max_size_mb,
                 "SQLite: the most the database may grow to (MiB; 0 = no "
                 "cap); writes past it answer RESOURCE_EXHAUSTED "
                 "(STORAGE_FULL), as on a full disk, while reads go on")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 30))
      ->capture_default_str();
  app.add_option("--db-readers", options.db_read_connections,
                 "SQLite: read-only database connections serving reads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--cpu-threads", options.cpu_threads,
                 "threads that play the computer's moves")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--cpu-budgets-ms", budgets,
                 "thinking time per computer move for levels 1,2,3,4 (ms)")
      ->delimiter(',')
      ->expected(4)
      ->check(CLI::Range(1, 60000))
      ->capture_default_str();
  app.add_option("--grace-seconds", grace_seconds,
                 "a player who neither watches nor calls for this long is "
                 "absent; the CPU plays their turns until they return")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  app.add_option("--standin-level", options.standin_level,
                 "CPU level that plays for absent or timed-out players")
      ->check(CLI::Range(1, 4))
      ->capture_default_str();
  app.add_option("--tick-ms", tick_ms,
                 "how often turn deadlines and presence are checked (ms)")
      ->check(CLI::Range(10, 10000))
      ->capture_default_str();
  double fallback_seconds = options.cpu_fallback.count() / 1000.0;
  app.add_option("--rating-window", options.rating_window,
                 "matchmaking: rating difference accepted at first (points)")
      ->check(CLI::Range(0.0, 5000.0))
      ->capture_default_str();
  app.add_option("--rating-window-growth", options.rating_window_growth,
                 "matchmaking: window growth per second waited (points)")
      ->check(CLI::Range(0.0, 5000.0))
      ->capture_default_str();
  app.add_option("--cpu-fallback-seconds", fallback_seconds,
                 "casual matchmaking: offer a CPU opponent after this wait "
                 "(0 = never)")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  double queue_update_seconds = options.queue_update.count() / 1000.0;
  app.add_option("--queue-update-seconds", queue_update_seconds,
                 "matchmaking: longest time between two queue updates to a "
                 "searcher (they also come when the number searching "
                 "changes)")
      ->check(CLI::Range(0.25, 3600.0))
      ->capture_default_str();
  int64_t heartbeat_ms = options.heartbeat.count();
  int64_t sweep_ms = options.sweep.count();
  app.add_option("--node-id", options.node_id,
                 "PostgreSQL: this node's name among the nodes sharing the "
                 "database (default: hostname-pid-random hex)");
  app.add_option("--heartbeat-ms", heartbeat_ms,
                 "PostgreSQL: how often this node tells the others it is "
                 "alive; a node silent for the grace period is dead (ms)")
      ->check(CLI::Range(10, 60000))
      ->capture_default_str();
  app.add_option("--sweep-ms", sweep_ms,
                 "PostgreSQL: how often this node looks for due turns "
                 "(CPU seats, deadlines, absent players) that no live node "
                 "has claimed (ms)")
      ->check(CLI::Range(10, 60000))
      ->capture_default_str();
  std::string admin_token_flag, admin_token_file;
  app.add_option("--admin-token-file", admin_token_file,
                 "file whose first line is the token that opens AdminService "
                 "(keep it mode 0600); or set MANCALAD_ADMIN_TOKEN; without "
                 "either the admin API is off");
  app.add_option("--admin-token", admin_token_flag,
                 "deprecated: the token shows in the process list; use "
                 "--admin-token-file or MANCALAD_ADMIN_TOKEN");
  int keepalive_s = static_cast<int>(options.keepalive.count() / 1000);
  app.add_option("--max-message-bytes", options.max_message_bytes,
                 "largest request accepted (bytes)")
      ->check(CLI::Range(1024, 16 << 20))
      ->capture_default_str();
  app.add_option("--max-streams-per-connection",
                 options.max_streams_per_connection,
                 "concurrent calls per client connection (more wait)")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--keepalive-seconds", keepalive_s,
                 "ping idle connections this often; one that does not "
                 "answer within --keepalive-timeout-seconds is dropped with "
                 "its streams")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  int keepalive_timeout_s =
      static_cast<int>(options.keepalive_timeout.count() / 1000);
  app.add_option("--keepalive-timeout-seconds", keepalive_timeout_s,
                 "how long a pinged connection may take to answer")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  app.add_option("--max-watchers-per-match", options.max_watchers_per_match,
                 "watch streams per match (more: RESOURCE_EXHAUSTED)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--max-queued-events", options.max_queued_events,
                 "events a watch stream may fall behind before it is dropped "
                 "(RESOURCE_EXHAUSTED; the client resumes from its ply)")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  app.add_option("--max-waiting-matches-per-player",
                 options.max_waiting_matches_per_player,
                 "matches with open seats one player may have waiting "
                 "(more: RESOURCE_EXHAUSTED; 0 = no limit)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  int64_t waiting_ttl_s = options.waiting_match_ttl.count();
  app.add_option("--waiting-match-ttl-seconds", waiting_ttl_s,
                 "a match still waiting for players this long after its "
                 "creation is cancelled (0 = never)")
      ->check(CLI::Range(int64_t{0}, int64_t{365} * 86400))
      ->capture_default_str();
  app.add_option("--create-burst", options.create_burst,
                 "players and matches one client address may create at once "
                 "(0 = no limit)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  app.add_option("--create-per-minute", options.create_per_minute,
                 "how fast that allowance refills, per minute")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  app.add_option("--metrics-listen", options.metrics_address,
                 "host:port serving Prometheus metrics at /metrics (port 0 "
                 "picks a free port); off when not given");
  app.add_option("--health-listen", options.health_address,
                 "host:port of a plaintext port serving only gRPC health "
                 "(liveness, readiness), for probes that cannot do TLS "
                 "(port 0 picks a free port); off when not given");
  app.add_flag("--metrics-plaintext", options.metrics_plaintext,
              "serve /metrics without TLS even when --tls-cert-file is "
              "given (the metrics port otherwise uses the same files, and "
              "requires a client certificate with --tls-client-ca-file)");
  CLI::Option* web_listen =
      app.add_option("--web-listen", options.web_address,
                     "host:port serving browsers: the Connect protocol and "
                     "gRPC-Web for every RPC (port 0 picks a free port); off "
                     "when not given; over TLS with --tls-cert-file's files "
                     "(no client certificates asked)");
  app.add_option("--web-allowed-origins", options.web_allowed_origins,
                 "origins (scheme://host[:port], exact) whose pages may call "
                 "the web port cross-origin; none by default")
      ->delimiter(',');
  app.add_option("--web-root", options.web_root,
                 "folder whose files the web port serves to GET and HEAD "
                 "(a page, read at start; needs --web-listen); none by "
                 "default")
      ->needs(web_listen);
  std::string log_format = "text";
  std::string log_level = "info";
  app.add_option("--log-format", log_format,
                 "text, or json (one object per line, for log shippers)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_option("--log-level", log_level,
                 "trace, debug, info (one line per RPC), warn, error, "
                 "critical or off")
      ->capture_default_str();
  app.set_version_flag("--version",
                       std::string("mancalad ") +
                           mancala::services::kMancalaVersion + " (revision " +
                           mancala::services::kMancalaRevision + ")");
  app.add_option("--max-threads", options.max_threads,
                 "most threads serving the matchmaking and admin unary "
                 "calls at once; a call beyond them is answered "
                 "RESOURCE_EXHAUSTED (retry) instead of growing the server "
                 "(the play path takes no thread per call)")
      ->check(CLI::Range(2, 100000))
      ->capture_default_str();
  // Default by backend: behind a load balancer (several nodes on one
  // PostgreSQL database) others take over; a SQLite server has no peer.
  double drain_seconds = -1;
  app.add_option("--drain-seconds", drain_seconds,
                 "on SIGTERM: report readiness NOT_SERVING and keep serving "
                 "this long so load balancers move away, then end streams "
                 "and stop (default 5 on PostgreSQL, 0 on SQLite)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--fanout-threads", options.fanout_threads,
                 "threads that copy match events to watch streams")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (absl::Status s =
          mancala::services::ConfigureLogging(log_format, log_level);
      !s.ok()) {
    std::cerr << s.message() << "\n";
    return 2;
  }
  options.keepalive = std::chrono::seconds(keepalive_s);
  options.keepalive_timeout = std::chrono::seconds(keepalive_timeout_s);
  options.waiting_match_ttl = std::chrono::seconds(waiting_ttl_s);
  auto token = mancala::services::AdminToken(
      admin_token_file, std::getenv("MANCALAD_ADMIN_TOKEN"), admin_token_flag);
  if (!token.ok()) {
    spdlog::error("cannot start: {}", std::string(token.status().message()));
    return 1;
  }
  options.admin_token = *token;
  mancala::services::LimitProtobufLog();  // Bad requests cannot flood it.
  if (storage == "postgres") {
    const char* url = std::getenv("MANCALAD_DATABASE_URL");
    if (url == nullptr || *url == '\0') {
      spdlog::error(
          "--storage postgres needs MANCALAD_DATABASE_URL "
          "(postgresql://user@host:port/dbname)");
      return 2;
    }
    options.db_path = url;
  }
  for (int i = 0; i < 4; ++i) options.cpu_budget_ms[i] = budgets[i];
  options.grace =
      std::chrono::milliseconds(static_cast<int64_t>(grace_seconds * 1000));
  options.heartbeat = std::chrono::milliseconds(heartbeat_ms);
  options.sweep = std::chrono::milliseconds(sweep_ms);
  options.tick = std::chrono::milliseconds(tick_ms);
  options.cpu_fallback =
      std::chrono::milliseconds(static_cast<int64_t>(fallback_seconds * 1000));
  options.queue_update = std::chrono::milliseconds(
      static_cast<int64_t>(queue_update_seconds * 1000));
  if (drain_seconds < 0) {
    drain_seconds = mancala::storage::IsPostgresUrl(options.db_path) ? 5 : 0;
  }
  options.drain =
      std::chrono::milliseconds(static_cast<int64_t>(drain_seconds * 1000));

  // Block the stop signals in every thread; one thread waits for them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto server = mancala::services::Server::Start(options);
  if (!server.ok()) {
    spdlog::error("cannot start: {}", server.status().ToString());
    return 1;
  }
  // The line scripts and tests wait for; keep its shape.
  spdlog::info("mancalad listening on port {} (database {})", (*server)->port(),
               mancala::storage::IsPostgresUrl(options.db_path)
                   ? RedactPassword(options.db_path)
                   : options.db_path);
  if ((*server)->web_port() != 0) {
    spdlog::info("web port on port {} (Connect, gRPC-Web)",
                 (*server)->web_port());
  }
  if ((*server)->health_port() != 0) {
    spdlog::info("health port on port {} (plaintext, grpc.health.v1 only)",
                 (*server)->health_port());
  }
  if ((*server)->metrics_port() != 0) {
    // Also read by scripts and tests: keep its shape.
    spdlog::info("metrics on port {} (/metrics)", (*server)->metrics_port());
  }
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    spdlog::info("signal {}: shutting down", sig);
    (*server)->Shutdown();
  });
  (*server)->Wait();  // Returns once Shutdown() has finished.
  waiter.join();
  spdlog::info("mancalad stopped cleanly");
  return 0;
}
