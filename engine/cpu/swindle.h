// Playing a lost Kalah endgame for the opponent's best chance to go wrong
// (issue 31), where the endgame table (kalah_endgame.h) knows every value.
//
// A lost position is lost against best play whatever one plays, so the
// margin rule (lose by as little as possible, evaluation.h) is not the
// only choice: a move after which many of the opponent's replies throw the
// win away gives an imperfect opponent a chance. The chance of a move is
// the share of the opponent's legal replies after which the table's exact
// value lets the mover draw or win (all replies counted alike: nothing is
// known about which mistakes an opponent makes); when the move keeps the
// turn (K.4), it is the best chance of the mover's next move. Of the
// moves with the largest chance, the one that loses by the least is
// played (then the lowest pit). A won or drawn position, a position the
// table does not cover, or one where no move gives any chance, gets no
// swindle: the search's move stands.
// Thread-safety: pure functions of the state and an immutable table.

#ifndef MANCALA_ENGINE_CPU_SWINDLE_H_
#define MANCALA_ENGINE_CPU_SWINDLE_H_

#include <optional>

#include "engine/cpu/kalah_endgame.h"
#include "engine/state.h"

namespace mancala::engine::cpu {

// The move to play in `state` (not over, covered or not by `table`) by
// the rule above, or nullopt when the rule does not apply.
std::optional<int> SwindleMove(const State& state,
                               const KalahEndgameTable& table);

// The exact final margin for `player` of `state` (over, or covered by
// `table`) under best play from here.
int ExactMargin(const State& state, int player, const KalahEndgameTable& table);

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_SWINDLE_H_
