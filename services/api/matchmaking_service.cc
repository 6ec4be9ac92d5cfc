#include "services/api/matchmaking_service.h"

#include "services/api/auth.h"
#include "services/api/event_stream.h"
#include "services/api/find_stream.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"
#include "services/wire/search_convert.h"

namespace mancala::services {

grpc::ServerWriteReactor<v1::FindMatchUpdate>*
MatchmakingServiceImpl::FindMatch(grpc::CallbackServerContext* context,
                                  const v1::FindMatchRequest* request) {
  auto sink = std::make_shared<FindStream>();
  storage::PlayerRecord player;
  grpc::Status status =
      auth_.Admit(*context, *request, Caller::kPlayer, &player);
  Matchmaker* matchmaker = &matchmaker_;
  const std::string id = player.id;
  // Online while searching, however long the wait between calls.
  OnlinePlayers* online = status.ok() ? auth_.online() : nullptr;
  if (online != nullptr) online->Hold(id);
  // Leaving: the stream ended (found, cancelled, or the client went away).
  auto* reactor = new EventReactor<v1::FindMatchUpdate>(
      sink->stream(), [matchmaker, online, id, sink] {
        matchmaker->Leave(id, sink);
        if (online != nullptr) online->Release(id);
      });
  SearchRequest search;
  if (status.ok()) status = ToGrpc(SearchFromProto(*request, &search));
  if (status.ok()) {
    status = ToGrpc(matchmaker_.Enqueue(player.id, search, sink));
  }
  if (!status.ok()) sink->stream()->Close(status);
  reactor->Start();
  return reactor;
}

grpc::Status MatchmakingServiceImpl::CancelFind(
    grpc::ServerContext* context, const v1::CancelFindRequest* request,
    v1::CancelFindResponse* response) {
  storage::PlayerRecord player;
  if (grpc::Status s =
          auth_.Admit(*context, *request, Caller::kPlayer, &player);
      !s.ok()) {
    return s;
  }
  bool cancelled = false;
  grpc::Status s = ToGrpc(matchmaker_.Cancel(player.id, &cancelled));
  response->set_cancelled(cancelled);
  return s;
}

grpc::Status MatchmakingServiceImpl::GetQueueStats(
    grpc::ServerContext* context, const v1::GetQueueStatsRequest* request,
    v1::QueueStats* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          auth_.Admit(*context, *request, Caller::kAnyone, &caller);
      !s.ok()) {
    return s;
  }
  const std::optional<std::string> game = GameName(request->game());
  if (request->game() != v1::GAME_UNSPECIFIED && !game.has_value()) {
    return GrpcError(
        grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT",
        "game must be GAME_UNSPECIFIED (every game), KALAH, OWARE, "
        "CONGKAK or MANCALA_BASIC");
  }
  QueueStatsView stats;
  if (grpc::Status s = ToGrpc(matchmaker_.Stats(game, &stats)); !s.ok()) {
    return s;
  }
  if (OnlinePlayers* online = auth_.online()) stats.online = online->Count();
  ToProto(stats, response);
  return grpc::Status::OK;
}

}  // namespace mancala::services
