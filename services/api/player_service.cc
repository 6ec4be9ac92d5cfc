#include "services/api/player_service.h"

#include "services/api/auth.h"
#include "services/base/text.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"
#include "services/wire/resource_names.h"

namespace mancala::services {

grpc::Status PlayerServiceImpl::CreatePlayer(
    grpc::ServerContext* context, const v1::CreatePlayerRequest* request,
    v1::CreatePlayerResponse* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          auth_.Admit(*context, *request, Caller::kAnyone, &caller);
      !s.ok()) {
    return s;
  }
  // The limit (40 code points) is checked by Admit; trimmed, the name must
  // keep a visible character.
  const std::string name = Trim(request->display_name());
  if (name.empty() && !request->display_name().empty()) {
    return GrpcError(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_DISPLAY_NAME",
                     "display_name must not be only white space");
  }
  if (HasControlCharacter(name)) {
    return GrpcError(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_DISPLAY_NAME",
                     "display_name must not contain control characters");
  }
  storage::PlayerRecord player;
  player.id = NewId();
  player.guest = name.empty();
  player.display_name = player.guest ? "Guest-" + player.id.substr(0, 4) : name;
  const std::string token = NewToken();
  player.token_hash = HashToken(token);
  player.created_at_ms = clock_.NowMs();
  if (absl::Status s = store_.CreatePlayer(player); !s.ok()) {
    return GrpcStorageFailure(s);
  }
  ToProto(player, response->mutable_player());
  response->set_token(token);
  // A new player is here now, though this call carried no token yet.
  if (OnlinePlayers* online = auth_.online()) online->Seen(player.id);
  return grpc::Status::OK;
}

grpc::Status PlayerServiceImpl::GetPlayer(grpc::ServerContext* context,
                                          const v1::GetPlayerRequest* request,
                                          v1::Player* response) {
  storage::PlayerRecord me;
  const bool mine = request->name() == PlayerName("me");
  if (grpc::Status s = auth_.Admit(
          *context, *request, mine ? Caller::kPlayer : Caller::kAnyone, &me);
      !s.ok()) {
    return s;
  }
  if (mine) {
    ToProto(me, response);
    return grpc::Status::OK;
  }
  const std::string id = PlayerIdFromName(request->name());
  if (id.empty()) {
    return InvalidName("name must be 'players/{player_id}'", request->name());
  }
  auto player = store_.GetPlayer(id);
  if (absl::IsNotFound(player.status())) {
    return GrpcError(grpc::StatusCode::NOT_FOUND, "PLAYER_NOT_FOUND",
                     "no player named " + Quote(request->name()));
  }
  if (!player.ok()) return GrpcStorageFailure(player.status());
  ToProto(*player, response);
  return grpc::Status::OK;
}

}  // namespace mancala::services
