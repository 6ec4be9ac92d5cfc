// The mancalad server: storage, live matches, CPU worker and the gRPC
// services, wired together (route_guide style: main() only parses flags).
//
// Start() opens the database (SQLite file, or PostgreSQL for a
// postgresql:// URL: storage/open_store.h), restores the matches in progress,
// binds the address (port 0 picks a free port; port() tells which) and serves
// mancala.v1.PlayerService, MatchService, MatchmakingService, RatingService
// and AdminService,
// grpc.health.v1.Health and server reflection. Every RPC passes one
// interceptor that counts, times and logs it (rpc_log.h).
// On PostgreSQL, a database that goes away makes RPCs that need it fail with
// UNAVAILABLE and the readiness health names report NOT_SERVING until it
// answers again; no restart is needed. Health names: docs/api.md "Health".

#ifndef MANCALA_SERVICES_SERVER_H_
#define MANCALA_SERVICES_SERVER_H_

#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/base/clock.h"
#include "services/tls/tls_files.h"

namespace mancala::services {

// grpc.health.v1 service names (docs/api.md "Health"). Readiness: SERVING
// while the node takes calls, NOT_SERVING while its database does not
// answer and from the first moment of Shutdown(); "" (the whole server) says
// the same. Liveness: SERVING while the process serves gRPC at all, whatever
// the database does, so a restart is never ordered for a database outage.
inline constexpr char kReadinessHealthName[] = "readiness";
inline constexpr char kLivenessHealthName[] = "liveness";

struct ServerOptions {
  std::string address = "127.0.0.1:50051";  // host:port; port 0 = any.
  // TLS on the gRPC port (services/tls/tls_reloader.h): certificate chain
  // and key files (PEM), re-read every `tls_reload` while serving; empty =
  // plaintext. With `tls.client_ca`, clients must present a certificate
  // that CA signed. A bad file at Start() is INVALID_ARGUMENT or NOT_FOUND.
  tls::TlsPaths tls;
  std::chrono::milliseconds tls_reload{1'000};
  // SQLite file (":memory:" for tests) or a postgresql:// URL.
  std::string db_path = "var/mancala.db";
  // SQLite: how long a write waits for a lock another process holds on the
  // database before the RPC answers UNAVAILABLE (ms); read-only database
  // connections serving reads (storage/sqlite_store.h).
  int db_busy_timeout_ms = 5000;
  int db_read_connections = 4;
  int db_pool_size = 8;  // PostgreSQL connections (fixed pool).
  // The longest a call's store work may take, whatever its deadline
  // (services/api/rpc_guard.h ClientDeadline; on PostgreSQL also every
  // pool call and statement_timeout, storage/pg_pool.h).
  int db_call_timeout_ms = 10'000;
  // SQLite: the most the database file may grow to, MiB (0 = no cap).
  int64_t db_max_size_mb = 0;
  // How often the health service re-checks that PostgreSQL answers (real
  // time): NOT_SERVING while it does not.
  std::chrono::milliseconds health_probe{500};
  // Shutdown() first reports readiness NOT_SERVING and goes on answering
  // for this long, so load balancers move new calls elsewhere, before it
  // stops taking calls (docs/design.md "Shutdown"). 0 = stop at once.
  std::chrono::milliseconds drain{0};
  // Threads that play the computer's moves, round robin over clients
  // (services/match/cpu_worker.h); 0 leaves CPU turns pending (tests of turn
  // order only).
  int cpu_threads = 2;
  // Thinking time per move for CPU levels 1-4, milliseconds.
  std::array<int, 4> cpu_budget_ms = {50, 100, 300, 1000};
  // Presence grace period: a seat whose player neither watches nor called
  // for this long is played by the CPU when its turn comes.
  std::chrono::milliseconds grace{20'000};
  int standin_level = 2;  // CPU level playing for absent players.
  // How often deadlines and presence are checked (real time); 0 = never by
  // itself (tests call Tick()).
  std::chrono::milliseconds tick{200};
  const Clock* clock = nullptr;  // nullptr = system clock.
  // Opens AdminService; empty disables it.
  std::string admin_token;
  // Matchmaking: rating window and its growth, CPU fallback wait.
  double rating_window = 100;        // Rating points.
  double rating_window_growth = 10;  // Rating points per second waited.
  std::chrono::milliseconds cpu_fallback{60'000};  // 0 = off.
  // host:port serving Prometheus metrics at /metrics (port 0 = any);
  // empty = no metrics endpoint (metrics.h lists the metrics).
  std::string metrics_address;
  // With `tls`: serve /metrics in plaintext all the same (a scraper on a
  // private network that cannot do TLS).
  bool metrics_plaintext = false;
  // host:port (port 0 = any) of a plaintext gRPC port serving only
  // grpc.health.v1.Health, with the main port's statuses (liveness,
  // readiness, ""): for probes that cannot do TLS, such as Kubernetes'
  // gRPC probes. Empty = none. It stops after the main port.
  std::string health_address;
  // host:port of the port for browsers (Connect and gRPC-Web,
  // services/web/web_port.h; port 0 = any); empty = none. Cross-origin
  // calls only from these exact origins.
  std::string web_address;
  std::vector<std::string> web_allowed_origins;
  // A folder whose files the web port serves to GET and HEAD (the board
  // page; services/web/web_root.h); empty = none.
  std::string web_root;
  // Most threads gRPC may run synchronous unary calls on
  // (grpc::ResourceQuota): the matchmaking and admin services'. A call that
  // finds them all busy is answered RESOURCE_EXHAUSTED at once (the client
  // may retry) rather than given a new thread. The play path (the player,
  // match and rating services) and the streams run on gRPC's callback API
  // with no thread per call and are not counted; nor are the server's own
  // few fixed threads (ticker, CPU players, watch fan-out, store writer).
  int max_threads = 128;
  int fanout_threads = 2;  // Threads that feed watch streams.
  // Longest time between two queue updates to a searcher.
  std::chrono::milliseconds queue_update{5'000};
  // Several nodes on one PostgreSQL database (services/cluster/cluster_node.h);
  // not used with SQLite. The node's id (empty: DefaultNodeId(); its heartbeat,
  // claims and matchmaking searches are tied to it), how often it
  // writes its heartbeat, and how often it sweeps the store for due turns
  // nobody alive has claimed.
  std::string node_id;
  std::chrono::milliseconds heartbeat{1000};
  std::chrono::milliseconds sweep{250};

  // Limits against hostile or broken clients (README "Limits").
  // Largest request accepted, bytes (RESOURCE_EXHAUSTED beyond).
  int max_message_bytes = 64 * 1024;
  // Concurrent calls (streams included) per client connection; more wait.
  int max_streams_per_connection = 100;
  // Idle connections (with or without calls) are pinged this often; a peer
  // that does not answer within keepalive_timeout is dropped with its
  // streams.
  std::chrono::milliseconds keepalive{60'000};
  std::chrono::milliseconds keepalive_timeout{20'000};
  // Watch streams per match; more answer RESOURCE_EXHAUSTED.
  int max_watchers_per_match = 64;
  // Live events a WatchMatch stream may have queued (the reader fell that
  // far behind) before it is dropped with RESOURCE_EXHAUSTED; the client
  // watches again from its ply (services/api/event_stream.h).
  int max_queued_events = 10'000;
  // WAITING matches (OPEN seats) one player may have created at once;
  // CreateMatch beyond it is RESOURCE_EXHAUSTED (TOO_MANY_WAITING_MATCHES).
  // 0 = no limit.
  int max_waiting_matches_per_player = 10;
  // A WAITING match nobody fills is CANCELLED (cancel_reason EXPIRED) this
  // long after its creation, also across restarts; 0 = never.
  std::chrono::seconds waiting_match_ttl{3600};
  // Players and matches created per client address: a bucket of `burst`
  // refilled at `per_minute` (services/api/peer_limiter.h); burst 0 = no limit.
  int create_burst = 30;
  double create_per_minute = 30;
};

class Server {
 public:
  // UNAVAILABLE if the database cannot be opened or an address bound;
  // INVALID_ARGUMENT for a malformed metrics address;
  // FAILED_PRECONDITION for a database of a newer schema or one another
  // server holds (the message names the lock file and its pid).
  static absl::StatusOr<std::unique_ptr<Server>> Start(
      const ServerOptions& options);
  ~Server();  // Shuts down if still serving.

  int port() const;
  // Port of the metrics endpoint; 0 without one.
  int metrics_port() const;
  // The web port's, 0 without one.
  int web_port() const;
  // The plaintext health port's (ServerOptions::health_address), 0 without.
  int health_port() const;
  // Blocks until Shutdown(), called from another thread, has finished.
  void Wait();
  // Stops in the order of docs/design.md "Shutdown": reports readiness
  // NOT_SERVING and goes on serving for ServerOptions::drain, then ends
  // watch and matchmaking streams (UNAVAILABLE, reason SHUTTING_DOWN), stops
  // accepting calls and answers those in flight (cancelled after 10 s),
  // stops the ticker and the CPU worker, closes the store. Returns when
  // done; later calls (and calls from other threads meanwhile) return at
  // once.
  void Shutdown();

  // For tests.
  // Checks deadlines and presence now (the ticker does this every
  // ServerOptions::tick), after a test moved a ManualClock. Does nothing
  // once Shutdown() has begun.
  void Tick();
  // Open watch streams of "matches/{id}" `match`, as the server counts them
  // (a stream the client closed counts until the server has seen it end);
  // 0 once Shutdown() has begun: for tests that wait for that.
  int WatcherCount(const std::string& match);

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_SERVER_H_
