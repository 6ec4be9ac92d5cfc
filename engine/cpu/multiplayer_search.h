// Search for 3-4 players (Mancala Basic), levels 3 and 4.
//
// A max-n tree (Luckhardt and Irani): a node's value is a vector with one
// evaluation per player (evaluation.h EvaluateAll) and the player to move
// picks the child best in its own entry. With `model_opponents` (what
// levels 3-4 use) only the searching player's moves branch; every other
// player is assumed to play the move a greedy model picks for it: the move
// whose result (followed by its best extra-turn continuation, if it earns
// one) is best for that player by the static evaluation, much as level 2
// plays. Mancala Basic is a race whose outcome a static evaluation predicts
// poorly until late, and measured against level-2 and level-3 opponents
// this opponent-model search beat both full-width max-n and the paranoid
// search (everyone against the searcher), which judged most positions lost;
// modelling the others lets the search look two or more rounds ahead at
// the searcher's own plan.
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
