// LiveMatches: presence of seated players (calls and open watch streams
// keep a seat present; turn_clock.h has the grace period) and the presence
// events watchers are told.

#include "services/match/live_matches.h"
#include "services/model/watch_events.h"

namespace mancala::services {

using storage::SeatRecord;

void LiveMatches::Touch(Live& live, const std::string& player_id) {
  if (player_id.empty()) return;
  const int64_t now = clock_.NowMs();
  for (size_t i = 0; i < live.record.seats.size(); ++i) {
    if (!live.HoldsSeat(player_id, i)) continue;
    replication_->SeatSeen(live, static_cast<int>(i));
    // Back from a stand-in: the CPU stops playing for them at once.
    if (live.clock.Seen(i, now) && !live.state.is_over() &&
        live.state.to_move() == static_cast<int>(i)) {
      live.clock.CancelCpuTurn();
    }
  }
  UpdatePresence(live);
}

void LiveMatches::UpdatePresence(Live& live) {
  const int64_t now = clock_.NowMs();
  for (size_t i = 0; i < live.record.seats.size(); ++i) {
    if (live.record.seats[i].kind != SeatRecord::Kind::kPlayer) continue;
    if (live.clock.PresenceChanged(i, now)) BroadcastPresence(live, i, now);
  }
}

void LiveMatches::BroadcastPresence(Live& live, int seat, int64_t now) {
  Broadcast(live, PresenceEvent(seat, live.clock.Present(seat, now),
                                live.clock.StandingIn(seat)));
}

}  // namespace mancala::services
