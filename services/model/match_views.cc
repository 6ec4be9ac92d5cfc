// The match views' parts that need no live match (match_views.h).

#include "services/model/match_views.h"

namespace mancala::services {

using storage::MatchStatus;

void FillFromRecord(const storage::MatchRecord& rec, const RecordStamp& at,
                    MatchView* out) {
  *out = MatchView{};
  out->id = rec.id;
  out->game = rec.game;
  out->options = rec.options;
  out->rotate_first_player = rec.rotate_first_player;
  for (const storage::SeatRecord& s : rec.seats) {
    SeatView& seat = out->seats.emplace_back();
    seat.seat = s;
    seat.display_name = DisplayName(s);
  }
  out->status = at.status;
  out->ply = at.ply;
  out->first_seat = rec.first_seat;
  out->created_at_ms = rec.created_at_ms;
  out->updated_at_ms = at.updated_at_ms;
  if (Ended(at.status)) out->ended_at_ms = at.ended_at_ms;
  out->ranked = rec.ranked;
  out->turn_limit_s = rec.turn_limit_s;
  if (at.status == MatchStatus::kWaiting) out->invite_code = rec.invite_code;
  out->creator_id = rec.created_by;
  out->rematch_id = rec.rematch_id;
  out->voided = rec.voided;
  if (at.status == MatchStatus::kCancelled) {
    out->cancel_reason = rec.cancel_reason;
  }
}

MatchView ListedMatch(const storage::MatchRecord& rec) {
  MatchView view;
  FillFromRecord(rec,
                 {rec.status, rec.ply, rec.updated_at_ms, rec.ended_at_ms},
                 &view);
  view.stored_result = rec.result;
  return view;
}

}  // namespace mancala::services
