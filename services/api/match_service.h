// mancala.v1.MatchService: the gRPC face of LiveMatches.
//
// This class authenticates, checks request shapes and converts; every rule
// and every write lives in LiveMatches.

#ifndef MANCALA_SERVICES_API_MATCH_SERVICE_H_
#define MANCALA_SERVICES_API_MATCH_SERVICE_H_

#include "mancala/v1/match_service.grpc.pb.h"
#include "services/api/auth.h"
#include "services/api/event_stream.h"
#include "services/match/live_matches.h"
#include "storage/store.h"

namespace mancala::services {

// WatchMatch uses the callback API (one write in flight per stream, nothing
// blocking); the unary methods are synchronous.
class MatchServiceImpl final
    : public v1::MatchService::WithCallbackMethod_WatchMatch<
          v1::MatchService::Service> {
 public:
  // `max_queued_events`: events a WatchMatch stream may fall behind before
  // it is dropped with RESOURCE_EXHAUSTED (event_stream.h).
  MatchServiceImpl(
      storage::Store& store, Authenticator& auth, LiveMatches& matches,
      size_t max_queued_events = EventSink<v1::WatchEvent>::kDefaultMaxQueued)
      : store_(store),
        auth_(auth),
        matches_(matches),
        max_queued_events_(max_queued_events) {}

  grpc::Status CreateMatch(grpc::ServerContext* context,
                           const v1::CreateMatchRequest* request,
                           v1::Match* response) override;
  grpc::Status GetMatch(grpc::ServerContext* context,
                        const v1::GetMatchRequest* request,
                        v1::Match* response) override;
  grpc::Status SubmitMove(grpc::ServerContext* context,
                          const v1::SubmitMoveRequest* request,
                          v1::SubmitMoveResponse* response) override;
  grpc::Status Resign(grpc::ServerContext* context,
                      const v1::ResignRequest* request,
                      v1::Match* response) override;
  grpc::Status ListMoves(grpc::ServerContext* context,
                         const v1::ListMovesRequest* request,
                         v1::ListMovesResponse* response) override;
  grpc::Status JoinMatch(grpc::ServerContext* context,
                         const v1::JoinMatchRequest* request,
                         v1::Match* response) override;
  grpc::Status CancelMatch(grpc::ServerContext* context,
                           const v1::CancelMatchRequest* request,
                           v1::Match* response) override;
  grpc::Status Rematch(grpc::ServerContext* context,
                       const v1::RematchRequest* request,
                       v1::Match* response) override;
  grpc::ServerWriteReactor<v1::WatchEvent>* WatchMatch(
      grpc::CallbackServerContext* context,
      const v1::WatchMatchRequest* request) override;

 private:
  // Admit()s the request for `who` and reads the id of the match named
  // `name` (request field `field`): the caller (empty if anonymous) and the
  // id, or the first check's error.
  grpc::Status CallerAndMatch(const grpc::ServerContextBase& context,
                              const google::protobuf::Message& request,
                              Caller who, const std::string& name,
                              const char* field, storage::PlayerRecord* caller,
                              std::string* id);

  storage::Store& store_;
  Authenticator& auth_;
  LiveMatches& matches_;
  const size_t max_queued_events_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_MATCH_SERVICE_H_
