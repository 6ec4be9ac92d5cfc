// mancala.v1.PlayerService: players and their bearer tokens.

#ifndef MANCALA_SERVICES_API_PLAYER_SERVICE_H_
#define MANCALA_SERVICES_API_PLAYER_SERVICE_H_

#include "mancala/v1/player_service.grpc.pb.h"
#include "services/api/auth.h"
#include "services/base/clock.h"
#include "storage/store.h"

namespace mancala::services {

class PlayerServiceImpl final {
 public:
  PlayerServiceImpl(storage::Store& store, Authenticator& auth,
                    const Clock& clock)
      : store_(store), auth_(auth), clock_(clock) {}

  grpc::Status CreatePlayer(grpc::ServerContextBase* context,
                            const v1::CreatePlayerRequest* request,
                            v1::CreatePlayerResponse* response);
  grpc::Status GetPlayer(grpc::ServerContextBase* context,
                         const v1::GetPlayerRequest* request,
                         v1::Player* response);
  grpc::Status ReplaceToken(grpc::ServerContextBase* context,
                            const v1::ReplaceTokenRequest* request,
                            v1::ReplaceTokenResponse* response);

 private:
  storage::Store& store_;
  Authenticator& auth_;
  const Clock& clock_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_PLAYER_SERVICE_H_
