#include "engine/cpu/cpu_player.h"

#include <random>

namespace mancala::engine {

// A first CPU: every level plays a random legal move. Stronger levels come
// with the search (issue "CPU players worth playing").
int ChooseMove(const State& state, const CpuOptions& options) {
  const std::vector<int> legal = state.LegalMoves();
  std::mt19937_64 rng(options.seed ^ static_cast<std::uint64_t>(state.ply()));
  std::uniform_int_distribution<size_t> pick(0, legal.size() - 1);
  return legal[pick(rng)];
}

}  // namespace mancala::engine
