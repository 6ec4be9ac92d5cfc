// A fixed pool of PostgreSQL connections (libpqxx) and the one place where
// libpqxx's exceptions become an absl::Status.
//
// The pool holds `size` slots. Open() connects all of them, so an unreachable
// database is reported at start-up. A connection that breaks is dropped
// together with every idle one (a server restart ends them all) and its slot
// reconnects on next use, so the pool recovers by itself once the server is
// back. Callers wait for a free slot; there is no other queue.
//
// Status mapping: unique/foreign-key violations -> ALREADY_EXISTS; a lost
// connection, refused connection or server shutdown -> UNAVAILABLE;
// serialization failure (SQLSTATE 40001) or deadlock (40P01) -> retried up to
// kMaxRetries times, then UNAVAILABLE; lock_timeout passed (55P03) ->
// UNAVAILABLE; anything else -> INTERNAL.
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_STORAGE_PG_POOL_H_
#define MANCALA_STORAGE_PG_POOL_H_

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/connection>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mancala::storage {

class PgPool {
 public:
  static constexpr int kMaxRetries = 5;
  // Runs once on every new connection (prepares its statements).
  using Setup = std::function<void(pqxx::connection&)>;

  // UNAVAILABLE if the server cannot be reached.
  static absl::StatusOr<std::unique_ptr<PgPool>> Open(const std::string& dsn,
                                                      int size, Setup setup);
  ~PgPool();

  // Runs `body` on a pooled connection; `body` opens its own transaction
  // (pqxx::work, or pqxx::nontransaction for a single statement). Retries
  // the whole body on 40001/40P01. `what` names the operation in messages.
  absl::Status Run(const char* what,
                   const std::function<absl::Status(pqxx::connection&)>& body);

  // OK if a connection answers a trivial query now (health checks).
  absl::Status Ping();

 private:
  PgPool(std::string dsn, int size, Setup setup);
  absl::StatusOr<int> Acquire();
  void Release(int slot, bool broken);
  std::unique_ptr<pqxx::connection> Connect();

  const std::string dsn_;
  const Setup setup_;
  std::mutex mu_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<pqxx::connection>> conns_;  // nullptr = closed.
  std::vector<bool> busy_;
};

// The status for a libpqxx exception; `retry` is set for 40001/40P01.
absl::Status FromPqxx(const std::exception& e, const char* what, bool* retry);
// Whether the connection that threw `e` is gone (the server went away or
// shut down, or a commit was cut off).
bool ConnectionLost(const std::exception& e);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_PG_POOL_H_
