// Opens the matchmaking queue that fits the store mancalad was started with
// (storage/match_queue.h): rows in PostgreSQL, shared by every node, for a
// postgres:// or postgresql:// URL; otherwise the single node's queue in
// memory.

#ifndef MANCALA_STORAGE_OPEN_MATCH_QUEUE_H_
#define MANCALA_STORAGE_OPEN_MATCH_QUEUE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "storage/match_queue.h"

namespace mancala::storage {

// `node_id`: this node's name, unique among the nodes sharing the database
// (services/cluster/cluster_node.h DefaultNodeId()).
// `now_ms`: the server's clock, ms since the Unix epoch; `test_clock` says
// it is a test's manual clock (PostgreSQL then measures waiting times with
// it instead of the database clock: pg_match_queue.h). Opened after the store,
// whose Open migrated the schema. UNAVAILABLE if PostgreSQL cannot be reached.
absl::StatusOr<std::unique_ptr<MatchQueue>> OpenMatchQueue(
    const std::string& db, const std::string& node_id,
    std::function<int64_t()> now_ms, bool test_clock);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_OPEN_MATCH_QUEUE_H_
