// Computer players: choose a move for the player to move.
//
// Levels (issue: "CPU players worth playing"):
//   1  plays a uniformly random legal move;
//   2  looks one move ahead (extra turns and captures included);
//   3  searches a few plies;
//   4  the strongest search within the time budget.
// ChooseMove is deterministic for a given (state, options.seed) when the
// search is not cut short by `budget` or `stop`.
//
// Contract: `state` must not be over. Returns a legal pit of the player to
// move, always, even when stopped early (the best found so far, or the first
// legal pit).
// Thread-safety: pure function of its inputs; call it from any thread.

#ifndef MANCALA_ENGINE_CPU_CPU_PLAYER_H_
#define MANCALA_ENGINE_CPU_CPU_PLAYER_H_

#include <atomic>
#include <chrono>
#include <cstdint>

#include "engine/state.h"

namespace mancala::engine {

inline constexpr int kMinCpuLevel = 1;
inline constexpr int kMaxCpuLevel = 4;
inline constexpr int kDefaultCpuLevel = 2;

struct CpuOptions {
  int level = kDefaultCpuLevel;  // kMinCpuLevel..kMaxCpuLevel.
  std::uint64_t seed = 0;        // Random choices (ties, level 1).
  // Wall-clock limit for the search (levels 3-4).
  std::chrono::milliseconds budget{1000};
  // When non-null and set, the search stops as soon as it can.
  const std::atomic<bool>* stop = nullptr;
};

int ChooseMove(const State& state, const CpuOptions& options);

}  // namespace mancala::engine

#endif  // MANCALA_ENGINE_CPU_CPU_PLAYER_H_
