// Helpers for the hand-written rules tests: parse rules, set up boards,
// play moves and print events compactly.

#ifndef MANCALA_TESTS_ENGINE_TEST_UTIL_H_
#define MANCALA_TESTS_ENGINE_TEST_UTIL_H_

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "engine/events.h"
#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine::testing {

using Rows = std::vector<std::vector<int>>;

// ParseRules that must succeed (fails the test otherwise).
Rules MustParse(std::string_view game, const OptionMap& options = {},
                int players = 2);
// The RulesError message ParseRules must return ("" if it succeeded).
std::string ParseError(std::string_view game, const OptionMap& options,
                       int players = 2);

// State::FromBoard that must succeed.
State MustFromBoard(const Rules& rules, const Rows& pits,
                    const std::vector<int>& stores, int to_move,
                    const std::vector<int>& active = {},
                    const std::array<int, kMaxPlayers>& ranks = {});

Rows Pits(const State& s);
Rows Pits(const Board& b);
std::vector<int> Stores(const State& s);
std::vector<int> Stores(const Board& b);
std::vector<int> Ranks(const State& s);

// Applies `pit`, which must be legal; returns the record.
MoveRecord Play(State& s, int pit);

// One event per token, e.g. "pick_up 0:2 x13", "drop 0:S", "capture
// p0 1:3 x2", "extra_turn p0", "finish p1 r1", "sweep 1:0 x4",
// "game_over p1". Places are player:pit, S for a store.
std::string Describe(const Event& e);
std::vector<std::string> Describe(const MoveRecord& rec);
// The same without the kDrop events (long sowings).
std::vector<std::string> DescribeNoDrops(const MoveRecord& rec);

// Sum of all pits and stores (seed conservation).
int TotalSeeds(const State& s);

}  // namespace mancala::engine::testing

#endif  // MANCALA_TESTS_ENGINE_TEST_UTIL_H_
