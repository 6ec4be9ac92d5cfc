#include "engine/cpu/kalah_position.h"

#include "engine/cpu/transposition_table.h"

namespace mancala::engine::cpu {

KalahPosition::KalahPosition(const State& state)
    : total_(0),
      mover_(static_cast<std::uint8_t>(state.is_over() ? 0 : state.to_move())),
      over_(state.is_over()),
      rule_(state.rules().end_rule) {
  const int opp = 1 - mover_;
  int total = state.store(0) + state.store(1);
  for (int i = 0; i < kPits; ++i) {
    pits_[i] = static_cast<std::uint8_t>(state.pit(mover_, i));
    pits_[kPits + i] = static_cast<std::uint8_t>(state.pit(opp, i));
    total += state.pit(0, i) + state.pit(1, i);
  }
  stores_[0] = static_cast<std::uint8_t>(state.store(mover_));
  stores_[1] = static_cast<std::uint8_t>(state.store(opp));
  total_ = static_cast<std::uint8_t>(total);
}

std::uint64_t KalahPosition::Key() const {
  // PositionKey's hash (transposition_table.cc) over the seats in order:
  // a position not over has both players active and unranked.
  constexpr std::uint64_t kPrime = 0x100000001B3ull;  // FNV-1a, 64 bit.
  constexpr std::uint64_t kActive = 1;
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (int seat = 0; seat < 2; ++seat) {
    const int row = seat == mover_ ? 0 : 1;
    for (int i = 0; i < kPits; ++i) {
      h = (h ^ static_cast<std::uint64_t>(pits_[row * kPits + i])) * kPrime;
    }
    h = (h ^ (static_cast<std::uint64_t>(stores_[row]) << 8)) * kPrime;
    h = (h ^ (kActive << 16)) * kPrime;
  }
  h = (h ^ (static_cast<std::uint64_t>(mover_ + 1) << 24)) * kPrime;
  return Mix64(h);
}

}  // namespace mancala::engine::cpu
