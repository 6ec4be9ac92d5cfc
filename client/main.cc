// mancala: the command-line client. Subcommands:
//   play         a match against the CPU or people (see play.h)
//   queue        find opponents (matchmaking), then play (see queue.h)
//   watch        a match's events as they happen (see play.h)
//   leaderboard, rating, history, admin   records (see records.h)
//   replay       conformance traces checked offline (see replay.h)
//   arena        the CPU against itself, offline (see arena.h)
//   health       a server's grpc.health.v1 status (see health.h)

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "client/arena.h"
#include "client/health.h"
#include "client/play.h"
#include "client/queue.h"
#include "client/records.h"
#include "client/replay.h"
#include "client/rpc.h"

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

// NAME=VALUE pairs into `out`; false (after saying why) for a bad one.
bool ParseOptionPairs(const std::vector<std::string>& pairs,
                      std::map<std::string, std::string>* out) {
  for (const std::string& pair : pairs) {
    auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "error: --option takes NAME=VALUE, got '" << pair << "'\n";
      return false;
    }
    (*out)[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return true;
}

// "2,5,0" into pits; false (after saying why) for anything else.
bool ParseMoves(const std::string& moves, std::vector<int>* out) {
  std::string item;
  for (std::istringstream in(moves); std::getline(in, item, ',');) {
    try {
      out->push_back(std::stoi(item));
    } catch (const std::exception&) {
      std::cerr << "error: --moves takes pit numbers like 2,5,0\n";
      return false;
    }
  }
  return true;
}

// The flags every records subcommand takes.
void AddQueryFlags(CLI::App* cmd, mancala::cli::QueryOptions& q) {
  cmd->add_option("--server", q.server, "mancalad address")
      ->capture_default_str();
  cmd->add_flag("--json", q.json,
                "print the API response as JSON (for scripts)");
  cmd->add_option("--limit", q.limit, "rows at most")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mancala: play and check mancala games"};
  app.require_subcommand(1);
  // Before or after the subcommand: `mancala --tls health` or
  // `mancala health --tls` (subcommands pass options they lack up).
  app.fallthrough();
  mancala::cli::TlsOptions tls;
  app.add_flag("--tls", tls.on,
               "reach mancalad over TLS, its certificate checked against the "
               "system's CA certificates");
  app.add_option("--tls-ca-file", tls.ca_file,
                 "over TLS, trust only the CA certificates in this file "
                 "(PEM); implies --tls");

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

  mancala::cli::QueueOptions queue;
  std::vector<std::string> queue_option_pairs;
  std::string queue_moves;
  CLI::App* queue_cmd = app.add_subcommand(
      "queue", "find opponents (matchmaking), then play the match");
  queue_cmd->add_option("--server", queue.play.server, "mancalad address")
      ->capture_default_str();
  queue_cmd
      ->add_option("--game", queue.play.game,
                   "kalah, oware, congkak or mancala_basic")
      ->required();
  queue_cmd->add_flag("--ranked", queue.play.ranked,
                      "a ranked (rated) match, opponents by rating");
  queue_cmd->add_option("--players", queue.players, "seats (mancala_basic 2-4)")
      ->check(CLI::Range(2, 4))
      ->capture_default_str();
  queue_cmd->add_option("--option,-o", queue_option_pairs,
                        "game option NAME=VALUE, repeatable");
  queue_cmd
      ->add_option("--turn-limit", queue.play.turn_limit_s,
                   "seconds per turn: 0 (none), 30 or 60")
      ->check(CLI::IsMember({0, 30, 60}))
      ->capture_default_str();
  queue_cmd->add_flag("--accept-cpu", queue.accept_cpu,
                      "casual: take CPU opponents after the server's wait");
  queue_cmd->add_option("--name", queue.play.name,
                        "your display name (a guest name if not given)");
  queue_cmd->add_option("--token", queue.play.token,
                        "search as the player with this token");
  queue_cmd->add_flag("--auto", queue.play.auto_play,
                      "play the lowest legal pit without asking");
  queue_cmd->add_option("--move-delay-ms", queue.play.move_delay_ms,
                        "with --auto: wait this long before each move");
  queue_cmd->add_option("--moves", queue_moves,
                        "pits to play first, comma-separated (then stdin)");

  // Records: public ones, then the operators' (admin token from the
  // environment, never from the command line where `ps` would show it).
  mancala::cli::QueryOptions query;
  if (const char* t = std::getenv("MANCALA_ADMIN_TOKEN")) query.admin_token = t;
  bool provisional = false;
  CLI::App* leaderboard_cmd = app.add_subcommand(
      "leaderboard", "best ratings of a game (Glicko-2), best first");
  AddQueryFlags(leaderboard_cmd, query);
  leaderboard_cmd
      ->add_option("--game", query.game,
                   "kalah, oware, congkak or mancala_basic")
      ->required();
  leaderboard_cmd->add_flag("--provisional", provisional,
                            "include provisional ratings (RD 110 or more)");

  bool rating_history = false;
  CLI::App* rating_cmd = app.add_subcommand(
      "rating", "a player's ratings per game, or their rating history");
  AddQueryFlags(rating_cmd, query);
  rating_cmd->add_flag("--history", rating_history,
                       "rating changes, newest first");
  CLI::App* history_cmd = app.add_subcommand(
      "history",
      "a player's matches, newest first (an operator's query: needs "
      "MANCALA_ADMIN_TOKEN)");
  AddQueryFlags(history_cmd, query);
  for (CLI::App* cmd : {rating_cmd, history_cmd}) {
    cmd->add_option("--player", query.player, "players/ID");
    cmd->add_option("--token", query.token, "your token (instead of --player)");
    cmd->add_option("--game", query.game, "only this game");
  }

  mancala::cli::AdminOptions admin;
  CLI::App* admin_cmd = app.add_subcommand(
      "admin", "operators' queries; the token comes from MANCALA_ADMIN_TOKEN");
  admin_cmd->require_subcommand(1);
  CLI::App* admin_matches =
      admin_cmd->add_subcommand("matches", "matches, newest first, filtered");
  AddQueryFlags(admin_matches, query);
  admin_matches->add_option("--player", query.player, "players/ID");
  admin_matches->add_option("--game", query.game, "game");
  admin_matches->add_option("--state", admin.state,
                            "waiting, in_progress, finished, cancelled, "
                            "aborted");
  CLI::App* admin_history = admin_cmd->add_subcommand(
      "history", "a match's whole record: moves, who played them, ratings");
  CLI::App* admin_void = admin_cmd->add_subcommand(
      "void", "void a rated match and recompute its game's ratings");
  CLI::App* admin_verify = admin_cmd->add_subcommand(
      "verify", "replay a match's stored moves and compare the result");
  for (CLI::App* cmd : {admin_history, admin_void, admin_verify}) {
    AddQueryFlags(cmd, query);
    cmd->add_option("match", admin.match, "matches/ID")->required();
  }
  admin_void->add_option("--reason", admin.reason, "why (audit log)")
      ->required();
  admin_void->add_option("--actor", admin.actor, "who (audit log)");
  CLI::App* admin_audit =
      admin_cmd->add_subcommand("audit", "the audit log, newest first");
  AddQueryFlags(admin_audit, query);
  for (auto [name, help] :
       {std::pair{"revoke-tokens",
                  "give a player a new token (the old one fails at once)"},
        std::pair{"ban", "ban a player: their calls fail, their seats go to "
                         "the CPU, they leave the leaderboards"},
        std::pair{"unban", "lift a player's ban"}}) {
    CLI::App* cmd = admin_cmd->add_subcommand(name, help);
    AddQueryFlags(cmd, query);
    cmd->add_option("player", admin.player, "players/ID")->required();
    cmd->add_option("--reason", admin.reason, "why (audit log)")->required();
    cmd->add_option("--actor", admin.actor, "who (audit log)");
  }

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
  std::string arena_b;
  arena_cmd
      ->add_option("--b", arena_b,
                   "level of player B (1-4), or mcts: the MCTS yardstick "
                   "(engine/cpu/mcts_yardstick.h; two players)")
      ->required();
  arena_cmd
      ->add_option("--mcts-ms", arena.yardstick_ms,
                   "with --b mcts: its time per move in ms (default: "
                   "--budget-ms, equal time)")
      ->check(CLI::Range(1L, 86400000L));
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

  mancala::cli::HealthOptions health;
  CLI::App* health_cmd = app.add_subcommand(
      "health", "print a server's health (SERVING exits 0, anything else 1)");
  health_cmd->add_option("--server", health.server, "mancalad address")
      ->capture_default_str();
  health_cmd->add_option("--service", health.service,
                         "a health name: liveness or readiness (default: "
                         "the whole server)");
  health_cmd->add_option("--timeout-ms", health.timeout_ms, "the call's deadline")
      ->check(CLI::Range(1, 600000))
      ->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  if (absl::Status s = mancala::cli::UseTls(tls); !s.ok()) {
    std::cerr << "error: " << s.message() << "\n";
    return 1;
  }

  if (health_cmd->parsed()) {
    return mancala::cli::Health(health, std::cout, std::cerr);
  }

  if (arena_cmd->parsed()) {
    if (!ParseOptionPairs(arena_option_pairs, &arena.options)) return 1;
    if (arena_b == "mcts") {
      arena.b_yardstick = true;
    } else if (!arena_b.empty() && arena_b.size() <= 2 &&
               arena_b.find_first_not_of("0123456789") == std::string::npos) {
      arena.level_b = std::stoi(arena_b);
    } else {
      std::cerr << "error: --b is a CPU level (1-4) or mcts (got " << arena_b
                << ")\n";
      return 1;
    }
    return mancala::cli::Arena(arena, std::cout, std::cerr);
  }
  if (queue_cmd->parsed()) {
    if (!ParseOptionPairs(queue_option_pairs, &queue.play.options) ||
        !ParseMoves(queue_moves, &queue.play.moves)) {
      return 1;
    }
    return mancala::cli::Queue(queue, std::cin, std::cout, std::cerr);
  }
  if (leaderboard_cmd->parsed()) {
    return mancala::cli::Leaderboard(query, provisional, std::cout, std::cerr);
  }
  if (rating_cmd->parsed()) {
    return mancala::cli::Rating(query, rating_history, std::cout, std::cerr);
  }
  if (history_cmd->parsed()) {
    return mancala::cli::History(query, std::cout, std::cerr);
  }
  if (admin_cmd->parsed()) {
    for (CLI::App* sub : admin_cmd->get_subcommands()) {
      return mancala::cli::Admin(sub->get_name(), query, admin, std::cout,
                                 std::cerr);
    }
  }

  if (replay_cmd->parsed()) return mancala::cli::Replay(files, std::cout);
  if (watch_cmd->parsed()) {
    return mancala::cli::Watch(watch, std::cout, std::cerr);
  }

  if (!ParseOptionPairs(option_pairs, &play.options) ||
      !ParseMoves(moves, &play.moves)) {
    return 1;
  }
  return mancala::cli::Play(play, std::cin, std::cout, std::cerr);
}
