#include "storage/sqlite_connection.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

namespace mancala::storage {

ScopedStatement::~ScopedStatement() {
  // tryReset: reset() would rethrow the error of a failed step, which the
  // caller has already been given. Clearing bindings cannot fail in
  // SQLite; the catch only keeps the destructor from throwing.
  statement_.tryReset();
  try {
    statement_.clearBindings();
  } catch (const SQLite::Exception&) {
  }
}

Connection::Connection(std::unique_ptr<SQLite::Database> db)
    : db_(std::move(db)) {}

Connection::~Connection() { cache_.clear(); }

ScopedStatement Connection::Prepare(const std::string& sql) {
  auto& slot = cache_[sql];
  if (!slot) slot = std::make_unique<SQLite::Statement>(*db_, sql.c_str());
  return ScopedStatement(*slot);
}

absl::Status FromException(const SQLite::Exception& e, const char* what) {
  switch (e.getErrorCode() & 0xff) {
    case SQLITE_CONSTRAINT:
      return absl::AlreadyExistsError(std::string(what) + ": " + e.what());
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return absl::UnavailableError(
          std::string(what) +
          ": the database is locked by another connection past the busy "
          "timeout (" +
          e.what() + "); retry");
    case SQLITE_FULL:
    case SQLITE_NOMEM:
      // Retrying soon will not help: RESOURCE_EXHAUSTED, not UNAVAILABLE.
      return absl::ResourceExhaustedError(
          std::string(what) + ": the database's disk (or memory) is full (" +
          e.what() + ")");
    default:
      return absl::InternalError(std::string(what) + " failed: " + e.what());
  }
}

}  // namespace mancala::storage
