// mancala: the command-line client. Subcommands:
//   play    a match against the CPU (see play.h)
//   replay  conformance traces checked offline (see replay.h)

#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "services/cli/play.h"
#include "services/cli/replay.h"

int main(int argc, char** argv) {
  CLI::App app{"mancala: play and check mancala games"};
  app.require_subcommand(1);

  mancala::cli::PlayOptions play;
  std::vector<std::string> option_pairs;
  std::string moves;
  CLI::App* play_cmd =
      app.add_subcommand("play", "play a match against the CPU");
  play_cmd->add_option("--server", play.server, "mancalad address")
      ->capture_default_str();
  play_cmd->add_option("--game", play.game,
                       "kalah, oware, congkak or mancala_basic")
      ->capture_default_str();
  std::string vs = "cpu";
  play_cmd->add_option("--vs", vs, "opponent: cpu")
      ->check(CLI::IsMember({"cpu"}))
      ->capture_default_str();
  play_cmd->add_option("--option,-o", option_pairs,
                       "game option NAME=VALUE (RULES.md section 2), repeatable");
  play_cmd->add_option("--level", play.cpu_level, "CPU level 1-4")
      ->capture_default_str();
  play_cmd->add_option("--opponents", play.opponents,
                       "number of CPU opponents (mancala_basic: 1-3)")
      ->capture_default_str();
  play_cmd->add_flag("--cpu-first", play.cpu_first, "the CPU moves first");
  play_cmd->add_option("--match", play.match,
                       "resume this match (matches/ID) ...");
  play_cmd->add_option("--token", play.token, "... with this player token");
  play_cmd->add_option("--moves", moves,
                       "pits to play first, comma-separated (then stdin)");
  play_cmd->add_flag("--auto", play.auto_play,
                     "play the lowest legal pit without asking");

  std::vector<std::string> files;
  CLI::App* replay_cmd = app.add_subcommand(
      "replay", "check trace files and edge_cases.json against the engine");
  replay_cmd->add_option("files", files, "trace or edge-case JSON files")
      ->required()
      ->check(CLI::ExistingFile);

  CLI11_PARSE(app, argc, argv);

  if (replay_cmd->parsed()) return mancala::cli::Replay(files, std::cout);

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
