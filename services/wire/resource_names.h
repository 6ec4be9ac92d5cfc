// Resource names of the mancala.v1 API (AIP-122) as clients send them:
// "players/{player_id}", "matches/{match_id}",
// "players/{player_id}/ratings/{game}". Every name the edge parses goes
// through these functions; the names the domain builds are
// model/names.h's, included here for the edge's convenience.
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_WIRE_RESOURCE_NAMES_H_
#define MANCALA_SERVICES_WIRE_RESOURCE_NAMES_H_

#include <grpcpp/grpcpp.h>

#include <string>

#include "services/model/names.h"

namespace mancala::services {

// INVALID_ARGUMENT (INVALID_NAME): `rule` says what the name must be; the
// message quotes a short prefix of `name`.
grpc::Status InvalidName(const std::string& rule, const std::string& name);

// The id in "players/{id}", or "" if `name` is not of that form.
std::string PlayerIdFromName(const std::string& name);

// The id in "matches/{id}"; INVALID_ARGUMENT (INVALID_NAME) naming `field`
// otherwise.
grpc::Status MatchIdFromName(const std::string& name, const char* field,
                             std::string* id);

// The player id and game wire name in "players/{player_id}/ratings/{game}";
// INVALID_ARGUMENT (INVALID_NAME) if `name` is not of that form or the game
// is unknown.
grpc::Status RatingFromName(const std::string& name, std::string* player_id,
                            std::string* game);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WIRE_RESOURCE_NAMES_H_
