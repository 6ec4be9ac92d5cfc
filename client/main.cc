// mancala: the command-line client. Subcommands:
//   play    a match against the CPU or people (see play.h)
//   watch   a match's events as they happen (see play.h)
//   replay  conformance traces checked offline (see replay.h)
//   arena   the CPU against itself, offline (see arena.h)

#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>

#include "client/arena.h"
#include "client/play.h"
#include "client/replay.h"

namespace {

// Unsigned options: CLI11 would wrap "-1" round to 2^64 - 1.
const CLI::Validator kWholeNumber(
    [](std::string& text) -> std::string {
      if (!text.empty() &&
          text.find_first_not_of("0123456789") == std::string::npos) {
        return "";
      }
      return "must be a whole number, 0 or more (got " + text + ")";
    },
    "UINT");

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mancala: play and check mancala games"};
  app.require_subcommand(1);

  mancala::cli::PlayOptions play;
  std::vector<std::string> option_pairs;
  std::string moves;
  CLI::App* play_cmd =
      app.add_subcommand("play", "play a match against the CPU or people");
  play_cmd->add_option("--server", play.server, "mancalad address")
      ->capture_default_str();
  play_cmd
      ->add_option("--game", play.game,
                   "kalah, oware, congkak or mancala_basic")
      ->capture_default_str();
  play_cmd
      ->add_option("--vs", play.vs,
                   "who fills the other seats: cpu, or open (people who "
                   "join with the invite code)")
      ->check(CLI::IsMember({"cpu", "open"}))
      ->capture_default_str();
  play_cmd->add_option("--name", play.name,
                       "your display name (a guest name if not given)");
  play_cmd->add_option("--join", play.join,
                       "join a waiting match by its invite code");
  play_cmd->add_flag("--ranked", play.ranked, "a ranked (rated) match");
  play_cmd
      ->add_option("--turn-limit", play.turn_limit_s,
                   "seconds per turn: 0 (none), 30 or 60")
      ->check(CLI::IsMember({0, 30, 60}))
      ->capture_default_str();
  play_cmd->add_option("--move-delay-ms", play.move_delay_ms,
                       "with --auto: wait this long before each move");
  play_cmd->add_option(
      "--option,-o", option_pairs,
      "game option NAME=VALUE (docs/rules.md section 2), repeatable");
  play_cmd->add_option("--level", play.cpu_level, "CPU level 1-4")
      ->check(CLI::Range(1, 4))
      ->capture_default_str();
  play_cmd
      ->add_option("--opponents", play.opponents,
                   "number of other seats (mancala_basic: 1-3)")
      ->check(CLI::Range(1, 3))
      ->capture_default_str();
  play_cmd->add_flag("--cpu-first", play.cpu_first, "the opponent moves first");
  play_cmd->add_option("--match", play.match,
                       "resume this match (matches/ID), with --token");
  play_cmd->add_option("--token", play.token,
                       "act as the player with this token");
  play_cmd->add_option("--moves", moves,
                       "pits to play first, comma-separated (then stdin)");
  play_cmd->add_flag("--auto", play.auto_play,
                     "play the lowest legal pit without asking");

  mancala::cli::WatchOptions watch;
  CLI::App* watch_cmd = app.add_subcommand(
      "watch", "print every event of a match until it ends (spectate)");
  watch_cmd->add_option("match", watch.match, "matches/ID")->required();
  watch_cmd->add_option("--server", watch.server, "mancalad address")
      ->capture_default_str();
  watch_cmd->add_option("--after-ply", watch.after_ply,
                        "moves already seen (they are not repeated)");
  watch_cmd->add_option("--token", watch.token,
                        "watch as this player (keeps their seat present)");

  std::vector<std::string> files;
  CLI::App* replay_cmd = app.add_subcommand(
      "replay", "check trace files and edge_cases.json against the engine");
  replay_cmd->add_option("files", files, "trace or edge-case JSON files")
      ->required()
      ->check(CLI::ExistingFile);

  mancala::cli::ArenaOptions arena;
  std::vector<std::string> arena_option_pairs;
  CLI::App* arena_cmd = app.add_subcommand(
      "arena", "play CPU level A against CPU level B and print the results");
  arena_cmd
      ->add_option("--game", arena.game,
                   "kalah, oware, congkak or mancala_basic")
      ->required();
  arena_cmd->add_option("--option,-o", arena_option_pairs,
                        "game option NAME=VALUE (docs/rules.md section 2), "
                        "repeatable");
  arena_cmd->add_option("--a", arena.level_a, "level of player A (1-4)")
      ->required();
  arena_cmd->add_option("--b", arena.level_b, "level of player B (1-4)")
      ->required();
  arena_cmd->add_option("--games", arena.games, "games to play")
      ->capture_default_str();
  arena_cmd
      ->add_option("--players", arena.players,
                   "seats (mancala_basic: 2-4); A takes one, B the others")
      ->check(CLI::Range(2, 4))
      ->capture_default_str();
  arena_cmd->add_option("--seed", arena.seed, "series seed")
      ->check(kWholeNumber)
      ->capture_default_str();
  arena_cmd
      ->add_option("--budget-ms", arena.budget_ms,
                   "time budget per move in ms (default 1000; with "
                   "--nodes, one hour)")
      ->check(CLI::Range(1L, 86400000L));
  arena_cmd
      ->add_option("--nodes", arena.nodes,
                   "search positions per move for levels 3-4 "
                   "(0 = no limit); makes results reproducible")
      ->check(kWholeNumber)
      ->capture_default_str();
  arena_cmd->add_option("--threads", arena.threads, "games played in parallel")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  arena_cmd
      ->add_option("--opening-plies", arena.opening_plies,
                   "start each game with this many random moves, each "
                   "opening played with A on every seat")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();

  CLI11_PARSE(app, argc, argv);

  if (arena_cmd->parsed()) {
    for (const std::string& pair : arena_option_pairs) {
      auto eq = pair.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::cerr << "error: --option takes NAME=VALUE, got '" << pair << "'\n";
        return 1;
      }
      arena.options[pair.substr(0, eq)] = pair.substr(eq + 1);
    }
    return mancala::cli::Arena(arena, std::cout, std::cerr);
  }

  if (replay_cmd->parsed()) return mancala::cli::Replay(files, std::cout);
  if (watch_cmd->parsed()) {
    return mancala::cli::Watch(watch, std::cout, std::cerr);
  }

  for (const std::string& pair : option_pairs) {
    auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "error: --option takes NAME=VALUE, got '" << pair << "'\n";
      return 1;
    }
    play.options[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  std::string item;
  for (std::istringstream in(moves); std::getline(in, item, ',');) {
    try {
      play.moves.push_back(std::stoi(item));
    } catch (const std::exception&) {
      std::cerr << "error: --moves takes pit numbers like 2,5,0\n";
      return 1;
    }
  }
  return mancala::cli::Play(play, std::cin, std::cout, std::cerr);
}
