// Kalah endgame tables (engine/cpu/kalah_endgame.h): values of a few
// positions checked by hand, agreement with a plain exhaustive search on
// random small positions under both end rules, and the size of the table
// level 4 uses.

#include "engine/cpu/kalah_endgame.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/cpu/cpu_player.h"
#include "engine/cpu/rng.h"
#include "engine/cpu/swindle.h"
#include "engine/rules.h"
#include "engine/state.h"
#include "tests/cpu/test_positions.h"

namespace mancala::engine {
namespace {

Rules KalahRules(EndRule end_rule) {
  Rules rules = std::get<Rules>(ParseRules("kalah", {}, 2));
  rules.end_rule = end_rule;
  return rules;
}

int Value(const cpu::KalahEndgameTable& table, const Board& board,
          EndRule end_rule, int to_move = 0) {
  const auto v = table.Lookup(FromBoard(KalahRules(end_rule), board, to_move));
  EXPECT_TRUE(v.has_value());
  return v.value_or(-1000);
}

TEST(KalahEndgame, HandCheckedValues) {
  for (const EndRule rule : {EndRule::kMoverEmpty, EndRule::kAnySideEmpty}) {
    const cpu::KalahEndgameTable table(rule, 6);
    // Pit 5's seed reaches the store (K.4), but the mover's row is then
    // empty: the game ends and the other's seed is swept to it (K.8, K.9).
    EXPECT_EQ(
        Value(table, KalahBoard({0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}, 20, 20),
              rule),
        0);
    // Pit 4's seed lands in the empty pit 5 and captures the seed opposite
    // (K.5): both rows are empty, +2.
    EXPECT_EQ(
        Value(table, KalahBoard({0, 0, 0, 0, 1, 0}, {1, 0, 0, 0, 0, 0}, 20, 20),
              rule),
        2);
    // Pit 5's two seeds: one to the store, one swept; the other player
    // gets both of its seeds (swept, or played: pit 5 to its store, then
    // pit 0 sown on to its own row and swept). -1.
    EXPECT_EQ(
        Value(table, KalahBoard({0, 0, 0, 0, 0, 2}, {0, 0, 0, 0, 0, 1}, 20, 20),
              rule),
        -1);
    // Player 1 to move: the table is from the mover's side. Player 1's
    // pit 5 seed goes to its store, then its row is empty: +1 - 1.
    EXPECT_EQ(
        Value(table, KalahBoard({0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}, 20, 20),
              rule, 1),
        0);
  }
  // The mover's only seed reaches its store (K.4); its row is empty, so
  // the game ends under both rules and the other's two seeds are swept to
  // it (K.8, K.8', K.9): -1, as the exhaustive search says.
  const Board swept = KalahBoard({0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 2, 0}, 0, 0);
  const State s = FromBoard(KalahRules(EndRule::kMoverEmpty), swept, 0);
  ASSERT_EQ(BestMargin(s, 0, -1000, 1000), -1);
  for (const EndRule rule : {EndRule::kMoverEmpty, EndRule::kAnySideEmpty}) {
    EXPECT_EQ(Value(cpu::KalahEndgameTable(rule, 4), swept, rule), -1);
  }
}

// The table agrees with plain alpha-beta to the end of the game
// (test_positions.h) on random positions with up to 9 seeds in the pits.
TEST(KalahEndgame, AgreesWithExhaustiveSearch) {
  for (const EndRule rule : {EndRule::kMoverEmpty, EndRule::kAnySideEmpty}) {
    const int kSeeds = 9;
    const cpu::KalahEndgameTable table(rule, kSeeds);
    const Rules rules = KalahRules(rule);
    cpu::Rng rng(rule == EndRule::kMoverEmpty ? 11 : 12);
    int checked = 0;
    while (checked < 300) {
      Board b = KalahBoard({}, {}, 0, 0);
      const int seeds = 1 + rng.Below(kSeeds);
      for (int k = 0; k < seeds; ++k) ++b.pits[rng.Below(2)][rng.Below(6)];
      b.stores[0] = rng.Below(20);
      b.stores[1] = 48 - seeds - b.stores[0];
      const int to_move = rng.Below(2);
      auto parsed = State::FromBoard(rules, b, to_move);
      if (std::holds_alternative<RulesError>(parsed)) continue;  // No move.
      const State& s = std::get<State>(parsed);
      if (rule == EndRule::kAnySideEmpty &&
          s.board().pits[1 - to_move] == std::array<int, kMaxPits>{}) {
        continue;  // Already over under K.8'; the engine never asks.
      }
      const auto v = table.Lookup(s);
      ASSERT_TRUE(v.has_value());
      const int stores = b.stores[to_move] - b.stores[1 - to_move];
      EXPECT_EQ(stores + *v, BestMargin(s, to_move, -1000, 1000))
          << "seeds " << seeds << " checked " << checked;
      ++checked;
    }
  }
}

TEST(KalahEndgame, TheTableLevelFourUsesCoversThirteenSeedsIn64MiB) {
  const Rules rules = KalahRules(EndRule::kMoverEmpty);
  const cpu::KalahEndgameTable* table = cpu::KalahEndgameTable::For(rules);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->max_seeds(), cpu::kKalahEndgameSeeds);
  EXPECT_EQ(table->positions(), 5200300u);  // C(25, 12).
  EXPECT_LE(table->bytes(), 64u << 20);
  EXPECT_EQ(cpu::KalahEndgameTable::For(rules), table);  // Built once.
  EXPECT_EQ(cpu::KalahEndgameTable::IfReady(rules), table);
  EXPECT_EQ(
      cpu::KalahEndgameTable::For(std::get<Rules>(ParseRules("oware", {}, 2))),
      nullptr);
  RecordProperty("build_seconds", std::to_string(table->build_seconds()));
  std::printf(
      "kalah endgame table: %zu positions, %zu bytes, built in %.2f s\n",
      table->positions(), table->bytes(), table->build_seconds());
  // More seeds than the table holds: no value.
  const State start(rules, 0);
  EXPECT_FALSE(table->Lookup(start).has_value());
}

// Random Kalah positions with up to `seeds` seeds in the pits that are not
// over, under K.8.
std::vector<State> SmallPositions(int seeds, int count, std::uint64_t seed) {
  const Rules rules = KalahRules(EndRule::kMoverEmpty);
  cpu::Rng rng(seed);
  std::vector<State> out;
  while (static_cast<int>(out.size()) < count) {
    Board b = KalahBoard({}, {}, 0, 0);
    const int n = 2 + rng.Below(seeds - 1);
    for (int k = 0; k < n; ++k) ++b.pits[rng.Below(2)][rng.Below(6)];
    b.stores[0] = (48 - n) / 2 + rng.Below(7) - 3;  // A close game.
    b.stores[1] = 48 - n - b.stores[0];
    auto parsed = State::FromBoard(rules, b, rng.Below(2));
    if (auto* s = std::get_if<State>(&parsed)) out.push_back(*s);
  }
  return out;
}

// A swindle is only played in a lost position, and its trap is real: the
// exhaustive search finds a reply of the opponent (after the mover's best
// extra turns) that lets the mover draw or win.
TEST(KalahSwindle, PlaysOnlyLostPositionsAndSetsRealTraps) {
  const cpu::KalahEndgameTable table(EndRule::kMoverEmpty, 9);
  int swindles = 0;
  int differs = 0;
  for (const State& s : SmallPositions(9, 400, 21)) {
    const int me = s.to_move();
    const int exact = BestMargin(s, me, -1000, 1000);
    ASSERT_EQ(cpu::ExactMargin(s, me, table), exact);
    const std::optional<int> move = cpu::SwindleMove(s, table);
    if (exact >= 0) {
      EXPECT_FALSE(move.has_value());
      continue;
    }
    if (!move) continue;
    ASSERT_TRUE(s.IsLegal(*move));
    ++swindles;
    State next = s;
    next.Apply(*move);
    if (BestMargin(next, me, -1000, 1000) < exact) ++differs;
    // Follow the mover's extra turns by trying every continuation; some
    // opponent reply must then give the mover a draw or a win.
    std::vector<State> frontier = {next};
    bool trap = false;
    while (!frontier.empty() && !trap) {
      const State t = frontier.back();
      frontier.pop_back();
      if (t.is_over()) continue;
      for (const int pit : t.LegalMoves()) {
        State u = t;
        u.Apply(pit);
        if (t.to_move() == me) {
          frontier.push_back(u);
        } else if (BestMargin(u, me, -1000, 1000) >= 0) {
          trap = true;
        }
      }
    }
    EXPECT_TRUE(trap) << "move " << *move;
  }
  EXPECT_GT(swindles, 20);
  RecordProperty("swindles", swindles);
  RecordProperty("worse_margin", differs);
}

// Level 4 plays covered endgames perfectly: the swindle where it applies
// (lost positions), else a move that keeps the best margin (the exhaustive
// search's).
TEST(KalahSwindle, LevelFourPlaysCoveredEndgamesPerfectly) {
  const cpu::KalahEndgameTable* table =
      cpu::KalahEndgameTable::For(KalahRules(EndRule::kMoverEmpty));
  ASSERT_NE(table, nullptr);
  for (const State& s : SmallPositions(9, 60, 31)) {
    const int me = s.to_move();
    CpuOptions o;
    o.level = 4;
    o.seed = 5;
    o.node_limit = 20000;
    o.budget = std::chrono::hours(1);
    const int move = ChooseMove(s, o);
    const int best = BestMargin(s, me, -1000, 1000);
    if (const std::optional<int> swindle = cpu::SwindleMove(s, *table)) {
      EXPECT_LT(best, 0);
      EXPECT_EQ(move, *swindle);
      continue;
    }
    State next = s;
    next.Apply(move);
    EXPECT_EQ(BestMargin(next, me, -1000, 1000), best) << "move " << move;
  }
}

}  // namespace
}  // namespace mancala::engine
