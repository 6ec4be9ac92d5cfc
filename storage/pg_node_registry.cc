#include <pqxx/pqxx>

#include "storage/pg_cluster.h"

namespace mancala::storage {

absl::Status PgNodeRegistry::Heartbeat(const std::string& node_id) {
  return pool_.Run("heartbeat", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    tx.exec_params(
        "INSERT INTO nodes (id, heartbeat_at) VALUES ($1, now()) "
        "ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()",
        node_id);
    return absl::OkStatus();
  });
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
  int forgotten = 0;
  absl::Status s = pool_.Run("forget nodes", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    forgotten = static_cast<int>(
        tx.exec_params("DELETE FROM nodes WHERE heartbeat_at < now() - "
                       "$1::bigint * interval '1 ms'",
                       silent_ms)
            .affected_rows());
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return forgotten;
}

}  // namespace mancala::storage
