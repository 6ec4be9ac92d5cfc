// The root of an iterative-deepening search (alphabeta.h,
// multiplayer_search.h): the legal moves in the order they are searched,
// their values in the current iteration, and the choice among equal bests.
//
// The first order is a shuffle drawn from `seed`; after each completed
// iteration the chosen move comes first and the others follow by value
// (equal values keep their order). The move chosen among several of equal
// best value is drawn from the same generator, so a seeded CPU varies its
// play between games yet repeats itself exactly for the same seed.
// Thread-safety: a value owned by one search.

#ifndef MANCALA_ENGINE_CPU_ROOT_MOVES_H_
#define MANCALA_ENGINE_CPU_ROOT_MOVES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/cpu/rng.h"
#include "engine/state.h"

namespace mancala::engine::cpu {

class RootMoves {
 public:
  // `root` must not be over.
  RootMoves(const State& root, std::uint64_t seed);

  std::size_t size() const { return moves_.size(); }
  int move(std::size_t k) const { return moves_[k]; }
  // The move to play if no iteration completes: the first in order.
  int first() const { return moves_.front(); }

  // Starts an iteration: no move has a value yet.
  void BeginIteration() { ties_.clear(); }
  // Move k (in the current order) is worth `value` to the searcher.
  void Record(std::size_t k, int value);
  // True once a move of this iteration has a value.
  bool has_best() const { return !ties_.empty(); }
  // The best value recorded in this iteration (has_best() must be true).
  int best_value() const { return best_; }
  // Ends a completed iteration: draws the chosen move among the best,
  // returns it, and reorders the moves for the next iteration.
  int EndIteration();
  // Ends a completed iteration in which every move lost: chooses the move
  // with the most `escapes` (per move, in the current order), among equals
  // the one EndIteration would draw if it is one of them, else the first;
  // returns it and reorders as EndIteration does.
  int EndLostIteration(const std::vector<int>& escapes);

 private:
  // Moves the chosen one (an index) to the front, the others by value.
  int Reorder(int chosen);

  std::vector<int> moves_;
  std::vector<int> values_;
  std::vector<int> ties_;  // Indexes of the moves worth best_.
  int best_ = 0;
  Rng rng_;
};

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_ROOT_MOVES_H_
