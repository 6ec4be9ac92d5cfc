#include "services/model/match_shape.h"

#include "services/model/domain_error.h"
#include "services/model/names.h"

namespace mancala::services {
namespace {

constexpr char kRotate[] = "rotate_first_player";

bool KnownGame(const std::string& name) {
  for (engine::Game g : {engine::Game::kKalah, engine::Game::kOware,
                         engine::Game::kCongkak, engine::Game::kMancalaBasic}) {
    if (engine::GameName(g) == name) return true;
  }
  return false;
}

// The checks shared by requests and stored matches; `options` without
// rotate_first_player.
absl::Status CheckShape(const std::string& game, int seats,
                        const std::string& seats_field,
                        const engine::OptionMap& options, int turn_limit_s,
                        bool rotate_first_player, MatchShape* out) {
  const int max_seats = game == "mancala_basic" ? 4 : 2;
  if (seats < 2 || seats > max_seats) {
    return InvalidField(seats_field + " must be " +
                        (max_seats == 2 ? "2" : "2 to 4") + " for " + game +
                        ", got " + std::to_string(seats));
  }
  if (turn_limit_s != 0 && turn_limit_s != 30 && turn_limit_s != 60) {
    return InvalidField(
        "turn_time_limit_seconds must be 0 (none), 30 or 60, got " +
        std::to_string(turn_limit_s));
  }
  auto parsed = engine::ParseRules(game, options, seats);
  if (auto* err = std::get_if<engine::RulesError>(&parsed)) {
    return DomainError(absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
                       err->message);
  }
  out->game = game;
  out->seats = seats;
  out->rules = std::get<engine::Rules>(parsed);
  out->options = out->rules.Options();
  out->options.erase(kRotate);  // A match setting, not a rule.
  out->turn_limit_s = turn_limit_s;
  out->rotate_first_player = rotate_first_player;
  return absl::OkStatus();
}

}  // namespace

absl::Status ShapeFromRequest(const std::optional<std::string>& name, int seats,
                              const std::string& seats_field,
                              const engine::OptionMap& options,
                              int turn_limit_s, MatchShape* out) {
  if (!name.has_value()) {
    return InvalidField("game must be KALAH, OWARE, CONGKAK or MANCALA_BASIC");
  }
  engine::OptionMap rule_options = options;
  bool rotate = true;
  if (auto it = rule_options.find(kRotate); it != rule_options.end()) {
    std::optional<bool> on = engine::ParseOnOff(it->second);
    if (!on.has_value()) {
      return DomainError(
          absl::StatusCode::kInvalidArgument, "INVALID_OPTION",
          "option \"rotate_first_player\" must be one of on, off "
          "(got \"" +
              it->second + "\")");
    }
    rotate = *on;
    rule_options.erase(it);
  }
  return CheckShape(*name, seats, seats_field, rule_options, turn_limit_s,
                    rotate, out);
}

absl::Status ShapeFromRecord(const storage::MatchRecord& record,
                             MatchShape* out) {
  absl::Status s =
      !KnownGame(record.game)
          ? InvalidField("unknown game \"" + record.game + "\"")
          : CheckShape(record.game, static_cast<int>(record.seats.size()),
                       "seats", record.options, record.turn_limit_s,
                       record.rotate_first_player, out);
  if (s.ok()) return s;
  return StoredDataLoss(
      "stored " + MatchName(record.id) +
      " has a shape the service cannot play: " + std::string(s.message()));
}

}  // namespace mancala::services
