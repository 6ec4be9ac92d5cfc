// Option parsing (docs/rules.md section 2): defaults, every allowed value, and
// error messages that name the option and list the allowed values.

#include <gtest/gtest.h>

#include "tests/engine/test_util.h"

namespace mancala::engine {
namespace {

using testing::MustParse;
using testing::ParseError;

TEST(OptionsTest, Section2_Defaults) {
  const Rules kalah = MustParse("kalah");
  EXPECT_EQ(kalah.game, Game::kKalah);
  EXPECT_EQ(kalah.pits, 6);
  EXPECT_EQ(kalah.seeds, 4);
  EXPECT_EQ(kalah.end_rule, EndRule::kMoverEmpty);

  const Rules oware = MustParse("oware");
  EXPECT_EQ(oware.seeds, 4);
  EXPECT_EQ(oware.grand_slam, GrandSlam::kNoCapture);
  EXPECT_EQ(oware.move_cap, 0);

  const Rules congkak = MustParse("congkak");
  EXPECT_EQ(congkak.pits, 7);
  EXPECT_EQ(congkak.seeds, 7);
  EXPECT_EQ(congkak.end_rule, EndRule::kMoverEmpty);
  EXPECT_FALSE(congkak.capture_requires_lap);
  EXPECT_EQ(congkak.empty_opposite, EmptyOpposite::kSeedStays);
  EXPECT_EQ(congkak.empty_opponent_house, EmptyOpponentHouse::kSeedStays);

  const Rules basic = MustParse("mancala_basic", {}, 3);
  EXPECT_EQ(basic.players, 3);
  EXPECT_EQ(basic.pits, 6);
  EXPECT_EQ(basic.seeds, 4);
  EXPECT_TRUE(basic.determine_all_ranks);
  EXPECT_TRUE(basic.rotate_first_player);
}

TEST(OptionsTest, Section2_EveryAllowedValueParses) {
  EXPECT_EQ(MustParse("kalah", {{"seeds", "6"}, {"end_rule", "any_side_empty"}})
                .end_rule,
            EndRule::kAnySideEmpty);
  const Rules oware = MustParse(
      "oware", {{"grand_slam", "illegal"}, {"cycle_rule", "move_cap:250"}});
  EXPECT_EQ(oware.grand_slam, GrandSlam::kIllegal);
  EXPECT_EQ(oware.move_cap, 250);
  EXPECT_EQ(MustParse("oware", {{"cycle_rule", "repetition_ends"}}).move_cap,
            0);
  const Rules congkak =
      MustParse("congkak", {{"houses", "9"},
                            {"seeds", "5"},
                            {"capture_requires_lap", "true"},
                            {"empty_opposite", "seed_to_store"},
                            {"empty_opponent_house", "seed_to_opponent_store"},
                            {"rounds", "single"},
                            {"opening", "alternating"}});
  EXPECT_EQ(congkak.pits, 9);
  EXPECT_EQ(congkak.seeds, 5);
  EXPECT_TRUE(congkak.capture_requires_lap);
  EXPECT_EQ(congkak.empty_opposite, EmptyOpposite::kSeedToStore);
  const Rules basic = MustParse("mancala_basic",
                                {{"players", "4"},
                                 {"pits", "4"},
                                 {"stones", "3"},
                                 {"determine_all_ranks", "off"},
                                 {"rotate_first_player", "false"}},
                                4);
  EXPECT_EQ(basic.seeds, 3);
  EXPECT_FALSE(basic.determine_all_ranks);
  EXPECT_FALSE(basic.rotate_first_player);
}

TEST(OptionsTest, BadValuesNameTheOptionAndTheAllowedValues) {
  EXPECT_EQ(ParseError("kalah", {{"seeds", "7"}}),
            "option \"seeds\" for kalah must be one of 4, 5, 6 (got \"7\")");
  EXPECT_EQ(ParseError("kalah", {{"end_rule", "never"}}),
            "option \"end_rule\" for kalah must be one of mover_empty, "
            "any_side_empty (got \"never\")");
  EXPECT_EQ(ParseError("oware", {{"grand_slam", "yes"}}),
            "option \"grand_slam\" for oware must be one of no_capture, "
            "illegal (got \"yes\")");
  for (const char* bad :
       {"move_cap:0", "move_cap:-5", "move_cap:", "cap:9", "move_cap:12x"}) {
    const std::string error = ParseError("oware", {{"cycle_rule", bad}});
    EXPECT_NE(error.find("option \"cycle_rule\" for oware must be one of "
                         "repetition_ends, move_cap:<plies>"),
              std::string::npos)
        << error;
  }
  EXPECT_EQ(ParseError("congkak", {{"houses", "6"}}),
            "option \"houses\" for congkak must be one of 5, 7, 9 (got \"6\")");
  EXPECT_EQ(ParseError("congkak", {{"capture_requires_lap", "maybe"}}),
            "option \"capture_requires_lap\" for congkak must be one of on, "
            "off, true, false (got \"maybe\")");
  EXPECT_NE(ParseError("congkak", {{"opening", "simultaneous"}})
                .find("must be one of alternating"),
            std::string::npos);
  EXPECT_EQ(ParseError("mancala_basic", {{"stones", "5"}}),
            "option \"stones\" for mancala_basic must be one of 4, 3 (got "
            "\"5\")");
  // MB.1: "any other requested value becomes 6", not an error.
  EXPECT_EQ(MustParse("mancala_basic", {{"pits", "six"}}).pits, 6);
}

TEST(OptionsTest, UnknownOptionsGamesAndSeatCountsAreErrors) {
  EXPECT_EQ(ParseError("kalah", {{"houses", "6"}}),
            "unknown option \"houses\" for kalah; allowed options: seeds, "
            "end_rule");
  EXPECT_EQ(ParseError("chess", {}),
            "unknown game \"chess\"; allowed games: kalah, oware, congkak, "
            "mancala_basic");
  EXPECT_EQ(ParseError("oware", {}, 3), "oware is played by 2 players (got 3)");
  EXPECT_NE(ParseError("mancala_basic", {}, 5).find("2, 3 or 4"),
            std::string::npos);
  EXPECT_NE(ParseError("mancala_basic", {{"players", "3"}}, 4).find("players"),
            std::string::npos);
  EXPECT_EQ(ParseError("kalah", {{"players", "2"}}), "");
  EXPECT_NE(ParseError("kalah", {{"players", "3"}}), "");
}

TEST(OptionsTest, C12_TraditionalRoundsAreRejectedClearly) {
  EXPECT_EQ(ParseError("congkak", {{"rounds", "traditional"}}),
            "option \"rounds\" for congkak: \"traditional\" (burnt holes, "
            "C.12) is not supported yet; allowed: single");
}

TEST(OptionsTest, OptionsRoundTripThroughParseRules) {
  const std::vector<std::pair<std::string, OptionMap>> cases = {
      {"kalah", {{"seeds", "5"}, {"end_rule", "any_side_empty"}}},
      {"oware", {{"cycle_rule", "move_cap:200"}, {"grand_slam", "illegal"}}},
      {"oware", {}},
      {"congkak",
       {{"houses", "5"},
        {"seeds", "9"},
        {"empty_opponent_house", "seed_to_opponent_store"}}},
      {"mancala_basic", {{"pits", "7"}, {"determine_all_ranks", "off"}}},
  };
  for (const auto& [game, options] : cases) {
    const Rules r = MustParse(game, options);
    EXPECT_EQ(MustParse(game, r.Options(), r.players), r) << game;
  }
  const Rules four = MustParse("mancala_basic", {{"pits", "4"}}, 4);
  EXPECT_EQ(MustParse("mancala_basic", four.Options(), 4), four);
  EXPECT_EQ(four.Options().at("pits"), "4");
}

TEST(OptionsTest, NamesOfGamesEventsErrorsAndEndReasons) {
  EXPECT_EQ(GameName(Game::kMancalaBasic), "mancala_basic");
  EXPECT_EQ(GameName(Game::kCongkak), "congkak");
  EXPECT_EQ(EventTypeName(EventType::kGrandSlamNullified),
            "grand_slam_nullified");
  EXPECT_EQ(EventTypeName(EventType::kGameOver), "game_over");
  EXPECT_EQ(EndReasonName(EndReason::kAllRanksDetermined),
            "all_ranks_determined");
  EXPECT_EQ(EndReasonName(EndReason::kNone), "");
  EXPECT_FALSE(MoveErrorMessage(MoveError::kNotLegal).empty());
}

}  // namespace
}  // namespace mancala::engine
