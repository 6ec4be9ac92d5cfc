// The live match as a cache of the stored one. With several nodes on one
// database (PostgreSQL) another node may have moved, joined or ended a
// match this node holds; Run() is the one path that brings the cache level
// with the store: a stale client's move, a move the store refused (another
// node took the ply), a read, a move notice (storage/move_notices.h) and a
// listener's resync all go through it (replication.h SharedDatabase lends
// it as Refresh). It also tells this node's watchers each move it finds,
// in ply order, so a watcher sees every ply once whichever node played it.
// With SQLite this process is the only writer and the cache is never
// behind: nothing here runs (replication.h SingleNode never asks for it).
// Thread-safety: every method from any thread; Run() needs the match's
// lock, the others take it.

#ifndef MANCALA_SERVICES_MATCH_MATCH_CATCH_UP_H_
#define MANCALA_SERVICES_MATCH_MATCH_CATCH_UP_H_

#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "services/match/cached_match.h"
#include "services/match/match_context.h"
#include "services/match/match_registry.h"
#include "services/match/match_watchers.h"

namespace mancala::services {

class MatchCatchUp {
 public:
  MatchCatchUp(MatchContext& context, MatchRegistry& registry,
               MatchWatchers& watchers);

  // Brings `live` level with the stored match: applies and tells the
  // watchers the stored moves after its ply, adopts the stored record
  // (seats, status, result). OK at once when nothing changed.
  // UNAVAILABLE (STORAGE); DATA_LOSS (REPLAY_FAILED) when the stored moves
  // do not reach the stored ply or the engine refuses one,
  // (BAD_STORED_DATA) when a move told to watchers does not decode.
  absl::Status Run(CachedMatch& live) ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // A notice from the listener: match `id` reached `ply` somewhere.
  void OnMoveNotice(const std::string& id, int64_t ply);
  // The listener (re)connected: every cached match in play is re-read.
  void Resync();

 private:
  // A node whose presence is shared (turn_clock.h rule 7) follows the
  // stand-ins another node played: one begins with its STAND_IN move and
  // ends with the player's own next move. Watchers hear of each change.
  void FollowStandIn(CachedMatch& live, const storage::MoveRow& row)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);

  MatchContext& context_;
  MatchRegistry& registry_;
  MatchWatchers& watchers_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_MATCH_CATCH_UP_H_
