// The strength criteria, by self-play (engine/cpu/self_play.h, the
// code behind `mancala arena`), 200 games each, seats rotating:
//   - two players (Kalah, Oware, Congkak, Mancala Basic): level k+1 scores
//     at least 70% against level k, a draw counting half;
//   - Mancala Basic with 4 players: one level k+1 seat among three level k
//     seats finishes first in at least 40% of the games.
// Searches are cut by a node limit, not by time, so the results are the
// same on every machine: `mancala arena --game G --players P --a K+1 --b K
// --games 200 --seed 1 --nodes N` prints the same tables, N = 20000 but for
// Mancala Basic's level 4 with 4 players (N = 300000): its Monte Carlo
// search plays whole games, 300000 positions being about 2000 of them
// (some 25 ms per move; the server gives level 4 one second).
//
// Congkak's levels 3 vs 2 and 4 vs 3 cannot meet the criterion and their
// tests are DISABLED_ (run them with --gtest_also_run_disabled_tests): the
// player to move first stores more than half the seeds during its first
// turn (see CpuLevels.CongkakFirstPlayerWinsDuringTheFirstTurn in
// cpu_test.cc), so every series ends 100-100 whatever the levels. The same
// holds on 5x5 and 9x9 boards, with every Congkak option, and after random
// openings (`mancala arena --opening-plies`): whoever moves first with a
// level of 2 or more wins.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <variant>

#include "engine/cpu/self_play.h"
#include "engine/rules.h"

namespace mancala::engine {
namespace {

constexpr int kGames = 200;
constexpr std::uint64_t kSeed = 1;
constexpr std::uint64_t kNodeLimit = 20000;
constexpr std::uint64_t kMonteCarloNodeLimit = 300000;

SelfPlayResult Series(const std::string& game, int players, int a, int b,
                      std::uint64_t node_limit = kNodeLimit) {
  auto parsed = ParseRules(game, {}, players);
  SelfPlayConfig config;
  config.rules = std::get<Rules>(parsed);
  config.level_a = a;
  config.level_b = b;
  config.games = kGames;
  config.seed = kSeed;
  config.node_limit = node_limit;
  config.budget = std::chrono::hours(1);  // Never reached: nodes decide.
  config.threads =
      static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
  const SelfPlayResult r = RunSelfPlay(config);
  EXPECT_EQ(r.games, kGames);
  EXPECT_EQ(r.aborted_games, 0);
  return r;
}

void ExpectTwoPlayerScore(const std::string& game, int a, int b) {
  const SelfPlayResult r = Series(game, 2, a, b);
  ::testing::Test::RecordProperty("score_percent",
                                  std::to_string(r.ScorePercent()));
  EXPECT_GE(r.ScorePercent(), 70.0)
      << game << " level " << a << " vs " << b << ": " << r.wins << " wins, "
      << r.draws << " draws, " << r.losses << " losses";
}

void ExpectFourPlayerFirsts(int a, int b, std::uint64_t node_limit) {
  const SelfPlayResult r = Series("mancala_basic", 4, a, b, node_limit);
  ::testing::Test::RecordProperty("first_percent",
                                  std::to_string(r.FirstPercent()));
  EXPECT_GE(r.FirstPercent(), 40.0)
      << "level " << a << " among three level " << b << ": ranks "
      << r.rank_counts[1] << "/" << r.rank_counts[2] << "/" << r.rank_counts[3]
      << "/" << r.rank_counts[4];
}

TEST(CpuStrength, Kalah_L2_vs_L1) { ExpectTwoPlayerScore("kalah", 2, 1); }
TEST(CpuStrength, Kalah_L3_vs_L2) { ExpectTwoPlayerScore("kalah", 3, 2); }
TEST(CpuStrength, Kalah_L4_vs_L3) { ExpectTwoPlayerScore("kalah", 4, 3); }

TEST(CpuStrength, Oware_L2_vs_L1) { ExpectTwoPlayerScore("oware", 2, 1); }
TEST(CpuStrength, Oware_L3_vs_L2) { ExpectTwoPlayerScore("oware", 3, 2); }
TEST(CpuStrength, Oware_L4_vs_L3) { ExpectTwoPlayerScore("oware", 4, 3); }

TEST(CpuStrength, Congkak_L2_vs_L1) { ExpectTwoPlayerScore("congkak", 2, 1); }
TEST(CpuStrength, DISABLED_Congkak_L3_vs_L2) {
  ExpectTwoPlayerScore("congkak", 3, 2);
}
TEST(CpuStrength, DISABLED_Congkak_L4_vs_L3) {
  ExpectTwoPlayerScore("congkak", 4, 3);
}
// What does hold in Congkak: the stronger level never does worse.
TEST(CpuStrength, Congkak_HigherLevelsScoreAtLeastHalf) {
  EXPECT_GE(Series("congkak", 2, 3, 2).ScorePercent(), 50.0);
  EXPECT_GE(Series("congkak", 2, 4, 3).ScorePercent(), 50.0);
}

TEST(CpuStrength, Basic2_L2_vs_L1) {
  ExpectTwoPlayerScore("mancala_basic", 2, 1);
}
TEST(CpuStrength, Basic2_L3_vs_L2) {
  ExpectTwoPlayerScore("mancala_basic", 3, 2);
}
TEST(CpuStrength, Basic2_L4_vs_L3) {
  ExpectTwoPlayerScore("mancala_basic", 4, 3);
}

TEST(CpuStrength, Basic4_L2_vs_L1) { ExpectFourPlayerFirsts(2, 1, kNodeLimit); }
TEST(CpuStrength, Basic4_L3_vs_L2) { ExpectFourPlayerFirsts(3, 2, kNodeLimit); }
TEST(CpuStrength, Basic4_L4_vs_L3) {
  ExpectFourPlayerFirsts(4, 3, kMonteCarloNodeLimit);
}

}  // namespace
}  // namespace mancala::engine
