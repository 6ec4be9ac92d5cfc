// Level 2: looks one move ahead.
//
// Each legal move is played on a copy and the result evaluated for the
// mover (evaluation.h), so captures count at once. A move that earns an
// extra turn is valued by the mover's best continuation of the same turn
// (extra turns chained up to kMaxChain moves), so "one move" is the
// mover's whole turn; the opponents' replies are not considered. Moves of
// equal value are chosen between at random with `seed`.
//
// Contract: `state` must not be over; returns a legal pit.
// Thread-safety: pure function.

#ifndef MANCALA_ENGINE_CPU_ONE_PLY_H_
#define MANCALA_ENGINE_CPU_ONE_PLY_H_

#include <cstdint>

#include "engine/state.h"

namespace mancala::engine::cpu {

// Longest chain of extra turns followed by OnePlyMove.
inline constexpr int kMaxChain = 8;

int OnePlyMove(const State& state, std::uint64_t seed);

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_ONE_PLY_H_
