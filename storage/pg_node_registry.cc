#include <pqxx/pqxx>

#include "storage/pg_cluster.h"
#include "storage/pg_store.h"

namespace mancala::storage {

absl::StatusOr<bool> PgNodeRegistry::Heartbeat(const std::string& node_id,
                                               int64_t dead_after_ms) {
  bool resumed = false;
  absl::Status s = pool_.Run("heartbeat", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    // One statement: every part sees the nodes as they were before this
    // beat, so "nobody was alive" includes this node's own last beat. Only
    // matches in progress have turns and seats to restart: a service that
    // comes back with none (a new cluster) records nothing.
    pqxx::result r = tx.exec_params(
        "WITH away AS (SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM nodes WHERE "
        "heartbeat_at > now() - $2::bigint * interval '1 ms') AND EXISTS "
        "(SELECT 1 FROM matches WHERE status = 'in_progress')), "
        "back AS (INSERT INTO service_resumed (id, at) SELECT 1, now() FROM "
        "away ON CONFLICT (id) DO UPDATE SET at = excluded.at RETURNING 1), "
        "beat AS (INSERT INTO nodes (id, heartbeat_at) VALUES ($1, now()) "
        "ON CONFLICT (id) DO UPDATE SET heartbeat_at = now() RETURNING 1) "
        "SELECT (SELECT count(*) FROM back), (SELECT count(*) FROM beat)",
        node_id, dead_after_ms);
    resumed = r[0][0].as<int>() > 0;
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return resumed;
}

absl::Status PgNodeRegistry::Remove(const std::string& node_id) {
  return pool_.Run("remove node", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    tx.exec_params("DELETE FROM nodes WHERE id = $1", node_id);
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<std::string>> PgNodeRegistry::LiveNodes(
    int64_t dead_after_ms) {
  std::vector<std::string> ids;
  absl::Status s = pool_.Run("live nodes", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    ids.clear();
    for (const auto& row :
         tx.exec_params("SELECT id FROM nodes WHERE heartbeat_at > now() - "
                        "$1::bigint * interval '1 ms' ORDER BY id",
                        dead_after_ms)) {
      ids.push_back(row[0].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return ids;
}

absl::StatusOr<int> PgNodeRegistry::Forget(int64_t silent_ms) {
  return PgDeleteOlderThan(pool_, "forget nodes", "nodes", "heartbeat_at",
                           silent_ms);
}

}  // namespace mancala::storage
