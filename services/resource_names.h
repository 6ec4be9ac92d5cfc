// Resource names of the mancala.v1 API (AIP-122): "players/{player_id}",
// "matches/{match_id}", "players/{player_id}/ratings/{game}". Every name
// the services build or parse goes through these functions.
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_RESOURCE_NAMES_H_
#define MANCALA_SERVICES_RESOURCE_NAMES_H_

#include <grpcpp/grpcpp.h>

#include <string>

namespace mancala::services {

// "players/{id}".
std::string PlayerName(const std::string& player_id);
// "matches/{id}".
std::string MatchName(const std::string& match_id);
// "players/{player_id}/ratings/{game}"; `game` is the engine wire name.
std::string RatingName(const std::string& player_id, const std::string& game);

// The id in "players/{id}", or "" if `name` is not of that form.
std::string PlayerIdFromName(const std::string& name);

// The id in "matches/{id}"; INVALID_ARGUMENT (INVALID_NAME) naming `field`
// otherwise.
grpc::Status MatchIdFromName(const std::string& name, const char* field,
                             std::string* id);

// The player id and game wire name in "players/{player_id}/ratings/{game}";
// INVALID_ARGUMENT if `name` is not of that form or the game is unknown.
grpc::Status RatingFromName(const std::string& name, std::string* player_id,
                            std::string* game);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_RESOURCE_NAMES_H_
