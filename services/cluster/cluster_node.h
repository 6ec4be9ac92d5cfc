// This process as one node of a cluster: several mancalad on one PostgreSQL
// database (docs/cluster.md). Not used with SQLite.
//
// - Heartbeat: the node's row (storage/node_registry.h) is written at
//   Start() and every `heartbeat` after; a node silent for the grace period
//   is dead and its claims lapse. Stop() deletes the row, so peers take over
//   its due turns at once.
// - Sweep: every `sweep` the node lists the turns due that nobody alive has
//   claimed (storage/due_turns.h: CPU seats, passed deadlines, absent
//   players), claims each with a conditional update and hands the claimed
//   ones to `on_due` (LiveMatches::PlayDue): a due turn is played by one
//   node, even if the node that armed its timer died.
// - Claims: the CPU worker claims every turn before searching (Claim()).
// - Presence: SeatSeen() records that this node holds a seat's player (a
//   call or an open stream). It never waits on the database: the marks are
//   written by the sweep thread before it sweeps, and only when this node
//   has not written the seat within a quarter of the grace period (so the
//   store may show a player as seen up to that much earlier than they
//   were: a stand-in decided by another node may begin that much early).
// - Who is online (online_players.h): at Start() and every beat the node
//   writes the players it holds and reads back the site-wide count.
//
// Errors: a database that cannot be reached is logged (at most once per
// minute per kind) and tried again at the next beat or sweep; Claim()
// answers false then (the turn is swept later).
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_SERVICES_CLUSTER_CLUSTER_NODE_H_
#define MANCALA_SERVICES_CLUSTER_CLUSTER_NODE_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "services/base/clock.h"
#include "services/base/mutex.h"
#include "services/cluster/online_players.h"
#include "storage/open_cluster.h"

namespace mancala::services {

struct ClusterOptions {
  std::string node_id;  // Unique among the nodes (DefaultNodeId()).
  std::chrono::milliseconds heartbeat{1000};
  std::chrono::milliseconds sweep{250};
  // The presence grace period; also how long a silent node counts as
  // alive. Longer than `heartbeat`.
  int64_t grace_ms = 20'000;
  // How long a claim holds: the longest CPU search and its move, with room.
  int64_t claim_ttl_ms = 10'000;
  int sweep_limit = 64;  // Due turns taken per sweep.
  // Rows of nodes silent this long are deleted (about once a minute, by
  // every node): long past the grace period, so nothing reads them as
  // alive, yet kept a while for an operator looking at a crash.
  int64_t forget_after_ms = 3'600'000;
};

// hostname-pid-6 random hex digits.
std::string DefaultNodeId();

class ClusterNode {
 public:
  using DueListener = std::function<void(const storage::DueTurn&)>;

  // Writes the first heartbeat (its error if it cannot) and starts the
  // heartbeat and sweep threads. `on_due` is called on the sweep thread.
  // `online` (may be null: nobody is counted), if given, must outlive the
  // node; its players are written at every beat (tables.online then must
  // not be null).
  static absl::StatusOr<std::unique_ptr<ClusterNode>> Start(
      storage::ClusterTables tables, ClusterOptions options,
      DueListener on_due, OnlinePlayers* online = nullptr);
  ~ClusterNode();  // Stop()s.

  const std::string& node_id() const { return options_.node_id; }
  int64_t claim_ttl_ms() const { return options_.claim_ttl_ms; }

  // Claims the turn after `ply` of `match_id` for this node; a stand-in
  // only if no other node saw the player within the grace period.
  // `reason` is why the computer moves: a stand-in or a timeout is not
  // claimed while the service's return restarted the grace period or the
  // turn (storage/due_turns.h).
  bool Claim(const std::string& match_id, int64_t ply,
             storage::DueReason reason);
  // This node holds `seat`'s player now.
  void SeatSeen(const std::string& match_id, int seat);
  // Stops sweeping and beating, then deletes the node's row. Idempotent.
  void Stop();
  // Sweeps finished so far (tests wait on it).
  int64_t sweeps() const { return sweeps_.load(); }

 private:
  ClusterNode(storage::ClusterTables tables, ClusterOptions options,
              DueListener on_due, OnlinePlayers* online);
  void Beat();
  // Writes this node's online players and reads the site-wide count.
  void CountOnline();
  // Logs that this node's beat found the service away and back.
  void LogResumed();
  void Sweep();
  // Deletes long-dead nodes' rows if a minute has passed since the last time.
  void ForgetDeadNodes();
  // Writes the presence marks queued by SeatSeen().
  void WriteSeen();
  // Waits `every` or until stopping; false once stopping.
  bool Wait(std::chrono::milliseconds every);
  // Logs a failed database call, at most once a minute.
  void Warn(const char* what, const absl::Status& s);

  storage::ClusterTables tables_;
  const ClusterOptions options_;
  const DueListener on_due_;
  OnlinePlayers* const online_;  // May be null.
  SystemClock clock_;  // Only for throttling log lines and presence marks.

  Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  // Presence marks: when each seat was last written by this node, and the
  // seats waiting to be written.
  std::map<std::pair<std::string, int>, int64_t> written_ ABSL_GUARDED_BY(mu_);
  std::map<std::pair<std::string, int>, int64_t> pending_ ABSL_GUARDED_BY(mu_);
  int64_t last_warned_ms_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t last_forgot_ms_ = 0;  // Heartbeat thread only.
  std::atomic<int64_t> sweeps_{0};
  std::thread beater_, sweeper_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_CLUSTER_CLUSTER_NODE_H_
