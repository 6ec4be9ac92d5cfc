#include "engine/cpu/random_player.h"

#include <bit>

#include "engine/cpu/rng.h"

namespace mancala::engine::cpu {

int RandomMove(const State& state, std::uint64_t seed) {
  std::uint32_t mask = state.LegalMask();
  Rng rng(seed);
  int pick = rng.Below(std::popcount(mask));
  while (pick-- > 0) mask &= mask - 1;  // Drop the lowest legal pits.
  return std::countr_zero(mask);
}

}  // namespace mancala::engine::cpu
