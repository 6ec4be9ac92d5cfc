// Plain C++ views of what the match domain (live_matches.h) answers: a
// match as a client sees it at one instant. The domain fills them under the
// match lock; the gRPC edge turns them into mancala.v1 messages
// (convert.h ToProto), so the domain core builds no protos.
// Values only, no references into a live match: safe to keep and read on
// any thread once filled.

#ifndef MANCALA_SERVICES_MODEL_MATCH_VIEWS_H_
#define MANCALA_SERVICES_MODEL_MATCH_VIEWS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/events.h"
#include "engine/rules.h"
#include "engine/state.h"
#include "storage/store.h"

namespace mancala::services {

// MatchRecord::cancel_reason values (storage/store.h).
inline constexpr char kCancelledByCreator[] = "creator";
inline constexpr char kCancelledExpired[] = "expired";

// Why the computer moves for a seat. The numbers are mancala.v1.Move's
// CpuReason values (and storage::DueReason's), as MoveRow::cpu_reason
// stores them (convert.cc checks they agree).
enum class CpuReason {
  kNone = 0,
  kCpuSeat = 1,
  kTurnTimeout = 2,
  kStandIn = 3
};

// A game's result (mancala.v1.Result): complete once the game is over,
// partial (ranks given so far) in Mancala Basic while others play on.
struct ResultView {
  engine::Outcome outcome;  // End reason, ranks, remaining seeds, order.
  std::vector<int> scores;  // Seeds in each player's store; one per player.
};

// The result of `state` (whatever its progress).
inline ResultView ResultOf(const engine::State& state) {
  ResultView r{state.outcome(), {}};
  for (int p = 0; p < state.rules().players; ++p) {
    r.scores.push_back(state.store(p));
  }
  return r;
}

// One seat (mancala.v1.Seat).
struct SeatView {
  storage::SeatRecord seat;  // Kind, player id, CPU level.
  std::string display_name;  // The player's, "CPU (level N)" or "(open)".
  // Players' seats only: seen within the grace period (turn_clock.h), and
  // whether the CPU plays for the absent player.
  bool present = false;
  bool cpu_standing_in = false;
};

// What SeatView::display_name shows for `seat`: the player's name as the
// store read it with the seat, "CPU (level N)" or "(open)".
inline std::string DisplayName(const storage::SeatRecord& seat) {
  switch (seat.kind) {
    case storage::SeatRecord::Kind::kCpu:
      return "CPU (level " + std::to_string(seat.cpu_level) + ")";
    case storage::SeatRecord::Kind::kOpen:
      return "(open)";
    case storage::SeatRecord::Kind::kPlayer:
      break;
  }
  return seat.display_name;
}

// A match (mancala.v1.Match). Times are Unix milliseconds.
struct MatchView {
  std::string id;             // The match id (not its resource name).
  std::string game;           // Engine name, e.g. "kalah".
  engine::OptionMap options;  // The game's rule options as stored.
  bool rotate_first_player = true;
  std::vector<SeatView> seats;
  storage::MatchStatus status = storage::MatchStatus::kWaiting;
  std::optional<engine::Board> board;  // Unset for a listed match.
  int to_move = -1;  // The seat to move; -1 unless in progress.
  int64_t ply = 0;
  std::vector<int> legal_pits;       // Empty unless in progress.
  std::optional<ResultView> result;  // Once over or any seat is ranked.
  int first_seat = 0;
  int64_t created_at_ms = 0;
  int64_t updated_at_ms = 0;
  std::optional<int64_t> ended_at_ms;  // Finished, cancelled or aborted.
  bool ranked = false;
  int turn_limit_s = 0;                     // 0: no limit.
  std::optional<int64_t> turn_deadline_ms;  // In progress with a limit.
  std::string invite_code;                  // WAITING matches only.
  std::string creator_id;
  std::string rematch_id;  // Empty: no rematch yet.
  bool voided = false;
  std::string cancel_reason;  // Cancelled only: a kCancelled*.
  // A listed match only (ListedMatch): the result as stored (stored_codec.h
  // EncodeResult), for the edge to decode; `result` is then unset.
  std::string stored_result;
};

// Finished, cancelled or aborted: no move will follow.
inline bool Ended(storage::MatchStatus status) {
  return status == storage::MatchStatus::kFinished ||
         status == storage::MatchStatus::kCancelled ||
         status == storage::MatchStatus::kAborted;
}

// Where a match stands, as its stored record says or as a move being
// stored will leave it (the record is written after the reply is built).
struct RecordStamp {
  storage::MatchStatus status = storage::MatchStatus::kWaiting;
  int64_t ply = 0;
  int64_t updated_at_ms = 0;
  int64_t ended_at_ms = 0;
};

// The fields of `*out` a stored record gives, at `at`: all but the
// position (board, seat to move, legal pits, result), the turn deadline
// and the seats' presence. `*out` is reset first.
void FillFromRecord(const storage::MatchRecord& rec, const RecordStamp& at,
                    MatchView* out);

// A match as listed (admin ListMatches): its stored record alone, nothing
// replayed: no board (unset), seat to move (-1), legal pits, turn deadline
// or presence (GetMatch has them); the result as stored.
MatchView ListedMatch(const storage::MatchRecord& rec);

// One recorded move or resignation (mancala.v1.Move). Its events are
// either the engine's own (`played`: a move this node just made, or one
// the catch-up decoded once to check it) or still in their stored
// encoding (`events`, stored_codec.h) until the edge builds the Move, so
// no move's events are decoded twice.
struct MoveView {
  std::string match_id;
  int64_t ply = 0;
  int seat = 0;
  int pit = -1;  // The chosen pit, 0-based on the mover's side; -1: resigned.
  bool by_cpu = false;
  int cpu_reason = 0;  // A mancala.v1.Move.CpuReason number, as stored.
  int64_t played_at_ms = 0;
  std::string events;  // As stored (stored_codec.h EncodeEvents); empty
                       // when `played` is set.
  // The events in order (engine/events.h), shared by the reply and the
  // watchers; null when only `events` holds them.
  std::shared_ptr<const std::vector<engine::Event>> played;
};

// The stored move `row` as a view, its events as stored.
inline MoveView MoveOf(const storage::MoveRow& row) {
  return MoveView{row.match_id,     row.ply,    row.seat,
                  row.pit,          row.by_cpu, row.cpu_reason,
                  row.played_at_ms, row.events, nullptr};
}

// The move `row` whose events are `played` (its `events` not copied).
inline MoveView MoveOf(
    const storage::MoveRow& row,
    std::shared_ptr<const std::vector<engine::Event>> played) {
  return MoveView{row.match_id,     row.ply,    row.seat,
                  row.pit,          row.by_cpu, row.cpu_reason,
                  row.played_at_ms, {},         std::move(played)};
}

// The answer to a move (mancala.v1.SubmitMoveResponse): the move and the
// match after it. A retried request gets its first answer as it was
// stored (`stored`, stored_codec.h), `move` and `match` then unset.
struct MoveReply {
  MoveView move;
  MatchView match;
  std::optional<std::string> stored;
};

// An admin's check of a match (mancala.v1.VerifyMatchResponse): its stored
// moves replayed through the engine against its stored result.
struct VerifyReport {
  bool consistent = false;
  std::string detail;         // Why not, when not consistent.
  std::string stored_result;  // As stored (stored_codec.h); "" if none.
  std::optional<ResultView> replayed_result;  // When the replay is over.
};

// One event of a WatchMatch stream (mancala.v1.WatchEvent).
struct WatchEventView {
  enum class Kind {
    kMatch,     // The match (a new watch's snapshot, a join, a start).
    kFinished,  // The match once it ended: the stream's last event.
    kMove,      // A recorded move.
    kPresence,  // A seat's presence or stand-in changed.
    kDeadline,  // The turn's deadline (a new turn with a time limit).
  };
  Kind kind = Kind::kMatch;
  MatchView match;               // kMatch, kFinished.
  MoveView move;                 // kMove.
  int seat = -1;                 // kPresence, kDeadline.
  bool present = false;          // kPresence.
  bool cpu_standing_in = false;  // kPresence.
  int64_t deadline_ms = 0;       // kDeadline.
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MODEL_MATCH_VIEWS_H_
