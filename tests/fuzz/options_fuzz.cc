// Option parsing (engine::ParseRules): any game name, player count and
// option map is either refused with a message or gives Rules whose
// Options() parse back to the same Rules (engine/rules.h).

#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_options.h"

using mancala::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string game = mancala::fuzz::PickGame(in);
  const int players = in.ConsumeIntegral<int>();
  const auto options = mancala::fuzz::PickOptions(in);
  auto parsed = mancala::engine::ParseRules(game, options, players);
  if (auto* err = std::get_if<mancala::engine::RulesError>(&parsed)) {
    Check(!err->message.empty(), "a refusal without a message");
    return 0;
  }
  const auto& rules = std::get<mancala::engine::Rules>(parsed);
  auto again = mancala::engine::ParseRules(game, rules.Options(), players);
  Check(std::holds_alternative<mancala::engine::Rules>(again) &&
            std::get<mancala::engine::Rules>(again) == rules,
        "Options() does not parse back to the rules");
  Check(rules.players == players && rules.pits >= 1 &&
            rules.pits <= mancala::engine::kMaxPits && rules.seeds >= 1,
        "rules out of the engine's range");
  return 0;
}
