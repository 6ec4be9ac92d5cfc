#include "services/api/credential_effects.h"

#include <spdlog/spdlog.h>

#include "services/model/match_errors.h"

namespace mancala::services {

void CredentialEffects::Banned(const std::string& player_id) {
  auth_.Forget(player_id);
  matches_.DismissPlayer(player_id, PlayerBanned());
}

void CredentialEffects::ChangedElsewhere(const std::string& player_id) {
  auth_.Forget(player_id);
  auto player = store_.GetPlayer(player_id);
  if (!player.ok()) {
    spdlog::warn(
        "credentials of player {} changed on another node; reading "
        "the player failed: {}",
        player_id, std::string(player.status().message()));
    return;
  }
  if (player->banned_at_ms > 0) Banned(player_id);
}

}  // namespace mancala::services
