// The two kinds of node (replication.h).

#include "services/match/replication.h"

#include <utility>

namespace mancala::services {
namespace {

using storage::SeatRecord;

class SingleNodeReplication final : public Replication {
 public:
  absl::Status Refresh(CachedMatch&) override { return absl::OkStatus(); }
  void Changed(const CachedMatch&) override {}
  int MoveAttempts() const override { return 1; }
  bool RatingsShared() const override { return false; }
  bool PresenceShared() const override { return false; }
  bool DeadlinesShared() const override { return false; }
  void SetDue(const CachedMatch&, const engine::State&,
              storage::MatchUpdate*) const override {}
  void SeatSeen(const CachedMatch&, int) override {}
};

class SharedDatabaseReplication final : public Replication {
 public:
  SharedDatabaseReplication(std::function<absl::Status(CachedMatch&)> catch_up,
                            storage::MoveNotices& notices, ClusterNode* cluster)
      : catch_up_(std::move(catch_up)), notices_(notices), cluster_(cluster) {}

  absl::Status Refresh(CachedMatch& live) override
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) {
    return catch_up_(live);
  }

  void Changed(const CachedMatch& live) override
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) {
    notices_.Publish(live.record.id, live.record.ply);
  }

  // Each retry follows a catch-up that found the match moved on; another
  // node would have to win the race every time to exhaust them.
  int MoveAttempts() const override { return 4; }

  bool RatingsShared() const override { return true; }

  // Without a cluster node (tests of the cache alone) nobody sweeps, so
  // this node keeps deciding stand-ins from its own view.
  bool PresenceShared() const override { return cluster_ != nullptr; }

  bool DeadlinesShared() const override { return true; }

  void SetDue(const CachedMatch& live, const engine::State& next,
              storage::MatchUpdate* update) const override
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) {
    if (cluster_ == nullptr || next.is_over()) return;  // Nothing due.
    const int seat = next.to_move();
    update->to_move = seat;
    if (live.record.seats[seat].kind == SeatRecord::Kind::kCpu) {
      // This node plays it (its worker renews the claim before searching);
      // others take it only if this node dies first.
      update->due_after_ms = 0;
      update->claim_node = cluster_->node_id();
      update->claim_ttl_ms = cluster_->claim_ttl_ms();
    } else if (live.record.turn_limit_s > 0) {
      update->due_after_ms =
          static_cast<int64_t>(live.record.turn_limit_s) * 1000;
    }
  }

  void SeatSeen(const CachedMatch& live, int seat) override
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) {
    if (cluster_ == nullptr) return;
    if (live.record.seats[seat].kind != SeatRecord::Kind::kPlayer) return;
    cluster_->SeatSeen(live.record.id, seat);
  }

 private:
  const std::function<absl::Status(CachedMatch&)> catch_up_;
  storage::MoveNotices& notices_;
  ClusterNode* const cluster_;  // Null in tests of the cache alone.
};

}  // namespace

std::unique_ptr<Replication> SingleNode() {
  return std::make_unique<SingleNodeReplication>();
}

std::unique_ptr<Replication> SharedDatabase(
    std::function<absl::Status(CachedMatch&)> catch_up,
    storage::MoveNotices& notices, ClusterNode* cluster) {
  return std::make_unique<SharedDatabaseReplication>(std::move(catch_up),
                                                     notices, cluster);
}

}  // namespace mancala::services
