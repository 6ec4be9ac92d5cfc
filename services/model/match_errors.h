// The match domain's refusals, one builder each, so every path that refuses
// the same thing (a move, a resignation, a watch) says it in the same words
// with the same ErrorInfo reason (proto/mancala/v1/error_reason.proto).
// Thread-safety: pure functions.

#ifndef MANCALA_SERVICES_MODEL_MATCH_ERRORS_H_
#define MANCALA_SERVICES_MODEL_MATCH_ERRORS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "engine/state.h"
#include "storage/store.h"

namespace mancala::services {

// The engine's refusal of `pit` (0-based, `pits` per side) as a status:
// INVALID_ARGUMENT (PIT_OUT_OF_RANGE) or FAILED_PRECONDITION (PIT_EMPTY,
// PIT_NOT_LEGAL, NOT_ACTIVE, MATCH_OVER), with `legal` in the metadata.
absl::Status MoveErrorStatus(engine::MoveError error, int pit, int pits,
                             const std::vector<int>& legal);

// FAILED_PRECONDITION for a move on a match not in progress:
// MATCH_NOT_STARTED (waiting for players) or MATCH_OVER.
absl::Status NotStarted(const storage::MatchRecord& rec);

// OUT_OF_RANGE (PLY_AHEAD) for a position after the match's ply: plies only
// grow, so the same request may succeed later (WatchMatch, ListMoves).
absl::Status PlyAhead(int64_t after_ply, int64_t ply);

// PERMISSION_DENIED (PLAYER_BANNED): the player's calls, and the streams
// that kept their seats, after an operator banned them.
absl::Status PlayerBanned();

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MODEL_MATCH_ERRORS_H_
