// mancala.v1.AdminService: match history queries and corrections, and
// players' tokens and bans, for operators, behind the admin token.

#ifndef MANCALA_SERVICES_API_ADMIN_SERVICE_H_
#define MANCALA_SERVICES_API_ADMIN_SERVICE_H_

#include <string>

#include "mancala/v1/admin_service.grpc.pb.h"
#include "services/api/credential_effects.h"
#include "services/base/clock.h"
#include "services/match/live_matches.h"
#include "services/matchmaking/matchmaker.h"
#include "storage/store.h"

namespace mancala::services {

class AdminServiceImpl final : public v1::AdminService::Service {
 public:
  // `admin_token` empty disables the service (every call is denied).
  // `effects` carries out the credentials this service changes;
  // `matchmaker` ends a banned player's searches. Both, and `clock`,
  // outlive this.
  AdminServiceImpl(storage::Store& store, LiveMatches& matches,
                   CredentialEffects& effects, Matchmaker& matchmaker,
                   const Clock& clock, std::string admin_token)
      : store_(store),
        matches_(matches),
        effects_(effects),
        matchmaker_(matchmaker),
        clock_(clock),
        admin_token_(std::move(admin_token)) {}

  grpc::Status ListMatches(grpc::ServerContext* context,
                           const v1::ListMatchesRequest* request,
                           v1::ListMatchesResponse* response) override;
  grpc::Status GetMatchHistory(grpc::ServerContext* context,
                               const v1::GetMatchHistoryRequest* request,
                               v1::MatchHistory* response) override;
  grpc::Status VoidMatch(grpc::ServerContext* context,
                         const v1::VoidMatchRequest* request,
                         v1::VoidMatchResponse* response) override;
  grpc::Status ListAuditLog(grpc::ServerContext* context,
                            const v1::ListAuditLogRequest* request,
                            v1::ListAuditLogResponse* response) override;
  grpc::Status VerifyMatch(grpc::ServerContext* context,
                           const v1::VerifyMatchRequest* request,
                           v1::VerifyMatchResponse* response) override;
  // Players' credentials: admin_players.cc.
  grpc::Status RevokeTokens(grpc::ServerContext* context,
                            const v1::RevokeTokensRequest* request,
                            v1::RevokeTokensResponse* response) override;
  grpc::Status BanPlayer(grpc::ServerContext* context,
                         const v1::BanPlayerRequest* request,
                         v1::BanPlayerResponse* response) override;
  grpc::Status UnbanPlayer(grpc::ServerContext* context,
                           const v1::UnbanPlayerRequest* request,
                           v1::UnbanPlayerResponse* response) override;

 private:
  // The request's field limits, then the admin token (compared in
  // constant time): UNAUTHENTICATED without authorization metadata or with
  // a token that is neither the admin's nor a player's; PERMISSION_DENIED
  // for a player's token or when the admin API is off.
  grpc::Status CheckAdmin(const grpc::ServerContext& context,
                          const google::protobuf::Message& request) const;

  // The audit entry of an act on a player, after CheckAdmin: the player's
  // id from `name` (INVALID_NAME) and the trimmed reason (INVALID_ARGUMENT
  // when blank) and actor ("admin" when blank).
  grpc::Status PlayerAudit(const std::string& name, const std::string& reason,
                           const std::string& actor, const char* action,
                           std::string* player_id,
                           storage::AuditRecord* audit) const;
  // The player after a change (PLAYER_NOT_FOUND, or the store's failure).
  grpc::Status ReadPlayer(const std::string& player_id, v1::Player* out) const;

  storage::Store& store_;
  LiveMatches& matches_;
  CredentialEffects& effects_;
  Matchmaker& matchmaker_;
  const Clock& clock_;
  const std::string admin_token_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_ADMIN_SERVICE_H_
