// Resource names of the mancala.v1 API (AIP-122): "players/{player_id}",
// "matches/{match_id}".

#ifndef MANCALA_SERVICES_RESOURCE_NAMES_H_
#define MANCALA_SERVICES_RESOURCE_NAMES_H_

#include <grpcpp/grpcpp.h>

#include <string>

namespace mancala::services {

// The id in "players/{id}", or "" if `name` is not of that form.
std::string PlayerIdFromName(const std::string& name);

// The id in "matches/{id}"; INVALID_ARGUMENT naming `field` otherwise.
grpc::Status MatchIdFromName(const std::string& name, const char* field,
                             std::string* id);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_RESOURCE_NAMES_H_
