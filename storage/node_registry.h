// The nodes of a cluster: several mancalad processes on one PostgreSQL
// database (docs/cluster.md). Each node keeps a row fresh with
// the database's clock; a node whose row is older than `dead_after_ms` (the
// presence grace period) or gone is dead, and its claims on due turns
// (due_turns.h) lapse at once. SQLite has no cluster and no registry.
//
// Errors: UNAVAILABLE when the database cannot be reached now (a retry may
// succeed), INTERNAL otherwise.
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_STORAGE_NODE_REGISTRY_H_
#define MANCALA_STORAGE_NODE_REGISTRY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mancala::storage {

class NodeRegistry {
 public:
  virtual ~NodeRegistry() = default;

  // Inserts `node_id`'s row or sets its heartbeat to the database's now.
  // True when no node (this one included) had beaten within
  // `dead_after_ms` before while a match is in progress: the service was
  // away (a restart of the only node, a database outage), and this beat
  // records that it is back now (due_turns.h: grace periods and turns
  // start again).
  virtual absl::StatusOr<bool> Heartbeat(const std::string& node_id,
                                         int64_t dead_after_ms) = 0;
  // Deletes the row (a draining node): peers stop honouring its claims at
  // once instead of after the grace period. OK if there was none.
  virtual absl::Status Remove(const std::string& node_id) = 0;
  // Ids of the nodes whose heartbeat is younger than `dead_after_ms`, by
  // the database's clock, in id order.
  virtual absl::StatusOr<std::vector<std::string>> LiveNodes(
      int64_t dead_after_ms) = 0;
  // Deletes the rows of nodes silent for longer than `silent_ms` (killed
  // nodes never Remove() theirs; each restart is a new id) and returns how
  // many. Only the row goes: a seat last seen by a node without a row counts
  // as seen by a dead node, exactly as before.
  virtual absl::StatusOr<int> Forget(int64_t silent_ms) = 0;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_NODE_REGISTRY_H_
