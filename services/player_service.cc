#include "services/player_service.h"

#include "services/auth.h"
#include "services/convert.h"
#include "services/errors.h"
#include "services/resource_names.h"

namespace mancala::services {
namespace {

constexpr size_t kMaxDisplayName = 40;

}  // namespace

grpc::Status PlayerServiceImpl::CreatePlayer(
    grpc::ServerContext*, const v1::CreatePlayerRequest* request,
    v1::CreatePlayerResponse* response) {
  const std::string& name = request->display_name();
  if (name.size() > kMaxDisplayName) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_DISPLAY_NAME",
                 "display_name is longer than 40 bytes");
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_DISPLAY_NAME",
                   "display_name must not contain control characters");
    }
  }
  storage::PlayerRecord player;
  player.id = NewId();
  player.guest = name.empty();
  player.display_name = player.guest ? "Guest-" + player.id.substr(0, 4) : name;
  const std::string token = NewToken();
  player.token_hash = HashToken(token);
  player.created_at_ms = clock_.NowMs();
  if (absl::Status s = store_.CreatePlayer(player); !s.ok()) {
    return FromStorage(s);
  }
  ToProto(player, response->mutable_player());
  response->set_token(token);
  return grpc::Status::OK;
}

grpc::Status PlayerServiceImpl::GetPlayer(grpc::ServerContext* context,
                                          const v1::GetPlayerRequest* request,
                                          v1::Player* response) {
  if (request->name() == PlayerName("me")) {
    storage::PlayerRecord me;
    if (grpc::Status s = Authenticate(*context, store_, &me); !s.ok()) {
      return s;
    }
    ToProto(me, response);
    return grpc::Status::OK;
  }
  const std::string id = PlayerIdFromName(request->name());
  if (id.empty()) {
    return Error(
        grpc::StatusCode::INVALID_ARGUMENT, "INVALID_NAME",
        "name must be 'players/{player_id}', got '" + request->name() + "'");
  }
  auto player = store_.GetPlayer(id);
  if (absl::IsNotFound(player.status())) {
    return Error(grpc::StatusCode::NOT_FOUND, "PLAYER_NOT_FOUND",
                 "no player named " + request->name());
  }
  if (!player.ok()) return FromStorage(player.status());
  ToProto(*player, response);
  return grpc::Status::OK;
}

}  // namespace mancala::services
