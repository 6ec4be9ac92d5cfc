// The services as registered with gRPC: each forwards every RPC to its
// implementation inside Guard() (services/api/rpc_guard.h), so the gRPC edge
// has one catch for all of them. An RPC added to a proto and not listed here
// answers UNIMPLEMENTED, which the service tests notice.
// CreatePlayer, CreateMatch and Rematch also take a token from the
// caller's address's bucket first (services/api/peer_limiter.h). `bound`:
// the longest a unary call's store work may take (rpc_guard.h
// ClientDeadline).
// Thread-safety: as the implementations.

#ifndef MANCALA_SERVICES_API_GUARDED_SERVICES_H_
#define MANCALA_SERVICES_API_GUARDED_SERVICES_H_

#include <chrono>

#include "services/api/admin_service.h"
#include "services/api/client_address.h"
#include "services/api/match_service.h"
#include "services/api/matchmaking_service.h"
#include "services/api/peer_limiter.h"
#include "services/api/player_service.h"
#include "services/api/rating_service.h"
#include "services/api/rpc_guard.h"

namespace mancala::services {

// The request and response types of a unary handler, from its pointer:
// one that returns its status, or one that answers through a callback.
template <class M>
struct Unary;
template <class C, class Context, class Req, class Resp>
struct Unary<grpc::Status (C::*)(Context*, const Req*, Resp*)> {
  using Request = Req;
  using Response = Resp;
};
template <class C, class Context, class Req, class Resp, class Done>
struct Unary<void (C::*)(Context*, const Req*, Resp*, Done)> {
  using Request = Req;
  using Response = Resp;
};

// Overrides unary `Method` of the generated base to run `body` inside
// Guard() and the client's deadline; `body` may use context, request and
// response.
#define MANCALA_GUARDED_CALL(Method, body)                                    \
  grpc::Status Method(                                                        \
      grpc::ServerContext* context,                                           \
      const typename Unary<decltype(&Impl::Method)>::Request* request,        \
      typename Unary<decltype(&Impl::Method)>::Response* response) override { \
    const ClientDeadline deadline(*context, bound_);                          \
    return Guard(#Method, [&] { body });                                      \
  }
#define MANCALA_GUARDED_UNARY(Method) \
  MANCALA_GUARDED_CALL(Method, return impl_.Method(context, request, response);)
// The same, after taking a token of the caller's address.
#define MANCALA_GUARDED_LIMITED(Method)                                 \
  MANCALA_GUARDED_CALL(                                                 \
      Method, grpc::Status s = limiter_.Allow(ClientAddress(*context)); \
      return s.ok() ? impl_.Method(context, request, response) : s;)

// The same for a method of a service on gRPC's callback API: `body` runs
// on the thread gRPC calls the method on (it waits for no commit of a
// move: SubmitMove answers through MANCALA_CALLBACK_ASYNC) and the call is
// finished with its status, through the same GuardAsync.
#define MANCALA_CALLBACK_CALL(Method, body)                                   \
  grpc::ServerUnaryReactor* Method(                                           \
      grpc::CallbackServerContext* context,                                   \
      const typename Unary<decltype(&Impl::Method)>::Request* request,        \
      typename Unary<decltype(&Impl::Method)>::Response* response) override { \
    return GuardAsync(#Method, *context, bound_,                              \
                      [&](std::function<void(grpc::Status)> done) {           \
                        done([&]() -> grpc::Status { body }());               \
                      });                                                     \
  }
#define MANCALA_CALLBACK_UNARY(Method) \
  MANCALA_CALLBACK_CALL(Method, return impl_.Method(context, request, response);)
#define MANCALA_CALLBACK_LIMITED(Method)                                \
  MANCALA_CALLBACK_CALL(                                                \
      Method, grpc::Status s = limiter_.Allow(ClientAddress(*context)); \
      return s.ok() ? impl_.Method(context, request, response) : s;)
// A method that answers through a callback (`done`), maybe later and from
// another thread (rpc_guard.h GuardAsync).
#define MANCALA_CALLBACK_ASYNC(Method)                                        \
  grpc::ServerUnaryReactor* Method(                                           \
      grpc::CallbackServerContext* context,                                   \
      const typename Unary<decltype(&Impl::Method)>::Request* request,        \
      typename Unary<decltype(&Impl::Method)>::Response* response) override { \
    return GuardAsync(#Method, *context, bound_,                              \
                      [&](std::function<void(grpc::Status)> done) {           \
                        impl_.Method(context, request, response,              \
                                     std::move(done));                        \
                      });                                                     \
  }

// The player, match and rating services (the play path) run on gRPC's
// callback API: no thread per call (issue 28). Matchmaking's unary
// methods and the admin service stay synchronous, bounded by
// --max-threads.
class GuardedPlayerService final : public v1::PlayerService::CallbackService {
 public:
  using Impl = PlayerServiceImpl;
  GuardedPlayerService(Impl& impl, PeerLimiter& limiter,
                       std::chrono::milliseconds bound)
      : impl_(impl), limiter_(limiter), bound_(bound) {}
  MANCALA_CALLBACK_LIMITED(CreatePlayer)
  MANCALA_CALLBACK_UNARY(GetPlayer)
  MANCALA_CALLBACK_UNARY(ReplaceToken)

 private:
  Impl& impl_;
  PeerLimiter& limiter_;
  const std::chrono::milliseconds bound_;  // ClientDeadline's.
};

class GuardedMatchService final : public v1::MatchService::CallbackService {
 public:
  using Impl = MatchServiceImpl;
  GuardedMatchService(Impl& impl, PeerLimiter& limiter,
                      std::chrono::milliseconds bound)
      : impl_(impl), limiter_(limiter), bound_(bound) {}
  MANCALA_CALLBACK_LIMITED(CreateMatch)
  MANCALA_CALLBACK_UNARY(GetMatch)
  MANCALA_CALLBACK_UNARY(JoinMatch)
  MANCALA_CALLBACK_UNARY(CancelMatch)
  MANCALA_CALLBACK_LIMITED(Rematch)
  MANCALA_CALLBACK_ASYNC(SubmitMove)
  MANCALA_CALLBACK_UNARY(Resign)
  MANCALA_CALLBACK_UNARY(ListMoves)
  grpc::ServerWriteReactor<v1::WatchEvent>* WatchMatch(
      grpc::CallbackServerContext* context,
      const v1::WatchMatchRequest* request) override {
    return GuardStream<v1::WatchEvent>(
        "WatchMatch", [&] { return impl_.WatchMatch(context, request); });
  }

 private:
  Impl& impl_;
  PeerLimiter& limiter_;
  const std::chrono::milliseconds bound_;  // ClientDeadline's.
};

class GuardedMatchmakingService final
    : public v1::MatchmakingService::WithCallbackMethod_FindMatch<
          v1::MatchmakingService::Service> {
 public:
  using Impl = MatchmakingServiceImpl;
  GuardedMatchmakingService(Impl& impl, std::chrono::milliseconds bound)
      : impl_(impl), bound_(bound) {}
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
  const std::chrono::milliseconds bound_;  // ClientDeadline's.
};

class GuardedRatingService final : public v1::RatingService::CallbackService {
 public:
  using Impl = RatingServiceImpl;
  GuardedRatingService(Impl& impl, std::chrono::milliseconds bound)
      : impl_(impl), bound_(bound) {}
  MANCALA_CALLBACK_UNARY(GetRating)
  MANCALA_CALLBACK_UNARY(ListLeaderboard)
  MANCALA_CALLBACK_UNARY(GetRatingHistory)

 private:
  Impl& impl_;
  const std::chrono::milliseconds bound_;  // ClientDeadline's.
};

class GuardedAdminService final : public v1::AdminService::Service {
 public:
  using Impl = AdminServiceImpl;
  GuardedAdminService(Impl& impl, std::chrono::milliseconds bound)
      : impl_(impl), bound_(bound) {}
  MANCALA_GUARDED_UNARY(ListMatches)
  MANCALA_GUARDED_UNARY(GetMatchHistory)
  MANCALA_GUARDED_UNARY(VoidMatch)
  MANCALA_GUARDED_UNARY(ListAuditLog)
  MANCALA_GUARDED_UNARY(VerifyMatch)
  MANCALA_GUARDED_UNARY(RevokeTokens)
  MANCALA_GUARDED_UNARY(BanPlayer)
  MANCALA_GUARDED_UNARY(UnbanPlayer)

 private:
  Impl& impl_;
  const std::chrono::milliseconds bound_;  // ClientDeadline's.
};

#undef MANCALA_CALLBACK_ASYNC
#undef MANCALA_CALLBACK_LIMITED
#undef MANCALA_CALLBACK_UNARY
#undef MANCALA_CALLBACK_CALL
#undef MANCALA_GUARDED_UNARY
#undef MANCALA_GUARDED_LIMITED
#undef MANCALA_GUARDED_CALL

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_GUARDED_SERVICES_H_
