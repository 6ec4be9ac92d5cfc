#include "engine/cpu/self_play.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>
#include <unordered_set>
#include <vector>

#include "engine/cpu/cpu_player.h"
#include "engine/cpu/evaluation.h"
#include "engine/cpu/mcts_yardstick.h"
#include "engine/cpu/rng.h"

namespace mancala::engine {
namespace {

struct GameStats {
  int rank = 0;        // A's rank.
  bool first = false;  // A alone ranked first.
  bool draw = false;   // Two players, equal ranks.
  bool aborted = false;
  bool a_first = false;  // A moved first after the opening.
  int margin = 0;        // A's final margin (two players).
  double a_seconds = 0;
  double b_seconds = 0;
  std::uint64_t a_moves = 0;
  std::uint64_t b_moves = 0;
  std::uint64_t a_nodes = 0;
  std::uint64_t b_nodes = 0;
  std::uint64_t a_depth = 0;
  std::uint64_t b_depth = 0;
  std::uint64_t b_simulations = 0;
  std::uint64_t plies = 0;
  std::uint64_t moves_hash = 0;  // Of the seat of A and the pits played.
};

GameStats PlayOne(const SelfPlayConfig& config, int game) {
  GameStats stats;
  const int players = config.rules.players;
  const int seat_a = game % players;
  stats.moves_hash = static_cast<std::uint64_t>(seat_a);
  const std::uint64_t game_seed =
      cpu::Mix64(config.seed ^ cpu::Mix64(static_cast<std::uint64_t>(game)));
  State state(config.rules, /*first_player=*/0);
  cpu::Rng opening(cpu::Mix64(
      ~config.seed ^ cpu::Mix64(static_cast<std::uint64_t>(game / players))));
  for (int k = 0; k < config.opening_plies; ++k) {
    // Moves that would end the game are left out: the CPUs play it.
    std::vector<int> moves;
    for (const int pit : state.LegalMoves()) {
      State next = state;
      next.Apply(pit);
      if (!next.is_over()) moves.push_back(pit);
    }
    if (moves.empty()) break;
    const int move = moves[static_cast<std::size_t>(
        opening.Below(static_cast<int>(moves.size())))];
    state.Apply(move);
    stats.moves_hash =
        cpu::Mix64(stats.moves_hash ^ static_cast<std::uint64_t>(move));
  }
  stats.a_first = state.to_move() == seat_a;
  CpuOptions options;
  options.budget = config.budget;
  options.node_limit = config.node_limit;
  while (!state.is_over()) {
    if (state.ply() >= kSelfPlayMaxPlies) {
      stats.aborted = true;
      break;
    }
    const bool is_a = state.to_move() == seat_a;
    options.level = is_a ? config.level_a : config.level_b;
    options.seed =
        cpu::Mix64(game_seed + static_cast<std::uint64_t>(state.ply()));
    const auto start = std::chrono::steady_clock::now();
    CpuReport report;
    if (!is_a && config.b_yardstick) {
      cpu::SearchLimits limits;
      limits.node_limit = config.node_limit;
      limits.seed = options.seed;
      limits.deadline = start + (config.b_budget.count() > 0 ? config.b_budget
                                                             : config.budget);
      const cpu::YardstickResult y = cpu::MctsYardstickSearch(state, limits);
      report.move = y.search.move;
      report.nodes = y.search.nodes;
      report.depth = y.search.depth;
      stats.b_simulations += y.simulations;
    } else {
      options.budget = is_a || config.b_budget.count() <= 0 ? config.budget
                                                            : config.b_budget;
      report = AnalyzeMove(state, options);
    }
    const std::chrono::duration<double> took =
        std::chrono::steady_clock::now() - start;
    (is_a ? stats.a_seconds : stats.b_seconds) += took.count();
    (is_a ? stats.a_moves : stats.b_moves) += 1;
    (is_a ? stats.a_nodes : stats.b_nodes) += report.nodes;
    (is_a ? stats.a_depth : stats.b_depth) +=
        static_cast<std::uint64_t>(report.depth);
    state.Apply(report.move);
    ++stats.plies;
    stats.moves_hash =
        cpu::Mix64(stats.moves_hash ^ static_cast<std::uint64_t>(report.move));
  }
  if (stats.aborted) {
    stats.draw = players == 2;
    stats.rank = 1;
    return stats;
  }
  const Outcome& outcome = state.outcome();
  stats.rank = outcome.ranks[seat_a];
  stats.first = outcome.winner == seat_a;
  stats.draw = players == 2 && outcome.ranks[0] == outcome.ranks[1];
  if (players == 2) stats.margin = cpu::FinalMargin(state, seat_a);
  return stats;
}

}  // namespace

double SelfPlayResult::ScorePercent() const {
  return games == 0 ? 0 : 100.0 * (wins + 0.5 * draws) / games;
}

double SelfPlayResult::ScoreMargin95() const {
  if (games == 0) return 0;
  const double n = games;
  const double mean = (wins + 0.5 * draws) / n;
  const double variance = (wins + 0.25 * draws) / n - mean * mean;
  return 100.0 * 1.96 * std::sqrt(std::max(variance, 0.0) / n);
}

double SelfPlayResult::OrderScorePercent(bool a_first) const {
  const std::size_t order = a_first ? 0 : 1;
  if (order_games[order] == 0) return 0;
  return 100.0 * (order_wins[order] + 0.5 * order_draws[order]) /
         order_games[order];
}

double SelfPlayResult::FirstPercent() const {
  return games == 0 ? 0 : 100.0 * firsts / games;
}

double SelfPlayResult::MeanMargin(bool a_side, bool first) const {
  // B moved first exactly in the games in which A moved second.
  const std::size_t order = first == a_side ? 0 : 1;
  if (order_games[order] == 0) return 0;
  const double a_mean = static_cast<double>(a_margin_sum[order]) /
                        static_cast<double>(order_games[order]);
  return a_side ? a_mean : -a_mean;
}

double SelfPlayResult::AMillisPerMove() const {
  return a_moves == 0 ? 0 : 1000.0 * a_seconds / static_cast<double>(a_moves);
}

double SelfPlayResult::BMillisPerMove() const {
  return b_moves == 0 ? 0 : 1000.0 * b_seconds / static_cast<double>(b_moves);
}

SelfPlayResult RunSelfPlay(const SelfPlayConfig& config) {
  const int games = std::max(config.games, 0);
  std::vector<GameStats> stats(static_cast<std::size_t>(games));
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int g = next.fetch_add(1); g < games; g = next.fetch_add(1)) {
      stats[static_cast<std::size_t>(g)] = PlayOne(config, g);
    }
  };
  const int threads = std::clamp(config.threads, 1, std::max(games, 1));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();

  SelfPlayResult result;
  result.games = games;
  std::unordered_set<std::uint64_t> distinct;
  for (const GameStats& s : stats) {
    if (config.rules.players == 2) {
      if (s.draw) {
        ++result.draws;
      } else if (s.first) {
        ++result.wins;
      } else {
        ++result.losses;
      }
      const std::size_t order = s.a_first ? 0 : 1;
      ++result.order_games[order];
      result.a_margin_sum[order] += s.margin;
      result.order_draws[order] += s.draw ? 1 : 0;
      result.order_wins[order] += !s.draw && s.first ? 1 : 0;
    }
    if (s.rank >= 1 && s.rank <= kMaxPlayers) {
      ++result.rank_counts[static_cast<std::size_t>(s.rank)];
    }
    result.firsts += s.first ? 1 : 0;
    result.a_seconds += s.a_seconds;
    result.b_seconds += s.b_seconds;
    result.a_moves += s.a_moves;
    result.b_moves += s.b_moves;
    result.a_nodes += s.a_nodes;
    result.b_nodes += s.b_nodes;
    result.a_depth += s.a_depth;
    result.b_depth += s.b_depth;
    result.b_simulations += s.b_simulations;
    result.plies += s.plies;
    distinct.insert(s.moves_hash);
    result.aborted_games += s.aborted ? 1 : 0;
  }
  result.distinct_games = static_cast<int>(distinct.size());
  return result;
}

}  // namespace mancala::engine
