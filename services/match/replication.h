// Replication: how one node's live matches stay true to the store, one
// object per LiveMatches, chosen when the server wires it:
//
//   SingleNode (SQLite, the default): this process is the store's only
//     writer, so the cache is the truth: nothing is published, nothing is
//     read back, a move refused by the store is final, and turn deadlines
//     and presence live in this node's memory only (turn_clock.h).
//   SharedDatabase (PostgreSQL, docs/cluster.md): several nodes write the
//     same matches. Each committed change is published to the others
//     (storage/move_notices.h); a read and a stale client's move first
//     catch the cached match up with the store; a move that lost its ply
//     to another node is answered again on the fresh match; a rated end is
//     written only over the ratings it was computed from; and, with a
//     cluster node (cluster_node.h), each move stores when the next turn
//     is due and this node's calls and streams mark their seats seen in
//     the store.
//
// LiveMatches asks it at each of those points instead of testing which
// kind of node it is. The catch-up itself stays LiveMatches' (it tells the
// watchers what it finds): SharedDatabase is lent it.
// Thread-safety: every method may be called from any thread; those taking
// a CachedMatch need its lock, as annotated.

#ifndef MANCALA_SERVICES_MATCH_REPLICATION_H_
#define MANCALA_SERVICES_MATCH_REPLICATION_H_

#include <functional>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "engine/state.h"
#include "services/cluster/cluster_node.h"
#include "services/match/cached_match.h"
#include "storage/move_notices.h"
#include "storage/store.h"

namespace mancala::services {

class Replication {
 public:
  virtual ~Replication() = default;

  // Brings `live` level with the stored match if another node may have
  // changed it; the catch-up's errors (UNAVAILABLE (STORAGE), DATA_LOSS
  // (REPLAY_FAILED, BAD_STORED_DATA)).
  virtual absl::Status Refresh(CachedMatch& live)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) = 0;
  // Refresh() for a reader that does not wait for the match to settle
  // (cached_match.h): an unsettled match is caught up by its own move's
  // landing first (read back now, that move could be applied twice), so
  // the reader gets it as cached, the match as this node last answered it.
  absl::Status RefreshIfSettled(CachedMatch& live)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) {
    return live.settled ? Refresh(live) : absl::OkStatus();
  }
  // `live` changed in the store (committed).
  virtual void Changed(const CachedMatch& live)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) = 0;
  // How many times a request is tried when the store refuses its move
  // because another node took the ply (each retry after a Refresh); >= 1.
  virtual int MoveAttempts() const = 0;
  // Whether a rated end must be written only over the ratings it was
  // computed from (storage::MatchUpdate::check_before).
  virtual bool RatingsShared() const = 0;
  // Fills what the store keeps of the turn a move leaving `next` starts:
  // the seat to move, when its turn is due, and this node's claim on a
  // CPU seat's (storage/due_turns.h).
  virtual void SetDue(const CachedMatch& live, const engine::State& next,
                      storage::MatchUpdate* update) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) = 0;
  // Whether presence is shared with other nodes, so this node's own view
  // of it is partial (turn_clock.h rule 7).
  virtual bool PresenceShared() const = 0;
  // Whether the turn deadlines are the store's, shared with other nodes:
  // a match read from it counts its turn down from the read's time left
  // (storage::MatchRecord::turn_time_left_ms; turn_clock.h rule 7).
  virtual bool DeadlinesShared() const = 0;
  // `seat`'s player was seen on this node just now (a call, an open
  // stream).
  virtual void SeatSeen(const CachedMatch& live, int seat)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) = 0;
};

// This process alone on its store.
std::unique_ptr<Replication> SingleNode();

// One node of several on a shared database. `catch_up` is LiveMatches'
// catch-up (called under the match's lock); `notices` are published to;
// `cluster` (null only in tests of the cache alone) keeps due turns and
// presence, and outlives the object.
std::unique_ptr<Replication> SharedDatabase(
    std::function<absl::Status(CachedMatch&)> catch_up,
    storage::MoveNotices& notices, ClusterNode* cluster);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_REPLICATION_H_
