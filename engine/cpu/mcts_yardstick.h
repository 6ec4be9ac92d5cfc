// The yardstick level 4 is measured against (issue 31): a plain Monte Carlo
// tree search, configured as OpenSpiel's MCTSBot was in the measurement
// that issue reports, so `mancala arena --b mcts` repeats it offline. It is
// not a player level: the server never plays it.
//
// Two players only. Each simulation descends the tree by UCT (Kocsis and
// Szepesvari 2006) with exploration constant kYardstickUctC = 2 on rewards
// of +1 (win), 0 (draw) and -1 (loss); an unvisited child is taken first
// (children are shuffled when a node is expanded, all at once), and a child
// whose result is proven is valued by that result. The descent stops at a
// node visited for the first time (the first simulation: the root) or at
// the end of the game; from there one uniformly random rollout plays the
// game to its end, and its result is added along the path, each node
// counting it for the player who chose the move into it. Extra turns need
// no special case: the player to move at a node chooses.
//
// The solver (Winands, Bjornsson and Saito 2008, "Monte-Carlo tree search
// solver"): a game end reached in the tree proves that node; a node is
// proven once a child proves a win for the player choosing there, or every
// child is proven (its value: the best of them for that player). A proven
// root ends the search. The move returned is the root child ranked highest
// by (proven result for the mover, 0 when unproven; visits; summed reward),
// so a proven win is taken and a proven loss avoided while anything else
// remains.
//
// No knowledge of mancala beyond the rules: no evaluation, no move
// ordering, no margin (a win by one seed is a win). A fresh tree each call.
// Speed: mancala arena prints its simulations per second, and
// build/tests/bench/cpu_bench its rate per game (BM_Yardstick).
//
// Limits follow SearchLimits (search_limits.h): `node_limit` counts the
// moves applied, in the tree and in rollouts, and is never exceeded;
// `deadline` and `stop` are read every kLimitCheckInterval moves; a
// simulation a limit cuts short is dropped. `seed` drives every random
// choice, so the result is a function of (state, seed, node_limit) when
// neither the deadline nor `stop` ends the search. If no simulation ended,
// the move is a random legal one. Other SearchLimits fields are not used.
// Memory: at most kYardstickMaxNodes tree nodes (16 bytes each, 32 MiB);
// once full, leaves are no longer expanded, only sampled.
// Thread-safety: reentrant; each call owns its tree.

#ifndef MANCALA_ENGINE_CPU_MCTS_YARDSTICK_H_
#define MANCALA_ENGINE_CPU_MCTS_YARDSTICK_H_

#include <cstdint>

#include "engine/cpu/search_limits.h"
#include "engine/state.h"

namespace mancala::engine::cpu {

inline constexpr double kYardstickUctC = 2.0;
inline constexpr int kYardstickMaxNodes = 1 << 21;

struct YardstickResult {
  // move: a legal pit of the player to move; value: the chosen child's
  // mean reward for the mover x 1000 (-1000..1000; exactly +-1000 or 0 when
  // proven); depth: the deepest tree node reached, in plies; nodes: moves
  // applied; cut_short: a limit ended the search (false: the root was
  // proven).
  SearchResult search;
  std::uint64_t simulations = 0;  // Rollouts (or proven ends) backed up.
  bool proven = false;            // The root's result is proven.
};

// Searches `state`, which must not be over and must have two players,
// within `limits`.
YardstickResult MctsYardstickSearch(const State& state,
                                    const SearchLimits& limits);

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_MCTS_YARDSTICK_H_
