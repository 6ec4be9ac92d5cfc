#include "storage/sqlite_read_pool.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

namespace mancala::storage {

SqliteReadPool::SqliteReadPool(std::vector<Connection*> connections)
    : free_(std::move(connections)) {}

SqliteReadPool::Lease SqliteReadPool::Acquire() {
  std::unique_lock lock(mu_);
  free_cv_.wait(lock, [this] { return !free_.empty(); });
  Connection* c = free_.back();
  free_.pop_back();
  lock.unlock();
  return Lease(*this, *c);
}

SqliteReadPool::Lease::Lease(SqliteReadPool& pool, Connection& connection)
    : pool_(pool), connection_(connection), lock_(connection.mu) {
  // Deferred: the snapshot starts at the first read and ends in ~Lease.
  sqlite3_exec(connection_.db().getHandle(), "BEGIN", nullptr, nullptr,
               nullptr);
}

SqliteReadPool::Lease::~Lease() {
  sqlite3* db = connection_.db().getHandle();
  if (!sqlite3_get_autocommit(db) &&
      sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  lock_.unlock();
  {
    std::lock_guard lock(pool_.mu_);
    pool_.free_.push_back(&connection_);
  }
  pool_.free_cv_.notify_one();
}

}  // namespace mancala::storage
