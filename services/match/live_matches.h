// The registry of live matches: each match's engine state, seats, turn
// clock, presence and watchers, kept in step with the store.
//
// The class is one lock domain, its methods spread by concern:
//   live_matches.cc    the registry: find, load from the store, create;
//   match_lifecycle.cc create, join, cancel, rematch;
//   match_play.cc      the move path (play, CPU play, resign);
//   match_rating.cc    the rating update of a rated match's end;
//   match_clock.cc     due CPU turns and Tick();
//   match_presence.cc  presence of seated players;
//   match_watchers.cc  watch streams and their events;
//   match_reads.cc     reads (get, list moves) and the Match snapshot;
//   match_admin.cc     void and verify; match_stats.cc metrics.
//
// The path of a move (docs/design.md): Play() takes the match lock, applies the
// move to the engine state, appends it to the store conditionally on the
// ply, and only then answers. A move the store refused never happened. The
// watchers are told off the mover's path: the event is queued on the
// match's strand (strand_pool.h) and a pool thread builds its wire message
// once and queues it on every watch stream (watch_sink.h), in order, while
// the mover already has its reply. Whenever the
// computer must move (a CPU seat, a turn past its deadline, an absent player's
// seat; turn_clock.h) a CpuTurn is announced to the listener (the CPU worker),
// which plays it through PlayCpu(): the same path, refused if the match moved
// on or the reason no longer holds.
//
// The turn clock's rules (start, deadline, expiry, presence, CPU take-over)
// are in turn_clock.h; each live match owns a TurnClock. Time comes from the
// injected Clock; Tick() looks at deadlines and presence and is called by
// the server's ticker (and by tests, after moving a ManualClock).
//
// Matches not in memory (finished ones, after a restart) are loaded on demand
// by replaying their stored moves through the engine.
//
// The class answers plain values: absl::Status with the ErrorInfo reason as
// a payload (domain_error.h) and the views of match_views.h. The gRPC edge
// (the *_service.cc files, convert.h, errors.h ToGrpc, watch_stream.h)
// builds the mancala.v1 messages; what the domain needs of the wire format
// it reaches through the interfaces it is given (stored_encodings.h,
// watch_sink.h).
// Errors: each method lists its codes and ErrorInfo reasons. Besides them,
// any method that reads or writes the store may answer UNAVAILABLE
// (STORAGE) when the store fails, DATA_LOSS (BAD_STORED_DATA, or
// REPLAY_FAILED for stored moves the engine refuses) when what is stored
// cannot be read, and NOT_FOUND (MATCH_NOT_FOUND) for an unknown match id;
// domain_error.h builds them all.
// Thread-safety: all methods may be called from any thread; one mutex per
// match, never held while waiting on anything but the store and the
// ratings lock. The lock order is written at ratings_mu_ below.

#ifndef MANCALA_SERVICES_MATCH_LIVE_MATCHES_H_
#define MANCALA_SERVICES_MATCH_LIVE_MATCHES_H_

#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "engine/state.h"
#include "services/base/clock.h"
#include "services/base/mutex.h"
#include "services/base/strand_pool.h"
#include "services/cluster/cluster_node.h"
#include "services/match/cached_match.h"
#include "services/match/replication.h"
#include "services/match/stored_encodings.h"
#include "services/match/turn_clock.h"
#include "services/match/waiting_expiry.h"
#include "services/model/match_shape.h"
#include "services/model/match_views.h"
#include "storage/move_notices.h"
#include "storage/store.h"

namespace mancala::services {

struct LiveMatchesOptions {
  int64_t grace_ms = 20'000;  // Presence grace period after the last call.
  int standin_level = 2;      // CPU level that plays for absent players.
  int fanout_threads = 2;     // Threads that feed watch streams.
  int max_watchers = 64;      // Watch streams per match.
  // WAITING matches one player may have created; CreateMatch with OPEN
  // seats beyond it is RESOURCE_EXHAUSTED (TOO_MANY_WAITING_MATCHES).
  // 0 = no limit.
  int max_waiting_per_player = 10;
  // A WAITING match is cancelled (reason "expired") this long after its
  // creation time, as stored (so also across a restart); 0 = never.
  int64_t waiting_ttl_ms = 3'600'000;
};

// A match to create, its shape checked (match_shape.h) by the caller.
struct NewMatch {
  std::string creator_id;
  MatchShape shape;
  std::vector<storage::SeatRecord> seats;  // shape.seats of them.
  int first_seat = 0;
  bool ranked = false;
  std::string rematch_of;  // Id of the match this is a rematch of, if any.
  // CreateMatchRequest.request_id (empty: none) and a fingerprint of the
  // rest of the request: a retry with both equal returns the first match.
  std::string request_id;
  std::string request_hash;
};

// A turn the computer must play.
struct CpuTurn {
  std::string match_id;
  int64_t ply = 0;      // The match's ply when announced.
  engine::State state;  // A copy to search on, off the match lock.
  int level = 0;
  CpuReason reason = CpuReason::kNone;
  // The match's creator (a player id): the CPU worker queues turns per
  // creator (cpu_worker.h), without reading the match again.
  std::string creator_id;
  // Set when the search is no longer wanted (the player came back, the
  // match moved on or ended).
  std::shared_ptr<std::atomic<bool>> stop;
};

struct MoveRequest {
  std::string player_id;
  int pit = 0;
  std::optional<int64_t> expected_ply;
  std::string request_id;
};

class LiveMatches {
 public:
  // `encodings` and `watch_fanout` are the edge's (the server wires them;
  // stored_encodings.h, watch_sink.h) and outlive this object.
  LiveMatches(storage::Store& store, const Clock& clock,
              LiveMatchesOptions options, const StoredEncodings& encodings,
              const WatchFanOut& watch_fanout);
  ~LiveMatches();

  // Called (outside any match lock) whenever the computer must move.
  void SetCpuTurnListener(std::function<void(CpuTurn)> listener);
  // Makes this one node of several on a shared database (PostgreSQL;
  // replication.h SharedDatabase): every committed change is published on
  // `notices`, other nodes' notices catch the cached match up and feed this
  // node's watchers, reads check the stored ply first (match_catch_up.cc),
  // and `cluster` (null only in tests of the cache alone; it outlives this
  // object) keeps due turns and presence in the store, whose sweep brings
  // stand-ins (match_due.cc). Without it (SQLite, the default) this node is
  // alone (SingleNode). Call once, before LoadActive().
  void ShareDatabase(std::unique_ptr<storage::MoveNotices> notices,
                     ClusterNode* cluster);
  // A due turn this node claimed from the store's sweep: catches the match
  // up and, if that turn is still the one due, announces its CPU turn.
  void PlayDue(const storage::DueTurn& turn);

  // Loads every match in progress or waiting from the store. Call once at
  // start-up, before serving.
  absl::Status LoadActive();

  // A new match, or, for a request id its creator used before with the
  // same request, the match that request made (as it is now).
  // INVALID_ARGUMENT (REQUEST_ID_REUSED) for the id with another request;
  // RESOURCE_EXHAUSTED (TOO_MANY_WAITING_MATCHES) for a match with OPEN
  // seats past max_waiting_per_player.
  absl::Status Create(const NewMatch& request, MatchView* out);
  // The match now; `viewer_id` (may be empty) is touched as present if
  // seated. No errors of its own.
  absl::Status Get(const std::string& id, const std::string& viewer_id,
                   MatchView* out);
  // Seats `player_id` in `seat` (nullopt: the first OPEN one) of the
  // WAITING match with `invite_code`; the match starts once no seat is
  // OPEN. INVALID_ARGUMENT (INVALID_INVITE_CODE) for a malformed code, or
  // (INVALID_ARGUMENT) for a seat out of range; NOT_FOUND
  // (INVITE_NOT_FOUND) for a code no match has; FAILED_PRECONDITION
  // (MATCH_FULL) once no seat is open, (ALREADY_SEATED) for a second seat
  // in a ranked match, (SEAT_TAKEN) for a seat that is not OPEN.
  absl::Status Join(const std::string& invite_code, std::optional<int> seat,
                    const std::string& player_id, MatchView* out);
  // Cancels a WAITING match (reason "creator"); a cancelled one again is
  // answered unchanged. PERMISSION_DENIED (NOT_CREATOR) for anyone but its
  // creator; FAILED_PRECONDITION (MATCH_STARTED) once it started or ended.
  absl::Status Cancel(const std::string& id, const std::string& player_id,
                      MatchView* out);
  // The rematch of a finished or aborted match (made at the first ask,
  // the same one after). PERMISSION_DENIED (NOT_A_SEAT) for a non-player;
  // FAILED_PRECONDITION (MATCH_NOT_OVER) before its end; INVALID_ARGUMENT
  // (INVALID_OPTION) if its shape is no longer allowed (match_shape.h).
  absl::Status Rematch(const std::string& id, const std::string& player_id,
                       MatchView* out);
  // Plays `move` for its player (the one-way move path: checked, stored,
  // then applied). PERMISSION_DENIED (NOT_A_SEAT) for a non-player;
  // INVALID_ARGUMENT (REQUEST_ID_REUSED) for a request id used for another
  // pit, (PIT_OUT_OF_RANGE); FAILED_PRECONDITION (MATCH_NOT_STARTED,
  // MATCH_OVER) unless in progress, (NOT_YOUR_TURN) with the seat to move
  // as metadata "to_move", (PIT_EMPTY, PIT_NOT_LEGAL); ABORTED (STALE_PLY)
  // with the current "ply" when expected_ply is not it, or when another
  // node took the ply (answered again on the fresh match first).
  absl::Status Play(const std::string& id, const MoveRequest& move,
                    MoveReply* out);
  // The computer's pit for `turn`. ABORTED (STALE_PLY) if the turn is no
  // longer due (the match moved on, the player came back).
  absl::Status PlayCpu(const CpuTurn& turn, int pit);
  // Resigns `player_id`'s first active seat. PERMISSION_DENIED
  // (NOT_A_SEAT) for a non-player; FAILED_PRECONDITION (MATCH_NOT_STARTED,
  // MATCH_OVER) unless in progress, (NOT_ACTIVE) if their seats are out.
  absl::Status Resign(const std::string& id, const std::string& player_id,
                      MatchView* out);
  // Stored moves from `from_ply` (1-based), at most `limit`; `finished`
  // tells whether the match is over (or cancelled). OUT_OF_RANGE
  // (PLY_AHEAD) when from_ply is past the match's ply + 1.
  absl::Status ListMoves(const std::string& id, int64_t from_ply, int limit,
                         std::vector<MoveView>* out, bool* finished);

  // Registers a watcher: queues the stored moves after `after_ply` (none
  // for 0), the match snapshot, then every live event until the match
  // ends (WatchMatchRequest.after_ply). OUT_OF_RANGE (PLY_AHEAD) when
  // after_ply is past the match's ply. Seats of `viewer_id` stay present
  // while the sink is registered.
  // RESOURCE_EXHAUSTED (TOO_MANY_WATCHERS) past max_watchers; UNAVAILABLE
  // (SHUTTING_DOWN) once CloseWatchers() was called.
  absl::Status Watch(const std::string& id, const std::string& viewer_id,
                     int64_t after_ply, std::shared_ptr<WatchSink> sink);
  // Unregisters a watcher (its stream ended).
  void Unwatch(const std::string& id, const std::shared_ptr<WatchSink>& sink);

  // Admin: marks a finished rated match void and recomputes its game's
  // ratings from the stored history without it, with an audit entry.
  // FAILED_PRECONDITION (NOT_RATED) if the match was not rated,
  // (ALREADY_VOID) if it is void already.
  absl::Status VoidMatch(const std::string& id, const std::string& reason,
                         const std::string& actor, MatchView* out,
                         int* recomputed);
  // Admin: replays the stored moves through the engine and compares the
  // result with the stored one; what does not replay is in the report,
  // not an error.
  absl::Status Verify(const std::string& id, VerifyReport* out);

  // Ends every watch stream (UNAVAILABLE: watch again), for shutdown; a
  // Watch() from then on answers UNAVAILABLE too.
  void CloseWatchers();

  // For the metrics endpoint: matches in memory by state ("waiting",
  // "in_progress", "finished", "cancelled", "aborted") and open watch
  // streams (match_stats.cc).
  struct Stats {
    std::map<std::string, int> by_state;
    int watchers = 0;
  };
  Stats GetStats();

  // Looks at every live match's clock and presence; announces CPU turns and
  // presence changes that are due. Evicts ended matches nobody watches.
  // Cancels the WAITING matches past waiting_ttl_ms (reason "expired"),
  // found through an index ordered by expiry (waiting_expiry.h).
  void Tick();

  // For tests (through Server::WatcherCount).
  // Watchers registered on match `id` (0 if unknown).
  int WatcherCount(const std::string& id);

 private:
  // One match in memory (cached_match.h).
  using Live = CachedMatch;
  using LivePtr = std::shared_ptr<Live>;

  absl::Status Find(const std::string& id, LivePtr* out)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Find(), then Replication::Refresh(): for reads and changes that
  // must see what other nodes did.
  absl::Status FindCurrent(const std::string& id, LivePtr* out)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Brings `live` level with the stored match: applies and tells the
  // watchers the stored moves after its ply, adopts the stored record
  // (seats, status, result). OK at once when nothing changed. The one
  // catch-up path (match_catch_up.cc).
  absl::Status CatchUp(Live& live) ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // A notice from the listener: match `id` reached `ply` somewhere.
  void OnMoveNotice(const std::string& id, int64_t ply);
  // The listener (re)connected: every cached match in play is re-read.
  void Resync();
  // Stores a new match made from `request`; its id in `*id`.
  absl::Status Insert(const NewMatch& request, std::string* id);
  // Create()'s checks (request id, waiting cap), then Insert(); `*id` is
  // the new match or the one a retried request made (match_intake.cc).
  absl::Status Admit(const NewMatch& request, std::string* id);
  // Cancels a WAITING match for `reason` (kCancelledByCreator or
  // kCancelledExpired): stored first, then the live copy; the watchers get
  // the cancelled match as their last event.
  absl::Status CancelWaiting(Live& live, const char* reason, MatchView* out)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Puts a WAITING match in the expiry index (match_expiry.cc).
  void TrackWaiting(const storage::MatchRecord& record);
  // Cancels the WAITING matches whose time is up (match_expiry.cc).
  void ExpireWaiting();
  // A fresh Live from the store (not registered).
  absl::Status Load(const std::string& id, LivePtr* out);
  // Applies and stores one action (pit >= 0 a move, < 0 a resignation) for
  // `seat`, tells the watchers, and fills `reply` (may be null). Takes
  // ratings_mu_ (after live.mu, see the lock order) when a rated match ends.
  absl::Status ApplyAndStore(Live& live, int seat, int pit,
                             CpuReason cpu_reason,
                             const std::string& request_id, MoveReply* reply)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) ABSL_LOCKS_EXCLUDED(ratings_mu_);
  // ApplyAndStore() once the move is checked and the match's end, if any,
  // rated: builds the reply from `next`, stores the move and only then
  // moves the live match on and tells the watchers; a refusal leaves the
  // live match as it was (ABORTED: the caller catches up). Reads nothing.
  // `*ratings_moved` (if given) is set when the store refused a rated end
  // because a player's rating changed since it was read (check_before).
  absl::Status Commit(Live& live, engine::State next, storage::MoveRow row,
                      const storage::MatchUpdate& update, MoveReply* reply,
                      bool* ratings_moved = nullptr)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Marks `player_id`'s seats as seen now; a seat the CPU stood in for is
  // taken back.
  void Touch(Live& live, const std::string& player_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Presence changes since last announced, broadcast.
  void UpdatePresence(Live& live) ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Tells the watchers `seat`'s presence and stand-in.
  void BroadcastPresence(Live& live, int seat, int64_t now)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // The CPU turn due now, if any (and not already queued).
  std::optional<CpuTurn> DueCpuTurn(Live& live)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Where a match's play stands: the live match's own (Progress(live)),
  // or what a move being stored leaves, so its reply is built before the
  // live match moves on (Commit: a refused move changes nothing).
  struct Progress {
    const engine::State& state;
    RecordStamp stamp;
    int64_t deadline_ms;  // 0: none.
  };
  static Progress ProgressOf(const Live& live)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  void Snapshot(const Live& live, MatchView* out) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu) {
    Snapshot(live, ProgressOf(live), out);
  }
  // `live` (its seats, names, presence) at `at`.
  void Snapshot(const Live& live, const Progress& at, MatchView* out) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // For a rated match that ends with `last_move`: marks it aborted, or
  // fills the rating changes into `update`.
  absl::Status RateEnd(const Live& live, const engine::State& final_state,
                       const storage::MoveRow& last_move,
                       storage::MatchUpdate* update)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu, ratings_mu_);
  // After a move (the live match already past it): the end, the stream's
  // last event, or the new turn's deadline. `match` is the snapshot.
  void TellTurn(Live& live, const MatchView& match)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Runs `attempt` (which takes live.mu itself) again when it failed with
  // ABORTED because another node moved first and the cache was caught up:
  // the request is then answered on the fresh state, as one node would.
  absl::Status RetryLostRace(Live& live,
                             const std::function<absl::Status()>& attempt);
  // Queues `event` for every watcher on the match's strand.
  void Broadcast(Live& live, WatchEventView event, bool last = false)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Marks as seen every seat whose player streams from here (presence
  // kept in the store: replication.h).
  void ReportStreams(Live& live) ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Hands a due CPU turn to the listener; called with no lock held.
  void Announce(std::optional<CpuTurn> turn);

  storage::Store& store_;
  const Clock& clock_;
  const LiveMatchesOptions options_;
  const StoredEncodings& encodings_;
  const WatchFanOut& watch_fanout_;
  // Destroyed after every match (declared before matches_): events queued
  // at shutdown still reach their streams.
  StrandPool fanout_;
  std::function<void(CpuTurn)> on_cpu_turn_;
  std::atomic<bool> closed_{false};  // CloseWatchers() was called.
  // A shared database's notices (ShareDatabase), null otherwise. Stopped in
  // the destructor, before anything its callbacks touch goes away.
  std::unique_ptr<storage::MoveNotices> notices_;
  // SingleNode() until ShareDatabase().
  std::unique_ptr<Replication> replication_;

  // Lock order (never take them the other way round):
  //   1. a match's Live::mu, at most one at a time;
  //   2. ratings_mu_, which makes rating updates (a rated match's end,
  //      VoidMatch's recomputation) one at a time: each reads the ratings
  //      and writes them back within it;
  //   3. the store's own lock (inside storage::Store calls).
  // mu_ guards the registry only and is held alone, never while taking
  // another lock. WatchSink locks (event_stream.h) are taken under a match
  // lock and take nothing further.
  Mutex ratings_mu_;
  Mutex mu_;
  // Admit() for one creator at a time (striped by creator id), so two
  // concurrent creations cannot both pass the waiting cap or both use one
  // request id; held alone, around store calls only.
  std::array<Mutex, 16> creating_;
  WaitingExpiry expiry_;
  std::unordered_map<std::string, LivePtr> matches_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_LIVE_MATCHES_H_
