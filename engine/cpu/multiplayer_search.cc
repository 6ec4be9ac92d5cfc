#include "engine/cpu/multiplayer_search.h"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "engine/cpu/evaluation.h"
#include "engine/cpu/root_moves.h"
#include "engine/cpu/transposition_table.h"

namespace mancala::engine::cpu {
namespace {

struct VectorEntry {
  std::uint64_t key = 0;
  PlayerValues values{};
  std::int16_t depth = -1;  // -1 = empty.
  std::int8_t move = -1;
};

class MaxN {
 public:
  MaxN(const State& root, const SearchLimits& limits)
      : root_(root),
        limits_(limits),
        me_(root.to_move()),
        table_(std::size_t{1} << std::clamp(limits.tt_log2 - 1, 9, 22)) {}

  SearchResult Run();

 private:
  PlayerValues Search(const State& s, int depth, int ext);
  // The value of `child`, reached from `s` by one move, searched to
  // `depth` more plies (an extra turn keeps the depth while `ext` allows).
  PlayerValues Next(const State& s, const State& child, int depth, int ext);
  // The greedy model's move for the player to move in `s` (uses `child`
  // and `grandchild` as scratch).
  int ModelMove(const State& s, State& child, State& grandchild);

  const State& root_;
  const SearchLimits limits_;
  const int me_;
  std::vector<VectorEntry> table_;
  NodeCounter counter_{limits_};
  bool depth_cut_ = false;
};

int MaxN::ModelMove(const State& s, State& child, State& grandchild) {
  const int mover = s.to_move();
  const int n = s.rules().pits;
  const std::uint32_t mask = s.LegalMask();
  int pick = -1;
  int pick_value = 0;
  for (int pit = n - 1; pit >= 0; --pit) {
    if (!(mask >> pit & 1u)) continue;
    counter_.Expand(s, pit, child);
    if (counter_.aborted()) return pit;
    int v = Evaluate(child, mover);
    if (!IsFinalFor(child, mover) && child.to_move() == mover) {
      // An extra turn: the best continuation of it.
      v = -kInfinity;
      const std::uint32_t next = child.LegalMask();
      for (int i = n - 1; i >= 0; --i) {
        if (!(next >> i & 1u)) continue;
        counter_.Expand(child, i, grandchild);
        if (counter_.aborted()) return pit;
        v = std::max(v, Evaluate(grandchild, mover));
      }
    }
    if (pick < 0 || v > pick_value) {
      pick = pit;
      pick_value = v;
    }
  }
  return pick;
}

PlayerValues MaxN::Next(const State& s, const State& child, int depth,
                        int ext) {
  if (IsFinalFor(child, me_)) return EvaluateAll(child);
  if (child.to_move() == s.to_move() && ext < limits_.extensions) {
    return Search(child, depth, ext + 1);  // The same turn goes on.
  }
  return Search(child, depth - 1, ext);
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
  PlayerValues best{};
  int best_move = -1;
  State child = s;
  if (limits_.model_opponents && mover != me_) {
    State grandchild = s;
    best_move = ModelMove(s, child, grandchild);
    if (counter_.aborted()) return best;
    counter_.Expand(s, best_move, child);
    if (counter_.aborted()) return best;
    best = Next(s, child, depth, ext);
  } else {
    const std::uint32_t mask = s.LegalMask();
    std::array<int, kMaxPits> moves;
    int count = 0;
    if (first >= 0 && (mask >> first & 1u)) moves[count++] = first;
    for (int i = s.rules().pits - 1; i >= 0; --i) {
      if ((mask >> i & 1u) && i != first) moves[count++] = i;
    }
    for (int k = 0; k < count; ++k) {
      counter_.Expand(s, moves[k], child);
      if (counter_.aborted()) return best;
      const PlayerValues v = Next(s, child, depth, ext);
      if (counter_.aborted()) return best;
      if (best_move < 0 || v[mover] > best[mover]) {
        best = v;
        best_move = moves[k];
      }
    }
  }
  if (counter_.aborted()) return best;
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
  RootMoves root(root_, limits_.seed);
  result.move = root.first();
  if (root.size() == 1) return result;

  const int max_depth = std::clamp(limits_.max_depth, 1, kMaxSearchDepth);
  State child = root_;
  for (int depth = 1; depth <= max_depth; ++depth) {
    if (depth == 2) counter_.Arm();  // Limits apply from depth 2 on.
    depth_cut_ = false;
    root.BeginIteration();
    for (std::size_t k = 0; k < root.size(); ++k) {
      counter_.Expand(root_, root.move(k), child);
      if (counter_.aborted()) break;
      // The depth-1 iteration must stay one position per move: no
      // extension for an extra turn there.
      const PlayerValues v =
          Next(root_, child, depth, depth > 1 ? 0 : limits_.extensions);
      if (counter_.aborted()) break;
      root.Record(k, v[me_]);
    }
    if (counter_.aborted()) {
      result.cut_short = true;
      break;
    }
    result.value = root.best_value();
    result.move = root.EndIteration();
    result.depth = depth;
    if (!depth_cut_) break;  // Every line was searched to its end.
  }
  result.nodes = counter_.nodes();
  return result;
}

}  // namespace

SearchResult MaxNSearch(const State& state, const SearchLimits& limits) {
  MaxN search(state, limits);
  return search.Run();
}

}  // namespace mancala::engine::cpu
