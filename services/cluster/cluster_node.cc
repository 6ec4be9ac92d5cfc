#include "services/cluster/cluster_node.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <climits>
#include <random>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/time.h"

namespace mancala::services {

std::string DefaultNodeId() {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  std::random_device random;
  return absl::StrFormat("%s-%d-%06x", host[0] ? host : "node", getpid(),
                         random() & 0xFFFFFF);
}

ClusterNode::ClusterNode(storage::ClusterTables tables, ClusterOptions options,
                         DueListener on_due, OnlinePlayers* online)
    : tables_(std::move(tables)),
      options_(std::move(options)),
      on_due_(std::move(on_due)),
      online_(online) {}

absl::StatusOr<std::unique_ptr<ClusterNode>> ClusterNode::Start(
    storage::ClusterTables tables, ClusterOptions options, DueListener on_due,
    OnlinePlayers* online) {
  if (options.heartbeat.count() >= options.grace_ms) {
    return absl::InvalidArgumentError(
        "the heartbeat interval must be shorter than the grace period, or "
        "live nodes would count as dead");
  }
  auto resumed = tables.nodes->Heartbeat(options.node_id, options.grace_ms);
  if (!resumed.ok()) return resumed.status();
  std::unique_ptr<ClusterNode> node(new ClusterNode(
      std::move(tables), std::move(options), std::move(on_due), online));
  ClusterNode* p = node.get();
  if (*resumed) p->LogResumed();
  // So that the node's first answers already count the whole site.
  p->CountOnline();
  p->beater_ = std::thread([p] {
    while (p->Wait(p->options_.heartbeat)) p->Beat();
  });
  p->sweeper_ = std::thread([p] {
    while (p->Wait(p->options_.sweep)) p->Sweep();
  });
  spdlog::info("cluster node {}: heartbeat every {} ms, sweep every {} ms",
               p->options_.node_id, p->options_.heartbeat.count(),
               p->options_.sweep.count());
  return node;
}

ClusterNode::~ClusterNode() { Stop(); }

bool ClusterNode::Wait(std::chrono::milliseconds every) {
  MutexLock lock(&mu_);
  return !mu_.AwaitWithTimeout(Condition(&stopping_), absl::FromChrono(every));
}

void ClusterNode::Stop() {
  {
    MutexLock lock(&mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  if (beater_.joinable()) beater_.join();
  if (sweeper_.joinable()) sweeper_.join();
  if (absl::Status s = tables_.nodes->Remove(options_.node_id); !s.ok()) {
    spdlog::warn(
        "cluster node {}: could not remove its heartbeat ({}); "
        "peers take over its turns after the grace period",
        options_.node_id, std::string(s.message()));
  } else {
    spdlog::info("cluster node {}: left the cluster", options_.node_id);
  }
}

void ClusterNode::Warn(const char* what, const absl::Status& s) {
  const int64_t now = clock_.NowMs();
  MutexLock lock(&mu_);
  if (now - last_warned_ms_ < 60'000) return;
  last_warned_ms_ = now;
  spdlog::warn("cluster node {}: {} failed: {}", options_.node_id, what,
               std::string(s.message()));
}

void ClusterNode::Beat() {
  auto resumed = tables_.nodes->Heartbeat(options_.node_id, options_.grace_ms);
  if (!resumed.ok()) {
    Warn("heartbeat", resumed.status());
  } else if (*resumed) {
    LogResumed();
  }
  CountOnline();
  ForgetDeadNodes();
}

void ClusterNode::CountOnline() {
  if (online_ == nullptr) return;
  std::vector<std::string> marks = online_->TakeMarks();
  absl::StatusOr<int> n =
      tables_.online->MarkAndCount(marks, options_.grace_ms);
  if (!n.ok()) {
    online_->Unwritten(marks);
    Warn("counting the players online", n.status());
    return;
  }
  online_->SetSiteCount(*n);
}

void ClusterNode::LogResumed() {
  spdlog::warn(
      "cluster node {}: no node had beaten for {} ms (a restart, or the "
      "database was away); every seat's grace period and every turn start "
      "again now",
      options_.node_id, options_.grace_ms);
}

void ClusterNode::ForgetDeadNodes() {
  const int64_t now = clock_.NowMs();
  if (now - last_forgot_ms_ < 60'000) return;
  last_forgot_ms_ = now;
  if (online_ != nullptr) {
    // Players unseen for twice the grace period are long uncounted.
    absl::StatusOr<int> gone = tables_.online->Forget(2 * options_.grace_ms);
    if (!gone.ok()) Warn("forgetting offline players", gone.status());
  }
  absl::StatusOr<int> n = tables_.nodes->Forget(options_.forget_after_ms);
  if (!n.ok()) {
    Warn("forgetting dead nodes", n.status());
  } else if (*n > 0) {
    spdlog::info(
        "cluster node {}: deleted the rows of {} node(s) silent for "
        "over {} s",
        options_.node_id, *n, options_.forget_after_ms / 1000);
  }
}

bool ClusterNode::Claim(const std::string& match_id, int64_t ply,
                        storage::DueReason reason) {
  const bool stand_in = reason == storage::DueReason::kStandIn;
  auto claimed =
      tables_.due->Claim(match_id, ply, options_.node_id, options_.claim_ttl_ms,
                         options_.grace_ms, stand_in ? options_.grace_ms : 0,
                         /*timeout=*/reason == storage::DueReason::kTimeout);
  return claimed.ok() && *claimed;
}

void ClusterNode::SeatSeen(const std::string& match_id, int seat) {
  const int64_t now_ms = clock_.NowMs();
  const auto key = std::make_pair(match_id, seat);
  MutexLock lock(&mu_);
  auto it = written_.find(key);
  // Written a while ago by this node: the store already says so.
  if (it != written_.end() && now_ms - it->second < options_.grace_ms / 4) {
    return;
  }
  pending_[key] = now_ms;
}

void ClusterNode::WriteSeen() {
  std::map<std::pair<std::string, int>, int64_t> pending;
  {
    MutexLock lock(&mu_);
    pending.swap(pending_);
  }
  for (const auto& [key, at] : pending) {
    absl::Status s =
        tables_.due->MarkSeen(key.first, key.second, options_.node_id);
    MutexLock lock(&mu_);
    if (s.ok() || absl::IsNotFound(s)) {
      written_[key] = at;
    } else if (!pending_.count(key)) {
      pending_[key] = at;  // Tried again at the next sweep.
    }
  }
  // Forget marks old enough to be written again anyway.
  const int64_t now = clock_.NowMs();
  MutexLock lock(&mu_);
  for (auto it = written_.begin(); it != written_.end();) {
    it = now - it->second > options_.grace_ms ? written_.erase(it)
                                              : std::next(it);
  }
}

void ClusterNode::Sweep() {
  // Presence first: a player who came back through this node is not stood
  // in for by the sweep below.
  WriteSeen();
  auto due = tables_.due->ListDue(
      {options_.grace_ms, /*dead_after_ms=*/options_.grace_ms},
      options_.sweep_limit);
  if (!due.ok()) {
    Warn("sweep", due.status());
  } else {
    for (const storage::DueTurn& turn : *due) {
      if (Claim(turn.match_id, turn.ply, turn.reason)) {
        on_due_(turn);
      }
    }
  }
  ++sweeps_;
}

}  // namespace mancala::services
