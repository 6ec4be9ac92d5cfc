// Level 1: a uniformly random legal move.
//
// Contract: `state` must not be over. The choice depends only on the legal
// moves and `seed`.
// Thread-safety: pure function.

#ifndef MANCALA_ENGINE_CPU_RANDOM_PLAYER_H_
#define MANCALA_ENGINE_CPU_RANDOM_PLAYER_H_

#include <cstdint>

#include "engine/state.h"

namespace mancala::engine::cpu {

int RandomMove(const State& state, std::uint64_t seed);

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_RANDOM_PLAYER_H_
