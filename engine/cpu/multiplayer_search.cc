#include "engine/cpu/multiplayer_search.h"

#include <algorithm>
#include <array>
#include <vector>

#include "engine/cpu/evaluation.h"
#include "engine/cpu/rng.h"
#include "engine/cpu/transposition_table.h"

namespace mancala::engine::cpu {
namespace {

constexpr std::uint64_t kCheckEvery = 256;

struct VectorEntry {
  std::uint64_t key = 0;
  PlayerValues values{};
  std::int16_t depth = -1;  // -1 = empty.
  std::int8_t move = -1;
};

class MaxN {
 public:
  MaxN(const State& root, const SearchLimits& limits)
      : root_(root), limits_(limits), me_(root.to_move()),
        table_(std::size_t{1} << std::clamp(limits.tt_log2 - 1, 9, 22)) {}

  SearchResult Run();

 private:
  PlayerValues Search(const State& s, int depth, int ext);
  void Expand(const State& s, int pit, State& child);
  void CheckLimits();

  const State& root_;
  const SearchLimits limits_;
  const int me_;
  std::vector<VectorEntry> table_;
  std::uint64_t nodes_ = 0;
  std::uint64_t next_check_ = kCheckEvery;
  bool abortable_ = false;
  bool aborted_ = false;
  bool depth_cut_ = false;
};

void MaxN::CheckLimits() {
  if (limits_.node_limit > 0 && nodes_ >= limits_.node_limit) {
    aborted_ = true;
    return;
  }
  if (nodes_ < next_check_) return;
  next_check_ = nodes_ + kCheckEvery;
  if (limits_.stop != nullptr &&
      limits_.stop->load(std::memory_order_relaxed)) {
    aborted_ = true;
    return;
  }
  if (limits_.deadline != std::chrono::steady_clock::time_point::max() &&
      std::chrono::steady_clock::now() >= limits_.deadline) {
    aborted_ = true;
  }
}

void MaxN::Expand(const State& s, int pit, State& child) {
  child = s;
  child.Apply(pit);
  ++nodes_;
  if (abortable_) CheckLimits();
}

PlayerValues MaxN::Search(const State& s, int depth, int ext) {
  if (depth <= 0) {
    depth_cut_ = true;
    return EvaluateAll(s);
  }
  const std::uint64_t key = PositionKey(s);
  VectorEntry& entry = table_[key & (table_.size() - 1)];
  int first = -1;
  if (entry.key == key && entry.depth >= 0) {
    if (entry.depth >= depth) {
      depth_cut_ = true;
      return entry.values;
    }
    first = entry.move;
  }
  const int mover = s.to_move();
  const std::uint32_t mask = s.LegalMask();
  std::array<int, kMaxPits> moves;
  int count = 0;
  if (first >= 0 && (mask >> first & 1u)) moves[count++] = first;
  for (int i = s.rules().pits - 1; i >= 0; --i) {
    if ((mask >> i & 1u) && i != first) moves[count++] = i;
  }
  PlayerValues best{};
  int best_move = -1;
  State child = s;
  for (int k = 0; k < count; ++k) {
    Expand(s, moves[k], child);
    if (aborted_) return best;
    PlayerValues v;
    if (IsFinalFor(child, me_)) {
      v = EvaluateAll(child);
    } else if (child.to_move() == mover && ext < limits_.extensions) {
      v = Search(child, depth, ext + 1);
    } else {
      v = Search(child, depth - 1, ext);
    }
    if (aborted_) return best;
    if (best_move < 0 || v[mover] > best[mover]) {
      best = v;
      best_move = moves[k];
    }
  }
  if (entry.depth <= depth || entry.key == key) {
    entry.key = key;
    entry.values = best;
    entry.depth = static_cast<std::int16_t>(depth);
    entry.move = static_cast<std::int8_t>(best_move);
  }
  return best;
}

SearchResult MaxN::Run() {
  SearchResult result;
  std::vector<int> moves = root_.LegalMoves();
  Rng rng(limits_.seed);
  for (int i = static_cast<int>(moves.size()) - 1; i > 0; --i) {
    std::swap(moves[i], moves[rng.Below(i + 1)]);
  }
  result.move = moves.front();
  if (moves.size() == 1) return result;

  std::vector<int> values(moves.size(), 0);
  const int max_depth = std::clamp(limits_.max_depth, 1, kMaxSearchDepth);
  State child = root_;
  for (int depth = 1; depth <= max_depth; ++depth) {
    if (depth == 2) {
      abortable_ = true;
      next_check_ = 0;
    }
    depth_cut_ = false;
    int best = 0;
    std::vector<int> ties;
    for (std::size_t k = 0; k < moves.size(); ++k) {
      Expand(root_, moves[k], child);
      if (aborted_) break;
      PlayerValues v;
      if (IsFinalFor(child, me_)) {
        v = EvaluateAll(child);
      } else if (child.to_move() == me_ && limits_.extensions > 0) {
        v = Search(child, depth, 1);  // An extra turn: the turn goes on.
      } else {
        v = Search(child, depth - 1, 0);
      }
      if (aborted_) break;
      values[k] = v[me_];
      if (ties.empty() || v[me_] > best) {
        best = v[me_];
        ties.clear();
      }
      if (v[me_] == best) ties.push_back(static_cast<int>(k));
    }
    if (aborted_) {
      result.cut_short = true;
      break;
    }
    const int best_index = ties[static_cast<std::size_t>(
        rng.Below(static_cast<int>(ties.size())))];
    result.move = moves[best_index];
    result.value = best;
    result.depth = depth;
    // Next iteration: the best move first, then by value.
    std::vector<int> order(moves.size());
    for (std::size_t k = 0; k < moves.size(); ++k) order[k] = static_cast<int>(k);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
      if (x == best_index || y == best_index) return x == best_index && y != x;
      return values[x] > values[y];
    });
    std::vector<int> sorted(moves.size());
    std::vector<int> sorted_values(moves.size());
    for (std::size_t k = 0; k < moves.size(); ++k) {
      sorted[k] = moves[order[k]];
      sorted_values[k] = values[order[k]];
    }
    moves.swap(sorted);
    values.swap(sorted_values);
    if (!depth_cut_) break;  // Every line was searched to its end.
  }
  result.nodes = nodes_;
  return result;
}

}  // namespace

SearchResult MaxNSearch(const State& state, const SearchLimits& limits) {
  MaxN search(state, limits);
  return search.Run();
}

}  // namespace mancala::engine::cpu
