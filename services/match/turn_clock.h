// The turn clock of a live match: when a turn starts, when it must end,
// and when the computer plays for a seat. Every rule of it is here.
//
// 1. Start. A turn starts when the match starts (created with every seat
//    taken, or its last OPEN seat joined), after every recorded move (an
//    extra turn is a new turn too), and when the server loads a match in
//    progress. Nothing of the clock is stored: after a restart the seat to
//    move gets a fresh full turn and every grace period starts again, so
//    nobody is charged for the server's outage.
// 2. Deadline. With a turn time limit (30 or 60 s) a turn's deadline is its
//    start plus the limit; without one (0) there is none. Watchers hear each
//    new deadline (WatchEvent.deadline) and Match.turn_deadline shows it.
// 3. Presence. A seat's player is present while they hold a WatchMatch
//    stream open, or until the grace period (mancalad --grace-seconds,
//    20 s by default) after their last call or their last stream's close.
// 4. Take-over. The computer moves for the seat to move, for the first
//    reason that holds: the seat is a CPU seat (CPU_SEAT); the deadline has
//    passed (TURN_TIMEOUT; it wins over absence so the history says the
//    turn timed out); its player is absent (STAND_IN: the CPU stands in at
//    the stand-in level, move after move, and keeps the seat for them).
//    docs/rules.md 3.5 and the site settings promise this.
// 5. Return. A stood-in player who calls or watches again takes the seat
//    back at once; a search for their turn is stopped.
// 6. One CPU turn at a time. At most one CpuTurn per ply is out; it is
//    refused when it comes back if the match moved on or it was stopped
//    (LiveMatches::PlayCpu).
//
// 7. Clusters (several nodes on PostgreSQL, docs/cluster.md). The store
//    holds when each turn is due and which node last saw each seat's
//    player (storage/due_turns.h). A node's own view of presence is
//    partial (the player may be on another node), so with a clock built
//    with `partial_view` a stand-in its own view asks for (Due) is only a
//    candidate: it begins (BeginStandIn) once the store's claim, which
//    knows every node's marks, let the node play it (the first STAND_IN
//    move stored, or a stand-in claimed from the sweep); the other nodes
//    begin it when they catch up with that move, and end it when the player
//    moves again or calls them (EndStandIn, Seen). Such a clock shows a
//    player absent exactly while the CPU stands in for them, so every node
//    shows the same. A node that loads a match in progress, or catches up
//    with its start, keeps the store's deadline for the running turn
//    (KeepDeadline), not a full turn from when it read the match: the
//    store times the turn out then (after the service came back, a full
//    turn from its return, rule 1), and every node shows that instant.
//
// Expiry is noticed, not timed: LiveMatches::Tick() (the server's ticker,
// or a test after moving a ManualClock) and every call on the match ask
// Due(). Times are milliseconds since the Unix epoch from the injected
// Clock (clock.h).
// Thread-safety: none of its own; each live match owns one TurnClock and
// uses it under the match's lock.

#ifndef MANCALA_SERVICES_MATCH_TURN_CLOCK_H_
#define MANCALA_SERVICES_MATCH_TURN_CLOCK_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "services/model/match_views.h"

namespace mancala::services {

class TurnClock {
 public:
  // `turn_limit_s`: 0 (none), 30 or 60; `grace_ms`: rule 3;
  // `partial_view`: rule 7 (a cluster node).
  TurnClock(int seats, int turn_limit_s, int64_t grace_ms,
            bool partial_view = false);

  // Rule 1 for a match that (re)starts `now`: every seat counts as seen
  // now, and the seat to move gets a full turn.
  void StartMatch(int64_t now);
  // Rule 1 after a move recorded at `now`; `game_over`: no further turn.
  void StartTurn(int64_t now, bool game_over) {
    deadline_ms_ = DeadlineOfTurn(now, game_over);
  }
  // Rule 2 for a turn that starts `now`: its deadline, 0 if none.
  int64_t DeadlineOfTurn(int64_t now, bool game_over) const;
  // Rule 7: the running turn ends at `deadline_ms` (ms since the epoch),
  // the store's deadline (storage::MatchRecord::turn_time_left_ms after
  // the read).
  void KeepDeadline(int64_t deadline_ms) { deadline_ms_ = deadline_ms; }
  // Rule 2: the running turn's deadline, 0 if none.
  int64_t deadline_ms() const { return deadline_ms_; }

  // Rule 3 and 5: `seat`'s player called now. True if the CPU stood in
  // for them: it stops; the caller stops a search for their turn.
  bool Seen(int seat, int64_t now);
  void StreamOpened(int seat);
  // A stream of `seat`'s player closed; the grace period runs from
  // `grace_from` (nullopt: the match ended, presence no longer matters).
  void StreamClosed(int seat, std::optional<int64_t> grace_from);
  bool Present(int seat, int64_t now) const;
  bool StandingIn(int seat) const { return seats_[seat].standing_in; }
  // Rule 3 for watchers: true once each time `seat`'s presence differs from
  // what was last announced (it is then announced).
  bool PresenceChanged(int seat, int64_t now);

  // Rule 4: why the computer must move for `seat` now, or
  // kNone (wait for the player). A kStandIn that begins now sets
  // `*stand_in_began` (announce it: the seat is absent); with a partial
  // view (rule 7) none begins here.
  CpuReason Due(int seat, bool cpu_seat, int64_t now, bool* stand_in_began);
  // Rule 4 or 7: the CPU stands in for `seat` (the store says its player
  // is absent); true if the stand-in begins now (announce it).
  bool BeginStandIn(int seat);
  // Rule 7: `seat`'s player moved themselves (on another node); true if a
  // stand-in ends now (announce it).
  bool EndStandIn(int seat);
  // Whether a WatchMatch stream of `seat`'s player is open on this node.
  bool Streaming(int seat) const { return seats_[seat].open_streams > 0; }

  // Rule 6: the stop flag of a new CpuTurn for `ply`, or null if one for
  // that ply is out already.
  std::shared_ptr<std::atomic<bool>> QueueCpuTurn(int64_t ply);
  // The CpuTurn for `ply` came back (played or refused).
  void CpuTurnReturned(int64_t ply);
  // Stops a CPU search in flight and forgets it was queued.
  void CancelCpuTurn();

 private:
  // Rule 3 as far as this clock sees: a stream here, or a call within the
  // grace period.
  bool SeenHere(int seat, int64_t now) const;

  struct Seat {
    int open_streams = 0;      // WatchMatch streams carrying its token.
    int64_t last_seen_ms = 0;  // Last call (or stream close).
    bool announced_present = true;
    bool standing_in = false;  // The CPU plays for this seat.
  };

  int turn_limit_s_;
  int64_t grace_ms_;
  bool partial_view_;
  int64_t deadline_ms_ = 0;  // 0 = no limit, or no turn running.
  std::vector<Seat> seats_;
  int64_t cpu_queued_ply_ = -1;  // A CpuTurn for this ply is out.
  std::shared_ptr<std::atomic<bool>> cpu_stop_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_TURN_CLOCK_H_
