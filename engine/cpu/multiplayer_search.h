// Max-n search for 3-4 players (Mancala Basic), levels 3 and 4.
//
// Every player is assumed to pick the move best for itself (Luckhardt and
// Irani's max-n): a node's value is a vector with one evaluation per
// player (evaluation.h EvaluateAll), and the player to move chooses the
// child whose vector is best in its own entry. Unlike the paranoid
// assumption (everyone against the CPU), this models opponents who race to
// empty their own pits, which is what Mancala Basic players do; paranoid
// search, tried first, judged most positions lost and played worse than a
// one-move lookahead.
//
// Iterative deepening, limits, extra turns and determinism are as in
// alphabeta.h (same SearchLimits and SearchResult): every move is a ply,
// up to `extensions` extra-turn moves per path are free, the move returned
// is the best of the deepest completed iteration (depth 1 always
// completes), ties at the root are broken with `seed`. A transposition
// table keeps exact vectors (there is no pruning, so no bounds).
// Thread-safety: MaxNSearch is reentrant; each call owns its tables.

#ifndef MANCALA_ENGINE_CPU_MULTIPLAYER_SEARCH_H_
#define MANCALA_ENGINE_CPU_MULTIPLAYER_SEARCH_H_

#include "engine/cpu/alphabeta.h"
#include "engine/state.h"

namespace mancala::engine::cpu {

// Searches `state`, which must not be over; SearchResult::value is the
// mover's own entry of the chosen move's vector.
SearchResult MaxNSearch(const State& state, const SearchLimits& limits);

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_MULTIPLAYER_SEARCH_H_
