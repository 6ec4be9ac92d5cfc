// Endgame tables for Kalah (docs/rules.md section 4): the exact result of
// every position with at most kKalahEndgameSeeds seeds left in the pits,
// for level 4's search (alphabeta.h), which then plays the endgame
// perfectly and sees exact values wherever its lines reach one.
//
// What a table holds: for each position of the twelve pits (the stores do
// not matter to the play), the net seeds the player to move gains from
// there to the end of the game, sweep included (K.9), when both players
// play for the largest final margin: a number in [-seeds, +seeds]. The
// final margin of a position is then its store difference plus that
// number, and since a larger margin is always a better result (a win by
// more, a loss by less, evaluation.h), a move that keeps the most of it is
// a best move.
//
// How it is built (retrograde analysis in the order the game allows): the
// seeds in the pits never increase (K.11: a seed leaves the pits only for a
// store), so positions with n seeds depend only on positions with n or
// fewer; among positions of n seeds a move that reaches no store moves
// every seed it sows towards the mover's store without leaving the row,
// so they never repeat. The build solves n = 0, 1, ... in turn, each
// position once, by a memoised search of its moves. The moves are played on
// a compact twelve-byte board (one rule set, K.2-K.9, on both end rules);
// KalahEndgameTest checks that board against State::Apply on random
// positions and the table against an exhaustive search through State.
//
// Size and build time: one byte per position, C(n + 12, 12) positions up to
// n seeds: 17.4 million bytes (16.6 MiB) for n <= 15, per end rule, built in
// about 3 s on one core of the 2-core test machine (KalahEndgameTest logs
// the figure). Kalah has 6 pits whatever its seed count, so the same table
// serves 4, 5 and 6 seeds.
//
// Availability: the first call for an end rule starts the build on a
// background thread. TryGet() never waits (a search without the table is
// a search without it), Get() waits for it: node-limited searches, which
// must give the same move on every run, wait; the server's timed ones do
// not.
// Thread-safety: a built table is immutable; Get and TryGet may be called
// from any thread.

#ifndef MANCALA_ENGINE_CPU_KALAH_ENDGAME_H_
#define MANCALA_ENGINE_CPU_KALAH_ENDGAME_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/state.h"

namespace mancala::engine::cpu {

// Positions with at most this many seeds in the pits are in the table.
inline constexpr int kKalahEndgameSeeds = 15;

class KalahEndgame {
 public:
  // Twelve pits: the player to move's six in sowing order (pit 5 next to
  // their store), then the opponent's six in sowing order.
  using Pits = std::array<std::uint8_t, 12>;

  // True if a table exists for `rules` (Kalah with 6 pits a side, two
  // players); the functions below return nullptr for other rules.
  static bool Supports(const Rules& rules);
  // The table for `rules`, waiting for its build (which this call starts
  // if no call has).
  static const KalahEndgame* Get(const Rules& rules);
  // The table if it is built; else nullptr, after starting its build if no
  // call has.
  static const KalahEndgame* TryGet(const Rules& rules);

  // True if `state` (not over, of the table's rules) is in the table.
  bool Covers(const State& state) const;
  // The final margin (store difference, seeds) of `state`, which Covers,
  // for `player`, under perfect play.
  int FinalMargin(const State& state, int player) const;
  // The net seeds the player to move gains from `pits` (at most
  // kKalahEndgameSeeds seeds) to the end.
  int Gain(const Pits& pits) const;

  // The table's size in bytes, and the time its build took.
  std::size_t bytes() const { return gains_.size(); }
  double build_seconds() const { return build_seconds_; }

  // For the build (kalah_endgame.cc) and its tests: plays `pit` of the
  // player to move on `pits`. Returns the seeds the mover gained from the
  // move (store seeds, captures, and the sweep if the game ended), sets
  // `extra_turn` and `over`, and leaves `pits` as the next player to move
  // sees them (flipped when the turn passed).
  static int PlayCompact(Pits& pits, int pit, EndRule rule, bool& extra_turn,
                         bool& over);

  explicit KalahEndgame(EndRule rule);  // Builds (use Get / TryGet).

 private:
  std::vector<std::int8_t> gains_;
  double build_seconds_ = 0;
};

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_KALAH_ENDGAME_H_
