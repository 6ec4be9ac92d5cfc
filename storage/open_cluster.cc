#include "storage/open_cluster.h"

#include "storage/open_store.h"
#ifdef MANCALA_HAVE_POSTGRES
#include "storage/pg_cluster.h"
#endif

namespace mancala::storage {

absl::StatusOr<ClusterTables> OpenCluster(const std::string& db) {
  if (!IsPostgresUrl(db)) {
    return absl::FailedPreconditionError(
        "only a PostgreSQL database is shared by several nodes");
  }
#ifdef MANCALA_HAVE_POSTGRES
  auto pool = PgPool::Open(db, 2, nullptr);
  if (!pool.ok()) return pool.status();
  std::shared_ptr<PgPool> shared = *std::move(pool);
  ClusterTables out;
  out.nodes = std::make_unique<PgNodeRegistry>(*shared);
  out.due = std::make_unique<PgDueTurns>(*shared);
  out.online = std::make_unique<PgOnlineRoster>(*shared);
  out.connections = std::move(shared);
  return out;
#else
  return absl::FailedPreconditionError(
      "this mancalad was built without PostgreSQL");
#endif
}

}  // namespace mancala::storage
