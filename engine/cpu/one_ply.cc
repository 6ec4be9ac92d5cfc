#include "engine/cpu/one_ply.h"

#include <array>

#include "engine/cpu/evaluation.h"
#include "engine/cpu/rng.h"

namespace mancala::engine::cpu {
namespace {

// Positions examined at most while following the extra turns after one
// root move.
constexpr int kChainBudget = 1024;

// The value for `me` of `s`, reached by a move of `me`: if `me` moves again,
// the best value of its continuation.
int TurnValue(const State& s, int me, int chain, int& budget) {
  if (IsFinalFor(s, me) || s.to_move() != me || chain >= kMaxChain ||
      budget <= 0) {
    return Evaluate(s, me);
  }
  int best = -kInfinity;
  const std::uint32_t mask = s.LegalMask();
  for (int pit = 0; pit < s.rules().pits; ++pit) {
    if (!(mask >> pit & 1u)) continue;
    State child = s;
    child.Apply(pit);
    --budget;
    const int v = TurnValue(child, me, chain + 1, budget);
    if (v > best) best = v;
  }
  return best;
}

}  // namespace

int OnePlyMove(const State& state, std::uint64_t seed) {
  const int me = state.to_move();
  const std::uint32_t mask = state.LegalMask();
  std::array<int, kMaxPits> best_moves{};
  int best_count = 0;
  int best = -kInfinity;
  for (int pit = 0; pit < state.rules().pits; ++pit) {
    if (!(mask >> pit & 1u)) continue;
    int budget = kChainBudget;
    State child = state;
    child.Apply(pit);
    const int v = TurnValue(child, me, 1, budget);
    if (v > best) {
      best = v;
      best_count = 0;
    }
    if (v == best) best_moves[best_count++] = pit;
  }
  Rng rng(seed);
  return best_moves[rng.Below(best_count)];
}

}  // namespace mancala::engine::cpu
