// Level 1: a uniformly random legal move.
//
// Contract: `state` must not be over. The choice depends only on the legal
// moves and `seed`.
// Thread-safety: pure function.

#ifndef MANCALA_ENGINE_CPU_RANDOM_PLAYER_H_
#define MANCALA_ENGINE_CPU_RANDOM_PLAYER_H_

#include <array>
#include <cstdint>

#include "engine/cpu/rng.h"
#include "engine/state.h"

namespace mancala::engine::cpu {

int RandomMove(const State& state, std::uint64_t seed);

// A uniformly random pit among the set bits of `legal_mask` (State::
// LegalMask(), not 0), drawn from `rng`.
int RandomPit(std::uint32_t legal_mask, Rng& rng);

// The legal pits of `state` in an order shuffled with `rng` (Fisher-Yates,
// as the tree searches expand a node); returns how many were written.
int ShuffledMoves(const State& state, Rng& rng, std::array<int, kMaxPits>& out);

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_RANDOM_PLAYER_H_
