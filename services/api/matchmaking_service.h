// mancala.v1.MatchmakingService: the gRPC face of the Matchmaker. The
// matchmaker speaks plain values (search_views.h); this edge converts the
// requests into them and their answers into messages (search_convert.h),
// and each domain status once (errors.h ToGrpc).

#ifndef MANCALA_SERVICES_API_MATCHMAKING_SERVICE_H_
#define MANCALA_SERVICES_API_MATCHMAKING_SERVICE_H_

#include "mancala/v1/matchmaking_service.grpc.pb.h"
#include "services/api/auth.h"
#include "services/matchmaking/matchmaker.h"
#include "storage/store.h"

namespace mancala::services {

// FindMatch is a callback-API stream (event_stream.h); the rest are
// synchronous.
class MatchmakingServiceImpl final
    : public v1::MatchmakingService::WithCallbackMethod_FindMatch<
          v1::MatchmakingService::Service> {
 public:
  MatchmakingServiceImpl(Authenticator& auth, Matchmaker& matchmaker)
      : auth_(auth), matchmaker_(matchmaker) {}

  grpc::ServerWriteReactor<v1::FindMatchUpdate>* FindMatch(
      grpc::CallbackServerContext* context,
      const v1::FindMatchRequest* request) override;
  grpc::Status CancelFind(grpc::ServerContext* context,
                          const v1::CancelFindRequest* request,
                          v1::CancelFindResponse* response) override;
  grpc::Status GetQueueStats(grpc::ServerContext* context,
                             const v1::GetQueueStatsRequest* request,
                             v1::QueueStats* response) override;

 private:
  Authenticator& auth_;
  Matchmaker& matchmaker_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_MATCHMAKING_SERVICE_H_
