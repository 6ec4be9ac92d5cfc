#include "services/api/player_service.h"

#include "services/api/auth.h"
#include "services/base/text.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"
#include "services/wire/resource_names.h"

namespace mancala::services {

grpc::Status PlayerServiceImpl::CreatePlayer(
    grpc::ServerContextBase* context, const v1::CreatePlayerRequest* request,
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

grpc::Status PlayerServiceImpl::GetPlayer(grpc::ServerContextBase* context,
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

grpc::Status PlayerServiceImpl::ReplaceToken(
    grpc::ServerContextBase* context, const v1::ReplaceTokenRequest* request,
    v1::ReplaceTokenResponse* response) {
  storage::PlayerRecord me;
  if (grpc::Status s = auth_.Admit(*context, *request, Caller::kPlayer, &me);
      !s.ok()) {
    return s;
  }
  if (request->name() != PlayerName("me")) {
    const std::string id = PlayerIdFromName(request->name());
    if (id.empty()) {
      return InvalidName("name must be 'players/me'", request->name());
    }
    if (id != me.id) {
      return GrpcError(grpc::StatusCode::PERMISSION_DENIED, "NOT_YOUR_PLAYER",
                       "a player replaces only their own token "
                       "('players/me')");
    }
  }
  const std::string token = NewToken();
  // Audited like an operator's revocation, so the log tells every token
  // change of a player (who made it: the player).
  storage::AuditRecord audit;
  audit.at_ms = clock_.NowMs();
  audit.actor = PlayerName(me.id);
  audit.action = "replace_token";
  audit.target = PlayerName(me.id);
  audit.reason = "replaced by the player";
  if (absl::Status s = store_.ReplaceTokenHash(me.id, HashToken(token), audit);
      !s.ok()) {
    return GrpcStorageFailure(s);
  }
  auth_.Forget(me.id);
  ToProto(me, response->mutable_player());
  response->set_token(token);
  return grpc::Status::OK;
}

}  // namespace mancala::services
