// Opens the store mancalad was started with: PostgreSQL for a
// postgres:// or postgresql:// URL, otherwise a SQLite file (or ":memory:").

#ifndef MANCALA_STORAGE_OPEN_STORE_H_
#define MANCALA_STORAGE_OPEN_STORE_H_

#include <functional>
#include <memory>
#include <string>

#include "storage/move_notices.h"
#include "storage/sqlite_store.h"
#include "storage/store.h"

namespace mancala::storage {

struct OpenedStore {
  std::unique_ptr<Store> store;
  // Answers whether the database is reachable now (health checks); empty for
  // an embedded database, which always is.
  std::function<absl::Status()> ping;
  // Move notices between the nodes sharing the database (move_notices.h);
  // null for SQLite, which one process owns.
  std::unique_ptr<MoveNotices> notices;
};

struct StoreOptions {
  int pool_size = 8;  // PostgreSQL: connections in the fixed pool.
  // SQLite only. Its busy_timeout_ms is PostgreSQL's lock_timeout too: how
  // long a write waits for a lock another session holds before UNAVAILABLE.
  SqliteStoreOptions sqlite;
  // PostgreSQL: the longest a store call may take, whatever its deadline
  // (call_deadline.h); each connection's statement_timeout too.
  int call_bound_ms = 10'000;
};

// True for a postgres:// or postgresql:// URL.
bool IsPostgresUrl(const std::string& db);

// UNAVAILABLE if the database cannot be reached or opened;
// FAILED_PRECONDITION for a foreign or newer schema, or a PostgreSQL URL in a
// build without libpqxx.
absl::StatusOr<OpenedStore> OpenStore(const std::string& db,
                                      const StoreOptions& options = {});

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_OPEN_STORE_H_
