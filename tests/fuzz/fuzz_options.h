// Option maps for the fuzz targets: mostly real option names and values
// (so the fuzzer reaches play quickly), sometimes anything at all.

#ifndef MANCALA_TESTS_FUZZ_FUZZ_OPTIONS_H_
#define MANCALA_TESTS_FUZZ_FUZZ_OPTIONS_H_

#include <fuzzer/FuzzedDataProvider.h>

#include <string>

#include "engine/rules.h"

namespace mancala::fuzz {

inline std::string PickGame(FuzzedDataProvider& in) {
  static const char* kGames[] = {"kalah", "oware", "congkak", "mancala_basic"};
  if (in.ConsumeIntegralInRange(0, 15) == 0) {
    return in.ConsumeRandomLengthString(16);
  }
  return kGames[in.ConsumeIntegralInRange(0, 3)];
}

inline engine::OptionMap PickOptions(FuzzedDataProvider& in) {
  static const char* kNames[] = {"players",
                                 "pits",
                                 "stones",
                                 "determine_all_ranks",
                                 "rotate_first_player",
                                 "seeds",
                                 "end_rule",
                                 "grand_slam",
                                 "cycle_rule",
                                 "houses",
                                 "capture_requires_lap",
                                 "empty_opposite",
                                 "empty_opponent_house",
                                 "rounds",
                                 "opening"};
  static const char* kValues[] = {"2",
                                  "3",
                                  "4",
                                  "5",
                                  "6",
                                  "7",
                                  "9",
                                  "on",
                                  "off",
                                  "true",
                                  "false",
                                  "mover_empty",
                                  "any_side_empty",
                                  "no_capture",
                                  "illegal",
                                  "repetition_ends",
                                  "move_cap:1",
                                  "move_cap:40",
                                  "seed_stays",
                                  "seed_to_store",
                                  "seed_to_opponent_store",
                                  "single",
                                  "alternating",
                                  "traditional"};
  engine::OptionMap options;
  const int n = in.ConsumeIntegralInRange(0, 6);
  for (int i = 0; i < n; ++i) {
    std::string name = in.ConsumeBool()
                           ? kNames[in.ConsumeIntegralInRange(0, 14)]
                           : in.ConsumeRandomLengthString(24);
    std::string value = in.ConsumeBool()
                            ? kValues[in.ConsumeIntegralInRange(0, 23)]
                            : in.ConsumeRandomLengthString(24);
    options[name] = value;
  }
  return options;
}

}  // namespace mancala::fuzz

#endif  // MANCALA_TESTS_FUZZ_FUZZ_OPTIONS_H_
