// CachedMatch: one match in memory (cached_match.h).

#include "services/match/cached_match.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

CachedMatch::CachedMatch(storage::MatchRecord r, engine::State s,
                         int64_t grace_ms)
    : record(std::move(r)),
      state(std::move(s)),
      clock(static_cast<int>(record.seats.size()), record.turn_limit_s,
            grace_ms) {}

bool CachedMatch::ended() const {
  return record.status == MatchStatus::kFinished ||
         record.status == MatchStatus::kCancelled ||
         record.status == MatchStatus::kAborted;
}

bool CachedMatch::HoldsSeat(const std::string& player_id, size_t seat) const {
  const SeatRecord& s = record.seats[seat];
  return !player_id.empty() && s.kind == SeatRecord::Kind::kPlayer &&
         s.player_id == player_id;
}

}  // namespace mancala::services
