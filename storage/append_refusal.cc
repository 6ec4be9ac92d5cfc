#include "storage/append_refusal.h"

#include <string>

namespace mancala::storage {

absl::Status PlyTaken(const MoveRow& move, int64_t stored_ply) {
  return absl::AbortedError("match " + move.match_id + " is at ply " +
                            std::to_string(stored_ply) + ", not " +
                            std::to_string(move.ply - 1));
}

}  // namespace mancala::storage
