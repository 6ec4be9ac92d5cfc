#include "services/wire/resource_names.h"

#include <string_view>

#include "services/base/text.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"

namespace mancala::services {

grpc::Status InvalidName(const std::string& rule, const std::string& name) {
  return GrpcError(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_NAME",
                   rule + ", got " + Quote(name));
}
namespace {

// The single segment after `prefix`, or "".
std::string IdAfter(const std::string& name, std::string_view prefix) {
  if (name.size() <= prefix.size() ||
      name.compare(0, prefix.size(), prefix) != 0 ||
      name.find('/', prefix.size()) != std::string::npos) {
    return "";
  }
  return name.substr(prefix.size());
}

}  // namespace

std::string PlayerIdFromName(const std::string& name) {
  return IdAfter(name, kPlayersPrefix);
}

grpc::Status MatchIdFromName(const std::string& name, const char* field,
                             std::string* id) {
  *id = IdAfter(name, kMatchesPrefix);
  if (id->empty()) {
    return InvalidName(std::string(field) + " must be 'matches/{match_id}'",
                       name);
  }
  return grpc::Status::OK;
}

grpc::Status RatingFromName(const std::string& name, std::string* player_id,
                            std::string* game) {
  const size_t mid = name.find(kRatingsInfix);
  if (name.compare(0, kPlayersPrefix.size(), kPlayersPrefix) != 0 ||
      mid == std::string::npos || mid <= kPlayersPrefix.size()) {
    return InvalidName("name must be 'players/{player_id}/ratings/{game}'",
                       name);
  }
  *player_id = name.substr(kPlayersPrefix.size(), mid - kPlayersPrefix.size());
  *game = name.substr(mid + kRatingsInfix.size());
  if (GameFromName(*game) == v1::GAME_UNSPECIFIED) {
    return InvalidName(
        "the game of a rating must be kalah, oware, congkak or mancala_basic",
        *game);
  }
  return grpc::Status::OK;
}

}  // namespace mancala::services
