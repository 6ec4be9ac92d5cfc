// One SQLite connection with its prepared statements, and the guard through
// which every statement is used.
//
// Why the guard: a statement that has been stepped but not reset keeps a
// read snapshot open on its connection. That snapshot blocks other writers
// ("database is locked") and WAL checkpoints, and a write statement left
// un-reset after SQLITE_BUSY makes every later COMMIT fail ("SQL statements
// in progress"). ScopedStatement resets the statement and clears its
// bindings when it goes out of scope, on every path: return, exception,
// SQLITE_BUSY. Statements are only reachable through it.
//
// Thread safety: a Connection is used by one thread at a time; `mu` is the
// lock its users (the writer thread, read leases) take for that.

#ifndef MANCALA_STORAGE_SQLITE_CONNECTION_H_
#define MANCALA_STORAGE_SQLITE_CONNECTION_H_

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "absl/status/status.h"

namespace SQLite {
class Database;
class Statement;
class Exception;
}  // namespace SQLite

namespace mancala::storage {

class ScopedStatement {
 public:
  explicit ScopedStatement(SQLite::Statement& statement)
      : statement_(statement) {}
  ~ScopedStatement();  // Resets and clears bindings; never throws.
  ScopedStatement(const ScopedStatement&) = delete;
  ScopedStatement& operator=(const ScopedStatement&) = delete;

  SQLite::Statement* operator->() { return &statement_; }
  SQLite::Statement& operator*() { return statement_; }

 private:
  SQLite::Statement& statement_;
};

class Connection {
 public:
  explicit Connection(std::unique_ptr<SQLite::Database> db);
  ~Connection();  // Finalizes the statements, then closes.

  SQLite::Database& db() { return *db_; }
  // The statement for `sql`, prepared on first use. One guard per statement
  // at a time: do not prepare the same SQL again while its guard lives.
  ScopedStatement Prepare(const std::string& sql);

  std::mutex mu;

 private:
  std::unique_ptr<SQLite::Database> db_;
  std::unordered_map<std::string, std::unique_ptr<SQLite::Statement>> cache_;
};

// SQLiteCpp's exceptions become an absl::Status here, and nowhere else
// (docs/design.md "Errors"): a constraint failure is ALREADY_EXISTS;
// SQLITE_BUSY or SQLITE_LOCKED (another process held the database past the busy
// timeout) is UNAVAILABLE; SQLITE_FULL (the disk) or SQLITE_NOMEM is
// RESOURCE_EXHAUSTED; anything else INTERNAL, with `what` naming the
// operation.
absl::Status FromException(const SQLite::Exception& e, const char* what);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_SQLITE_CONNECTION_H_
