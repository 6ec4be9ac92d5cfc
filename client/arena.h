// `mancala arena`: the CPU against itself, offline (no server).
//
// Plays `games` games of one game between CPU level A (one seat) and CPU
// level B (every other seat), rotating seats (engine/cpu/self_play.h), and
// prints A's wins / draws / losses and score (a draw counting half) for two
// players with each side's mean final margin from the seat that moved
// first after the opening and from the other (the Congkak criterion), or
// A's rank counts and share of first places for 3-4 players, plus the mean
// thinking time (and search positions) per move of each side.
// With --nodes the results are reproducible on any machine.
//
// B may be the MCTS yardstick instead of a level (`--b mcts`, two players;
// engine/cpu/mcts_yardstick.h), the opponent level 4 is measured against:
// the table then adds A's score with its 95% confidence interval, by who
// moved first, and the yardstick's simulations per move and per second.

#ifndef MANCALA_SERVICES_CLI_ARENA_H_
#define MANCALA_SERVICES_CLI_ARENA_H_

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>

namespace mancala::cli {

struct ArenaOptions {
  std::string game = "kalah";                  // Wire name of the game.
  std::map<std::string, std::string> options;  // docs/rules.md section 2.
  int players = 2;                             // 2..4 (Mancala Basic).
  int level_a = 4;
  int level_b = 3;
  bool b_yardstick = false;  // B is the MCTS yardstick, not level_b.
  long yardstick_ms = -1;    // Its budget per move; < 0 = A's (budget_ms).
  int games = 200;
  std::uint64_t seed = 1;
  // Per-move budget in ms; < 0 = the default: 1000 ms, or no practical
  // time limit (one hour) when `nodes` is given.
  long budget_ms = -1;
  std::uint64_t nodes = 0;  // Per-move search positions; 0 = no limit.
  int threads = 1;          // Games played in parallel.
  int opening_plies = 0;    // Random first moves (engine/cpu/self_play.h).
};

// Runs the series and prints the table to `out`. Returns 0, or 1 with a
// message on `err` for bad options (e.g. the RulesError of ParseRules).
int Arena(const ArenaOptions& options, std::ostream& out, std::ostream& err);

}  // namespace mancala::cli

#endif  // MANCALA_SERVICES_CLI_ARENA_H_
