// Level 4's Kalah opening book (engine/cpu/kalah_book.h): the mover's-view
// board of a hand-worked position, the book's entries legal and sorted,
// the main lines covered, level 4 playing the book's reply without a
// search (either seat), and no book for other seed counts, the other end
// rule, or when off.

#include "engine/cpu/kalah_book.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <numeric>
#include <string>
#include <variant>
#include <vector>

#include "engine/cpu/cpu_player.h"
#include "engine/cpu/evaluation.h"
#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine::cpu {
namespace {

Rules Kalah(int seeds = 4) {
  return std::get<Rules>(
      ParseRules("kalah", {{"seeds", std::to_string(seeds)}}, 2));
}

// The start, then the first player's pit 2 (4 seeds: the last in the
// store, an extra turn) and pit 5: the best opening (the first player
// wins by 10 seeds from it under perfect play).
State AfterBestOpening(int seeds = 4) {
  State s(Kalah(seeds), 0);
  s.Apply(2);
  s.Apply(5);
  return s;
}

// The positions in the book where the second player is to move after the
// first player's turn from `s` (its moves, extra turns followed).
int CoveredReplies(const State& s) {
  int covered = 0;
  for (int pit : s.LegalMoves()) {
    State next = s;
    next.Apply(pit);
    if (next.is_over()) continue;
    if (next.to_move() == 0) {
      covered += CoveredReplies(next);
    } else if (FindKalahBookEntry(next) != nullptr) {
      ++covered;
    }
  }
  return covered;
}

TEST(KalahBook, BoardIsTheMoversViewPitsThenStore) {
  const State s = AfterBestOpening();
  ASSERT_EQ(s.to_move(), 1);
  const std::array<std::uint8_t, 14> expected = {5, 5, 5, 5, 4, 4, 0,
                                                 4, 4, 0, 5, 5, 0, 2};
  EXPECT_EQ(KalahBookBoard(s), expected);
}

TEST(KalahBook, EntriesAreSortedLegalPositionsOfFortyEightSeeds) {
  const auto entries = KalahBookEntries();
  ASSERT_GE(entries.size(), 20u);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const KalahBookEntry& e = entries[k];
    SCOPED_TRACE("entry " + std::to_string(k));
    if (k > 0) {
      EXPECT_LT(entries[k - 1].board, e.board);
    }
    EXPECT_EQ(std::accumulate(e.board.begin(), e.board.end(), 0), 48);
    ASSERT_GE(e.move, 0);
    ASSERT_LT(e.move, 6);
    EXPECT_GT(e.board[e.move], 0) << "an empty pit";
    EXPECT_GT(e.depth, 10) << "a shallow search";
    // A margin, or a result plus its margin (evaluation.h).
    EXPECT_LT(std::abs(e.value), kWinValue + 100 * 48);
  }
}

TEST(KalahBook, CoversTheSecondPlayersFirstReplies) {
  // The reply to the best opening with the rest of its turn, and the
  // next reply to at least one of the first player's answers.
  const State s = AfterBestOpening();
  const KalahBookEntry* e = FindKalahBookEntry(s);
  ASSERT_NE(e, nullptr);
  // The first player is ahead by about 10 seeds from here (the solved
  // value); a deep search sees the reply at a loss of several seeds.
  EXPECT_LT(e->value, -300);
  EXPECT_GT(e->value, -2000);
  // A reply that ends in the store: the book holds the rest of the turn.
  State after = s;
  after.Apply(e->move);
  int turn_moves = 1;
  while (!after.is_over() && after.to_move() == 1) {
    const KalahBookEntry* more = FindKalahBookEntry(after);
    ASSERT_NE(more, nullptr) << "after " << turn_moves << " moves";
    after.Apply(more->move);
    ++turn_moves;
  }
  EXPECT_GE(CoveredReplies(after), 1);
}

TEST(KalahBook, TheReplyToOpeningFiveIsTheOneChosenByPlay) {
  // kalah_book.h: after the first player's pit 5 (the last seed in the
  // store, three in the opponent's pits 0-2) the search's reply lost every
  // game played out; the book holds pit 1 there, and the lines after it.
  State s(Kalah(), 0);
  s.Apply(5);
  const KalahBookEntry* e = FindKalahBookEntry(s);
  ASSERT_NE(e, nullptr);
  const std::array<std::uint8_t, 14> board{5, 5, 5, 4, 4, 4, 0,
                                           4, 4, 4, 4, 4, 0, 1};
  EXPECT_EQ(e->board, board);
  EXPECT_EQ(e->move, 1);
  EXPECT_GT(e->depth, 10);
  State after = s;
  after.Apply(1);
  EXPECT_GE(CoveredReplies(after), 1);
}

TEST(KalahBook, TheRepliesLevelThreeMeetsAfterFiveOneAreChosenByPlay) {
  // kalah_book.h: two positions after 5, 1 that level 3 reaches (the
  // second player to move at ply 8, lost by 2 seeds under perfect play).
  // The search's pit 4 lost most games against level 3 there; the book
  // holds the replies chosen by play, which a deep search sees lost by
  // more (a proven loss, below -kWinValue).
  struct Line {
    std::vector<int> moves;
    int reply;
    std::array<std::uint8_t, 14> board;  // The mover's view before it.
  };
  const Line lines[] = {
      // The first player (pits 1, 2, 7, 6, 6, 0, store 9) sows its pit 3's
      // six seeds or its pit 2's seven: the last lands in the mover's
      // pit 2 either way, no capture.
      {{5, 1, 4, 1, 5, 0, 2, 3},
       1,
       {1, 1, 1, 6, 1, 7, 3, 1, 2, 7, 0, 7, 1, 10}},
      {{5, 1, 4, 1, 5, 0, 2, 2},
       2,
       {1, 1, 1, 6, 1, 7, 3, 1, 2, 0, 7, 7, 1, 10}},
  };
  for (const Line& line : lines) {
    SCOPED_TRACE("reply " + std::to_string(line.reply));
    State s(Kalah(), 0);
    for (int pit : line.moves) s.Apply(pit);
    ASSERT_EQ(s.to_move(), 1);
    EXPECT_EQ(KalahBookBoard(s), line.board);
    const KalahBookEntry* e = FindKalahBookEntry(s);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->move, line.reply);
    EXPECT_LT(e->value, -kWinValue);
    State after = s;
    after.Apply(line.reply);
    EXPECT_FALSE(after.is_over());
  }
}

TEST(KalahBook, LevelFourPlaysTheBookReplyWithoutSearching) {
  const State s = AfterBestOpening();
  const KalahBookEntry* e = FindKalahBookEntry(s);
  ASSERT_NE(e, nullptr);
  CpuOptions options;
  options.level = 4;
  options.node_limit = 1000;
  const CpuReport r = AnalyzeMove(s, options);
  EXPECT_EQ(r.move, e->move);
  EXPECT_EQ(r.value, e->value);
  EXPECT_EQ(r.nodes, 0u);
  EXPECT_EQ(r.depth, 0);

  // The same position with seat 0 to move (the seats swapped) is the
  // same entry: a position's value does not depend on who began.
  Board swapped = s.board();
  std::swap(swapped.pits[0], swapped.pits[1]);
  std::swap(swapped.stores[0], swapped.stores[1]);
  const State mirror =
      std::get<State>(State::FromBoard(Kalah(), swapped, /*to_move=*/0));
  EXPECT_EQ(FindKalahBookEntry(mirror), e);
  EXPECT_EQ(AnalyzeMove(mirror, options).move, e->move);

  // Level 3 searches the same position.
  options.level = 3;
  EXPECT_GT(AnalyzeMove(s, options).nodes, 0u);
}

TEST(KalahBook, NoBookForOtherSeedCountsOrWhenOff) {
  EXPECT_FALSE(KalahBookSupports(Kalah(5)));
  EXPECT_FALSE(KalahBookSupports(std::get<Rules>(
      ParseRules("kalah", {{"end_rule", "any_side_empty"}}, 2))));
  EXPECT_FALSE(KalahBookSupports(
      std::get<Rules>(ParseRules("oware", {}, 2))));
  const State five = AfterBestOpening(5);
  EXPECT_EQ(FindKalahBookEntry(five), nullptr);
  CpuOptions options;
  options.level = 4;
  options.node_limit = 2000;
  EXPECT_GT(AnalyzeMove(five, options).nodes, 0u);

  options.use_book = false;
  const CpuReport r = AnalyzeMove(AfterBestOpening(), options);
  EXPECT_GT(r.nodes, 0u);
  EXPECT_GT(r.depth, 0);
}

TEST(KalahBook, NotTheFirstPlayersMoves) {
  // The book holds replies only: the start is not in it, nor the first
  // player's extra turn after pit 2.
  State s(Kalah(), 0);
  EXPECT_EQ(FindKalahBookEntry(s), nullptr);
  s.Apply(2);
  EXPECT_EQ(FindKalahBookEntry(s), nullptr);
}

}  // namespace
}  // namespace mancala::engine::cpu
