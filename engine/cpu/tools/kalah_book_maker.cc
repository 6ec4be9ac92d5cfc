// Writes level 4's Kalah opening book (kalah_book.h) as the C++ initialisers
// of engine/cpu/kalah_book_moves.inc:
//
//   kalah_book_maker [--book-ms 6000] [--probe-ms 400] [--threads 2]
//       [--keep 1]
//       > engine/cpu/kalah_book_moves.inc
//
// From the start position of Kalah with 4 seeds (`mover_empty`), breadth
// first: where the first player is to move, each legal move is searched by
// level 4 for --probe-ms (no book) and every move whose value for the first
// player is within kKalahBookSlackSeeds of the best is followed (an extra
// turn's position is the first player's again); where the second player is
// to move, at ply kKalahBookPlies or earlier, level 4 searches for
// --book-ms with a 2^24-entry transposition table (no book), and its move,
// value and depth become the entry, and the line goes on from its move.
// Each position is searched once however many lines reach it. The
// exception: the replies of kChosenReplies (below), chosen by play.
//
// With --keep 1 (the default) the book it was built with
// (kalah_book_moves.inc in the tree) stays: every entry of it is written
// again, and a position it holds is not searched, unless kChosenReplies
// says otherwise; only positions new to it are searched. A 6 s search is
// not repeatable to the move (it stops on the clock, and so do the
// first player's probes that pick the lines), and in lost positions
// which of two near-equal replies is played decides many games
// (kalah_book.h), so the book only grows. --keep 0 searches every
// position again.
//
// The book in the tree was made with the defaults on the 2-core
// development VM, two positions at a time (the .inc's first lines say how
// many positions and how long). Longer searches do not simply make it
// better (kalah_book.h).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>
#include <variant>
#include <vector>

#include "engine/cpu/cpu_player.h"
#include "engine/cpu/evaluation.h"
#include "engine/cpu/kalah_book.h"
#include "engine/cpu/kalah_endgame.h"
#include "engine/cpu/rng.h"
#include "engine/rules.h"
#include "engine/state.h"

namespace {

using mancala::engine::AnalyzeMove;
using mancala::engine::CpuOptions;
using mancala::engine::CpuReport;
using mancala::engine::State;
namespace cpu = mancala::engine::cpu;

using Board = std::array<std::uint8_t, 14>;

struct Options {
  long book_ms = 6000;
  long probe_ms = 400;
  int threads = 2;
  bool keep = true;
};

// A level-4 search of `state` for `ms`, without the book.
CpuReport Search(const State& state, long ms, int table_bits) {
  CpuOptions options;
  options.level = 4;
  options.budget = std::chrono::milliseconds(ms);
  options.table_bits = table_bits;
  options.use_book = false;
  const auto board = cpu::KalahBookBoard(state);
  std::uint64_t seed = 1;
  for (std::uint8_t c : *board) seed = cpu::Mix64(seed ^ c);
  options.seed = seed;
  return AnalyzeMove(state, options);
}

// Replies chosen by play, not by the search: a line from the start (both
// players' moves), then the second player's reply. All are lost positions
// (the first player wins), and what decides one against a fallible
// opponent is how hard its way to the win is to find, which no search
// length measured well (kalah_book.h). So each reply was played out, the
// rest of the game by level 4 with the book, against the two fallible
// opponents level 4 is measured with: the MCTS yardstick at 300 ms a move
// and level 3 at 20000 positions a move (the strength series' limit).
//   - After the opening 5 the 6 s search's reply (pit 5) lost 24 of 24
//     games against MCTS, where pit 1 won 22 of 24 and, with other seeds,
//     20 of 24 (pit 4: 15, pit 3: 8, pit 2: 7, pit 0: 1 of 24). The
//     book's reply to the best opening (2, 5), pit 1, won 23 of 24 the
//     same way and stays the search's.
//   - After 5, 1, 4, 1, 5, 0, 2 level 3 plays 2 or 3 (MCTS mostly leaves the
//     line earlier: after 5, 1, 4 it played 0 in 17 of 24 games, where level 3
//     plays 1, 5, 0). The 6 s search replies pit 4 to both, a loss by 2 seeds
//     under perfect play. After 3: pit 4 scored 28-0-32 against level 3 (60
//     games) and 0-0-24 against MCTS (-9.7 seeds on average); pit 1 (a loss by
//     12 under perfect play) 46-14-0 and 0-0-24 (-3.9). After 2: pit 4 scored
//     34-0-26 against level 3 and 9-14-1 against MCTS; pit 2 (a loss by 6)
//     60-0-0 and 4-0-20; MCTS reached that position in 1 of 24 games after the
//     opening 5, level 3 in 18 of 43, so pit 2.
struct ChosenReply {
  std::vector<int> opening;
  int reply;
};
const ChosenReply kChosenReplies[] = {
    {{5}, 1},
    {{5, 1, 4, 1, 5, 0, 2, 3}, 1},
    {{5, 1, 4, 1, 5, 0, 2, 2}, 2},
};

// The positions to visit next from `state`, and the entry if it is one.
struct Visit {
  std::vector<State> next;
  bool has_entry = false;
  cpu::KalahBookEntry entry{};
};

// The reply kChosenReplies gives at `state`, or -1.
int ChosenReplyAt(const State& state) {
  for (const ChosenReply& c : kChosenReplies) {
    State s(state.rules(), 0);
    for (int pit : c.opening) s.Apply(pit);
    if (s.to_move() == state.to_move() &&
        *cpu::KalahBookBoard(s) == *cpu::KalahBookBoard(state)) {
      return c.reply;
    }
  }
  return -1;
}

Visit Expand(const State& state, const Options& options) {
  Visit out;
  if (state.is_over()) return out;
  if (state.to_move() == 1) {
    if (state.ply() > cpu::kKalahBookPlies) return out;
    out.has_entry = true;
    out.entry.board = *cpu::KalahBookBoard(state);
    const int chosen = ChosenReplyAt(state);
    const cpu::KalahBookEntry* kept =
        options.keep ? cpu::FindKalahBookEntry(state) : nullptr;
    if (chosen < 0 && kept != nullptr) {
      out.entry = *kept;
    } else if (chosen < 0) {
      const CpuReport r = Search(state, options.book_ms, 24);
      out.entry.move = static_cast<std::int8_t>(r.move);
      out.entry.value = r.value;
      out.entry.depth = static_cast<std::int8_t>(r.depth);
    } else {
      // Its value and depth: a search of the position after it.
      out.entry.move = static_cast<std::int8_t>(chosen);
      State after = state;
      after.Apply(chosen);
      const CpuReport r = Search(after, options.book_ms, 24);
      out.entry.value = after.to_move() == 1 ? r.value : -r.value;
      out.entry.depth = static_cast<std::int8_t>(r.depth + 1);
    }
    State child = state;
    child.Apply(out.entry.move);
    out.next.push_back(child);
    return out;
  }
  if (state.ply() >= cpu::kKalahBookPlies) return out;
  // The first player: every move within the slack of its best.
  std::vector<std::pair<int, State>> children;
  int best = -cpu::kInfinity;
  for (int pit : state.LegalMoves()) {
    State child = state;
    child.Apply(pit);
    int value;
    if (child.is_over()) {
      value = cpu::MarginValue(cpu::FinalMargin(child, 0));
    } else {
      const int v = Search(child, options.probe_ms, 0).value;
      value = child.to_move() == 0 ? v : -v;
    }
    best = std::max(best, value);
    children.emplace_back(value, child);
  }
  for (auto& [value, child] : children) {
    if (value >= best - 100 * cpu::kKalahBookSlackSeeds) {
      out.next.push_back(child);
    }
  }
  return out;
}

bool ParseArgs(int argc, char** argv, Options& options) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const long v = std::atol(argv[i + 1]);
    if (std::strcmp(argv[i], "--book-ms") == 0) {
      options.book_ms = v;
    } else if (std::strcmp(argv[i], "--probe-ms") == 0) {
      options.probe_ms = v;
    } else if (std::strcmp(argv[i], "--threads") == 0) {
      options.threads = static_cast<int>(v);
    } else if (std::strcmp(argv[i], "--keep") == 0) {
      options.keep = v != 0;
    } else {
      return false;
    }
  }
  return argc % 2 == 1 && options.book_ms > 0 && options.probe_ms > 0 &&
         options.threads > 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, options)) {
    std::fprintf(stderr,
                 "usage: kalah_book_maker [--book-ms N] [--probe-ms N] "
                 "[--threads N] [--keep 1|0]\n");
    return 2;
  }
  const auto rules = std::get<mancala::engine::Rules>(
      mancala::engine::ParseRules("kalah", {}, 2));
  cpu::KalahEndgame::Get(rules);  // Built before any timed search.
  const auto start = std::chrono::steady_clock::now();

  std::map<Board, cpu::KalahBookEntry> entries;
  if (options.keep) {
    for (const auto& e : cpu::KalahBookEntries()) entries[e.board] = e;
  }
  std::map<std::pair<Board, int>, bool> seen;  // (board, seat to move).
  std::vector<State> frontier{State(rules, 0)};
  int searched = 0;
  while (!frontier.empty()) {
    std::vector<Visit> visits(frontier.size());
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < options.threads; ++t) {
      workers.emplace_back([&] {
        for (std::size_t k; (k = next++) < frontier.size();) {
          visits[k] = Expand(frontier[k], options);
        }
      });
    }
    for (auto& w : workers) w.join();
    searched += static_cast<int>(frontier.size());
    std::vector<State> following;
    for (Visit& v : visits) {
      if (v.has_entry) entries[v.entry.board] = v.entry;
      for (State& s : v.next) {
        const auto key = std::make_pair(*cpu::KalahBookBoard(s), s.to_move());
        if (seen.emplace(key, true).second) following.push_back(s);
      }
    }
    std::fprintf(stderr, "%d positions visited, %zu entries, %zu next\n",
                 searched, entries.size(), following.size());
    frontier = std::move(following);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf(
      "// Generated by engine/cpu/tools/kalah_book_maker.cc (--book-ms %ld "
      "--probe-ms %ld\n// --threads %d): %zu entries, plies <= %d, slack %d "
      "seeds, %d positions visited\n// in %.0f s. Do not edit; sorted by "
      "board.\n",
      options.book_ms, options.probe_ms, options.threads, entries.size(),
      cpu::kKalahBookPlies, cpu::kKalahBookSlackSeeds, searched, seconds);
  for (const auto& [board, e] : entries) {
    std::printf("{{");
    for (std::size_t i = 0; i < board.size(); ++i) {
      std::printf("%s%d", i ? ", " : "", board[i]);
    }
    std::printf("}, %d, %d, %d},\n", e.move, e.value, e.depth);
  }
  return 0;
}
