#include "engine/cpu/mcts_yardstick.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/cpu/rng.h"

namespace mancala::engine::cpu {
namespace {

constexpr std::int8_t kUnproven = 2;
// A rollout longer than this is scored a draw; no rule lets a game get
// near it (Oware ends repetitions, O.11), it only guards the loop.
constexpr int kMaxRolloutPlies = 10000;

struct Node {
  double reward = 0;  // Summed for `player`, the one who moved into it.
  std::uint32_t visits = 0;
  std::int32_t first_child = -1;  // -1: not expanded.
  std::int8_t child_count = 0;
  std::int8_t move = -1;
  std::int8_t player = 0;
  std::int8_t outcome = kUnproven;  // Proven result for player 0.
};

// +1 / 0 / -1 for player 0 of a finished two-player game.
int ResultForZero(const State& s) {
  const int w = s.outcome().winner;
  return w < 0 ? 0 : (w == 0 ? 1 : -1);
}

int ForPlayer(int result_for_zero, int player) {
  return player == 0 ? result_for_zero : -result_for_zero;
}

class Search {
 public:
  Search(const State& root, const MctsLimits& limits)
      : root_(root), limits_(limits), rng_(limits.seed) {
    tree_.reserve(4096);
    tree_.emplace_back();
    tree_[0].player = static_cast<std::int8_t>(1 - root.to_move());
  }

  MctsResult Run();

 private:
  bool LimitReached() const;
  void Iterate();
  // Adds the children of tree_[index] (position `s`), shuffled; false when
  // the tree is full.
  bool Expand(int index, const State& s);
  int Select(int index) const;
  int Rollout(State& s);  // The result for player 0.
  // True if `a` is a better final choice than `b` (see the header).
  bool FinalBetter(const Node& a, const Node& b) const;

  const State& root_;
  const MctsLimits limits_;
  Rng rng_;
  std::vector<Node> tree_;
  std::vector<int> path_;
  std::uint64_t simulations_ = 0;
};

bool Search::LimitReached() const {
  if (limits_.max_simulations > 0 && simulations_ >= limits_.max_simulations) {
    return true;
  }
  if (limits_.stop != nullptr &&
      limits_.stop->load(std::memory_order_relaxed)) {
    return true;
  }
  return limits_.deadline != std::chrono::steady_clock::time_point::max() &&
         std::chrono::steady_clock::now() >= limits_.deadline;
}

bool Search::Expand(int index, const State& s) {
  const std::uint32_t mask = s.LegalMask();
  const int count = std::popcount(mask);
  if (tree_.size() + static_cast<std::size_t>(count) >
      static_cast<std::size_t>(kMctsMaxNodes)) {
    return false;
  }
  const int first = static_cast<int>(tree_.size());
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    Node child;
    child.move = static_cast<std::int8_t>(std::countr_zero(m));
    child.player = static_cast<std::int8_t>(s.to_move());
    tree_.push_back(child);
  }
  // Fisher-Yates, so equal UCT values (the unvisited) fall at random.
  for (int k = count - 1; k > 0; --k) {
    std::swap(tree_[first + k], tree_[first + rng_.Below(k + 1)]);
  }
  tree_[index].first_child = first;
  tree_[index].child_count = static_cast<std::int8_t>(count);
  return true;
}

int Search::Select(int index) const {
  const Node& parent = tree_[index];
  const double log_parent = std::log(static_cast<double>(parent.visits));
  int best = -1;
  double best_value = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < parent.child_count; ++k) {
    const int c = parent.first_child + k;
    const Node& child = tree_[c];
    double v;
    if (child.outcome != kUnproven) {
      v = ForPlayer(child.outcome, child.player);
    } else if (child.visits == 0) {
      v = std::numeric_limits<double>::infinity();
    } else {
      const double n = child.visits;
      v = child.reward / n + limits_.uct_c * std::sqrt(log_parent / n);
    }
    if (best < 0 || v > best_value) {
      best = c;
      best_value = v;
    }
  }
  return best;
}

int Search::Rollout(State& s) {
  for (int ply = 0; !s.is_over(); ++ply) {
    if (ply >= kMaxRolloutPlies) return 0;
    std::uint32_t mask = s.LegalMask();
    for (int k = rng_.Below(std::popcount(mask)); k > 0; --k) mask &= mask - 1;
    s.Apply(std::countr_zero(mask));
  }
  return ResultForZero(s);
}

void Search::Iterate() {
  State s = root_;
  path_.clear();
  path_.push_back(0);
  int index = 0;
  while (!s.is_over() && tree_[index].visits > 0) {
    if (tree_[index].first_child < 0 && !Expand(index, s)) break;
    index = Select(index);
    s.Apply(tree_[index].move);
    path_.push_back(index);
  }
  int result;
  bool solved = false;
  if (s.is_over()) {
    result = ResultForZero(s);
    tree_[index].outcome = static_cast<std::int8_t>(result);
    solved = true;
  } else {
    result = Rollout(s);
  }
  for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
    Node& node = tree_[*it];
    node.reward += ForPlayer(result, node.player);
    ++node.visits;
    if (!solved || node.first_child < 0) continue;
    // The solver: the player to move here takes a proven win at once, or
    // the best child once every child is proven.
    const int mover = tree_[node.first_child].player;
    int best = kUnproven;
    bool all = true;
    for (int k = 0; k < node.child_count; ++k) {
      const int o = tree_[node.first_child + k].outcome;
      if (o == kUnproven) {
        all = false;
      } else if (best == kUnproven ||
                 ForPlayer(o, mover) > ForPlayer(best, mover)) {
        best = o;
      }
    }
    if (best != kUnproven && (all || ForPlayer(best, mover) == 1)) {
      node.outcome = static_cast<std::int8_t>(best);
    } else {
      solved = false;
    }
  }
  ++simulations_;
}

bool Search::FinalBetter(const Node& a, const Node& b) const {
  const int oa = a.outcome == kUnproven ? 0 : ForPlayer(a.outcome, a.player);
  const int ob = b.outcome == kUnproven ? 0 : ForPlayer(b.outcome, b.player);
  if (oa != ob) return oa > ob;
  if (a.visits != b.visits) return a.visits > b.visits;
  return a.reward > b.reward;
}

MctsResult Search::Run() {
  MctsResult result;
  // Always at least the root's expansion, so a move comes back.
  do {
    Iterate();
  } while (tree_[0].outcome == kUnproven && !LimitReached());
  if (tree_[0].first_child < 0) Expand(0, root_);
  const Node& root = tree_[0];
  int best = root.first_child;
  for (int k = 1; k < root.child_count; ++k) {
    if (FinalBetter(tree_[root.first_child + k], tree_[best])) {
      best = root.first_child + k;
    }
  }
  result.move = tree_[best].move;
  result.simulations = simulations_;
  if (root.outcome != kUnproven) {
    result.proven = true;
    result.proven_result = ForPlayer(root.outcome, root_.to_move());
  }
  return result;
}

}  // namespace

MctsResult MctsYardstick(const State& state, const MctsLimits& limits) {
  Search search(state, limits);
  return search.Run();
}

}  // namespace mancala::engine::cpu
