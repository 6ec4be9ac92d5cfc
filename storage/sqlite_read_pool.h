// Read-only SQLite connections, so reads never wait behind the writer's
// transaction or its fsync (WAL: readers see the last commit).
//
// A Lease checks one connection out (waiting while all are out) and runs
// the caller's statements inside one read transaction, so a call composed
// of several statements sees one consistent state; the transaction ends
// when the lease does, so no connection holds a read snapshot between
// calls (a held snapshot blocks outside writers and WAL checkpoints).
//
// Thread safety: Acquire() may be called from any thread; a Lease belongs to
// the thread that acquired it.

#ifndef MANCALA_STORAGE_SQLITE_READ_POOL_H_
#define MANCALA_STORAGE_SQLITE_READ_POOL_H_

#include <condition_variable>
#include <mutex>
#include <vector>

#include "storage/sqlite_connection.h"

namespace mancala::storage {

class SqliteReadPool {
 public:
  // `connections` must outlive the pool. A connection may be shared with
  // the writer (":memory:" has no second connection): its `mu` serializes.
  explicit SqliteReadPool(std::vector<Connection*> connections);

  class Lease {
   public:
    Lease(SqliteReadPool& pool, Connection& connection);
    ~Lease();  // Ends the read transaction and returns the connection.
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Connection& connection() { return connection_; }

   private:
    SqliteReadPool& pool_;
    Connection& connection_;
    std::unique_lock<std::mutex> lock_;
  };
  Lease Acquire();

 private:
  std::mutex mu_;
  std::condition_variable free_cv_;
  std::vector<Connection*> free_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_SQLITE_READ_POOL_H_
