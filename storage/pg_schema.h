// The PostgreSQL schema and its migrations (the same records as the SQLite
// schema in storage/schema.cc; times are BIGINT milliseconds since the Unix
// epoch in both, as store.h speaks them).
//
// Versions live in the table mancala_schema_migrations (one row per applied
// migration). PgMigrate() applies the missing ones in order, each in its own
// transaction under an advisory lock, so two mancalad processes starting at
// once do not race. It refuses a schema that holds tables but no migrations
// table (another application's database) and one migrated past what this
// build knows.

#ifndef MANCALA_STORAGE_PG_SCHEMA_H_
#define MANCALA_STORAGE_PG_SCHEMA_H_

#include "absl/status/status.h"

namespace pqxx {
class connection_base;
}

namespace mancala::storage {

// Number of PostgreSQL migrations this build knows.
int PgSchemaVersion();

// Brings the connection's current schema (search_path) up to
// PgSchemaVersion(). FAILED_PRECONDITION for a foreign or newer schema;
// INTERNAL if a migration fails (nothing of it is applied).
absl::Status PgMigrate(pqxx::connection_base& conn);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_PG_SCHEMA_H_
