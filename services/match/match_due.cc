// LiveMatches: its part in a cluster of nodes on one PostgreSQL database
// (cluster_node.h, docs/cluster.md). Each move stores when the next turn is
// due and presence is marked in the store (replication.h SharedDatabase);
// a turn claimed from the store's sweep is played here through the normal
// path (PlayCpu, whose ply check refuses any second move at one ply). With
// SQLite (SingleNode) no turn is ever swept and marking does nothing.

#include "services/match/live_matches.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

void LiveMatches::ReportStreams(Live& live) {
  for (size_t i = 0; i < live.record.seats.size(); ++i) {
    if (live.clock.Streaming(static_cast<int>(i))) {
      replication_->SeatSeen(live, static_cast<int>(i));
    }
  }
}

void LiveMatches::PlayDue(const storage::DueTurn& due) {
  LivePtr live;
  if (!Find(due.match_id, &live).ok()) return;  // Swept again later.
  std::optional<CpuTurn> turn;
  {
    MutexLock lock(&live->mu);
    if (!CatchUp(*live).ok()) return;
    if (live->record.status != MatchStatus::kInProgress ||
        live->state.is_over() || live->record.ply != due.ply ||
        live->state.to_move() != due.seat) {
      return;  // Moved on meanwhile: nothing of this turn is due.
    }
    const SeatRecord& seat = live->record.seats[due.seat];
    const auto reason = static_cast<CpuReason>(due.reason);
    if (reason == CpuReason::kStandIn && live->clock.BeginStandIn(due.seat)) {
      BroadcastPresence(*live, due.seat, clock_.NowMs());
    }
    // A local search for this ply whose claim was refused earlier would
    // block the queue: this claimed one replaces it.
    live->clock.CancelCpuTurn();
    turn = CpuTurn{due.match_id,
                   due.ply,
                   live->state,
                   seat.kind == SeatRecord::Kind::kCpu ? seat.cpu_level
                                                       : options_.standin_level,
                   reason,
                   live->record.created_by,
                   live->clock.QueueCpuTurn(due.ply)};
  }
  Announce(std::move(turn));
}

}  // namespace mancala::services
