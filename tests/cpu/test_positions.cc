#include "tests/cpu/test_positions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <variant>

#include "engine/cpu/evaluation.h"

namespace mancala::engine {

State FromBoard(const Rules& rules, const Board& board, int to_move) {
  auto s = State::FromBoard(rules, board, to_move);
  if (const auto* error = std::get_if<RulesError>(&s)) {
    ADD_FAILURE() << error->message;
  }
  return std::get<State>(s);
}

Board KalahBoard(std::array<int, 6> p0, std::array<int, 6> p1, int s0, int s1) {
  Board b;
  b.players = 2;
  b.pits_per_player = 6;
  for (int i = 0; i < 6; ++i) {
    b.pits[0][i] = p0[i];
    b.pits[1][i] = p1[i];
  }
  b.stores[0] = s0;
  b.stores[1] = s1;
  return b;
}

// `me`'s final margin under play that maximises it for `me` and minimises
// it for the other player (exhaustive; small endgames only).
int BestMargin(const State& s, int me, int alpha, int beta) {
  if (s.is_over()) return cpu::FinalMargin(s, me);
  const bool maximizing = s.to_move() == me;
  int best = maximizing ? -1000 : 1000;
  for (int pit : s.LegalMoves()) {
    State child = s;
    child.Apply(pit);
    const int v = BestMargin(child, me, alpha, beta);
    if (maximizing) {
      best = std::max(best, v);
      alpha = std::max(alpha, v);
    } else {
      best = std::min(best, v);
      beta = std::min(beta, v);
    }
    if (alpha >= beta) break;
  }
  return best;
}

}  // namespace mancala::engine
