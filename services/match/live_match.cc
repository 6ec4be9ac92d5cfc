// LiveMatch: one match in memory (live_match.h).

#include "services/match/live_match.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

LiveMatch::LiveMatch(storage::MatchRecord r, engine::State s, int64_t grace_ms)
    : record(std::move(r)),
      state(std::move(s)),
      clock(static_cast<int>(record.seats.size()), record.turn_limit_s,
            grace_ms) {}

bool LiveMatch::ended() const {
  return record.status == MatchStatus::kFinished ||
         record.status == MatchStatus::kCancelled ||
         record.status == MatchStatus::kAborted;
}

bool LiveMatch::HoldsSeat(const std::string& player_id, size_t seat) const {
  const SeatRecord& s = record.seats[seat];
  return !player_id.empty() && s.kind == SeatRecord::Kind::kPlayer &&
         s.player_id == player_id;
}

}  // namespace mancala::services
