#include "engine/cpu/mcts_yardstick.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "engine/cpu/random_player.h"
#include "engine/cpu/rng.h"

namespace mancala::engine::cpu {
namespace {

constexpr std::int8_t kUnproven = 2;

struct Node {
  std::int32_t visits = 0;
  std::int32_t reward = 0;  // Summed results for `player` (+1, 0, -1 each).
  std::int32_t first_child = -1;  // -1: not expanded.
  std::int8_t child_count = 0;
  std::int8_t move = -1;           // The move into this node.
  std::int8_t player = 0;          // Who chose that move (the root: its mover).
  std::int8_t proven = kUnproven;  // Proven result for player 0, or not.
};
static_assert(sizeof(Node) == 16);

// A two-player result for `player` from player 0's (+1, 0, -1).
int For(int player, int result0) { return player == 0 ? result0 : -result0; }

// The finished game's result for player 0.
int Result0(const State& s) {
  const auto& ranks = s.outcome().ranks;
  return ranks[0] == ranks[1] ? 0 : ranks[0] < ranks[1] ? 1 : -1;
}

class Search {
 public:
  Search(const State& root, const SearchLimits& limits)
      : root_(root), limits_(limits), rng_(limits.seed) {
    tree_.reserve(4096);
    tree_.push_back(Node{.player = static_cast<std::int8_t>(root.to_move())});
  }

  YardstickResult Run();

 private:
  // One simulation; false (nothing backed up) if a limit ended it.
  bool Simulate();
  bool Play(State& s, int pit);
  void Expand(int index, const State& s);
  int Select(const Node& node) const;
  void Prove(int index);

  const State& root_;
  const SearchLimits& limits_;
  Rng rng_;
  std::vector<Node> tree_;
  std::vector<int> path_;
  std::uint64_t nodes_ = 0;
  std::uint64_t next_check_ = 0;  // The first move reads the clock.
  bool out_ = false;
  int max_depth_ = 0;
  std::uint64_t simulations_ = 0;
};

bool Search::Play(State& s, int pit) {
  out_ = out_ || LimitReached(limits_, nodes_, next_check_);
  if (out_) return false;
  s.Apply(pit);
  ++nodes_;
  return true;
}

void Search::Expand(int index, const State& s) {
  std::array<int, kMaxPits> moves{};
  const int count = ShuffledMoves(s, rng_, moves);
  const int first = static_cast<int>(tree_.size());
  for (int k = 0; k < count; ++k) {
    tree_.push_back(Node{.move = static_cast<std::int8_t>(moves[k]),
                         .player = static_cast<std::int8_t>(s.to_move())});
  }
  tree_[index].first_child = first;
  tree_[index].child_count = static_cast<std::int8_t>(count);
}

int Search::Select(const Node& node) const {
  const double log_n = std::log(static_cast<double>(node.visits));
  int best = -1;
  double best_value = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < node.child_count; ++k) {
    const int c = node.first_child + k;
    const Node& child = tree_[c];
    double value;
    if (child.proven != kUnproven) {
      value = For(child.player, child.proven);
    } else if (child.visits == 0) {
      value = std::numeric_limits<double>::infinity();
    } else {
      value = static_cast<double>(child.reward) / child.visits +
              kYardstickUctC * std::sqrt(log_n / child.visits);
    }
    if (value > best_value) {  // The first of equals: children are shuffled.
      best_value = value;
      best = c;
    }
  }
  return best;
}

// The solver's step at an expanded node whose child was just proven.
void Search::Prove(int index) {
  Node& node = tree_[index];
  const Node* best = nullptr;
  bool all = true;
  for (int k = 0; k < node.child_count; ++k) {
    const Node& child = tree_[node.first_child + k];
    if (child.proven == kUnproven) {
      all = false;
    } else if (best == nullptr || For(child.player, child.proven) >
                                      For(best->player, best->proven)) {
      best = &child;
    }
  }
  if (best != nullptr && (all || For(best->player, best->proven) == 1)) {
    node.proven = best->proven;
  }
}

bool Search::Simulate() {
  State s = root_;
  path_.clear();
  int index = 0;
  path_.push_back(index);
  while (!s.is_over() && tree_[index].visits > 0) {
    if (tree_[index].first_child < 0) {
      if (tree_.size() + kMaxPits > kYardstickMaxNodes) break;  // Full.
      Expand(index, s);
    }
    index = Select(tree_[index]);
    if (!Play(s, tree_[index].move)) return false;
    path_.push_back(index);
  }
  bool solving = s.is_over();
  if (solving) tree_[index].proven = static_cast<std::int8_t>(Result0(s));
  while (!s.is_over()) {
    if (!Play(s, RandomPit(s.LegalMask(), rng_))) return false;
  }
  const int result0 = Result0(s);
  for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
    Node& node = tree_[*it];
    node.reward += For(node.player, result0);
    ++node.visits;
    if (solving && node.first_child >= 0) {
      Prove(*it);
      solving = tree_[*it].proven != kUnproven;
    }
  }
  max_depth_ = std::max(max_depth_, static_cast<int>(path_.size()) - 1);
  ++simulations_;
  return true;
}

YardstickResult Search::Run() {
  YardstickResult result;
  while (tree_[0].proven == kUnproven && Simulate()) {
  }
  result.simulations = simulations_;
  result.search.nodes = nodes_;
  result.search.depth = max_depth_;
  result.search.cut_short = tree_[0].proven == kUnproven;
  result.proven = !result.search.cut_short;
  const Node& root = tree_[0];
  if (root.first_child < 0) {  // Not one simulation got past the root.
    result.search.move = RandomPit(root_.LegalMask(), rng_);
    return result;
  }
  const auto rank = [](const Node& n) {
    return std::make_tuple(n.proven == kUnproven ? 0 : For(n.player, n.proven),
                           n.visits, n.reward);
  };
  const Node* best = &tree_[root.first_child];
  for (int k = 1; k < root.child_count; ++k) {
    const Node& c = tree_[root.first_child + k];
    if (rank(c) > rank(*best)) best = &c;
  }
  result.search.move = best->move;
  result.search.value =
      best->proven != kUnproven ? 1000 * For(best->player, best->proven)
      : best->visits > 0
          ? static_cast<int>(1000.0 * best->reward / best->visits)
          : 0;
  return result;
}

}  // namespace

YardstickResult MctsYardstickSearch(const State& state,
                                    const SearchLimits& limits) {
  Search search(state, limits);
  return search.Run();
}

}  // namespace mancala::engine::cpu
