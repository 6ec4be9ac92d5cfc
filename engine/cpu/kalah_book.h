// Opening book for level 4 in Kalah with 4 seeds and the default end rule
// (docs/rules.md section 4, `mover_empty`): the replies of the player who moves second, chosen by
// searches far deeper than a move's budget allows.
//
// Why (issue 31): Kalah with 6 pits and 4 seeds is a first-player win by
// 10 seeds under perfect play, so the games level 4 plays second are the
// ones its strength shows in, and they were decided in the first few
// replies. Against the MCTS yardstick at 300 ms per move (MCTS moving
// first, 100 games, the same seeds): 23.5% (23-1-76, mean margin -8.2
// seeds) when level 4 searched its first replies for 300 ms like every
// other move; 43.3% of 60 (26-0-34) when it searched its first six moves
// for 3 s; 63.0% (63-0-37, +7.5) with this book. A book gives those
// replies without the time.
//
// What it holds: for every position the maker reached (below), the reply
// of a level-4 search of 6 s with a 2^24-entry transposition table
// (tools/kalah_book_maker.cc), its value and depth; 98 entries. The
// positions: from the start, the first player's moves whose value (a
// level-4 search of each) is within `kKalahBookSlackSeeds` of their best,
// every extra turn's continuation included, and the book's own reply, up
// to the second player's reply at ply `kKalahBookPlies`; so the lines a
// sound first player (a person, or a strong program) plays are covered,
// not one opponent's habits.
//
// Positions are compared as the player to move sees them (their six pits,
// store, then the opponent's six pits and store), so the book serves
// either seat. The searches ran under `mover_empty`; with `any_side_empty`
// their lines could end otherwise, so that rule has no book.
// Thread-safety: immutable data; every function may be called from any
// thread.

#ifndef MANCALA_ENGINE_CPU_KALAH_BOOK_H_
#define MANCALA_ENGINE_CPU_KALAH_BOOK_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "engine/state.h"

namespace mancala::engine::cpu {

// How the book was made (tools/kalah_book_maker.cc writes these into
// kalah_book_moves.inc; they are here to be stated and tested).
inline constexpr int kKalahBookPlies = 10;
inline constexpr int kKalahBookSlackSeeds = 5;

struct KalahBookEntry {
  // The mover's pits 0..5 (pit 5 next to their store), their store, the
  // opponent's pits 0..5 and store.
  std::array<std::uint8_t, 14> board;
  std::int8_t move;    // The reply: a pit 0..5 of the mover.
  std::int32_t value;  // Its search value for the mover (evaluation.h).
  std::int8_t depth;   // The search's deepest completed iteration.
};

// The mover's view of `state` as a KalahBookEntry board; nullopt if a
// count exceeds 255 (no book position can hold one).
std::optional<std::array<std::uint8_t, 14>> KalahBookBoard(const State& state);

// True if the book applies to `rules`: Kalah, two players, 6 pits, 4 seeds,
// `mover_empty`.
bool KalahBookSupports(const Rules& rules);

// The book's entry for `state` (not over, of supported rules), or nullptr.
// A position's value does not depend on which seat moved first, so an
// entry serves whoever is to move there.
const KalahBookEntry* FindKalahBookEntry(const State& state);

// Every entry, sorted by board.
std::span<const KalahBookEntry> KalahBookEntries();

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_KALAH_BOOK_H_
