// The match domain's refusals (match_errors.h).

#include "services/model/match_errors.h"

#include <map>
#include <string>

#include "services/model/domain_error.h"
#include "services/model/names.h"

namespace mancala::services {

using storage::MatchStatus;

absl::Status MoveErrorStatus(engine::MoveError error, int pit, int pits,
                             const std::vector<int>& legal) {
  std::string list;
  for (int p : legal) list += (list.empty() ? "" : ", ") + std::to_string(p);
  const std::map<std::string, std::string> md = {{"legal_pits", list}};
  const std::string pit_s = "pit " + std::to_string(pit);
  switch (error) {
    case engine::MoveError::kPitOutOfRange:
      return DomainError(absl::StatusCode::kInvalidArgument, "PIT_OUT_OF_RANGE",
                         pit_s + " is out of range: pits are numbered 0.." +
                             std::to_string(pits - 1) + " on your own side",
                         md);
    case engine::MoveError::kPitEmpty:
      return DomainError(absl::StatusCode::kFailedPrecondition, "PIT_EMPTY",
                         pit_s + " is empty; legal pits: " + list, md);
    case engine::MoveError::kNotLegal:
      return DomainError(absl::StatusCode::kFailedPrecondition, "PIT_NOT_LEGAL",
                         pit_s + " is not allowed here (" +
                             std::string(engine::MoveErrorMessage(error)) +
                             "); legal pits: " + list,
                         md);
    case engine::MoveError::kNotActive:
      return DomainError(
          absl::StatusCode::kFailedPrecondition, "NOT_ACTIVE",
          "your seat is no longer in play (finished or resigned)");
    case engine::MoveError::kGameOver:
      break;
  }
  return DomainError(absl::StatusCode::kFailedPrecondition, "MATCH_OVER",
                     "the match is over");
}

absl::Status NotStarted(const storage::MatchRecord& rec) {
  if (rec.status == MatchStatus::kWaiting) {
    return DomainError(
        absl::StatusCode::kFailedPrecondition, "MATCH_NOT_STARTED",
        MatchName(rec.id) + " is waiting for players (invite code " +
            rec.invite_code + ")");
  }
  return DomainError(absl::StatusCode::kFailedPrecondition, "MATCH_OVER",
                     MatchName(rec.id) + " is over");
}

absl::Status PlyAhead(int64_t after_ply, int64_t ply) {
  return DomainError(absl::StatusCode::kOutOfRange, "PLY_AHEAD",
                     "after_ply " + std::to_string(after_ply) +
                         " is ahead of the match, which is at ply " +
                         std::to_string(ply),
                     {{"ply", std::to_string(ply)}});
}

absl::Status PlayerBanned() {
  return DomainError(absl::StatusCode::kPermissionDenied, "PLAYER_BANNED",
                     "this player is banned from the service");
}

}  // namespace mancala::services
