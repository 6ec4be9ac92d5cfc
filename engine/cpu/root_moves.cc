#include "engine/cpu/root_moves.h"

#include <algorithm>
#include <numeric>

namespace mancala::engine::cpu {

RootMoves::RootMoves(const State& root, std::uint64_t seed)
    : moves_(root.LegalMoves()), values_(moves_.size(), 0), rng_(seed) {
  for (int i = static_cast<int>(moves_.size()) - 1; i > 0; --i) {
    std::swap(moves_[i], moves_[rng_.Below(i + 1)]);
  }
}

void RootMoves::Record(std::size_t k, int value) {
  values_[k] = value;
  if (ties_.empty() || value > best_) {
    best_ = value;
    ties_.clear();
  }
  if (value == best_) ties_.push_back(static_cast<int>(k));
}

int RootMoves::EndIteration() {
  return Reorder(ties_[static_cast<std::size_t>(
      rng_.Below(static_cast<int>(ties_.size())))]);
}

int RootMoves::EndLostIteration(const std::vector<int>& escapes) {
  const int drawn = ties_[static_cast<std::size_t>(
      rng_.Below(static_cast<int>(ties_.size())))];
  const int most = *std::max_element(escapes.begin(), escapes.end());
  int chosen = drawn;
  if (escapes[static_cast<std::size_t>(drawn)] != most) {
    chosen = static_cast<int>(std::find(escapes.begin(), escapes.end(), most) -
                              escapes.begin());
  }
  return Reorder(chosen);
}

int RootMoves::Reorder(int chosen) {
  std::vector<int> order(moves_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    if (x == chosen || y == chosen) return x == chosen && y != x;
    return values_[x] > values_[y];
  });
  std::vector<int> moves(moves_.size());
  std::vector<int> values(moves_.size());
  for (std::size_t k = 0; k < moves_.size(); ++k) {
    moves[k] = moves_[order[k]];
    values[k] = values_[order[k]];
  }
  moves_.swap(moves);
  values_.swap(values);
  return moves_.front();
}

}  // namespace mancala::engine::cpu
