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

LiveMatches::Progress LiveMatches::ProgressOf(const Live& live) {
  const storage::MatchRecord& rec = live.record;
  return Progress{live.state,
                  {rec.status, rec.ply, rec.updated_at_ms, rec.ended_at_ms},
                  live.clock.deadline_ms()};
}

void LiveMatches::Snapshot(const Live& live, const Progress& at,
                           MatchView* out) const {
  const engine::State& state = at.state;
  FillFromRecord(live.record, at.stamp, out);
  const int64_t now = clock_.NowMs();
  for (size_t i = 0; i < out->seats.size(); ++i) {
    SeatView& seat = out->seats[i];
    if (seat.seat.kind == SeatRecord::Kind::kPlayer) {
      seat.present = live.clock.Present(i, now);
      seat.cpu_standing_in = live.clock.StandingIn(i);
    }
  }
  const bool playing = at.stamp.status == MatchStatus::kInProgress;
  out->board = state.board();
  out->to_move = playing ? state.to_move() : -1;
  if (playing) out->legal_pits = state.LegalMoves();
  // Ranks are shown as soon as any is given (a Mancala Basic finisher or
  // resigner while the others play on).
  bool ranked_any = false;
  for (int r : state.outcome().ranks) ranked_any |= r != 0;
  if (state.is_over() || ranked_any) out->result = ResultOf(state);
  if (playing && at.deadline_ms > 0) out->turn_deadline_ms = at.deadline_ms;
}

}  // namespace mancala::services
