// Option parsing and printing for the four games (docs/rules.md section 2).
//
// Each game has a fixed list of options, each with a default and a closed
// set of allowed spellings. Parsing walks the caller's options once, checks
// every name against the game's list, and turns each value into the Rules
// field it controls. Errors name the option and the allowed values.

#include "engine/rules.h"

#include <charconv>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mancala::engine {
namespace {

struct OptionSpec {
  std::string_view name;
  std::string_view allowed;  // Human-readable list for error messages.
};

// The options of each game, in the order Options() lists them.
const std::vector<OptionSpec>& Specs(Game game) {
  static const std::vector<OptionSpec> kBasic = {
      {"players", "2, 3, 4"},
      {"pits", "6, 7 (2 players), 4 (3-4 players); other values become 6"},
      {"stones", "4, 3"},
      {"determine_all_ranks", "on, off, true, false"},
      {"rotate_first_player", "on, off, true, false"},
  };
  static const std::vector<OptionSpec> kKalah = {
      {"seeds", "4, 5, 6"},
      {"end_rule", "mover_empty, any_side_empty"},
  };
  static const std::vector<OptionSpec> kOware = {
      {"seeds", "4, 5, 6"},
      {"grand_slam", "no_capture, illegal"},
      {"cycle_rule",
       "repetition_ends, move_cap:<plies> (plies a positive integer)"},
  };
  static const std::vector<OptionSpec> kCongkak = {
      {"houses", "5, 7, 9"},
      {"seeds", "5, 7, 9"},
      {"end_rule", "mover_empty, any_side_empty"},
      {"capture_requires_lap", "on, off, true, false"},
      {"empty_opposite", "seed_stays, seed_to_store"},
      {"empty_opponent_house", "seed_stays, seed_to_opponent_store"},
      {"rounds", "single"},
      {"opening", "alternating"},
  };
  switch (game) {
    case Game::kKalah:
      return kKalah;
    case Game::kOware:
      return kOware;
    case Game::kCongkak:
      return kCongkak;
    case Game::kMancalaBasic:
      return kBasic;
  }
  return kKalah;
}

std::optional<int> ParseInt(std::string_view s) {
  int value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) {
    return std::nullopt;
  }
  return value;
}

RulesError BadValue(Game game, const OptionSpec& spec, std::string_view got) {
  return {"option \"" + std::string(spec.name) + "\" for " +
          std::string(GameName(game)) + " must be one of " +
          std::string(spec.allowed) + " (got \"" + std::string(got) + "\")"};
}

// Sets the Rules field of one option; false if the value is not allowed.
bool SetOption(Rules& r, std::string_view name, std::string_view value,
               RulesError& unsupported) {
  auto in = [&](std::initializer_list<int> allowed, int& field) {
    std::optional<int> v = ParseInt(value);
    if (!v) return false;
    for (int a : allowed) {
      if (*v == a) {
        field = a;
        return true;
      }
    }
    return false;
  };
  auto flag = [&](bool& field) {
    std::optional<bool> b = ParseOnOff(value);
    if (b) field = *b;
    return b.has_value();
  };
  auto end_rule = [&] {
    if (value == "mover_empty")
      r.end_rule = EndRule::kMoverEmpty;
    else if (value == "any_side_empty")
      r.end_rule = EndRule::kAnySideEmpty;
    else
      return false;
    return true;
  };
  switch (r.game) {
    case Game::kMancalaBasic:
      if (name == "players") return in({2, 3, 4}, r.players);
      if (name == "pits") {  // MB.1: any other value becomes 6 (below).
        r.pits = ParseInt(value).value_or(0);
        return true;
      }
      if (name == "stones") return in({4, 3}, r.seeds);
      if (name == "determine_all_ranks") return flag(r.determine_all_ranks);
      if (name == "rotate_first_player") return flag(r.rotate_first_player);
      return false;
    case Game::kKalah:
      if (name == "seeds") return in({4, 5, 6}, r.seeds);
      if (name == "end_rule") return end_rule();
      return false;
    case Game::kOware:
      if (name == "seeds") return in({4, 5, 6}, r.seeds);
      if (name == "grand_slam") {
        if (value == "no_capture")
          r.grand_slam = GrandSlam::kNoCapture;
        else if (value == "illegal")
          r.grand_slam = GrandSlam::kIllegal;
        else
          return false;
        return true;
      }
      if (name == "cycle_rule") {  // O.11, DECISION O-D2.
        constexpr std::string_view kCap = "move_cap:";
        if (value == "repetition_ends") {
          r.move_cap = 0;
          return true;
        }
        if (!value.starts_with(kCap)) return false;
        std::optional<int> plies = ParseInt(value.substr(kCap.size()));
        if (!plies || *plies <= 0) return false;
        r.move_cap = *plies;
        return true;
      }
      return false;
    case Game::kCongkak:
      if (name == "houses") return in({5, 7, 9}, r.pits);
      if (name == "seeds") return in({5, 7, 9}, r.seeds);
      if (name == "end_rule") return end_rule();
      if (name == "capture_requires_lap") return flag(r.capture_requires_lap);
      if (name == "empty_opposite") {
        if (value == "seed_stays")
          r.empty_opposite = EmptyOpposite::kSeedStays;
        else if (value == "seed_to_store")
          r.empty_opposite = EmptyOpposite::kSeedToStore;
        else
          return false;
        return true;
      }
      if (name == "empty_opponent_house") {
        if (value == "seed_stays") {
          r.empty_opponent_house = EmptyOpponentHouse::kSeedStays;
        } else if (value == "seed_to_opponent_store") {
          r.empty_opponent_house = EmptyOpponentHouse::kSeedToOpponentStore;
        } else {
          return false;
        }
        return true;
      }
      if (name == "rounds") {  // C.11; C.12 is not specified fully yet.
        if (value == "traditional") {
          unsupported.message =
              "option \"rounds\" for congkak: \"traditional\" (burnt holes, "
              "C.12) is not supported yet; allowed: single";
        }
        return value == "single";
      }
      if (name == "opening") return value == "alternating";  // C.9.
      return false;
  }
  return false;
}

}  // namespace

std::optional<bool> ParseOnOff(std::string_view s) {
  if (s == "on" || s == "true") return true;
  if (s == "off" || s == "false") return false;
  return std::nullopt;
}

std::string_view OnOff(bool b) { return b ? "on" : "off"; }

std::string_view GameName(Game game) {
  switch (game) {
    case Game::kKalah:
      return "kalah";
    case Game::kOware:
      return "oware";
    case Game::kCongkak:
      return "congkak";
    case Game::kMancalaBasic:
      return "mancala_basic";
  }
  return "";
}

std::variant<Rules, RulesError> ParseRules(std::string_view game_name,
                                           const OptionMap& options,
                                           int players) {
  Rules r;
  if (game_name == "kalah") {
    r.game = Game::kKalah;  // K.1: 6 pits, 4 seeds.
  } else if (game_name == "oware") {
    r.game = Game::kOware;  // O.1: 6 houses, 4 seeds.
  } else if (game_name == "congkak") {
    r.game = Game::kCongkak;  // C.1: 7 houses, 7 seeds.
    r.pits = 7;
    r.seeds = 7;
  } else if (game_name == "mancala_basic") {
    r.game = Game::kMancalaBasic;  // MB.1, MB.2: 6 pits, 4 stones.
  } else {
    return RulesError{"unknown game \"" + std::string(game_name) +
                      "\"; allowed games: kalah, oware, congkak, "
                      "mancala_basic"};
  }
  const std::string game(GameName(r.game));
  if (r.game == Game::kMancalaBasic) {
    if (players < 2 || players > kMaxPlayers) {
      return RulesError{"mancala_basic is played by 2, 3 or 4 players (got " +
                        std::to_string(players) + ")"};
    }
  } else if (players != 2) {
    return RulesError{game + " is played by 2 players (got " +
                      std::to_string(players) + ")"};
  }
  r.players = players;

  const std::vector<OptionSpec>& specs = Specs(r.game);
  for (const auto& [name, value] : options) {
    if (name == "players" && r.game != Game::kMancalaBasic) {
      if (value == "2") continue;  // Agrees with the only seat count.
      return BadValue(r.game, {"players", "2"}, value);
    }
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : specs) {
      if (s.name == name) spec = &s;
    }
    if (spec == nullptr) {
      std::string allowed;
      for (const OptionSpec& s : specs) {
        allowed += (allowed.empty() ? "" : ", ") + std::string(s.name);
      }
      return RulesError{"unknown option \"" + name + "\" for " + game +
                        "; allowed options: " + allowed};
    }
    RulesError unsupported;
    if (!SetOption(r, name, value, unsupported)) {
      if (!unsupported.message.empty()) return unsupported;
      return BadValue(r.game, *spec, value);
    }
  }
  if (r.players != players) {
    return RulesError{"option \"players\" for " + game + " is " +
                      std::to_string(r.players) + " but the game has " +
                      std::to_string(players) + " seats"};
  }
  if (r.game == Game::kMancalaBasic) {
    // MB.1: 7 pits only with 2 players, 4 only with 3-4; otherwise 6.
    const bool ok = r.pits == 6 || (r.pits == 7 && r.players == 2) ||
                    (r.pits == 4 && r.players >= 3);
    if (!ok) r.pits = 6;
  }
  return r;
}

OptionMap Rules::Options() const {
  OptionMap m;
  auto num = [](int v) { return std::to_string(v); };
  auto end = [this] {
    return std::string(end_rule == EndRule::kMoverEmpty ? "mover_empty"
                                                        : "any_side_empty");
  };
  switch (game) {
    case Game::kMancalaBasic:
      m["players"] = num(players);
      m["pits"] = num(pits);
      m["stones"] = num(seeds);
      m["determine_all_ranks"] = OnOff(determine_all_ranks);
      m["rotate_first_player"] = OnOff(rotate_first_player);
      break;
    case Game::kKalah:
      m["seeds"] = num(seeds);
      m["end_rule"] = end();
      break;
    case Game::kOware:
      m["seeds"] = num(seeds);
      m["grand_slam"] =
          grand_slam == GrandSlam::kNoCapture ? "no_capture" : "illegal";
      m["cycle_rule"] =
          move_cap > 0 ? "move_cap:" + num(move_cap) : "repetition_ends";
      break;
    case Game::kCongkak:
      m["houses"] = num(pits);
      m["seeds"] = num(seeds);
      m["end_rule"] = end();
      m["capture_requires_lap"] = OnOff(capture_requires_lap);
      m["empty_opposite"] = empty_opposite == EmptyOpposite::kSeedStays
                                ? "seed_stays"
                                : "seed_to_store";
      m["empty_opponent_house"] =
          empty_opponent_house == EmptyOpponentHouse::kSeedStays
              ? "seed_stays"
              : "seed_to_opponent_store";
      m["rounds"] = "single";
      m["opening"] = "alternating";
      break;
  }
  return m;
}

}  // namespace mancala::engine
