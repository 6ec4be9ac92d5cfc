// A plain Monte Carlo tree search for two players: the yardstick level 4 is
// measured against (issue 31), an opponent in `mancala arena --b mcts`, not
// a player level.
//
// It follows OpenSpiel's MCTSBot with a random-rollout evaluator, the
// independent engine the issue measured with, so that our numbers can be
// compared with those: UCT (Kocsis and Szepesvari 2006) with
//   value(child) = reward / visits + c * sqrt(ln(parent visits) / visits),
// c = uct_c (2 by default), an unvisited child first (children shuffled when
// a node is expanded, so ties fall at random); a new leaf is valued by one
// uniformly random rollout to the end of the game, reward +1 win, 0 draw,
// -1 loss for each player (K.10, O.13, C.11, MB.11: the result, not the
// margin); the MCTS-Solver of Winands, Bjornsson and Saito (2008) backs up
// proven results: a node is proven when one child is a proven win for the
// player to move there, or when all children are proven (then its best);
// a proven child's UCT value is its proven result. The tree is new at
// every call. The search stops when the root is proven, a limit is reached
// (checked before every simulation), or `stop` is set. The move returned
// is the root child with the best proven result (unproven counting 0),
// then the most visits, then the larger reward sum. Extra turns need no
// special case: each node records who moved into it.
//
// Speed (RelWithDebInfo, the 2-core development machine shared under load
// averages of 6 to 15, so a fraction of a core): 120,000 to 180,000
// simulations per second in Kalah and about 30,000 in Oware, whose games
// are longer (README "CPU players"; `mancala arena --b mcts` prints it).
//
// Determinism: with the same state, seed and `max_simulations`, and no
// deadline or stop cutting it, the result is the same on every run.
// Memory: about 24 bytes per tree node, one node per position expanded;
// the tree stops growing (the search goes on with rollouts only from its
// leaves) at kMctsMaxNodes nodes.
// Thread-safety: MctsYardstick is reentrant; each call owns its tree.

#ifndef MANCALA_ENGINE_CPU_MCTS_YARDSTICK_H_
#define MANCALA_ENGINE_CPU_MCTS_YARDSTICK_H_

#include <atomic>
#include <chrono>
#include <cstdint>

#include "engine/state.h"

namespace mancala::engine::cpu {

inline constexpr int kMctsMaxNodes = 1 << 23;

struct MctsLimits {
  std::chrono::steady_clock::time_point deadline =
      std::chrono::steady_clock::time_point::max();
  std::uint64_t max_simulations = 0;  // 0 = no limit.
  const std::atomic<bool>* stop = nullptr;
  std::uint64_t seed = 0;
  double uct_c = 2.0;
};

struct MctsResult {
  int move = -1;                  // A legal pit of the player to move.
  std::uint64_t simulations = 0;  // Completed simulations.
  // The root's proven result for the player to move: +1 win, 0 draw,
  // -1 loss; `proven` false when the search did not prove it.
  bool proven = false;
  int proven_result = 0;
};

// Searches `state` (two players, not over) within `limits`.
MctsResult MctsYardstick(const State& state, const MctsLimits& limits);

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_MCTS_YARDSTICK_H_
