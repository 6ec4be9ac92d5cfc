// The services as registered with gRPC: each forwards every RPC to its
// implementation inside Guard() (services/rpc_guard.h), so the gRPC edge has
// one catch for all of them. An RPC added to a proto and not listed here
// answers UNIMPLEMENTED, which the service tests notice.
// Thread-safety: as the implementations.

#ifndef MANCALA_SERVICES_GUARDED_SERVICES_H_
#define MANCALA_SERVICES_GUARDED_SERVICES_H_

#include "services/admin_service.h"
#include "services/match_service.h"
#include "services/matchmaking_service.h"
#include "services/player_service.h"
#include "services/rating_service.h"
#include "services/rpc_guard.h"

namespace mancala::services {

// The request and response types of a unary handler, from its pointer.
template <class M>
struct Unary;
template <class C, class Req, class Resp>
struct Unary<grpc::Status (C::*)(grpc::ServerContext*, const Req*, Resp*)> {
  using Request = Req;
  using Response = Resp;
};

// Overrides unary `Method` of the generated base to run impl_.Method()
// inside Guard().
#define MANCALA_GUARDED_UNARY(Method)                                         \
  grpc::Status Method(                                                        \
      grpc::ServerContext* context,                                           \
      const typename Unary<decltype(&Impl::Method)>::Request* request,        \
      typename Unary<decltype(&Impl::Method)>::Response* response) override { \
    return Guard(#Method,                                                     \
                 [&] { return impl_.Method(context, request, response); });   \
  }

class GuardedPlayerService final : public v1::PlayerService::Service {
 public:
  using Impl = PlayerServiceImpl;
  explicit GuardedPlayerService(Impl& impl) : impl_(impl) {}
  MANCALA_GUARDED_UNARY(CreatePlayer)
  MANCALA_GUARDED_UNARY(GetPlayer)

 private:
  Impl& impl_;
};

class GuardedMatchService final
    : public v1::MatchService::WithCallbackMethod_WatchMatch<
          v1::MatchService::Service> {
 public:
  using Impl = MatchServiceImpl;
  explicit GuardedMatchService(Impl& impl) : impl_(impl) {}
  MANCALA_GUARDED_UNARY(CreateMatch)
  MANCALA_GUARDED_UNARY(GetMatch)
  MANCALA_GUARDED_UNARY(JoinMatch)
  MANCALA_GUARDED_UNARY(CancelMatch)
  MANCALA_GUARDED_UNARY(Rematch)
  MANCALA_GUARDED_UNARY(SubmitMove)
  MANCALA_GUARDED_UNARY(Resign)
  MANCALA_GUARDED_UNARY(ListMoves)
  grpc::ServerWriteReactor<v1::WatchEvent>* WatchMatch(
      grpc::CallbackServerContext* context,
      const v1::WatchMatchRequest* request) override {
    return GuardStream<v1::WatchEvent>(
        "WatchMatch", [&] { return impl_.WatchMatch(context, request); });
  }

 private:
  Impl& impl_;
};

class GuardedMatchmakingService final
    : public v1::MatchmakingService::WithCallbackMethod_FindMatch<
          v1::MatchmakingService::Service> {
 public:
  using Impl = MatchmakingServiceImpl;
  explicit GuardedMatchmakingService(Impl& impl) : impl_(impl) {}
  MANCALA_GUARDED_UNARY(CancelFind)
  MANCALA_GUARDED_UNARY(GetQueueStats)
  grpc::ServerWriteReactor<v1::FindMatchUpdate>* FindMatch(
      grpc::CallbackServerContext* context,
      const v1::FindMatchRequest* request) override {
    return GuardStream<v1::FindMatchUpdate>(
        "FindMatch", [&] { return impl_.FindMatch(context, request); });
  }

 private:
  Impl& impl_;
};

class GuardedRatingService final : public v1::RatingService::Service {
 public:
  using Impl = RatingServiceImpl;
  explicit GuardedRatingService(Impl& impl) : impl_(impl) {}
  MANCALA_GUARDED_UNARY(GetRating)
  MANCALA_GUARDED_UNARY(ListLeaderboard)
  MANCALA_GUARDED_UNARY(GetRatingHistory)

 private:
  Impl& impl_;
};

class GuardedAdminService final : public v1::AdminService::Service {
 public:
  using Impl = AdminServiceImpl;
  explicit GuardedAdminService(Impl& impl) : impl_(impl) {}
  MANCALA_GUARDED_UNARY(ListMatches)
  MANCALA_GUARDED_UNARY(GetMatchHistory)
  MANCALA_GUARDED_UNARY(VoidMatch)
  MANCALA_GUARDED_UNARY(ListAuditLog)
  MANCALA_GUARDED_UNARY(VerifyMatch)

 private:
  Impl& impl_;
};

#undef MANCALA_GUARDED_UNARY

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_GUARDED_SERVICES_H_
