// AdminService: players' tokens and bans (admin_service.h). Each change is
// one store transaction with its audit entry; this node carries it out at
// once (credential_effects.h), the other nodes within their CredentialWatch
// period (services/cluster/credential_watch.h).

#include <spdlog/spdlog.h>

#include "services/api/admin_service.h"
#include "services/base/ids.h"
#include "services/base/text.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"
#include "services/wire/resource_names.h"

namespace mancala::services {

grpc::Status AdminServiceImpl::PlayerAudit(const std::string& name,
                                           const std::string& reason,
                                           const std::string& actor,
                                           const char* action,
                                           std::string* player_id,
                                           storage::AuditRecord* audit) const {
  *player_id = PlayerIdFromName(name);
  if (player_id->empty()) {
    return InvalidName("name must be 'players/{player_id}'", name);
  }
  // The lengths were checked by CheckAdmin (field limits).
  audit->reason = Trim(reason);
  if (audit->reason.empty()) {
    return GrpcInvalidField("reason is required (not blank)");
  }
  audit->actor = Trim(actor);
  if (audit->actor.empty()) audit->actor = "admin";
  audit->action = action;
  audit->target = PlayerName(*player_id);
  audit->at_ms = clock_.NowMs();
  return grpc::Status::OK;
}

grpc::Status AdminServiceImpl::ReadPlayer(const std::string& player_id,
                                          v1::Player* out) const {
  auto player = store_.GetPlayer(player_id);
  if (!player.ok()) return GrpcStorageFailure(player.status());
  ToProto(*player, out);
  return grpc::Status::OK;
}

namespace {

grpc::Status PlayerNotFound(const std::string& player_id) {
  return GrpcError(grpc::StatusCode::NOT_FOUND, "PLAYER_NOT_FOUND",
                   "no player named " + Quote(PlayerName(player_id)));
}

}  // namespace

grpc::Status AdminServiceImpl::RevokeTokens(
    grpc::ServerContext* context, const v1::RevokeTokensRequest* request,
    v1::RevokeTokensResponse* response) {
  if (grpc::Status s = CheckAdmin(*context, *request); !s.ok()) return s;
  std::string id;
  storage::AuditRecord audit;
  if (grpc::Status s =
          PlayerAudit(request->name(), request->reason(), request->actor(),
                      "revoke_tokens", &id, &audit);
      !s.ok()) {
    return s;
  }
  const std::string token = NewToken();
  absl::Status stored = store_.ReplaceTokenHash(id, HashToken(token), audit);
  if (absl::IsNotFound(stored)) return PlayerNotFound(id);
  if (!stored.ok()) return GrpcStorageFailure(stored);
  effects_.Changed(id);
  response->set_token(token);
  return ReadPlayer(id, response->mutable_player());
}

grpc::Status AdminServiceImpl::BanPlayer(grpc::ServerContext* context,
                                         const v1::BanPlayerRequest* request,
                                         v1::BanPlayerResponse* response) {
  if (grpc::Status s = CheckAdmin(*context, *request); !s.ok()) return s;
  std::string id;
  storage::AuditRecord audit;
  if (grpc::Status s = PlayerAudit(request->name(), request->reason(),
                                   request->actor(), "ban_player", &id, &audit);
      !s.ok()) {
    return s;
  }
  absl::Status stored = store_.SetBan(id, audit.at_ms, audit);
  if (absl::IsNotFound(stored)) return PlayerNotFound(id);
  if (absl::IsFailedPrecondition(stored)) {
    return GrpcError(grpc::StatusCode::FAILED_PRECONDITION, "ALREADY_BANNED",
                     Quote(request->name()) + " is banned already");
  }
  if (!stored.ok()) return GrpcStorageFailure(stored);
  effects_.Banned(id);
  // Their search ends, on whichever node it is. The ban stands if the
  // queue cannot be reached (it is logged): the search then ends with its
  // stream, and no new one is let in.
  bool cancelled = false;
  if (absl::Status s = matchmaker_.Cancel(id, &cancelled); !s.ok()) {
    spdlog::warn("BanPlayer {}: the player's search was not ended: {}", id,
                 std::string(s.message()));
  }
  return ReadPlayer(id, response->mutable_player());
}

grpc::Status AdminServiceImpl::UnbanPlayer(
    grpc::ServerContext* context, const v1::UnbanPlayerRequest* request,
    v1::UnbanPlayerResponse* response) {
  if (grpc::Status s = CheckAdmin(*context, *request); !s.ok()) return s;
  std::string id;
  storage::AuditRecord audit;
  if (grpc::Status s =
          PlayerAudit(request->name(), request->reason(), request->actor(),
                      "unban_player", &id, &audit);
      !s.ok()) {
    return s;
  }
  absl::Status stored = store_.SetBan(id, 0, audit);
  if (absl::IsNotFound(stored)) return PlayerNotFound(id);
  if (absl::IsFailedPrecondition(stored)) {
    return GrpcError(grpc::StatusCode::FAILED_PRECONDITION, "NOT_BANNED",
                     Quote(request->name()) + " is not banned");
  }
  if (!stored.ok()) return GrpcStorageFailure(stored);
  effects_.Changed(id);
  return ReadPlayer(id, response->mutable_player());
}

}  // namespace mancala::services
