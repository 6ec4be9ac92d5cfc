// CachedMatch: one match in memory (cached_match.h).

#include "services/match/cached_match.h"

#include "services/model/domain_error.h"
#include "services/model/match_views.h"
#include "services/model/names.h"

namespace mancala::services {

using storage::SeatRecord;

CachedMatch::CachedMatch(storage::MatchRecord r, engine::State s,
                         int64_t grace_ms)
    : record(std::move(r)),
      state(std::move(s)),
      moved_self(record.seats.size(), false),
      clock(static_cast<int>(record.seats.size()), record.turn_limit_s,
            grace_ms) {}

absl::Status CachedMatch::ApplyStored(const storage::MoveRow& row) {
  auto err = row.pit < 0 ? state.Resign(row.seat) : state.Apply(row.pit);
  if (err.has_value()) {
    return DomainError(
        absl::StatusCode::kDataLoss, "REPLAY_FAILED",
        "stored move at ply " + std::to_string(row.ply) + " of " +
            MatchName(row.match_id) +
            " does not replay: " + std::string(engine::MoveErrorMessage(*err)));
  }
  if (!row.by_cpu) moved_self[row.seat] = true;
  return absl::OkStatus();
}

bool CachedMatch::ended() const {
  return Ended(record.status);
}

bool CachedMatch::HoldsSeat(const std::string& player_id, size_t seat) const {
  const SeatRecord& s = record.seats[seat];
  return !player_id.empty() && s.kind == SeatRecord::Kind::kPlayer &&
         s.player_id == player_id;
}

}  // namespace mancala::services
