// LiveMatches: the reads (GetMatch, ListMoves) and Snapshot, a live match
// as a MatchView (match_views.h).

#include "services/match/live_matches.h"
#include "services/model/domain_error.h"
#include "services/model/match_errors.h"
#include "services/model/names.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

absl::Status LiveMatches::Get(const std::string& id,
                              const std::string& viewer_id, MatchView* out) {
  LivePtr live;
  if (absl::Status s = FindCurrent(id, &live); !s.ok()) return s;
  MutexLock lock(&live->mu);
  Touch(*live, viewer_id);
  Snapshot(*live, out);
  return absl::OkStatus();
}

absl::Status LiveMatches::ListMoves(const std::string& id, int64_t from_ply,
                                    int limit, std::vector<MoveView>* out,
                                    bool* finished) {
  LivePtr live;
  if (absl::Status s = FindCurrent(id, &live); !s.ok()) return s;
  {
    MutexLock lock(&live->mu);
    *finished = live->ended();
    if (from_ply > live->record.ply + 1) {
      return PlyAhead(from_ply - 1, live->record.ply);
    }
  }
  auto rows = store_.ListMoves(id, from_ply, limit);
  if (!rows.ok()) return StorageFailure(rows.status());
  out->clear();
  for (const storage::MoveRow& row : *rows) out->push_back(MoveOf(row));
  return absl::OkStatus();
}

void LiveMatches::Snapshot(const Live& live, MatchView* out) const {
  const engine::State& state = live.state;
  const storage::MatchRecord& rec = live.record;
  const int64_t now = clock_.NowMs();
  const bool playing = rec.status == MatchStatus::kInProgress;
  *out = MatchView{};
  out->id = rec.id;
  out->game = rec.game;
  out->options = rec.options;
  out->rotate_first_player = rec.rotate_first_player;
  for (size_t i = 0; i < rec.seats.size(); ++i) {
    SeatView& seat = out->seats.emplace_back();
    seat.seat = rec.seats[i];
    if (seat.seat.kind == SeatRecord::Kind::kPlayer) {
      seat.present = live.clock.Present(i, now);
      seat.cpu_standing_in = live.clock.StandingIn(i);
    }
    seat.display_name = live.display_names[i];
  }
  out->status = rec.status;
  out->board = state.board();
  out->to_move = playing ? state.to_move() : -1;
  out->ply = rec.ply;
  if (playing) out->legal_pits = state.LegalMoves();
  // Ranks are shown as soon as any is given (a Mancala Basic finisher or
  // resigner while the others play on).
  bool ranked_any = false;
  for (int r : state.outcome().ranks) ranked_any |= r != 0;
  if (state.is_over() || ranked_any) out->result = ResultOf(state);
  out->first_seat = rec.first_seat;
  out->created_at_ms = rec.created_at_ms;
  out->updated_at_ms = rec.updated_at_ms;
  if (live.ended()) out->ended_at_ms = rec.ended_at_ms;
  out->ranked = rec.ranked;
  out->turn_limit_s = rec.turn_limit_s;
  if (playing && live.clock.deadline_ms() > 0) {
    out->turn_deadline_ms = live.clock.deadline_ms();
  }
  if (rec.status == MatchStatus::kWaiting) out->invite_code = rec.invite_code;
  out->creator_id = rec.created_by;
  out->rematch_id = rec.rematch_id;
  out->voided = rec.voided;
  if (rec.status == MatchStatus::kCancelled) {
    out->cancel_reason = rec.cancel_reason;
  }
}

}  // namespace mancala::services
