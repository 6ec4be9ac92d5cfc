// NodeRegistry (node_registry.h), DueTurns (due_turns.h) and OnlineRoster
// (online_players.h) on PostgreSQL, in the tables of migrations 4-6
// (storage/pg_schema.cc). They run on a pool
// the caller owns and keeps alive longer than them (mancalad gives them a
// small pool of their own, so heartbeats never wait behind moves).
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_STORAGE_PG_CLUSTER_H_
#define MANCALA_STORAGE_PG_CLUSTER_H_

#include <string>
#include <vector>

#include "storage/due_turns.h"
#include "storage/node_registry.h"
#include "storage/online_players.h"
#include "storage/pg_pool.h"

namespace mancala::storage {

class PgNodeRegistry final : public NodeRegistry {
 public:
  explicit PgNodeRegistry(PgPool& pool) : pool_(pool) {}

  absl::StatusOr<bool> Heartbeat(const std::string& node_id,
                                 int64_t dead_after_ms) override;
  absl::Status Remove(const std::string& node_id) override;
  absl::StatusOr<std::vector<std::string>> LiveNodes(
      int64_t dead_after_ms) override;
  absl::StatusOr<int> Forget(int64_t silent_ms) override;

 private:
  PgPool& pool_;
};

class PgDueTurns final : public DueTurns {
 public:
  explicit PgDueTurns(PgPool& pool) : pool_(pool) {}

  absl::StatusOr<std::vector<DueTurn>> ListDue(const DueTiming& timing,
                                               int limit) override;
  absl::StatusOr<bool> Claim(const std::string& match_id, int64_t ply,
                             const std::string& node_id, int64_t ttl_ms,
                             int64_t dead_after_ms,
                             int64_t stand_in_grace_ms = 0,
                             bool timeout = false) override;
  absl::Status MarkSeen(const std::string& match_id, int seat,
                        const std::string& node_id) override;
  absl::StatusOr<bool> SeenWithin(const std::string& match_id, int seat,
                                  int64_t grace_ms) override;

 private:
  PgPool& pool_;
};

class PgOnlineRoster final : public OnlineRoster {
 public:
  explicit PgOnlineRoster(PgPool& pool) : pool_(pool) {}

  absl::StatusOr<int> MarkAndCount(const std::vector<std::string>& player_ids,
                                   int64_t grace_ms) override;
  absl::StatusOr<int> Forget(int64_t silent_ms) override;

 private:
  PgPool& pool_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_PG_CLUSTER_H_
