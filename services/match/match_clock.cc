// LiveMatches: when the computer must move (a CPU seat, a turn past its
// deadline, an absent player's seat; the rules are in turn_clock.h), and the
// periodic Tick() that notices deadlines and presence changes.

#include "services/match/live_matches.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

std::optional<CpuTurn> LiveMatches::DueCpuTurn(Live& live) {
  if (live.record.status != MatchStatus::kInProgress || live.state.is_over()) {
    return std::nullopt;
  }
  const int seat = live.state.to_move();
  const SeatRecord& s = live.record.seats[seat];
  const int64_t now = clock_.NowMs();
  const bool cpu_seat = s.kind == SeatRecord::Kind::kCpu;
  bool stand_in_began = false;
  const CpuReason reason = live.clock.Due(seat, cpu_seat, now, &stand_in_began);
  if (stand_in_began) BroadcastPresence(live, seat, now);
  if (reason == CpuReason::kNone) return std::nullopt;
  std::shared_ptr<std::atomic<bool>> stop =
      live.clock.QueueCpuTurn(live.record.ply);
  if (!stop) return std::nullopt;
  return CpuTurn{
      live.record.id, live.record.ply,
      live.state,     cpu_seat ? s.cpu_level : options_.standin_level,
      reason,         live.record.created_by,
      std::move(stop)};
}

void LiveMatches::Announce(std::optional<CpuTurn> turn) {
  if (turn.has_value() && on_cpu_turn_) on_cpu_turn_(std::move(*turn));
}

void LiveMatches::Tick() {
  ExpireWaiting();
  std::vector<std::pair<std::string, LivePtr>> all;
  {
    MutexLock lock(&mu_);
    all.assign(matches_.begin(), matches_.end());
  }
  std::vector<std::string> evict;
  for (auto& [id, live] : all) {
    std::optional<CpuTurn> turn;
    {
      MutexLock lock(&live->mu);
      if (live->ended()) {
        if (live->watchers.empty()) evict.push_back(id);
        continue;
      }
      UpdatePresence(*live);
      ReportStreams(*live);
      turn = DueCpuTurn(*live);
    }
    Announce(std::move(turn));
  }
  MutexLock lock(&mu_);
  for (const std::string& id : evict) {
    auto it = matches_.find(id);
    // Loaded again from the store if anyone asks.
    if (it != matches_.end() && it->second.use_count() <= 2) {
      matches_.erase(it);
    }
  }
}

}  // namespace mancala::services
