#include "engine/cpu/random_player.h"

#include <bit>
#include <utility>

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

int ShuffledMoves(const State& state, Rng& rng,
                  std::array<int, kMaxPits>& out) {
  int count = 0;
  const std::uint32_t mask = state.LegalMask();
  for (int pit = 0; pit < state.rules().pits; ++pit) {
    if (mask >> pit & 1u) out[count++] = pit;
  }
  for (int i = count - 1; i > 0; --i) {
    std::swap(out[i], out[rng.Below(i + 1)]);
  }
  return count;
}

}  // namespace mancala::engine::cpu
