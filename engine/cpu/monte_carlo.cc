#include "engine/cpu/monte_carlo.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <vector>

#include "engine/cpu/one_ply.h"
#include "engine/cpu/random_player.h"
#include "engine/cpu/rng.h"

namespace mancala::engine::cpu {
namespace {

// UCB1's exploration constant for rewards in [0, 1]: near the usual
// 1/sqrt(2) (Kocsis and Szepesvari).
constexpr double kExploration = 0.7;

struct Node {
  std::array<float, kMaxPlayers> reward{};  // Summed per player.
  std::int32_t visits = 0;
  std::int32_t first_child = -1;  // -1: not expanded.
  std::int8_t child_count = 0;
  std::int8_t move = -1;  // The move that led here.
};

// Mancala Basic (MB.6, MB.10): sowing `seeds` from pit `pit` of `pits`
// drops the last one in a store, so the mover plays again. Every active
// player owns pits + 1 consecutive positions of the ring, its store last.
bool ReachesStore(int pit, int seeds, int pits) {
  const int to_store = pits - pit;
  return seeds >= to_store && (seeds - to_store) % (pits + 1) == 0;
}

class Uct {
 public:
  Uct(const State& root, const SearchLimits& limits)
      : root_(root), limits_(limits), rng_(limits.seed) {
    tree_.reserve(1024);
    tree_.emplace_back();
  }

  SearchResult Run();

 private:
  // One selection, expansion, simulation and backup; false (and no backup)
  // if a limit ended it.
  bool Iterate();
  // Applies `pit` to `s`, counting it; false once a limit is reached.
  bool Play(State& s, int pit);
  int Select(const Node& node, int mover);
  void Expand(int index, const State& s);
  // Plays `s` to its end with the light policy; false if a limit ended it.
  bool Simulate(State& s);
  int PolicyMove(const State& s);
  bool OutOfTime();

  const State& root_;
  const SearchLimits limits_;
  Rng rng_;
  std::vector<Node> tree_;
  std::vector<int> path_;
  std::uint64_t nodes_ = 0;
  std::uint64_t next_check_ = 0;  // The first move checks the clock.
  bool out_of_time_ = false;
  int max_depth_ = 0;
  int simulations_ = 0;
};

bool Uct::OutOfTime() {
  out_of_time_ = out_of_time_ || LimitReached(limits_, nodes_, next_check_);
  return out_of_time_;
}

bool Uct::Play(State& s, int pit) {
  if (OutOfTime()) return false;
  s.Apply(pit);
  ++nodes_;
  return true;
}

int Uct::Select(const Node& node, int mover) {
  const double log_n = std::log(static_cast<double>(node.visits));
  int best = -1;
  double best_score = -1;
  for (int k = 0; k < node.child_count; ++k) {
    const int c = node.first_child + k;
    const Node& child = tree_[c];
    if (child.visits == 0) return c;  // Children were shuffled.
    const double score = child.reward[mover] / child.visits +
                         kExploration * std::sqrt(log_n / child.visits);
    if (score > best_score) {
      best_score = score;
      best = c;
    }
  }
  return best;
}

void Uct::Expand(int index, const State& s) {
  std::array<int, kMaxPits> moves{};
  const int count = ShuffledMoves(s, rng_, moves);
  const int first = static_cast<int>(tree_.size());
  for (int k = 0; k < count; ++k) {
    tree_.emplace_back().move = static_cast<std::int8_t>(moves[k]);
  }
  tree_[index].first_child = first;
  tree_[index].child_count = static_cast<std::int8_t>(count);
}

int Uct::PolicyMove(const State& s) {
  const int n = s.rules().pits;
  const int mover = s.to_move();
  const std::uint32_t mask = s.LegalMask();
  if (s.rules().game == Game::kMancalaBasic) {
    // The extra turn nearest the store first: it disturbs no other one.
    for (int pit = n - 1; pit >= 0; --pit) {
      if ((mask >> pit & 1u) && ReachesStore(pit, s.pit(mover, pit), n)) {
        return pit;
      }
    }
  }
  return RandomPit(mask, rng_);
}

bool Uct::Simulate(State& s) {
  while (!s.is_over()) {
    if (!Play(s, PolicyMove(s))) return false;
  }
  return true;
}

bool Uct::Iterate() {
  State s = root_;
  path_.clear();
  int index = 0;
  path_.push_back(index);
  while (!s.is_over() && tree_[index].first_child >= 0) {
    index = Select(tree_[index], s.to_move());
    if (!Play(s, tree_[index].move)) return false;
    path_.push_back(index);
  }
  if (!s.is_over() && tree_.size() + kMaxPits <= kMaxTreeNodes) {
    Expand(index, s);
    index = tree_[index].first_child;
    if (!Play(s, tree_[index].move)) return false;
    path_.push_back(index);
  }
  if (!Simulate(s)) return false;
  max_depth_ = std::max(max_depth_, static_cast<int>(path_.size()) - 1);
  ++simulations_;
  const int players = s.rules().players;
  std::array<float, kMaxPlayers> reward{};
  for (int p = 0; p < players; ++p) {
    reward[p] = static_cast<float>(players - s.outcome().ranks[p]) /
                static_cast<float>(players - 1);
  }
  for (const int i : path_) {
    Node& node = tree_[i];
    ++node.visits;
    for (int p = 0; p < players; ++p) node.reward[p] += reward[p];
  }
  return true;
}

SearchResult Uct::Run() {
  SearchResult result;
  result.cut_short = true;  // Only a limit ends a Monte Carlo search.
  Expand(0, root_);
  while (Iterate()) {
  }
  result.nodes = nodes_;
  if (simulations_ == 0) {
    // Stopped before one game was sampled: level 2's move, at once.
    result.move = OnePlyMove(root_, limits_.seed);
    return result;
  }
  const int me = root_.to_move();
  const auto mean = [me](const Node& n) {
    return n.visits > 0 ? n.reward[me] / n.visits : 0.0;
  };
  const Node& root = tree_[0];
  const Node* best = &tree_[root.first_child];
  for (int k = 1; k < root.child_count; ++k) {
    const Node& c = tree_[root.first_child + k];
    if (c.visits != best->visits ? c.visits > best->visits
        : mean(c) != mean(*best) ? mean(c) > mean(*best)
                                 : c.move < best->move) {
      best = &c;
    }
  }
  result.move = best->move;
  result.value = static_cast<int>(1000.0 * mean(*best));
  result.depth = max_depth_;
  return result;
}

}  // namespace

SearchResult MonteCarloSearch(const State& state, const SearchLimits& limits) {
  Uct search(state, limits);
  return search.Run();
}

}  // namespace mancala::engine::cpu
