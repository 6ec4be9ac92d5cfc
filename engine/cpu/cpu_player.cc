// Dispatches ChooseMove to the player of each level.

#include "engine/cpu/cpu_player.h"

#include <algorithm>
#include <bit>

#include "engine/cpu/alphabeta.h"
#include "engine/cpu/kalah_book.h"
#include "engine/cpu/kalah_endgame.h"
#include "engine/cpu/monte_carlo.h"
#include "engine/cpu/multiplayer_search.h"
#include "engine/cpu/one_ply.h"
#include "engine/cpu/random_player.h"

namespace mancala::engine {
namespace {

// Extra-turn moves per search path that do not use up depth (levels 3-4):
// the rest of a turn is mostly seen to its end, as level 2 sees it.
constexpr int kExtraTurnExtensions = 4;

// Transposition table size for a level-4 search: about two entries per
// position it may visit (2^20 entries = 16 MB at most).
int TableBits(std::uint64_t node_limit) {
  if (node_limit == 0) return 20;
  return std::clamp(static_cast<int>(std::bit_width(node_limit)) + 1, 12, 20);
}

}  // namespace

int Level3Depth(int players) {
  return players > 2 ? 2 * players : kLevel3Depth;
}

CpuReport AnalyzeMove(const State& state, const CpuOptions& options) {
  CpuReport report;
  const int level = std::clamp(options.level, kMinCpuLevel, kMaxCpuLevel);
  if (level == 1) {
    report.move = cpu::RandomMove(state, options.seed);
    return report;
  }
  if (level == 2) {
    report.move = cpu::OnePlyMove(state, options.seed);
    return report;
  }
  if (std::popcount(state.LegalMask()) == 1) {
    // One legal move: nothing to search (nor a table to allocate).
    report.move = std::countr_zero(state.LegalMask());
    return report;
  }
  const int players = state.rules().players;
  if (level == 4 && options.use_book) {
    if (const cpu::KalahBookEntry* e = cpu::FindKalahBookEntry(state)) {
      report.move = e->move;
      report.value = e->value;
      return report;
    }
  }
  cpu::SearchLimits limits;
  limits.seed = options.seed;
  limits.stop = options.stop;
  limits.node_limit = options.node_limit;
  limits.extensions = kExtraTurnExtensions;
  limits.model_opponents = true;
  const auto now = std::chrono::steady_clock::now();
  if (options.budget.count() <= 0) {
    limits.deadline = now;
  } else if (options.budget < std::chrono::hours(24 * 365)) {
    limits.deadline = now + options.budget;
  }
  // Stopped before it starts, a search does its depth-1 iteration only
  // (search_limits.h): it needs no table worth allocating (level 4's is
  // 16 MiB to clear) and must neither start nor wait for an endgame build.
  const bool stopped = options.stop != nullptr && options.stop->load();
  if (stopped) {
    limits.max_depth = 1;
    limits.tt_log2 = 10;
  } else if (level == 3) {
    limits.max_depth = Level3Depth(players);
    limits.tt_log2 = 12;
  } else {
    limits.max_depth = cpu::kMaxSearchDepth;
    limits.tt_log2 = options.table_bits > 0
                         ? std::clamp(options.table_bits, 10, 24)
                         : TableBits(options.node_limit);
    limits.play_lost_for_errors = true;
    limits.deep_evaluation = true;
    // Endgame tables: a node-limited search waits for the table, so its
    // move is the same on every run; a timed one uses it once built.
    limits.kalah_endgame = options.node_limit > 0
                               ? cpu::KalahEndgame::Get(state.rules())
                               : cpu::KalahEndgame::TryGet(state.rules());
  }
  cpu::SearchResult result;
  if (players == 2) {
    result = cpu::AlphaBetaSearch(state, limits);
  } else if (level == 3) {
    result = cpu::MaxNSearch(state, limits);
  } else {
    result = cpu::MonteCarloSearch(state, limits);
  }
  report.move = result.move;
  report.value = result.value;
  report.depth = result.depth;
  report.nodes = result.nodes;
  report.cut_short = result.cut_short;
  return report;
}

int ChooseMove(const State& state, const CpuOptions& options) {
  return AnalyzeMove(state, options).move;
}

}  // namespace mancala::engine
