// Any game, any option map, any move sequence: the engine never crashes,
// seeds are conserved, the legal moves are exactly the pits Apply()
// accepts, and a finished game takes no move (docs/rules.md).

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <numeric>

#include "engine/state.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_options.h"

using mancala::fuzz::Check;

namespace {

using mancala::engine::MoveError;
using mancala::engine::State;

int Seeds(const State& s) {
  const auto& b = s.board();
  int total = 0;
  for (int p = 0; p < b.players; ++p) {
    total += b.stores[p];
    for (int i = 0; i < b.pits_per_player; ++i) total += b.pits[p][i];
  }
  return total;
}

// Legal moves are exactly the pits Apply() accepts, and Apply() refuses
// anything else without changing the state.
void CheckLegalMoves(const State& s) {
  const std::vector<int> legal = s.LegalMoves();
  const int pits = s.rules().pits;
  for (int pit = -2; pit <= pits + 1; ++pit) {
    State copy = s;
    const bool in_list =
        std::find(legal.begin(), legal.end(), pit) != legal.end();
    const bool applied = !copy.Apply(pit).has_value();
    Check(in_list == applied, "LegalMoves() differs from what Apply() takes");
    Check(s.IsLegal(pit) == in_list, "IsLegal() differs from LegalMoves()");
    if (!applied) {
      Check(copy.board() == s.board() && copy.ply() == s.ply(),
            "a refused move changed the state");
    }
  }
  std::uint32_t mask = 0;
  for (int pit : legal) mask |= 1u << pit;
  Check(mask == s.LegalMask(), "LegalMask() differs from LegalMoves()");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string game = mancala::fuzz::PickGame(in);
  const int players = in.ConsumeIntegralInRange(0, 5);
  const auto options = mancala::fuzz::PickOptions(in);
  auto parsed = mancala::engine::ParseRules(game, options, players);
  if (auto* err = std::get_if<mancala::engine::RulesError>(&parsed)) {
    Check(!err->message.empty(), "a refused option set has no message");
    return 0;
  }
  const auto& rules = std::get<mancala::engine::Rules>(parsed);
  State state(rules, in.ConsumeIntegralInRange(0, rules.players - 1));
  const int seeds = Seeds(state);
  Check(seeds == rules.players * rules.pits * rules.seeds,
        "the starting board holds the wrong number of seeds");
  for (int step = 0; step < 400 && in.remaining_bytes() > 0; ++step) {
    CheckLegalMoves(state);
    if (state.is_over()) {
      Check(state.LegalMoves().empty(), "a finished game has legal moves");
      for (int pit = 0; pit < rules.pits; ++pit) {
        State copy = state;
        Check(copy.Apply(pit) == MoveError::kGameOver,
              "a finished game took a move");
      }
      break;
    }
    if (in.ConsumeIntegralInRange(0, 31) == 0) {
      // A resignation by anyone, active or not, seated or not.
      const int who = in.ConsumeIntegralInRange(-1, rules.players);
      if (who < 0 || who >= rules.players) continue;  // Not a seat.
      state.Resign(who);
    } else {
      const std::vector<int> legal = state.LegalMoves();
      Check(!legal.empty(), "a game in progress has no legal move");
      const int pick = in.ConsumeIntegralInRange<int>(0, legal.size() - 1);
      Check(!state.Apply(legal[pick]).has_value(), "a legal move failed");
    }
    Check(Seeds(state) == seeds, "seeds are not conserved");
  }
  return 0;
}
