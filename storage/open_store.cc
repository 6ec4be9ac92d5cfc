#include "storage/open_store.h"

#ifdef MANCALA_HAVE_POSTGRES
#include "storage/pg_move_notices.h"
#include "storage/pg_store.h"
#endif

namespace mancala::storage {

bool IsPostgresUrl(const std::string& db) {
  return db.rfind("postgres://", 0) == 0 || db.rfind("postgresql://", 0) == 0;
}

absl::StatusOr<OpenedStore> OpenStore(const std::string& db,
                                      const StoreOptions& options) {
  OpenedStore out;
  if (IsPostgresUrl(db)) {
#ifdef MANCALA_HAVE_POSTGRES
    auto pg =
        PgStore::Open(db, options.pool_size, options.sqlite.busy_timeout_ms,
                      options.call_bound_ms);
    if (!pg.ok()) return pg.status();
    PgStore* raw = pg->get();
    out.ping = [raw] { return raw->Ping(); };
    out.store = *std::move(pg);
    out.notices = std::make_unique<PgMoveNotices>(db);
    return out;
#else
    return absl::FailedPreconditionError(
        "this mancalad was built without PostgreSQL support (libpqxx-dev "
        "missing at build time)");
#endif
  }
  auto sqlite = SqliteStore::Open(db, options.sqlite);
  if (!sqlite.ok()) return sqlite.status();
  out.store = *std::move(sqlite);
  return out;
}

}  // namespace mancala::storage
