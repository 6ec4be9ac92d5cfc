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
// PlayAsync() is Play() for the callback API: the match is unsettled
// (cached_match.h) while its move is stored without its lock held, and the
// answer comes from the store's completion; the SettledLock keeps every
// other writer of the match (and every read back from the store) after it.
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
#include "absl/status/statusor.h"
#include "engine/events.h"
#include "engine/state.h"
#include "services/base/strand_pool.h"
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
  // `strands`: where a move the store refused because another node took
  // the ply is answered again (PlayAsync), off the store's thread.
  MovePath(MatchContext& context, MatchRegistry& registry,
           MatchWatchers& watchers, CpuTurns& cpu_turns, StrandPool& strands);

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
  // Play() without a thread waiting while the move becomes durable: the
  // checks run on the calling thread, the move goes to the store
  // (Store::AppendMoveAsync) with the match unsettled (cached_match.h), and
  // `done` gets Play()'s answer when the store answers, on the store's
  // thread (SQLite: the writer, after the batch's commit), or before this
  // returns for an answer that needs no write. A move that ends a rated
  // match, and one the store refused because another node took the ply,
  // take Play()'s path (the rating lock is held across the write; the
  // retry reads the store): on the calling thread and on a pool thread.
  // `done` runs once, must return quickly and must not write to the store.
  using MoveDone = std::function<void(absl::Status, MoveReply)>;
  void PlayAsync(const std::string& id, MoveRequest move, MoveDone done);
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
  // One action applied to a copy of the live match, to be stored.
  struct PendingMove {
    engine::State next;  // The state the action leaves.
    storage::MoveRow row;
    // The engine's events, shared by the reply and the watchers: neither
    // decodes row.events back.
    std::shared_ptr<const std::vector<engine::Event>> played;
    storage::MatchUpdate update;
  };
  struct AsyncMove;

  // Play()'s checks of `move` on the live match: OK with `*seat` the seat
  // to play, OK with `*answered` set and the first answer in `out` for a
  // repeated request id, or Play()'s error.
  absl::Status CheckMove(CachedMatch& live, const MoveRequest& move,
                         int* seat, MoveReply* out, bool* answered)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Applies one action (pit >= 0 a move, < 0 a resignation) for `seat` to
  // a copy of the live match: the move row, the match update (an end's
  // status, time and result; not its ratings) and the state it leaves.
  absl::StatusOr<PendingMove> Prepare(const CachedMatch& live, int seat,
                                      int pit, CpuReason cpu_reason,
                                      const std::string& request_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Applies and stores one action for `seat`, and fills `reply` (may be
  // null). Takes ratings_mu (after live.mu) when a rated match ends.
  absl::Status ApplyAndStore(CachedMatch& live, int seat, int pit,
                             CpuReason cpu_reason,
                             const std::string& request_id, MoveReply* reply)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu)
          ABSL_LOCKS_EXCLUDED(context_.ratings_mu);
  // The reply to `move` (built before the live match moves on: a refused
  // move changes nothing), encoded into move.row.reply when the move has a
  // request id (idempotent requests store their first answer).
  absl::Status Answer(const CachedMatch& live, PendingMove& move,
                      MoveReply* answer) ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // ApplyAndStore() once the move is checked and the match's end, if any,
  // rated: stores the move and only then moves the live match on (Settle);
  // a refusal leaves the live match as it was (ABORTED: the caller catches
  // up). Reads nothing. `*ratings_moved` (if given) is set when the store
  // refused a rated end because a player's rating changed since it was
  // read (check_before).
  absl::Status Commit(CachedMatch& live, PendingMove move, MoveReply* reply,
                      bool* ratings_moved = nullptr)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Moves the live match on by the stored `move` and tells the watchers.
  // `move.row` needs only its ply, seat, by_cpu and played_at_ms.
  void Settle(CachedMatch& live, PendingMove move, const MoveReply& answer)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // PlayAsync()'s end, on the store's thread: settles the match and
  // answers.
  void Landed(const std::shared_ptr<AsyncMove>& job, absl::Status stored);
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
  StrandPool& strands_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_MOVE_PATH_H_
