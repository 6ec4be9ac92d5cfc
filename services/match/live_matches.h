// The match domain's one entry point: each match's engine state, seats,
// turn clock, presence and watchers, kept in step with the store. A thin
// facade over its parts, each one concern, built and wired here:
//   match_registry.h   find, load, evict, stats (the matches in memory);
//   move_path.h        play, CPU play, resign, apply-and-store, the rating
//                      at a rated match's end;
//   match_watchers.h   watch, unwatch, broadcast, presence and its events;
//   match_lifecycle.h  create, join, cancel, rematch, waiting expiry;
//   cpu_turns.h        when the computer must move, and the store's sweep;
//   match_admin.h      void, verify;
//   match_catch_up.h   the cache brought level with a shared database;
//   replication.h      single node or shared database (match_context.h
//                      holds the one in use, with what every part shares).
// The facade itself answers the reads (Get, ListMoves) and runs Tick().
//
// The path of a move (docs/design.md, move_path.h): the match lock, the
// move checked, stored with the ply check, and only then applied and
// answered. A move the store refused never happened. The watchers are
// told off the mover's path, on the match's strand (strand_pool.h). When
// the computer must move, a CpuTurn is announced to the listener (the CPU
// worker), which plays it through PlayCpu(): the same path, refused if the
// match moved on or the reason no longer holds.
//
// The turn clock's rules (start, deadline, expiry, presence, CPU take-over)
// are in turn_clock.h; each live match owns a TurnClock. Time comes from the
// injected Clock; Tick() looks at deadlines and presence and is called by
// the server's ticker (and by tests, after moving a ManualClock).
//
// The domain answers plain values: absl::Status with the ErrorInfo reason
// as a payload (domain_error.h) and the views of match_views.h. The gRPC
// edge (services/api) builds the mancala.v1 messages; what the domain needs
// of the wire format it reaches through the interfaces it is given
// (stored_encodings.h, watch_sink.h).
//
// Errors: each method lists its codes and ErrorInfo reasons. Besides them,
// any method that reads or writes the store may answer UNAVAILABLE
// (STORAGE) when the store fails, DATA_LOSS (BAD_STORED_DATA, or
// REPLAY_FAILED for stored moves the engine refuses) when what is stored
// cannot be read, and NOT_FOUND (MATCH_NOT_FOUND) for an unknown match id;
// domain_error.h builds them all.
//
// Thread-safety: all methods may be called from any thread. Lock order
// (never take them the other way round):
//   1. a match's CachedMatch::mu, at most one at a time;
//   2. MatchContext::ratings_mu (a rated end, VoidMatch);
//   3. the store's own lock (inside storage::Store calls).
// The registry's lock, a creator's stripe (match_lifecycle.h) and the
// expiry index's lock are each held alone, never while taking another. A
// WatchSink's lock is taken under a match lock and takes nothing further.
// No lock is held while a CPU turn is announced.

#ifndef MANCALA_SERVICES_MATCH_LIVE_MATCHES_H_
#define MANCALA_SERVICES_MATCH_LIVE_MATCHES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "services/base/clock.h"
#include "services/base/strand_pool.h"
#include "services/cluster/cluster_node.h"
#include "services/match/cpu_turns.h"
#include "services/match/match_admin.h"
#include "services/match/match_catch_up.h"
#include "services/match/match_context.h"
#include "services/match/match_lifecycle.h"
#include "services/match/match_registry.h"
#include "services/match/match_watchers.h"
#include "services/match/move_path.h"
#include "services/match/stored_encodings.h"
#include "services/match/watch_sink.h"
#include "services/model/match_views.h"
#include "storage/due_turns.h"
#include "storage/move_notices.h"
#include "storage/store.h"

namespace mancala::services {

class LiveMatches {
 public:
  // `encodings` and `watch_fanout` are the edge's (the server wires them;
  // stored_encodings.h, watch_sink.h) and outlive this object.
  LiveMatches(storage::Store& store, const Clock& clock,
              LiveMatchesOptions options, const StoredEncodings& encodings,
              const WatchFanOut& watch_fanout);
  // Stops the notices (no callback runs after), then closes the watchers.
  ~LiveMatches();

  // Called (outside any match lock) whenever the computer must move.
  void SetCpuTurnListener(std::function<void(CpuTurn)> listener) {
    cpu_turns_.SetListener(std::move(listener));
  }
  // Makes this one node of several on a shared database (PostgreSQL;
  // replication.h SharedDatabase): every committed change is published on
  // `notices`, other nodes' notices catch the cached match up and feed this
  // node's watchers, reads check the stored ply first (match_catch_up.h),
  // and `cluster` (null only in tests of the cache alone; it outlives this
  // object) keeps due turns and presence in the store, whose sweep brings
  // stand-ins (cpu_turns.h PlayDue). Without it (SQLite, the default) this
  // node is alone (SingleNode). Call once, before LoadActive().
  void ShareDatabase(std::unique_ptr<storage::MoveNotices> notices,
                     ClusterNode* cluster);
  // A due turn this node claimed from the store's sweep (cpu_turns.h).
  void PlayDue(const storage::DueTurn& turn) { cpu_turns_.PlayDue(turn); }

  // Loads every match in progress or waiting from the store and announces
  // the CPU turns pending at shutdown. Call once at start-up, before
  // serving. DATA_LOSS naming a match that cannot be restored.
  absl::Status LoadActive();

  // match_lifecycle.h has each one's errors.
  absl::Status Create(const NewMatch& request, MatchView* out) {
    return lifecycle_.Create(request, out);
  }
  absl::Status Join(const std::string& invite_code, std::optional<int> seat,
                    const std::string& player_id, MatchView* out) {
    return lifecycle_.Join(invite_code, seat, player_id, out);
  }
  absl::Status Cancel(const std::string& id, const std::string& player_id,
                      MatchView* out) {
    return lifecycle_.Cancel(id, player_id, out);
  }
  absl::Status Rematch(const std::string& id, const std::string& player_id,
                       MatchView* out) {
    return lifecycle_.Rematch(id, player_id, out);
  }

  // move_path.h has each one's errors.
  absl::Status Play(const std::string& id, const MoveRequest& move,
                    MoveReply* out) {
    return move_path_.Play(id, move, out);
  }
  void PlayAsync(const std::string& id, MoveRequest move,
                 MovePath::MoveDone done) {
    move_path_.PlayAsync(id, std::move(move), std::move(done));
  }
  absl::Status PlayCpu(const CpuTurn& turn, int pit) {
    return move_path_.PlayCpu(turn, pit);
  }
  absl::Status Resign(const std::string& id, const std::string& player_id,
                      MatchView* out) {
    return move_path_.Resign(id, player_id, out);
  }

  // The match now; `viewer_id` (may be empty) is touched as present if
  // seated. No errors of its own.
  absl::Status Get(const std::string& id, const std::string& viewer_id,
                   MatchView* out);
  // Stored moves from `from_ply` (1-based), at most `limit`; `finished`
  // tells whether the match is over (or cancelled). OUT_OF_RANGE
  // (PLY_AHEAD) when from_ply is past the match's ply + 1.
  absl::Status ListMoves(const std::string& id, int64_t from_ply, int limit,
                         std::vector<MoveView>* out, bool* finished);

  // match_watchers.h has the errors.
  absl::Status Watch(const std::string& id, const std::string& viewer_id,
                     int64_t after_ply, std::shared_ptr<WatchSink> sink) {
    return watchers_.Watch(id, viewer_id, after_ply, std::move(sink));
  }
  void Unwatch(const std::string& id, const std::shared_ptr<WatchSink>& sink) {
    watchers_.Unwatch(id, sink);
  }
  // Ends every watch stream (UNAVAILABLE: watch again), for shutdown; a
  // Watch() from then on answers UNAVAILABLE too.
  void CloseWatchers() { watchers_.Close(); }
  // Ends the watch streams that keep `player_id`'s seats present, with
  // `status` (a ban: their seats' grace period starts, then the CPU stands
  // in, turn_clock.h rule 4).
  void DismissPlayer(const std::string& player_id, const absl::Status& status) {
    watchers_.Dismiss(player_id, status);
  }

  // Admin (match_admin.h has the errors).
  absl::Status VoidMatch(const std::string& id, const std::string& reason,
                         const std::string& actor, MatchView* out,
                         int* recomputed) {
    return admin_.VoidMatch(id, reason, actor, out, recomputed);
  }
  absl::Status Verify(const std::string& id, VerifyReport* out) {
    return admin_.Verify(id, out);
  }

  // For the metrics endpoint (match_registry.h).
  using Stats = MatchStats;
  Stats GetStats() { return registry_.GetStats(); }

  // Looks at every live match's clock and presence; announces CPU turns and
  // presence changes that are due. Evicts ended matches nobody watches.
  // Cancels the WAITING matches past waiting_ttl_ms (reason "expired").
  void Tick();

  // For tests (through Server::WatcherCount).
  // Watchers registered on match `id` (0 if unknown).
  int WatcherCount(const std::string& id) { return watchers_.Count(id); }

 private:
  // Declared in the order they are built: each part takes the ones above.
  MatchContext context_;
  // Destroyed after every match (declared before the registry): events
  // queued at shutdown still reach their streams.
  StrandPool strands_;
  MatchRegistry registry_;
  MatchWatchers watchers_;
  MatchCatchUp catch_up_;
  CpuTurns cpu_turns_;
  MovePath move_path_;
  MatchLifecycle lifecycle_;
  MatchAdmin admin_;
  // A shared database's notices (ShareDatabase), null otherwise. Stopped in
  // the destructor, before anything its callbacks touch goes away.
  std::unique_ptr<storage::MoveNotices> notices_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_LIVE_MATCHES_H_
