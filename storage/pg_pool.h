// A fixed pool of PostgreSQL connections (libpqxx) and the one place where
// libpqxx's exceptions become an absl::Status.
//
// The pool holds `size` slots. Open() connects all of them, so an unreachable
// database is reported at start-up. A connection that breaks is dropped
// together with every idle one (a server restart ends them all) and its slot
// reconnects on next use, so the pool recovers by itself once the server is
// back. Callers wait for a free slot; there is no other queue.
//
// Deadlines. Each Run() ends by the deadline of the calling thread's call
// (call_deadline.h) or `bound` from its start, whichever is earlier: the
// wait for a free connection (a closed slot is reconnected by the pool's
// connector thread meanwhile, libpq's connect_timeout 5 s, so no caller
// waits on a connect past its deadline) and the body. A body still running
// at the deadline has its connection's socket shut down by the pool's
// watchdog thread, which ends whatever libpq waits for at once, even from a
// server that is frozen (SIGSTOP, a partition) and would never answer or
// let statement_timeout fire; the connection is then dropped. Every
// connection also runs with statement_timeout = `bound`, so the server
// gives up a statement nobody waits for any more.
//
// Status mapping: unique/foreign-key violations -> ALREADY_EXISTS; a lost
// connection, refused connection or server shutdown -> UNAVAILABLE;
// serialization failure (SQLSTATE 40001) or deadlock (40P01) -> retried up to
// kMaxRetries times, then UNAVAILABLE; lock_timeout passed (55P03) ->
// UNAVAILABLE; the disk full (53100) or out of memory (53200) ->
// RESOURCE_EXHAUSTED; the deadline passed -> DEADLINE_EXCEEDED (a write the
// body had sent may still be carried out by the server: the outcome is
// unknown); anything else -> INTERNAL.
// Every failure of the database (store_metrics.h FailureReason; not what a
// body returns itself) is also reported to the pool's StoreMetrics.
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_STORAGE_PG_POOL_H_
#define MANCALA_STORAGE_PG_POOL_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <pqxx/connection>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "storage/store_metrics.h"

namespace mancala::storage {

struct PgPoolOptions {
  // The longest a Run() may take, whatever the caller's deadline; also each
  // connection's statement_timeout. 0: no bound and no statement_timeout
  // (the migration, which may take long on a big database).
  std::chrono::milliseconds bound{10'000};
};

class PgPool {
 public:
  static constexpr int kMaxRetries = 5;
  // Runs once on every new connection (prepares its statements).
  using Setup = std::function<void(pqxx::connection&)>;

  // UNAVAILABLE if the server cannot be reached.
  static absl::StatusOr<std::unique_ptr<PgPool>> Open(
      const std::string& dsn, int size, Setup setup,
      PgPoolOptions options = {});
  ~PgPool();

  // Runs `body` on a pooled connection; `body` opens its own transaction
  // (pqxx::work, or pqxx::nontransaction for a single statement). Retries
  // the whole body on 40001/40P01 while the deadline allows. `what` names
  // the operation in messages.
  absl::Status Run(const char* what,
                   const std::function<absl::Status(pqxx::connection&)>& body);

  // OK if a connection answers a trivial query now (health checks), within
  // the caller's deadline.
  absl::Status Ping();

  // Set before the first Run().
  void set_metrics(StoreMetrics* metrics) { metrics_ = metrics; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Slot {
    std::unique_ptr<pqxx::connection> conn;  // nullptr = closed.
    int fd = -1;                             // conn's socket.
    bool busy = false;
    bool connecting = false;  // Closed; the connector opens it.
    // While a body runs: when the watchdog cuts it off, and whether it did.
    std::optional<Clock::time_point> deadline;
    bool cut = false;
  };

  PgPool(std::string dsn, int size, Setup setup, PgPoolOptions options);
  absl::StatusOr<int> Acquire(const char* what, Clock::time_point deadline);
  void Release(int slot, bool broken);
  std::unique_ptr<pqxx::connection> Connect();
  // The watchdog: shuts down the socket of each body past its deadline.
  void Watch();
  // The connector: opens the slots marked `connecting`.
  void ConnectLoop();

  const std::string dsn_;
  const Setup setup_;
  const PgPoolOptions options_;
  StoreMetrics* metrics_ = nullptr;  // Where failures go (store_metrics.h).
  std::mutex mu_;
  std::condition_variable freed_;    // A slot became free or connected.
  std::condition_variable watch_;    // A deadline was set, or closing.
  std::condition_variable connect_;  // A slot to connect, or closing.
  std::vector<Slot> slots_;          // Under mu_ (conn: by its holder).
  bool closing_ = false;             // Under mu_.
  uint64_t connect_failures_ = 0;    // Under mu_.
  absl::Status last_connect_error_;  // Under mu_.
  std::thread watchdog_, connector_;
};

// The status for a libpqxx exception; `retry` is set for 40001/40P01.
absl::Status FromPqxx(const std::exception& e, const char* what, bool* retry);
// Whether the connection that threw `e` is gone (the server went away or
// shut down, or a commit was cut off).
bool ConnectionLost(const std::exception& e);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_PG_POOL_H_
