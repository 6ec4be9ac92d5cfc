// Opens the cluster tables (node_registry.h, due_turns.h, online_players.h)
// of the database mancalad runs on, when it is PostgreSQL: several nodes
// may share it.
// SQLite has one server per database (its lock file) and no cluster.

#ifndef MANCALA_STORAGE_OPEN_CLUSTER_H_
#define MANCALA_STORAGE_OPEN_CLUSTER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "storage/due_turns.h"
#include "storage/node_registry.h"
#include "storage/online_players.h"

namespace mancala::storage {

struct ClusterTables {
  // Connections of their own (2), so that heartbeats and sweeps never wait
  // behind moves; released after the tables.
  std::shared_ptr<void> connections;
  std::unique_ptr<NodeRegistry> nodes;
  std::unique_ptr<DueTurns> due;
  std::unique_ptr<OnlineRoster> online;
};

// `db` a postgresql:// URL whose schema PgStore has migrated. UNAVAILABLE
// if the server cannot be reached; FAILED_PRECONDITION for any other
// database, or a build without libpqxx.
absl::StatusOr<ClusterTables> OpenCluster(const std::string& db);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_OPEN_CLUSTER_H_
