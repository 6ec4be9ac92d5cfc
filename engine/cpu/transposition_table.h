// A transposition table for the alpha-beta search, and the position key.
//
// PositionKey() hashes what the rules look at when playing on: pits,
// stores, the player to move, who is still active and the ranks given.
// Oware's repetition rule (O.11) also depends on the positions seen since
// the last capture, which the key leaves out: the table may then return a
// value computed along another path. That is an accepted approximation for
// evaluation only; the search always plays moves from the real State's
// LegalMask(), never a move taken blindly from the table.
//
// The table has a fixed power-of-two number of entries in buckets of two
// (one slot is replaced only by deeper results, the other always); a probe
// matches the full 64-bit key.
// Thread-safety: none; one table per search.

#ifndef MANCALA_ENGINE_CPU_TRANSPOSITION_TABLE_H_
#define MANCALA_ENGINE_CPU_TRANSPOSITION_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/state.h"

namespace mancala::engine::cpu {

// 64-bit hash of the parts of `state` that decide its future (see above).
std::uint64_t PositionKey(const State& state);

enum class Bound : std::uint8_t { kNone, kExact, kLower, kUpper };

struct TtEntry {
  std::uint64_t key = 0;
  std::int32_t value = 0;  // Search value, as the search defines it.
  std::int16_t depth = 0;  // Remaining depth the value was searched to.
  Bound bound = Bound::kNone;
  std::int8_t move = -1;  // Best (or refuting) pit, -1 if none.
};

class TranspositionTable {
 public:
  // A table of 2^log2_entries entries (clamped to 2^10 .. 2^24), all empty.
  explicit TranspositionTable(int log2_entries);

  // The entry for `key`, or nullptr.
  const TtEntry* Probe(std::uint64_t key) const;

  // Records a result; keeps the deeper of colliding results in one slot of
  // the bucket and always writes the other.
  void Store(std::uint64_t key, int depth, int value, Bound bound, int move);

  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<TtEntry> entries_;
  std::size_t mask_;
};

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_TRANSPOSITION_TABLE_H_
