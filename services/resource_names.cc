#include "services/resource_names.h"

#include <string_view>

#include "services/convert.h"
#include "services/errors.h"

namespace mancala::services {
namespace {

constexpr std::string_view kPlayers = "players/";
constexpr std::string_view kMatches = "matches/";
constexpr std::string_view kRatings = "/ratings/";

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

std::string PlayerName(const std::string& player_id) {
  return std::string(kPlayers) + player_id;
}

std::string MatchName(const std::string& match_id) {
  return std::string(kMatches) + match_id;
}

std::string RatingName(const std::string& player_id, const std::string& game) {
  return PlayerName(player_id) + std::string(kRatings) + game;
}

std::string PlayerIdFromName(const std::string& name) {
  return IdAfter(name, kPlayers);
}

grpc::Status MatchIdFromName(const std::string& name, const char* field,
                             std::string* id) {
  *id = IdAfter(name, kMatches);
  if (id->empty()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_NAME",
                 std::string(field) + " must be 'matches/{match_id}', got '" +
                     name + "'");
  }
  return grpc::Status::OK;
}

grpc::Status RatingFromName(const std::string& name, std::string* player_id,
                            std::string* game) {
  const size_t mid = name.find(kRatings);
  if (name.compare(0, kPlayers.size(), kPlayers) != 0 ||
      mid == std::string::npos || mid <= kPlayers.size()) {
    return Invalid("name must be 'players/{player_id}/ratings/{game}', got '" +
                   name + "'");
  }
  *player_id = name.substr(kPlayers.size(), mid - kPlayers.size());
  *game = name.substr(mid + kRatings.size());
  if (GameFromName(*game) == v1::GAME_UNSPECIFIED) {
    return Invalid("game in '" + name +
                   "' must be kalah, oware, congkak or mancala_basic");
  }
  return grpc::Status::OK;
}

}  // namespace mancala::services
