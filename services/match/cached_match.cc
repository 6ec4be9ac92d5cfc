// CachedMatch: one match in memory (cached_match.h).

#include "services/match/cached_match.h"

#include "services/model/domain_error.h"
#include "services/model/match_views.h"
#include "services/model/names.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

CachedMatch::CachedMatch(storage::MatchRecord r, engine::State s,
                         int64_t grace_ms, bool partial_view)
    : record(std::move(r)),
      state(std::move(s)),
      moved_self(record.seats.size(), false),
      clock(static_cast<int>(record.seats.size()), record.turn_limit_s,
            grace_ms, partial_view) {}

absl::Status CachedMatch::ApplyStored(const storage::MoveRow& row) {
  auto err = row.pit < 0 ? state.Resign(row.seat) : state.Apply(row.pit);
  if (err.has_value()) {
    return DomainError(
        absl::StatusCode::kDataLoss, "REPLAY_FAILED",
        "stored move at ply " + std::to_string(row.ply) + " of " +
            MatchName(row.match_id) +
            " does not replay: " + std::string(engine::MoveErrorMessage(*err)));
  }
  if (!row.by_cpu) moved_self[row.seat] = true;
  return absl::OkStatus();
}

bool CachedMatch::ended() const { return Ended(record.status); }

bool CachedMatch::HoldsSeat(const std::string& player_id, size_t seat) const {
  const SeatRecord& s = record.seats[seat];
  return !player_id.empty() && s.kind == SeatRecord::Kind::kPlayer &&
         s.player_id == player_id;
}

CachedMatch::Progress CachedMatch::progress() const {
  return Progress{
      state,
      {record.status, record.ply, record.updated_at_ms, record.ended_at_ms},
      clock.deadline_ms()};
}

void CachedMatch::View(const Progress& at, int64_t now_ms,
                       MatchView* out) const {
  const engine::State& at_state = at.state;
  FillFromRecord(record, at.stamp, out);
  for (size_t i = 0; i < out->seats.size(); ++i) {
    SeatView& seat = out->seats[i];
    if (seat.seat.kind == SeatRecord::Kind::kPlayer) {
      seat.present = clock.Present(i, now_ms);
      seat.cpu_standing_in = clock.StandingIn(i);
    }
  }
  const bool playing = at.stamp.status == MatchStatus::kInProgress;
  out->board = at_state.board();
  out->to_move = playing ? at_state.to_move() : -1;
  if (playing) out->legal_pits = at_state.LegalMoves();
  // Ranks are shown as soon as any is given (a Mancala Basic finisher or
  // resigner while the others play on).
  bool ranked_any = false;
  for (int r : at_state.outcome().ranks) ranked_any |= r != 0;
  if (at_state.is_over() || ranked_any) out->result = ResultOf(at_state);
  if (playing && at.deadline_ms > 0) out->turn_deadline_ms = at.deadline_ms;
}

}  // namespace mancala::services
