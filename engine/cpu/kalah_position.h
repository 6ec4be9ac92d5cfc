// A Kalah position in 16 bytes, for level 4's search (alphabeta.h): the
// twelve pits as the player to move sees them (kalah_endgame.h's Pits: the
// mover's six in sowing order, then the opponent's six), both stores, the
// mover's seat and the end rule. A move is KalahEndgame::PlayCompact on a
// copy; nothing is allocated.
//
// Why: a State holds a board for four players of up to kMaxPits pits each
// and the bookkeeping of every game; copying and applying it cost most of
// the search's time in Kalah. The compact position gives the same values
// (OpenSowingValue, MarginValue, PositionKey) for every position, so the
// search it drives visits the same positions in the same order as over
// State, several times faster (KalahPositionTest checks both; cpu_bench
// measures the rates).
//
// Rules: Kalah with 6 pits a side and two players, either end rule (K.1-
// K.12; the moves are PlayCompact's, which KalahEndgameTest checks against
// State::Apply).
// Thread-safety: a value.

#ifndef MANCALA_ENGINE_CPU_KALAH_POSITION_H_
#define MANCALA_ENGINE_CPU_KALAH_POSITION_H_

#include <cstdint>

#include "engine/cpu/evaluation.h"
#include "engine/cpu/kalah_endgame.h"
#include "engine/cpu/rng.h"
#include "engine/state.h"

namespace mancala::engine::cpu {

class KalahPosition {
 public:
  static constexpr int kPits = 6;

  // True if `rules` are those the compact position plays (as
  // KalahEndgame::Supports).
  static bool Supports(const Rules& rules) {
    return KalahEndgame::Supports(rules);
  }

  // `state`: of rules Supports accepts.
  explicit KalahPosition(const State& state);

  // Legal moves: bit i set if pit i of the player to move (K.2).
  std::uint32_t LegalMask() const {
    std::uint32_t mask = 0;
    for (int i = 0; i < kPits; ++i) mask |= (pits_[i] != 0 ? 1u : 0u) << i;
    return mask;
  }
  // The seat to move (0 or 1); once over, the seat that moved last.
  int to_move() const { return mover_; }
  bool is_over() const { return over_; }
  // True if sowing `pit` ends in the mover's store (K.4).
  bool KeepsTurn(int pit) const {
    const int seeds = pits_[pit];
    return seeds >= kPits - pit &&
           (seeds - (kPits - pit)) % (2 * kPits + 1) == 0;
  }
  // `child` = this position after `pit`, a legal move.
  void Play(int pit, KalahPosition& child) const;

  // Equal positions play on alike (a game over compares its final stores
  // from the seat that moved last).
  friend bool operator==(const KalahPosition&, const KalahPosition&) = default;

  // Evaluate(state, player) of the same position.
  int Evaluate(int player) const;
  // PositionKey(state) of the same position, which must not be over.
  std::uint64_t Key() const;
  // Seeds left in the pits (both rows).
  int PitSeeds() const { return total_ - stores_[0] - stores_[1]; }
  // With `table` covering this position (PitSeeds() <= kKalahEndgameSeeds,
  // not over): its FinalMargin under perfect play for `player`.
  int EndgameMargin(const KalahEndgame& table, int player) const {
    const int gain = table.Gain(pits_);
    const int stores = stores_[0] - stores_[1];
    return player == mover_ ? stores + gain : -(stores + gain);
  }

 private:
  KalahEndgame::Pits pits_;  // Mover's row, then the opponent's.
  std::uint8_t stores_[2];   // Mover's store, the opponent's.
  std::uint8_t total_;       // Seeds in the game.
  std::uint8_t mover_;       // Seat to move: 0 or 1.
  bool over_ = false;        // Game over; stores_ hold the final result.
  EndRule rule_;
};

inline void KalahPosition::Play(int pit, KalahPosition& child) const {
  child = *this;
  bool extra_turn;
  bool over;
  const int gain =
      KalahEndgame::PlayCompact(child.pits_, pit, rule_, extra_turn, over);
  if (over) {
    // Every seed is in a store now (K.9): the mover's share follows from
    // the net gain, which includes the sweep.
    const int diff = stores_[0] - stores_[1] + gain;
    child.stores_[0] = static_cast<std::uint8_t>((total_ + diff) / 2);
    child.stores_[1] = static_cast<std::uint8_t>(total_ - child.stores_[0]);
    child.over_ = true;
    return;
  }
  child.stores_[0] = static_cast<std::uint8_t>(stores_[0] + gain);
  if (!extra_turn) {
    // PlayCompact flipped the rows; the stores follow.
    const std::uint8_t mine = child.stores_[0];
    child.stores_[0] = child.stores_[1];
    child.stores_[1] = mine;
    child.mover_ = static_cast<std::uint8_t>(1 - mover_);
  }
}

inline int KalahPosition::Evaluate(int player) const {
  const bool mine = player == mover_;
  const int me = mine ? 0 : 1;
  if (over_) return MarginValue(stores_[me] - stores_[1 - me]);
  int row[2] = {0, 0};
  for (int i = 0; i < kPits; ++i) {
    row[0] += pits_[i];
    row[1] += pits_[kPits + i];
  }
  return OpenSowingValue(stores_[me], stores_[1 - me], row[me], row[1 - me]);
}

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_KALAH_POSITION_H_
