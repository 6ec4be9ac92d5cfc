// Monte Carlo tree search for 3-4 players (Mancala Basic), level 4.
//
// UCT (Kocsis and Szepesvari 2006) with max-n backups (Sturtevant 2008,
// "An analysis of UCT in multi-player games"): each tree node keeps one
// reward sum per player, and the player to move at a node picks the child
// that is best for itself by UCB1. A simulation plays the game to its end
// from a new leaf with a light policy (a move whose last seed reaches a
// store, which keeps the turn, is preferred; otherwise a random move); the
// reward of player p is (players - rank) / (players - 1), 1 for first
// place down to 0 for last, so every place counts, first the most.
// Extra turns need no special case: whoever is to move at a node chooses.
//
// Why not the opponent-model search of level 3 (multiplayer_search.h):
// a deeper model search only trusts its model of the others more; against
// level-3 opponents it did no better than level 3 itself, while sampling
// whole games measures the race that Mancala Basic is.
//
// Limits and determinism follow SearchLimits (alphabeta.h): `node_limit`
// counts moves applied, in the tree and in simulations, and is never
// exceeded; `deadline` and `stop` are polled every 256 moves, and a
// simulation they cut short is dropped; `seed` drives every random choice,
// so the move is a function of (state, seed, node_limit) when neither the
// deadline nor `stop` ends the search. The move returned is the root child
// simulated most often (ties: the better mean reward, then the lower pit);
// if a limit came before the first simulation ended, it is level 2's move
// (one_ply.h), so a stopped search still answers at once and sensibly.
// SearchResult::value is the chosen move's mean reward for the mover in
// units of 1/1000 (0..1000), and `depth` the deepest tree node reached, in
// plies. Memory: at most kMaxTreeNodes nodes (about 40 bytes each).
// Thread-safety: MonteCarloSearch is reentrant; each call owns its tree.

#ifndef MANCALA_ENGINE_CPU_MONTE_CARLO_H_
#define MANCALA_ENGINE_CPU_MONTE_CARLO_H_

#include "engine/cpu/alphabeta.h"
#include "engine/state.h"

namespace mancala::engine::cpu {

inline constexpr int kMaxTreeNodes = 1 << 21;

// Searches `state`, which must not be over, within `limits` (max_depth,
// extensions, model_opponents and tt_log2 are not used).
SearchResult MonteCarloSearch(const State& state, const SearchLimits& limits);

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_MONTE_CARLO_H_
