// LiveMatches: the reads (GetMatch, ListMoves) and Snapshot, a live match
// as the mancala.v1.Match resource.

#include <google/protobuf/util/time_util.h>

#include "services/convert.h"
#include "services/domain_error.h"
#include "services/live_matches.h"
#include "services/match_errors.h"
#include "services/resource_names.h"

namespace mancala::services {

using google::protobuf::util::TimeUtil;
using storage::MatchStatus;
using storage::SeatRecord;

absl::Status LiveMatches::Get(const std::string& id,
                              const std::string& viewer_id, v1::Match* out) {
  LivePtr live;
  if (absl::Status s = FindCurrent(id, &live); !s.ok()) return s;
  MutexLock lock(&live->mu);
  Touch(*live, viewer_id);
  Snapshot(*live, out);
  return absl::OkStatus();
}

absl::Status LiveMatches::ListMoves(const std::string& id, int64_t from_ply,
                                    int limit, std::vector<v1::Move>* out,
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
  for (const storage::MoveRow& row : *rows) {
    if (absl::Status s = ToProto(row, &out->emplace_back()); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

void LiveMatches::Snapshot(const Live& live, v1::Match* out) const {
  const engine::State& state = live.state;
  const storage::MatchRecord& rec = live.record;
  const int64_t now = clock_.NowMs();
  const bool playing = rec.status == MatchStatus::kInProgress;
  out->Clear();
  out->set_name(MatchName(rec.id));
  out->set_game(GameFromName(rec.game));
  for (const auto& [k, v] : rec.options) (*out->mutable_options())[k] = v;
  // Only the game's own options: rotate_first_player is one for Mancala
  // Basic (MB.4) alone; every game shows it as Match.rotate_first_player.
  if (out->game() == v1::MANCALA_BASIC) {
    (*out->mutable_options())["rotate_first_player"] =
        std::string(engine::OnOff(rec.rotate_first_player));
  }
  for (size_t i = 0; i < rec.seats.size(); ++i) {
    const SeatRecord& s = rec.seats[i];
    v1::Seat* seat = out->add_seats();
    ToProto(s, seat);
    if (s.kind == SeatRecord::Kind::kPlayer) {
      seat->set_present(live.clock.Present(i, now));
      seat->set_cpu_standing_in(live.clock.StandingIn(i));
    }
    seat->set_display_name(live.display_names[i]);
  }
  out->set_state(StateToProto(rec.status));
  ToProto(state.board(), out->mutable_board());
  out->set_to_move(playing ? state.to_move() : -1);
  out->set_ply(rec.ply);
  if (playing) {
    for (int p : state.LegalMoves()) out->add_legal_pits(p);
  }
  // Ranks are shown as soon as any is given (a Mancala Basic finisher or
  // resigner while the others play on).
  bool ranked_any = false;
  for (int r : state.outcome().ranks) ranked_any |= r != 0;
  if (state.is_over() || ranked_any) {
    ResultToProto(state, out->mutable_result());
  }
  out->set_first_seat(rec.first_seat);
  *out->mutable_create_time() =
      TimeUtil::MillisecondsToTimestamp(rec.created_at_ms);
  *out->mutable_update_time() =
      TimeUtil::MillisecondsToTimestamp(rec.updated_at_ms);
  if (live.ended()) {
    *out->mutable_end_time() =
        TimeUtil::MillisecondsToTimestamp(rec.ended_at_ms);
  }
  out->set_ranked(rec.ranked);
  out->set_turn_time_limit_seconds(rec.turn_limit_s);
  if (playing && live.clock.deadline_ms() > 0) {
    *out->mutable_turn_deadline() =
        TimeUtil::MillisecondsToTimestamp(live.clock.deadline_ms());
  }
  if (rec.status == MatchStatus::kWaiting) {
    out->set_invite_code(rec.invite_code);
  }
  out->set_creator(PlayerName(rec.created_by));
  out->set_rotate_first_player(rec.rotate_first_player);
  if (!rec.rematch_id.empty()) out->set_rematch(MatchName(rec.rematch_id));
  out->set_voided(rec.voided);
  if (rec.status == MatchStatus::kCancelled) {
    // Rows from before the reason was stored ("") were cancelled by their
    // creator: nothing else cancelled a match then.
    out->set_cancel_reason(rec.cancel_reason == kCancelledExpired
                               ? v1::Match::EXPIRED
                               : v1::Match::CREATOR_CANCELLED);
  }
}

}  // namespace mancala::services
