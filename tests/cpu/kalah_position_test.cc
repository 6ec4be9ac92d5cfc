// The compact Kalah position of level 4's search
// (engine/cpu/kalah_position.h): along random games of every Kalah rule
// set, it answers as the State it came from, so the search visits the same
// positions with the same values on either.

#include "engine/cpu/kalah_position.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <variant>

#include "engine/cpu/evaluation.h"
#include "engine/cpu/random_player.h"
#include "engine/cpu/rng.h"
#include "engine/cpu/transposition_table.h"
#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine::cpu {
namespace {

class KalahPositionTest
    : public ::testing::TestWithParam<std::tuple<std::string, int>> {
 protected:
  Rules rules() const {
    const auto& [end_rule, seeds] = GetParam();
    return std::get<Rules>(ParseRules(
        "kalah", {{"end_rule", end_rule}, {"seeds", std::to_string(seeds)}},
        2));
  }
};

// Every position of 200 random games (first movers alternating): legal
// moves, mover, end, both players' values, the table key, which moves keep
// the turn, and the position after each move played.
TEST_P(KalahPositionTest, AnswersAsTheState) {
  const Rules r = rules();
  ASSERT_TRUE(KalahPosition::Supports(r));
  Rng rng(5);
  int positions = 0;
  int kept_turns = 0;
  int decided = 0;
  for (int game = 0; game < 200; ++game) {
    State s(r, game % 2);
    KalahPosition p(s);
    while (true) {
      ASSERT_EQ(p.is_over(), s.is_over());
      for (const int player : {0, 1}) {
        ASSERT_EQ(p.Evaluate(player), Evaluate(s, player))
            << "game " << game << " ply " << s.ply();
        decided += Evaluate(s, player) >= kDecidedValue ? 1 : 0;
      }
      if (s.is_over()) break;
      ++positions;
      ASSERT_EQ(p.LegalMask(), s.LegalMask());
      ASSERT_EQ(p.to_move(), s.to_move());
      ASSERT_EQ(p.Key(), PositionKey(s));
      for (int pit = 0; pit < 6; ++pit) {
        if (!(s.LegalMask() >> pit & 1u)) continue;
        State next = s;
        next.Apply(pit);
        if (!next.is_over()) {
          ASSERT_EQ(p.KeepsTurn(pit), next.to_move() == s.to_move());
        }
      }
      const int pit = RandomPit(s.LegalMask(), rng);
      KalahPosition child = p;
      p.Play(pit, child);
      kept_turns += !child.is_over() && child.to_move() == s.to_move();
      ASSERT_FALSE(s.Apply(pit).has_value());
      if (!s.is_over()) {
        ASSERT_EQ(child, KalahPosition(s));
      }
      p = child;
    }
  }
  EXPECT_GT(positions, 5000);
  EXPECT_GT(kept_turns, 500);
  EXPECT_GT(decided, 100);  // Stores over half the seeds were seen.
}

INSTANTIATE_TEST_SUITE_P(Rules, KalahPositionTest,
                         ::testing::Combine(::testing::Values("mover_empty",
                                                              "any_side_empty"),
                                            ::testing::Values(4, 6)));

// Covered positions: the margin from the compact pits is the table's.
TEST(KalahPositionEndgame, MarginIsTheTables) {
  const Rules r =
      std::get<Rules>(ParseRules("kalah", {{"end_rule", "mover_empty"}}, 2));
  const KalahEndgame* table = KalahEndgame::Get(r);
  ASSERT_NE(table, nullptr);
  Rng rng(9);
  int covered = 0;
  for (int game = 0; game < 100; ++game) {
    State s(r, game % 2);
    while (!s.is_over()) {
      const KalahPosition p(s);
      if (table->Covers(s)) {
        ++covered;
        EXPECT_LE(p.PitSeeds(), kKalahEndgameSeeds);
        for (const int player : {0, 1}) {
          ASSERT_EQ(p.EndgameMargin(*table, player),
                    table->FinalMargin(s, player));
        }
      } else {
        EXPECT_GT(p.PitSeeds(), kKalahEndgameSeeds);
      }
      s.Apply(RandomPit(s.LegalMask(), rng));
    }
  }
  EXPECT_GT(covered, 500);
}

}  // namespace
}  // namespace mancala::engine::cpu
