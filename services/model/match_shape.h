// The shape of a match: its game, number of seats, rule options, turn time
// limit and rotate_first_player. One place checks it for every way a match
// comes to be: CreateMatch, FindMatch (a queue's shape), Rematch (the
// finished match's shape, rechecked) and loading a stored match.
//
// The rules of the options are the engine's (engine/rules.h, docs/rules.md
// section 2); the service adds the seat counts, the turn limits it offers,
// and rotate_first_player, a series setting (docs/rules.md MB.4) kept for every
// game that the rules never see.
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_MODEL_MATCH_SHAPE_H_
#define MANCALA_SERVICES_MODEL_MATCH_SHAPE_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "engine/rules.h"
#include "storage/store.h"

namespace mancala::services {

struct MatchShape {
  std::string game;  // Engine wire name ("kalah").
  int seats = 2;     // 2; 2 to 4 for Mancala Basic.
  // Every rule option with its effective value (defaults filled in), in the
  // engine's spelling; never rotate_first_player.
  engine::OptionMap options;
  int turn_limit_s = 0;  // 0 (no limit), 30 or 60.
  bool rotate_first_player = true;
  engine::Rules rules;  // The parsed rules, for `seats` players.
};

// Checks a request's shape. `game` is the engine wire name of the request's
// game (convert.h GameName), nullopt if it names none. `options` may hold
// rotate_first_player (on/off);
// `seats_field` names the request field that gave `seats` in messages.
// INVALID_ARGUMENT: reason INVALID_OPTION for an option the rules refuse,
// INVALID_ARGUMENT otherwise; the message names the field and the allowed
// values.
absl::Status ShapeFromRequest(const std::optional<std::string>& game, int seats,
                              const std::string& seats_field,
                              const engine::OptionMap& options,
                              int turn_limit_s, MatchShape* out);

// Checks a stored match's shape. DATA_LOSS (BAD_STORED_DATA) if the store
// holds a shape the service would never have accepted.
absl::Status ShapeFromRecord(const storage::MatchRecord& record,
                             MatchShape* out);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MODEL_MATCH_SHAPE_H_
