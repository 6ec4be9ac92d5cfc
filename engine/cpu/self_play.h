// Self-play matches between two CPU levels (the `mancala arena` command and
// the strength tests).
//
// Game g (0-based) of a series seats player A at seat g % players and
// player B on every other seat; seat 0 moves first. So with two players A
// starts every other game, and with 3-4 players A takes every seat in turn.
// Every move gets its own seed, derived from (series seed, game, ply), and
// both sides use the series' budget and node limit.
//
// Openings: with `opening_plies` = K > 0 each game starts with up to K
// uniformly random moves (whoever is to move; not counted as A's or B's;
// never a move that ends the game, and fewer if only such moves are left),
// and the games g with the same g / players share one opening, so with
// `games` a multiple of the players every opening is played once with A on
// each seat. Engine testers do the same to keep a
// game whose start position decides it (Congkak: the first player can
// store more than half the seeds in the first turn) from hiding the
// difference between two players.
//
// Margins (two players): every game's final margin from A's side
// (cpu/evaluation.h FinalMargin: store difference, or in Mancala Basic the
// stones left in the loser's pits) is summed by A's seat order after the
// opening: A moving first, or A moving second. A Congkak game is often
// decided by who moves first (see above); how much each level wins by from
// the first seat, and loses by from the second, still tells them apart.
//
// Player B may instead be the MCTS yardstick (cpu/mcts_yardstick.h; two
// players), the opponent level 4 is measured against, with a budget of its
// own (equal times: the same as A's).
//
// Determinism: with a node limit and a budget the searches never reach,
// a series gives the same games, hence the same counts, on every run and
// with any number of threads (games are independent; results are summed
// in game order). Times differ, of course.
// Thread-safety: RunSelfPlay may be called concurrently; it starts
// `threads` threads of its own and joins them before returning.

#ifndef MANCALA_ENGINE_CPU_SELF_PLAY_H_
#define MANCALA_ENGINE_CPU_SELF_PLAY_H_

#include <array>
#include <chrono>
#include <cstdint>

#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine {

struct SelfPlayConfig {
  Rules rules;      // Game, options and number of players.
  int level_a = 2;  // Player A's CPU level (one seat).
  int level_b = 1;  // Player B's level (every other seat).
  int games = 200;
  std::uint64_t seed = 1;
  std::chrono::milliseconds budget{1000};  // Per move, both sides.
  std::uint64_t node_limit = 0;            // Per move, both sides; 0 = none.
  int threads = 1;                         // Games played in parallel.
  int opening_plies = 0;                   // Random moves first (see above).
  bool b_yardstick = false;  // B is the MCTS yardstick, not level_b.
  // B's budget per move when above zero; otherwise `budget`.
  std::chrono::milliseconds b_budget{0};
};

struct SelfPlayResult {
  int games = 0;
  // Two players: A's wins, draws and losses.
  int wins = 0;
  int draws = 0;
  int losses = 0;
  // Every player count: rank_counts[r] = games in which A's rank was r
  // (1..players); a two-player draw counts as rank 1 for both.
  std::array<int, kMaxPlayers + 1> rank_counts{};
  int firsts = 0;  // Games A won alone (rank 1, nobody else ranked 1).
  // Two players: index 0 = games in which A moved first after the opening
  // (B second), 1 = A second (B first); games and A's summed final margin
  // (positive: A ahead; an aborted game counts 0).
  std::array<int, 2> order_games{};
  std::array<long long, 2> a_margin_sum{};
  std::array<int, 2> order_wins{};   // A's wins and draws, by the same
  std::array<int, 2> order_draws{};  // index.
  // Thinking time and moves, summed per side (B: all B seats together).
  double a_seconds = 0;
  double b_seconds = 0;
  std::uint64_t a_moves = 0;
  std::uint64_t b_moves = 0;
  std::uint64_t a_nodes = 0;
  std::uint64_t b_nodes = 0;
  std::uint64_t a_depth = 0;  // Sum of completed search depths (levels 3-4).
  std::uint64_t b_depth = 0;
  std::uint64_t b_simulations = 0;  // The yardstick's rollouts, summed.
  std::uint64_t plies = 0;          // Moves played in all games.
  int distinct_games = 0;           // Games whose move sequences differ.
  int aborted_games = 0;  // Games stopped at kSelfPlayMaxPlies (counted
                          // as draws); should stay 0.

  // A's score in percent, a draw counting half (two players).
  double ScorePercent() const;
  // Half the width of the 95% confidence interval of ScorePercent (normal
  // approximation over the games' scores 1, 1/2, 0), in percentage points.
  double ScoreMargin95() const;
  // A's score in percent in the games in which A moved first after the
  // opening (`a_first`) or B did; 0 if there were none.
  double OrderScorePercent(bool a_first) const;
  // Games in which A finished first alone, in percent.
  double FirstPercent() const;
  // Mean final margin of A (`a_side`) or B (!`a_side`) over the games in
  // which that side moved first (`first`) or second after the opening; 0
  // if there were none.
  double MeanMargin(bool a_side, bool first) const;
  double AMillisPerMove() const;
  double BMillisPerMove() const;
};

// Safety net against a game that never ends (no rule allows one).
inline constexpr int kSelfPlayMaxPlies = 100000;

SelfPlayResult RunSelfPlay(const SelfPlayConfig& config);

}  // namespace mancala::engine

#endif  // MANCALA_ENGINE_CPU_SELF_PLAY_H_
