#include "client/arena.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "engine/cpu/cpu_player.h"
#include "engine/cpu/self_play.h"
#include "engine/rules.h"

namespace mancala::cli {
namespace {

std::string Format(const char* format, double a, double b = 0, double c = 0) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, format, a, b, c);
  return buffer;
}

std::string OptionsText(const engine::OptionMap& options) {
  std::string text;
  for (const auto& [name, value] : options) {
    if (!text.empty()) text += ", ";
    text += name + "=" + value;
  }
  return text;
}

}  // namespace

int Arena(const ArenaOptions& options, std::ostream& out, std::ostream& err) {
  auto parsed =
      engine::ParseRules(options.game, options.options, options.players);
  if (const auto* error = std::get_if<engine::RulesError>(&parsed)) {
    err << "error: " << error->message << "\n";
    return 1;
  }
  std::vector<int> levels = {options.level_a};
  if (!options.b_yardstick) levels.push_back(options.level_b);
  for (int level : levels) {
    if (level < engine::kMinCpuLevel || level > engine::kMaxCpuLevel) {
      err << "error: CPU levels are " << engine::kMinCpuLevel << " to "
          << engine::kMaxCpuLevel << " (got " << level << ")\n";
      return 1;
    }
  }
  if (options.games < 1) {
    err << "error: --games must be at least 1\n";
    return 1;
  }
  const int players = std::get<engine::Rules>(parsed).players;
  if (options.yardstick_ms > 0 && !options.b_yardstick) {
    err << "error: --mcts-ms is the time of --b mcts\n";
    return 1;
  }
  if (options.b_yardstick && players != 2) {
    err << "error: --b mcts (the MCTS yardstick) plays two players only\n";
    return 1;
  }
  if (options.opening_plies > 0 && options.games % players != 0) {
    err << "error: with --opening-plies, --games must be a multiple of the "
        << players << " players, so that every opening is played with A on "
        << "every seat (got " << options.games << ")\n";
    return 1;
  }
  engine::SelfPlayConfig config;
  config.rules = std::get<engine::Rules>(parsed);
  config.level_a = options.level_a;
  config.level_b = options.level_b;
  config.games = options.games;
  config.seed = options.seed;
  config.node_limit = options.nodes;
  config.threads = options.threads;
  config.opening_plies = options.opening_plies;
  config.b_yardstick = options.b_yardstick;
  if (options.yardstick_ms > 0) {
    config.b_budget = std::chrono::milliseconds(options.yardstick_ms);
  }
  if (options.budget_ms >= 0) {
    config.budget = std::chrono::milliseconds(options.budget_ms);
  } else {
    config.budget = options.nodes > 0 ? std::chrono::milliseconds(3600000)
                                      : std::chrono::milliseconds(1000);
  }

  const engine::SelfPlayResult r = engine::RunSelfPlay(config);
  const std::chrono::milliseconds b_budget =
      config.b_budget.count() > 0 ? config.b_budget : config.budget;
  const std::string b_name =
      options.b_yardstick ? "mcts" : "level " + std::to_string(options.level_b);
  out << options.game << " (" << OptionsText(config.rules.Options()) << "), "
      << players << " players: A = level " << options.level_a << " vs B = "
      << (options.b_yardstick
              ? "the MCTS yardstick (UCT c=2, one random rollout, solver; " +
                    std::to_string(b_budget.count()) + " ms per move)"
              : b_name)
      << ", " << r.games << " games\n";
  out << "seed " << options.seed << ", node limit "
      << (options.nodes > 0 ? std::to_string(options.nodes) : "none")
      << ", budget " << config.budget.count() << " ms per move";
  if (options.opening_plies > 0) {
    out << ", " << options.opening_plies
        << " random opening plies (each opening with A on every seat)";
  }
  out << "\n";
  if (players == 2) {
    out << "        wins  draws  losses   score\n";
    out << "A" << Format("%11.0f %6.0f %7.0f", r.wins, r.draws, r.losses)
        << Format(" %6.1f%%", r.ScorePercent()) << "\n";
    const bool basic = config.rules.game == engine::Game::kMancalaBasic;
    out << "mean final margin ("
        << (basic ? "stones left in the loser's pits"
                  : "store difference, seeds")
        << "), by the seat that moved first after the opening:\n"
        << "            first   second\n";
    for (const bool a_side : {true, false}) {
      std::string name = a_side ? "A level " + std::to_string(options.level_a)
                                : "B " + b_name;
      name.resize(std::max<std::size_t>(name.size(), 9), ' ');  // Columns.
      out << name
          << Format(" %+7.2f  %+7.2f", r.MeanMargin(a_side, true),
                    r.MeanMargin(a_side, false))
          << Format("   (%.0f games first)", r.order_games[a_side ? 0 : 1])
          << "\n";
    }
    out << "A's score " << Format("%.1f%% +- %.1f (95%%)", r.ScorePercent(),
                                  r.ScoreMargin95())
        << Format("; %.1f%% when A moved first, %.1f%% when B did",
                  r.OrderScorePercent(true), r.OrderScorePercent(false))
        << "\n";
  } else {
    out << "    ";
    static const char* kRankNames[] = {"", "1st", "2nd", "3rd", "4th"};
    for (int rank = 1; rank <= players; ++rank) {
      out << "  " << kRankNames[rank];
    }
    out << "   first\n"
        << "A   ";
    for (int rank = 1; rank <= players; ++rank) {
      out << Format("%5.0f", r.rank_counts[static_cast<std::size_t>(rank)]);
    }
    out << Format(" %6.1f%%", r.FirstPercent()) << "\n";
  }
  auto per_move = [](std::uint64_t total, std::uint64_t moves) {
    return moves == 0 ? 0.0
                      : static_cast<double>(total) / static_cast<double>(moves);
  };
  out << "mean per move: A " << Format("%.3f ms", r.AMillisPerMove())
      << Format(" (%.0f positions, depth %.1f)", per_move(r.a_nodes, r.a_moves),
                per_move(r.a_depth, r.a_moves))
      << ", B " << Format("%.3f ms", r.BMillisPerMove())
      << Format(" (%.0f positions, depth %.1f)", per_move(r.b_nodes, r.b_moves),
                per_move(r.b_depth, r.b_moves))
      << Format("; %.1f plies per game",
                per_move(r.plies, static_cast<std::uint64_t>(r.games)))
      << ", " << r.distinct_games << " distinct games\n";
  if (options.b_yardstick && r.b_seconds > 0) {
    out << "the yardstick: "
        << Format("%.0f simulations per move, %.0f per second",
                  per_move(r.b_simulations, r.b_moves),
                  static_cast<double>(r.b_simulations) / r.b_seconds)
        << "\n";
  }
  if (r.aborted_games > 0) {
    out << r.aborted_games << " games stopped unfinished (counted as draws)\n";
  }
  return 0;
}

}  // namespace mancala::cli
