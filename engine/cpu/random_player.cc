#include "engine/cpu/random_player.h"

#include <bit>

namespace mancala::engine::cpu {

int RandomPit(std::uint32_t legal_mask, Rng& rng) {
  int pick = rng.Below(std::popcount(legal_mask));
  while (pick-- > 0) legal_mask &= legal_mask - 1;  // Drop the lowest pits.
  return std::countr_zero(legal_mask);
}

int RandomMove(const State& state, std::uint64_t seed) {
  Rng rng(seed);
  return RandomPit(state.LegalMask(), rng);
}

}  // namespace mancala::engine::cpu
