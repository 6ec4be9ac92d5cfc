#include "engine/cpu/swindle.h"

#include <bit>

#include "engine/cpu/evaluation.h"

namespace mancala::engine::cpu {
namespace {

// The chance (see the header) for `me` of position `s`, which the table
// covers.
double Chance(const State& s, int me, const KalahEndgameTable& table) {
  if (s.is_over()) return 0;
  double best = 0;
  int replies = 0;
  int errors = 0;
  for (std::uint32_t m = s.LegalMask(); m != 0; m &= m - 1) {
    State next = s;
    next.Apply(std::countr_zero(m));
    if (s.to_move() == me) {
      const double c = Chance(next, me, table);
      if (c > best) best = c;
    } else {
      ++replies;
      if (ExactMargin(next, me, table) >= 0) ++errors;
    }
  }
  if (s.to_move() == me) return best;
  return static_cast<double>(errors) / replies;
}

}  // namespace

int ExactMargin(const State& state, int player,
                const KalahEndgameTable& table) {
  if (state.is_over()) return FinalMargin(state, player);
  const int share = table.Lookup(state).value_or(0);
  return state.store(player) - state.store(1 - player) +
         (state.to_move() == player ? share : -share);
}

std::optional<int> SwindleMove(const State& state,
                               const KalahEndgameTable& table) {
  const int me = state.to_move();
  if (!table.Lookup(state) || ExactMargin(state, me, table) >= 0) {
    return std::nullopt;
  }
  int best_move = -1;
  double best_chance = 0;
  int best_margin = 0;
  for (std::uint32_t m = state.LegalMask(); m != 0; m &= m - 1) {
    const int pit = std::countr_zero(m);
    State next = state;
    next.Apply(pit);
    const double chance = Chance(next, me, table);
    const int margin = ExactMargin(next, me, table);
    if (chance > best_chance ||
        (chance == best_chance && best_move >= 0 && margin > best_margin)) {
      best_move = pit;
      best_chance = chance;
      best_margin = margin;
    }
  }
  if (best_move < 0) return std::nullopt;
  return best_move;
}

}  // namespace mancala::engine::cpu
