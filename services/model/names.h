// Resource names of the mancala.v1 API (AIP-122) as the domain builds them
// for its messages and the store: "players/{player_id}",
// "matches/{match_id}", "players/{player_id}/ratings/{game}". Reading a
// name a client sent is the edge's (wire/resource_names.h).
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_MODEL_NAMES_H_
#define MANCALA_SERVICES_MODEL_NAMES_H_

#include <string>
#include <string_view>

namespace mancala::services {

// The collections' parts of a name, shared with the edge's parsing.
inline constexpr std::string_view kPlayersPrefix = "players/";
inline constexpr std::string_view kMatchesPrefix = "matches/";
inline constexpr std::string_view kRatingsInfix = "/ratings/";

// "players/{id}".
std::string PlayerName(const std::string& player_id);
// "matches/{id}".
std::string MatchName(const std::string& match_id);
// "players/{player_id}/ratings/{game}"; `game` is the engine wire name.
std::string RatingName(const std::string& player_id, const std::string& game);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MODEL_NAMES_H_
