// Iterative-deepening alpha-beta search (levels 3 and 4, two players).
//
// The player to move at the root (the "root player") maximises its own
// evaluation (evaluation.h: Evaluate, or EvaluateDeep with
// `limits.deep_evaluation`, level 4); every other player minimises it. With two
// players that is minimax with alpha-beta pruning. (With three or four it
// would be the paranoid search of Sturtevant and Korf; the levels use
// multiplayer_search.h there instead, which played better.)
//
// Extra turns need no special case: whoever is to move after a move decides
// whether the next node maximises or minimises, so an extra turn is the
// same player's next move. Every move counts as one ply of depth, except
// that up to `extensions` extra-turn moves per line keep the depth, so the
// end of a turn is seen.
//
// Iterative deepening runs depth 1, 2, ... up to `max_depth`, and stops
// early only once the game tree below the root has been searched
// completely (or a limit ends it: the moves the interrupted iteration
// finished still count, the previous best among them, as it is searched
// first). A result already decided does not stop
// it: decided values keep counting the margin (evaluation.h), so the
// search goes on looking for the largest win or the smallest loss. The move
// returned is the best move of the deepest iteration; depth 1
// always completes (it applies each legal move once), so a legal move comes
// back even if the search is stopped before it starts. Inside the tree,
// moves are ordered by the transposition table's move, then (Kalah) the
// moves that give an extra turn, then by a history table (moves that
// caused cut-offs before); root moves by the previous
// iteration's values. The transposition table is probed and written at
// every node but those one ply above the horizon. After the first move of
// a node, principal-variation
// search asks each move with a null window whether it is better, and
// searches it with the whole window only if so. Root moves are searched with a
// window just below the best value so far, so moves worth exactly as much are
// recognised as ties; the move returned is drawn among the ties with `seed` (so
// a seeded CPU varies its play between games).
//
// A lost root (`limits.play_lost_for_errors`, level 4): once a completed
// iteration finds every move lost (a value at or below -kDecidedValue: the
// opponent can force a decided win against every defence the search
// sees), the move is no longer the smallest loss but the one that leaves
// the opponent the most ways to go wrong: the most replies in its next
// turn after which the same search (two plies shallower, or the endgame
// table's exact values) no longer finds the root player lost; after an
// extra turn, the most that any of its moves leaves. Among equals it is
// the smallest loss, if that is one of them. A fallible opponent (a
// person, or Monte Carlo tree search short of a proof) then has to find
// the one narrow path; a perfect one wins either way.
//
// Kalah (6 pits, two players) is searched on the compact KalahPosition
// (kalah_position.h), every other game on State: the same positions with
// the same values and keys, so the same result, about a third faster.
//
// With `limits.kalah_endgame`, a position that table covers is not
// searched: its exact value (the final margin under perfect play) is taken
// from the table, at any depth.
//
// Determinism: with the same state and limits (`node_limit`, `seed`,
// `max_depth`, ...), the result is the same on every run, provided neither
// the deadline nor `stop` cuts the search first.
// Thread-safety: AlphaBetaSearch is reentrant; each call owns its tables.

#ifndef MANCALA_ENGINE_CPU_ALPHABETA_H_
#define MANCALA_ENGINE_CPU_ALPHABETA_H_

#include "engine/cpu/search_limits.h"
#include "engine/state.h"

namespace mancala::engine::cpu {

// Searches `state`, which must not be over, within `limits`.
SearchResult AlphaBetaSearch(const State& state, const SearchLimits& limits);

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_ALPHABETA_H_
