// Kalah endgame tables: the exact value of every Kalah position with at
// most kKalahEndgameSeeds seeds left in the pits (issue 31), so level 4
// plays such endgames perfectly.
//
// What a value is: stores never give seeds back (K.3-K.5, K.9), so what is
// still to be won is only the seeds in the pits. The value of a position
// for the player to move is the largest net share of those seeds it can
// secure against best play, (its final store - its store now) - (the
// other's final store - the other's store now), from -s to +s for s seeds
// in the pits. The final margin is then the store difference plus that
// value, and maximising the margin is what the search does (evaluation.h:
// a win, then by the most; a loss, then by the least).
//
// How it is built: by exhaustive retrograde solving in order of the seeds
// in the pits, 0, 1, ..., kKalahEndgameSeeds. A move either puts a seed in
// a store (fewer seeds in the pits: a smaller table, already solved) or
// stays in the mover's row, moving every seed it sows nearer the mover's
// store; so no position can repeat and, within one seed count, a memoised
// depth-first solve terminates. Positions are indexed by the combinatorial
// number system: the 12 pit counts (the mover's row first, each row in
// sowing order) as bars among stars, one byte per position.
//
// Size (kKalahEndgameSeeds = 13, 6 pits a side): C(13 + 12, 12) =
// 5,200,300 positions, 5.0 MiB per end rule (K.8 / K.8'), within the
// issue's 64 MiB a game. Build time: KalahEndgameTable::build_seconds();
// 1.9 to 14 s measured on the 2-core development machine under load
// averages of 6 to 15 (one thread; README "CPU players"). 14 seeds would be
// 9.2 MiB but took 11 s there when 13 took 4.2 s, and every process that
// plays level 4 with a node limit (tests, arenas) waits for it. A table
// is built once per process and end rule: For() builds it in the calling
// thread (or waits for the build under way); IfReady() never waits: the
// first call starts the build on a thread of its own and, until it is
// done, answers nullptr. Built tables are never freed (a process keeps
// them until it exits, so a build still running then is harmless).
// Thread-safety: For() and IfReady() are safe to call concurrently; a built
// table is immutable.

#ifndef MANCALA_ENGINE_CPU_KALAH_ENDGAME_H_
#define MANCALA_ENGINE_CPU_KALAH_ENDGAME_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine::cpu {

inline constexpr int kKalahEndgameSeeds = 13;

class KalahEndgameTable {
 public:
  // The table for `rules`, built first if need be; nullptr when `rules` is
  // not two-player Kalah with 6 pits.
  static const KalahEndgameTable* For(const Rules& rules);
  // The table for `rules` if it is built, else nullptr (and the build is
  // started in the background if it was not yet).
  static const KalahEndgameTable* IfReady(const Rules& rules);

  // The value (see above) of `state` for its player to move, or nullopt if
  // more than max_seeds() seeds are in the pits. `state` must be a
  // position of this table's rules and not over.
  std::optional<int> Lookup(const State& state) const;

  int max_seeds() const { return max_seeds_; }
  std::size_t positions() const { return values_.size(); }
  std::size_t bytes() const { return values_.size() * sizeof(values_[0]); }
  double build_seconds() const { return build_seconds_; }

  // Builds a table for `end_rule` up to `max_seeds` seeds in the pits
  // (tests build small ones; For() uses kKalahEndgameSeeds).
  KalahEndgameTable(EndRule end_rule, int max_seeds);

 private:
  static constexpr int kPits = 6;
  static constexpr int kCells = 2 * kPits;
  using Cells = std::array<int, kCells>;  // Mover's row, then the other's.

  // Index of `cells`, which hold `seeds` seeds in all.
  std::size_t Index(const Cells& cells, int seeds) const;
  // Solves `cells` (and, first, whatever it leads to) and returns its value.
  int Solve(const Cells& cells, int seeds);
  // Solves every position with exactly `seeds` seeds, cells `from` on
  // still to be filled with `left` seeds.
  void SolveAll(Cells& cells, int from, int left, int seeds);

  EndRule end_rule_;
  int max_seeds_;
  std::vector<std::int8_t> values_;
  double build_seconds_ = 0;
};

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_KALAH_ENDGAME_H_
