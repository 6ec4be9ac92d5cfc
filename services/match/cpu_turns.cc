// When the computer must move (cpu_turns.h).

#include "services/match/cpu_turns.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

CpuTurns::CpuTurns(MatchContext& context, MatchRegistry& registry,
                   MatchWatchers& watchers, MatchCatchUp& catch_up)
    : context_(context),
      registry_(registry),
      watchers_(watchers),
      catch_up_(catch_up) {}

void CpuTurns::SetListener(std::function<void(CpuTurn)> listener) {
  listener_ = std::move(listener);
}

std::optional<CpuTurn> CpuTurns::Due(CachedMatch& live) {
  if (live.record.status != MatchStatus::kInProgress || live.state.is_over()) {
    return std::nullopt;
  }
  const int seat = live.state.to_move();
  const SeatRecord& s = live.record.seats[seat];
  const int64_t now = context_.clock.NowMs();
  const bool cpu_seat = s.kind == SeatRecord::Kind::kCpu;
  bool stand_in_began = false;
  const CpuReason reason = live.clock.Due(seat, cpu_seat, now, &stand_in_began);
  if (stand_in_began) watchers_.BroadcastPresence(live, seat, now);
  if (reason == CpuReason::kNone) return std::nullopt;
  std::shared_ptr<std::atomic<bool>> stop =
      live.clock.QueueCpuTurn(live.record.ply);
  if (!stop) return std::nullopt;
  return CpuTurn{
      live.record.id, live.record.ply,
      live.state,     cpu_seat ? s.cpu_level : context_.options.standin_level,
      reason,         live.record.created_by,
      std::move(stop)};
}

void CpuTurns::Announce(std::optional<CpuTurn> turn) {
  if (turn.has_value() && listener_) listener_(std::move(*turn));
}

void CpuTurns::PlayDue(const storage::DueTurn& due) {
  LivePtr live;
  if (!registry_.Find(due.match_id, &live).ok()) return;  // Swept again.
  std::optional<CpuTurn> turn;
  {
    SettledLock lock(*live);
    if (!catch_up_.Run(*live).ok()) return;
    if (live->record.status != MatchStatus::kInProgress ||
        live->state.is_over() || live->record.ply != due.ply ||
        live->state.to_move() != due.seat) {
      return;  // Moved on meanwhile: nothing of this turn is due.
    }
    const SeatRecord& seat = live->record.seats[due.seat];
    const auto reason = static_cast<CpuReason>(due.reason);
    if (reason == CpuReason::kStandIn && live->clock.BeginStandIn(due.seat)) {
      watchers_.BroadcastPresence(*live, due.seat, context_.clock.NowMs());
    }
    // A local search for this ply whose claim was refused earlier would
    // block the queue: this claimed one replaces it.
    live->clock.CancelCpuTurn();
    turn = CpuTurn{due.match_id,
                   due.ply,
                   live->state,
                   seat.kind == SeatRecord::Kind::kCpu
                       ? seat.cpu_level
                       : context_.options.standin_level,
                   reason,
                   live->record.created_by,
                   live->clock.QueueCpuTurn(due.ply)};
  }
  Announce(std::move(turn));
}

}  // namespace mancala::services
