#include "engine/cpu/transposition_table.h"

#include <algorithm>

#include "engine/cpu/rng.h"

namespace mancala::engine::cpu {

std::uint64_t PositionKey(const State& state) {
  const Board& b = state.board();
  const int players = state.rules().players;
  const int n = state.rules().pits;
  constexpr std::uint64_t kPrime = 0x100000001B3ull;  // FNV-1a, 64 bit.
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (int p = 0; p < players; ++p) {
    for (int i = 0; i < n; ++i) {
      h = (h ^ static_cast<std::uint64_t>(b.pits[p][i])) * kPrime;
    }
    h = (h ^ (static_cast<std::uint64_t>(b.stores[p]) << 8)) * kPrime;
    const std::uint64_t status =
        (state.is_active(p) ? 1u : 0u) |
        static_cast<std::uint64_t>(state.outcome().ranks[p]) << 1;
    h = (h ^ (status << 16)) * kPrime;
  }
  h = (h ^ (static_cast<std::uint64_t>(state.to_move() + 1) << 24)) * kPrime;
  return Mix64(h);
}

TranspositionTable::TranspositionTable(int log2_entries) {
  const int bits = std::clamp(log2_entries, 10, 24);
  entries_.resize(std::size_t{1} << bits);
  mask_ = entries_.size() - 1;
}

const TtEntry* TranspositionTable::Probe(std::uint64_t key) const {
  const std::size_t i = key & mask_ & ~std::size_t{1};
  if (entries_[i].key == key && entries_[i].bound != Bound::kNone) {
    return &entries_[i];
  }
  if (entries_[i + 1].key == key && entries_[i + 1].bound != Bound::kNone) {
    return &entries_[i + 1];
  }
  return nullptr;
}

void TranspositionTable::Store(std::uint64_t key, int depth, int value,
                               Bound bound, int move) {
  const std::size_t i = key & mask_ & ~std::size_t{1};
  TtEntry entry;
  entry.key = key;
  entry.value = value;
  entry.depth = static_cast<std::int16_t>(depth);
  entry.bound = bound;
  entry.move = static_cast<std::int8_t>(move);
  // Slot i keeps the deepest result; slot i + 1 takes everything else.
  TtEntry& deep = entries_[i];
  if (deep.key == key || deep.bound == Bound::kNone || depth >= deep.depth) {
    if (deep.key != key && deep.bound != Bound::kNone) entries_[i + 1] = deep;
    deep = entry;
    return;
  }
  entries_[i + 1] = entry;
}

}  // namespace mancala::engine::cpu
