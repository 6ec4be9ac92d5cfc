// Helpers shared by the computer-player tests: hand-set Kalah positions and
// an exhaustive solver to check searches and tables against.

#ifndef MANCALA_TESTS_CPU_TEST_POSITIONS_H_
#define MANCALA_TESTS_CPU_TEST_POSITIONS_H_

#include <array>

#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine {

// State::FromBoard, failing the test if the position is refused.
State FromBoard(const Rules& rules, const Board& board, int to_move);

// A 6-pit Kalah board: each player's pits in sowing order, then the stores.
Board KalahBoard(std::array<int, 6> p0, std::array<int, 6> p1, int s0, int s1);

// `me`'s final margin (cpu/evaluation.h FinalMargin) under play that
// maximises it for `me` and minimises it for the other player, by plain
// alpha-beta over the whole tree within (alpha, beta); small endgames only.
int BestMargin(const State& s, int me, int alpha, int beta);

}  // namespace mancala::engine

#endif  // MANCALA_TESTS_CPU_TEST_POSITIONS_H_
