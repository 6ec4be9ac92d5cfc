#include "services/model/names.h"

namespace mancala::services {

std::string PlayerName(const std::string& player_id) {
  return std::string(kPlayersPrefix) + player_id;
}

std::string MatchName(const std::string& match_id) {
  return std::string(kMatchesPrefix) + match_id;
}

std::string RatingName(const std::string& player_id, const std::string& game) {
  return PlayerName(player_id) + std::string(kRatingsInfix) + game;
}

}  // namespace mancala::services
