// The SQLite schema and its migrations.
//
// The database carries PRAGMA application_id = kApplicationId and
// PRAGMA user_version = the number of migrations applied. Migrate() applies
// the missing ones in order, each in its own transaction, and refuses a
// database whose user_version is newer than this build knows.

#ifndef MANCALA_STORAGE_SCHEMA_H_
#define MANCALA_STORAGE_SCHEMA_H_

#include "absl/status/status.h"

namespace SQLite {
class Database;
}

namespace mancala::storage {

// "MNCL" in ASCII, so `file` and sqlite3 tools can tell our databases apart.
inline constexpr int kApplicationId = 0x4D4E434C;

// Number of migrations this build knows (the user_version it leaves).
int SchemaVersion();

// Brings `db` up to SchemaVersion(). FAILED_PRECONDITION for a foreign or
// newer database; INTERNAL if a migration fails (nothing of it is applied).
absl::Status Migrate(SQLite::Database& db);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_SCHEMA_H_
