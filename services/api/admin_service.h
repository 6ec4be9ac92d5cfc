// mancala.v1.AdminService: match history queries and corrections for
// operators, behind the admin token.

#ifndef MANCALA_SERVICES_API_ADMIN_SERVICE_H_
#define MANCALA_SERVICES_API_ADMIN_SERVICE_H_

#include <string>

#include "mancala/v1/admin_service.grpc.pb.h"
#include "services/match/live_matches.h"
#include "storage/store.h"

namespace mancala::services {

class AdminServiceImpl final : public v1::AdminService::Service {
 public:
  // `admin_token` empty disables the service (every call is denied).
  AdminServiceImpl(storage::Store& store, LiveMatches& matches,
                   std::string admin_token)
      : store_(store),
        matches_(matches),
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

 private:
  // The request's field limits, then the admin token (compared in
  // constant time): UNAUTHENTICATED without authorization metadata or with
  // a token that is neither the admin's nor a player's; PERMISSION_DENIED
  // for a player's token or when the admin API is off.
  grpc::Status CheckAdmin(const grpc::ServerContext& context,
                          const google::protobuf::Message& request) const;

  storage::Store& store_;
  LiveMatches& matches_;
  const std::string admin_token_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_ADMIN_SERVICE_H_
