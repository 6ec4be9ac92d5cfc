// Rules of one game with its option values, validated.
//
// A game is named by its wire name ("kalah", "oware", "congkak",
// "mancala_basic") and configured by string options, exactly as listed in
// docs/rules.md section 2. ParseRules() turns (game, options, players) into a
// Rules value or explains what is wrong. Rules is a small immutable value:
// copy it freely.
//
// Thread-safety: all functions are pure.

#ifndef MANCALA_ENGINE_RULES_H_
#define MANCALA_ENGINE_RULES_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace mancala::engine {

enum class Game { kKalah, kOware, kCongkak, kMancalaBasic };

// Kalah K.8 / K.8' and Congkak C.10.
enum class EndRule { kMoverEmpty, kAnySideEmpty };
// Oware O.6 (DECISION O-D1).
enum class GrandSlam { kNoCapture, kIllegal };
// Congkak C.7b (DECISION C-D3).
enum class EmptyOpposite { kSeedStays, kSeedToStore };
// Congkak C.6 (DECISION C-D6).
enum class EmptyOpponentHouse { kSeedStays, kSeedToOpponentStore };

// Option names and values as strings, e.g. {"seeds", "5"}, {"end_rule",
// "any_side_empty"}. Booleans accept "on"/"off"/"true"/"false".
using OptionMap = std::map<std::string, std::string>;

// Largest board any option set can make: 4 players x 7 pits, or 2 x 9.
inline constexpr int kMaxPlayers = 4;
inline constexpr int kMaxPits = 9;

struct Rules {
  Game game = Game::kKalah;
  int players = 2;  // 2..4 for Mancala Basic, 2 otherwise.
  int pits = 6;     // Pits (houses) per player.
  int seeds = 4;    // Seeds per pit at the start ("stones" in Mancala Basic).

  EndRule end_rule = EndRule::kMoverEmpty;       // Kalah, Congkak.
  bool determine_all_ranks = true;               // Mancala Basic (MB.11b/c).
  GrandSlam grand_slam = GrandSlam::kNoCapture;  // Oware.
  // Oware O.11: 0 = `repetition_ends`; > 0 = `move_cap:<plies>`, the game
  // ends after that many plies, each player taking their own row.
  int move_cap = 0;
  bool capture_requires_lap = false;                         // Congkak C.7c.
  EmptyOpposite empty_opposite = EmptyOpposite::kSeedStays;  // Congkak.
  EmptyOpponentHouse empty_opponent_house =
      EmptyOpponentHouse::kSeedStays;  // Congkak.
  // Mancala Basic MB.4 series setting: the next game's first player is the
  // seat after this game's first player. Kept so Options() round-trips; the
  // engine itself ignores it (the server picks `first_player`).
  bool rotate_first_player = true;

  friend bool operator==(const Rules&, const Rules&) = default;

  // True for games with a store on the ring after each player's pits
  // (Kalah, Congkak, Mancala Basic); Oware's stores are capture counters.
  bool stores_on_ring() const { return game != Game::kOware; }

  // Every option of this game with its effective value, in the spelling
  // ParseRules() accepts; ParseRules(name, Options(), players) == *this.
  OptionMap Options() const;
};

// The one reader of on/off option values (docs/rules.md section 2): "on"/"true"
// and "off"/"false"; nullopt for anything else. OnOff() writes "on"/"off".
std::optional<bool> ParseOnOff(std::string_view value);
std::string_view OnOff(bool value);

// Wire name of a game: "kalah", "oware", "congkak", "mancala_basic".
std::string_view GameName(Game game);

struct RulesError {
  std::string message;  // Names the option and the allowed values.
};

// Validates `options` for `game_name` and returns the Rules, or an error that
// names the offending option and its allowed values, e.g.
//   option "seeds" for kalah must be one of 4, 5, 6 (got "7").
// Unknown game names and unknown option names are errors; missing options
// take their docs/rules.md section 2 defaults. Congkak `rounds = traditional`
// (C.12) is refused as not supported yet. `players` is the number of seats:
// it must be 2 except for Mancala Basic (2..4); an explicit "players"
// option, if given, must agree with it. Mancala Basic `pits` values the
// rules do not allow become 6 (MB.1) instead of failing.
std::variant<Rules, RulesError> ParseRules(std::string_view game_name,
                                           const OptionMap& options,
                                           int players);

}  // namespace mancala::engine

#endif  // MANCALA_ENGINE_RULES_H_
