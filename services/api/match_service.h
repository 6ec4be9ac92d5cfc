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

// Served on gRPC's callback API (guarded_services.h): a method runs on
// the thread gRPC calls it on and must not wait for a commit there.
// SubmitMove answers through `done` when the store has the move
// (LiveMatches::PlayAsync); WatchMatch keeps one write in flight per
// stream, nothing blocking.
class MatchServiceImpl final {
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

  grpc::Status CreateMatch(grpc::ServerContextBase* context,
                           const v1::CreateMatchRequest* request,
                           v1::Match* response);
  grpc::Status GetMatch(grpc::ServerContextBase* context,
                        const v1::GetMatchRequest* request,
                        v1::Match* response);
  // `done` gets the answer once, before this returns or on the store's
  // thread; `response` is filled before it.
  void SubmitMove(grpc::ServerContextBase* context,
                  const v1::SubmitMoveRequest* request,
                  v1::SubmitMoveResponse* response,
                  std::function<void(grpc::Status)> done);
  grpc::Status Resign(grpc::ServerContextBase* context,
                      const v1::ResignRequest* request,
                      v1::Match* response);
  grpc::Status ListMoves(grpc::ServerContextBase* context,
                         const v1::ListMovesRequest* request,
                         v1::ListMovesResponse* response);
  grpc::Status JoinMatch(grpc::ServerContextBase* context,
                         const v1::JoinMatchRequest* request,
                         v1::Match* response);
  grpc::Status CancelMatch(grpc::ServerContextBase* context,
                           const v1::CancelMatchRequest* request,
                           v1::Match* response);
  grpc::Status Rematch(grpc::ServerContextBase* context,
                       const v1::RematchRequest* request,
                       v1::Match* response);
  grpc::ServerWriteReactor<v1::WatchEvent>* WatchMatch(
      grpc::CallbackServerContext* context,
      const v1::WatchMatchRequest* request);

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
