// Opening book for level 4 in Kalah with 4 seeds and the default end rule
// (docs/rules.md section 4, `mover_empty`): the replies of the player who
// moves second, chosen by searches far deeper than a move's budget allows
// (and three by play).
//
// Why (issue 31): Kalah with 6 pits and 4 seeds is a first-player win by
// 10 seeds under perfect play, so the games level 4 plays second are the
// ones its strength shows in, and they were decided in the first few
// replies. Against the MCTS yardstick at 300 ms per move (MCTS moving
// first, 100 games, the same seeds): 23.5% (23-1-76, mean margin -8.2
// seeds) when level 4 searched its first replies for 300 ms like every
// other move; 43.3% of 60 (26-0-34) when it searched its first six moves
// for 3 s; 63.0% (63-0-37, +7.5) with the book's first version, all of
// its replies searched. A book gives those replies without the time. In
// the arena (100 games, first mover alternating, seed 31) level 4 then
// scored 75.0% at 300 ms, 50% of the games MCTS opened; with the replies
// chosen by play (below), 94.5% +- 4.4, 89%.
//
// What it holds: for every position the maker reached (below), the reply
// of a level-4 search of 6 s with a 2^24-entry transposition table
// (tools/kalah_book_maker.cc), its value and depth; 131 entries. The
// positions: from the start, the first player's moves whose value (a
// level-4 search of each) is within `kKalahBookSlackSeeds` of their best,
// every extra turn's continuation included, and the book's own reply, up
// to the second player's reply at ply `kKalahBookPlies`; so the lines a
// sound first player (a person, or a strong program) plays are covered,
// not one opponent's habits.
//
// Three replies are chosen by play instead. All three positions are lost
// (the first player wins), and what decides such a position against a
// fallible opponent is how hard its way to the win is to find, which no
// search length measured well. After the opening 5, pit 1: there the 6 s
// search chose pit 5 (-7.25 seeds at depth 21), which lost all of 24
// games played out against the MCTS yardstick at 300 ms; pit 1 (a 60 s
// search's choice) won 42 of 48. After the best opening (2, 5) a 60 s
// search prefers pit 4 (won 6 of 24, even as the smallest loss, without
// the lost-position rule), where the 6 s search's pit 1, which the book
// keeps, won 23 of 24. Choosing every first reply by play-outs of 12
// games each, with the book made below every reply, scored worse in the
// arena (67.5% against 75.0% at 300 ms): 12 games do not tell those
// replies apart. So did a book made again from scratch with pit 1 after 5
// (68.0%): its 6 s searches and the probes that pick the lines stop on
// the clock, and 4 of the 27 replies both books held differed; so the
// maker keeps the book's entries (--keep) and searches only positions
// new to it. Level 3 (a 4-ply search) then found its way after 5, 1 in
// 18 of its 43 games opening 5 in the node-limited strength series
// (level 4 scored 90.8%, 181-1-18, where it scored 100% with pit 5), on
// a line MCTS seldom plays: after 5, 1, 4, 1, 5, 0, 2, 3 and
// after 5, 1, 4, 1, 5, 0, 2, 2 the search's pit 4 (a loss by 2 seeds)
// lost 32 and 26 of 60 games played out against level 3, where pit 1 (a
// loss by 12) lost none and pit 2 (a loss by 6) none; against MCTS every
// reply after 3 lost, and after 2 pit 2 did worse than pit 4 (4-0-20
// against 9-14-1 of 24), but MCTS reached it in 1 of 24 games after the
// opening 5. With those two replies and the entries below them (22 new)
// the strength series scores 99.5% (198-2-0), and the arena rows held
// (93.0%, 94.5%, 87.0% at 100, 300, 1000 ms; before: 93.5%, 93.0%,
// 86.0%). The maker's kChosenReplies has every figure.
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
