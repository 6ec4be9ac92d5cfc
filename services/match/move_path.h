// The path of a move (a player's, the computer's, a resignation), one way:
// checked against the live match, stored with the ply check (and, at a
// rated match's end, with the new ratings in the same write), and only
// then applied to the live match, answered and told to the watchers. A
// move the store refused never happened: nothing is stepped back.
// The watchers are told off the mover's path (match_watchers.h); a CPU turn
// that falls due after the move is announced (cpu_turns.h) once every
// lock is released.
// With a shared database another node may take the ply first: the store
// refuses the move (ABORTED), the match is caught up once and the request
// answered again on the fresh match, as one node would (RetryLostRace).
//
// Errors, besides each method's own: UNAVAILABLE (STORAGE) when the store
// fails; DATA_LOSS (BAD_STORED_DATA, REPLAY_FAILED) for what is stored but
// cannot be read; NOT_FOUND (MATCH_NOT_FOUND) for an unknown match id.
// Thread-safety: every method from any thread; each takes the match's lock,
// then (at a rated end) MatchContext::ratings_mu (live_matches.h has the
// lock order).

#ifndef MANCALA_SERVICES_MATCH_MOVE_PATH_H_
#define MANCALA_SERVICES_MATCH_MOVE_PATH_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "engine/events.h"
#include "engine/state.h"
#include "services/match/cached_match.h"
#include "services/match/cpu_turns.h"
#include "services/match/match_context.h"
#include "services/match/match_registry.h"
#include "services/match/match_watchers.h"
#include "services/model/match_views.h"
#include "storage/store.h"

namespace mancala::services {

struct MoveRequest {
  std::string player_id;
  int pit = 0;
  std::optional<int64_t> expected_ply;
  std::string request_id;
};

class MovePath {
 public:
  MovePath(MatchContext& context, MatchRegistry& registry,
           MatchWatchers& watchers, CpuTurns& cpu_turns);

  // Plays `move` for its player. PERMISSION_DENIED (NOT_A_SEAT) for a
  // non-player; INVALID_ARGUMENT (REQUEST_ID_REUSED) for a request id used
  // for another pit, (PIT_OUT_OF_RANGE); FAILED_PRECONDITION
  // (MATCH_NOT_STARTED, MATCH_OVER) unless in progress, (NOT_YOUR_TURN)
  // with the seat to move as metadata "to_move", (PIT_EMPTY,
  // PIT_NOT_LEGAL); ABORTED (STALE_PLY) with the current "ply" when
  // expected_ply is not it, or when another node took the ply (answered
  // again on the fresh match first).
  absl::Status Play(const std::string& id, const MoveRequest& move,
                    MoveReply* out);
  // The computer's pit for `turn`. ABORTED (STALE_PLY) if the turn is no
  // longer due (the match moved on, the player came back) or another node
  // took the ply; the engine's move errors (PIT_EMPTY, PIT_NOT_LEGAL...)
  // for a pit the state refuses.
  absl::Status PlayCpu(const CpuTurn& turn, int pit);
  // Resigns `player_id`'s first active seat. PERMISSION_DENIED
  // (NOT_A_SEAT) for a non-player; FAILED_PRECONDITION (MATCH_NOT_STARTED,
  // MATCH_OVER) unless in progress, (NOT_ACTIVE) if their seats are out.
  absl::Status Resign(const std::string& id, const std::string& player_id,
                      MatchView* out);

 private:
  // Applies and stores one action (pit >= 0 a move, < 0 a resignation) for
  // `seat`, and fills `reply` (may be null). Takes ratings_mu (after
  // live.mu) when a rated match ends.
  absl::Status ApplyAndStore(CachedMatch& live, int seat, int pit,
                             CpuReason cpu_reason,
                             const std::string& request_id, MoveReply* reply)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu)
          ABSL_LOCKS_EXCLUDED(context_.ratings_mu);
  // ApplyAndStore() once the move is checked and the match's end, if any,
  // rated: builds the reply from `next` and the engine's events `played`
  // (row.events encodes them for the store), stores the move and only then
  // moves the live match on and tells the watchers; a refusal leaves the
  // live match as it was (ABORTED: the caller catches up). Reads nothing.
  // `*ratings_moved` (if given) is set when the store refused a rated end
  // because a player's rating changed since it was read (check_before).
  absl::Status Commit(CachedMatch& live, engine::State next,
                      storage::MoveRow row,
                      std::shared_ptr<const std::vector<engine::Event>> played,
                      const storage::MatchUpdate& update, MoveReply* reply,
                      bool* ratings_moved = nullptr)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // For a rated match that ends with `last_move`: marks it aborted (a seat
  // never moved itself), or fills the rating changes into `update`
  // (match_rating.cc).
  absl::Status RateEnd(const CachedMatch& live,
                       const engine::State& final_state,
                       const storage::MoveRow& last_move,
                       storage::MatchUpdate* update)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu, context_.ratings_mu);
  // Runs `attempt` (which takes live.mu itself) again when it failed
  // because another node moved first and the match was caught up.
  absl::Status RetryLostRace(CachedMatch& live,
                             const std::function<absl::Status()>& attempt);

  MatchContext& context_;
  MatchRegistry& registry_;
  MatchWatchers& watchers_;
  CpuTurns& cpu_turns_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_MOVE_PATH_H_
