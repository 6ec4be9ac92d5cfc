// What this node does once a player's credentials changed (storage/store.h
// "Credentials"), whether the change was made here (AdminService,
// PlayerService) or on another node sharing the database (told by
// services/cluster/credential_watch.h):
// - the token cache forgets the player (auth.h), so their next call reads
//   their token and ban again;
// - if they are banned, the watch streams that keep their seats present
//   end with PERMISSION_DENIED (PLAYER_BANNED): their seats' grace period
//   starts and the CPU stands in after it (turn_clock.h rules 3-4), as for
//   any player who left. (Their matchmaking search is ended through the
//   shared queue by the node that banned them: Matchmaker::Cancel.)
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_SERVICES_API_CREDENTIAL_EFFECTS_H_
#define MANCALA_SERVICES_API_CREDENTIAL_EFFECTS_H_

#include <string>

#include "services/api/auth.h"
#include "services/match/live_matches.h"
#include "storage/store.h"

namespace mancala::services {

class CredentialEffects {
 public:
  // All three outlive this.
  CredentialEffects(Authenticator& auth, LiveMatches& matches,
                    storage::Store& store)
      : auth_(auth), matches_(matches), store_(store) {}

  // This node replaced the player's token or lifted their ban.
  void Changed(const std::string& player_id) { auth_.Forget(player_id); }
  // This node banned the player.
  void Banned(const std::string& player_id);
  // Another node changed the player's credentials (any change): reads the
  // player to learn whether they are banned. A failed read is logged; the
  // cache has forgotten them all the same.
  void ChangedElsewhere(const std::string& player_id);

 private:
  Authenticator& auth_;
  LiveMatches& matches_;
  storage::Store& store_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_CREDENTIAL_EFFECTS_H_
