// Limits shared by the searches of levels 3-4 (alphabeta.h,
// multiplayer_search.h, monte_carlo.h), and what a search reports.
// Thread-safety: plain values and a pure function.

#ifndef MANCALA_ENGINE_CPU_SEARCH_LIMITS_H_
#define MANCALA_ENGINE_CPU_SEARCH_LIMITS_H_

#include <atomic>
#include <chrono>
#include <cstdint>

#include "engine/state.h"

namespace mancala::engine::cpu {

class KalahEndgame;

inline constexpr int kMaxSearchDepth = 64;

struct SearchLimits {
  // Deepest iteration, in plies (1..kMaxSearchDepth).
  int max_depth = kMaxSearchDepth;
  // Stop after this many positions (moves applied in the search); 0 = no
  // limit. The depth-1 iteration may exceed it by up to one position per
  // legal root move.
  std::uint64_t node_limit = 0;
  // Stop when this time has passed (checked every 256 positions).
  std::chrono::steady_clock::time_point deadline =
      std::chrono::steady_clock::time_point::max();
  // Stop as soon as this is set (checked every 256 positions); may be null.
  const std::atomic<bool>* stop = nullptr;
  // Orders root moves of equal value.
  std::uint64_t seed = 0;
  // Extra-turn moves that may be searched without using up depth, per
  // path (the rest of a turn is then seen to its end).
  int extensions = 0;
  // MaxNSearch only (multiplayer_search.h): the other players follow a
  // greedy model instead of being searched.
  bool model_opponents = false;
  // AlphaBetaSearch only: when every root move is found lost, play the one
  // that leaves the opponent the most ways to go wrong (alphabeta.h)
  // instead of the smallest loss. Level 4.
  bool play_lost_for_errors = false;
  // AlphaBetaSearch only: leaves are valued by EvaluateDeep, not
  // Evaluate (evaluation.h). Level 4.
  bool deep_evaluation = false;
  // Transposition table size: 2^tt_log2 entries of 16 bytes (10..24).
  int tt_log2 = 20;
  // AlphaBetaSearch only: exact values for the positions this table
  // covers (kalah_endgame.h); null = none.
  const KalahEndgame* kalah_endgame = nullptr;
};

struct SearchResult {
  int move = -1;            // A legal pit of the player to move.
  int value = 0;            // Its value for the root player (evaluation.h).
  int depth = 0;            // Deepest completed iteration (0: one legal
                            // move, returned without searching).
  std::uint64_t nodes = 0;  // Positions generated (moves applied).
  bool cut_short = false;   // A limit (nodes, deadline, stop) ended it.
};

// Positions between two readings of `stop` and the clock.
inline constexpr std::uint64_t kLimitCheckInterval = 256;

// True once `limits` end a search that has generated `nodes` positions:
// the node limit is compared every time; `stop` and the deadline only when
// `nodes` has reached `next_check`, which then moves kLimitCheckInterval
// further (start it at 0 to read them on the first call).
bool LimitReached(const SearchLimits& limits, std::uint64_t nodes,
                  std::uint64_t& next_check);

// The positions one search generates, and whether its limits have ended
// it. Limits apply once Arm() is called, so a search can always finish its
// first iteration (one position per legal root move).
class NodeCounter {
 public:
  explicit NodeCounter(const SearchLimits& limits) : limits_(limits) {}

  // `child` = `s` after `pit`; counts the position and, once armed, sets
  // aborted() when a limit is reached.
  void Expand(const State& s, int pit, State& child);
  // Counts one position the caller generated itself (a compact position,
  // kalah_position.h), as Expand does.
  void Count() {
    ++nodes_;
    if (armed_) aborted_ = LimitReached(limits_, nodes_, next_check_);
  }
  // From now on the limits apply; `stop` and the clock are read at the next
  // Expand.
  void Arm() {
    armed_ = true;
    next_check_ = 0;
  }
  bool aborted() const { return aborted_; }
  std::uint64_t nodes() const { return nodes_; }

 private:
  const SearchLimits& limits_;
  std::uint64_t nodes_ = 0;
  std::uint64_t next_check_ = kLimitCheckInterval;
  bool armed_ = false;
  bool aborted_ = false;
};

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_SEARCH_LIMITS_H_
