#include "services/api/match_service.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <set>

#include "engine/cpu/cpu_player.h"
#include "services/api/auth.h"
#include "services/api/move_pages.h"
#include "services/api/player_service.h"
#include "services/api/rpc_guard.h"
#include "services/api/watch_stream.h"
#include "services/base/text.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"
#include "services/wire/resource_names.h"

namespace mancala::services {
using storage::SeatRecord;

grpc::Status MatchServiceImpl::CallerAndMatch(
    const grpc::ServerContextBase& context,
    const google::protobuf::Message& request, Caller who,
    const std::string& name, const char* field, storage::PlayerRecord* caller,
    std::string* id) {
  if (grpc::Status s = auth_.Admit(context, request, who, caller); !s.ok()) {
    return s;
  }
  return MatchIdFromName(name, field, id);
}

namespace {

// Hex SHA-256 of the request without its request_id, serialized
// deterministically (map entries in key order): equal for a retry of the
// same request, different if any field differs.
std::string RequestFingerprint(const v1::CreateMatchRequest& request) {
  v1::CreateMatchRequest rest = request;
  rest.clear_request_id();
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream raw(&bytes);
    google::protobuf::io::CodedOutputStream out(&raw);
    out.SetSerializationDeterministic(true);
    rest.SerializeToCodedStream(&out);
  }
  return HashToken(bytes);
}

}  // namespace

grpc::Status MatchServiceImpl::CreateMatch(
    grpc::ServerContextBase* context, const v1::CreateMatchRequest* request,
    v1::Match* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          auth_.Admit(*context, *request, Caller::kPlayer, &caller);
      !s.ok()) {
    return s;
  }
  NewMatch match;
  match.creator_id = caller.id;
  const int seats = request->seats_size();
  if (absl::Status s = ShapeFromRequest(
          GameName(request->game()), seats, "seats",
          {request->options().begin(), request->options().end()},
          request->turn_time_limit_seconds(), &match.shape);
      !s.ok()) {
    return ToGrpc(s);
  }
  match.ranked = request->ranked();
  bool caller_seated = false;
  std::set<std::string> seated;
  for (int i = 0; i < seats; ++i) {
    const v1::Seat& seat = request->seats(i);
    SeatRecord record;
    const std::string where = "seats[" + std::to_string(i) + "]";
    switch (seat.kind()) {
      case v1::Seat::PLAYER: {
        record.kind = SeatRecord::Kind::kPlayer;
        record.player_id = PlayerIdFromName(seat.player());
        if (record.player_id.empty()) {
          return InvalidName(where + ".player must be 'players/{player_id}'",
                             seat.player());
        }
        if (record.player_id != caller.id) {
          auto invited = store_.GetPlayer(record.player_id);
          if (absl::IsNotFound(invited.status())) {
            return GrpcError(
                grpc::StatusCode::NOT_FOUND, "PLAYER_NOT_FOUND",
                where + ": no player named " + Quote(seat.player()));
          }
          if (!invited.ok()) return GrpcStorageFailure(invited.status());
        }
        caller_seated |= record.player_id == caller.id;
        if (!seated.insert(record.player_id).second && match.ranked) {
          return GrpcInvalidField(
              where + ": " + Quote(seat.player()) +
              " already holds a seat; nobody holds two seats in a "
              "ranked match");
        }
        break;
      }
      case v1::Seat::CPU:
        if (match.ranked) {
          // FindMatch refuses the same: a ranked match with a CPU seat
          // could never be rated (docs/ratings.md "What is rated").
          return GrpcInvalidField(where +
                                  " is a CPU seat; a ranked match has only "
                                  "players (ask for a casual match)");
        }
        record.kind = SeatRecord::Kind::kCpu;
        record.cpu_level =
            seat.cpu_level() == 0 ? engine::kDefaultCpuLevel : seat.cpu_level();
        if (record.cpu_level < engine::kMinCpuLevel ||
            record.cpu_level > engine::kMaxCpuLevel) {
          return GrpcInvalidField(where + ".cpu_level must be 1 to 4, got " +
                                  std::to_string(seat.cpu_level()));
        }
        break;
      case v1::Seat::OPEN:
        record.kind = SeatRecord::Kind::kOpen;
        break;
      default:
        return GrpcInvalidField(where + ".kind must be PLAYER, CPU or OPEN");
    }
    match.seats.push_back(std::move(record));
  }
  if (!caller_seated) {
    return GrpcInvalidField("the caller must hold one of the seats");
  }
  if (request->first_seat() < 0 || request->first_seat() >= seats) {
    return GrpcInvalidField("first_seat must be 0.." +
                            std::to_string(seats - 1));
  }
  match.first_seat = request->first_seat();
  if (!request->request_id().empty()) {
    match.request_id = request->request_id();
    match.request_hash = RequestFingerprint(*request);
  }
  MatchView view;
  return MatchAnswer(matches_.Create(match, &view), view, response);
}

grpc::Status MatchServiceImpl::GetMatch(grpc::ServerContextBase* context,
                                        const v1::GetMatchRequest* request,
                                        v1::Match* response) {
  storage::PlayerRecord viewer;
  std::string id;
  if (grpc::Status s = CallerAndMatch(*context, *request, Caller::kAnyone,
                                      request->name(), "name", &viewer, &id);
      !s.ok()) {
    return s;
  }
  MatchView view;
  return MatchAnswer(matches_.Get(id, viewer.id, &view), view, response);
}

void MatchServiceImpl::SubmitMove(grpc::ServerContextBase* context,
                                  const v1::SubmitMoveRequest* request,
                                  v1::SubmitMoveResponse* response,
                                  std::function<void(grpc::Status)> done) {
  storage::PlayerRecord caller;
  std::string id;
  if (grpc::Status s = CallerAndMatch(*context, *request, Caller::kPlayer,
                                      request->name(), "name", &caller, &id);
      !s.ok()) {
    done(s);
    return;
  }
  if (request->has_expected_ply() && request->expected_ply() < 0) {
    done(GrpcInvalidField("expected_ply must be >= 0, got " +
                          std::to_string(request->expected_ply())));
    return;
  }
  services::MoveRequest move;
  move.player_id = std::move(caller.id);
  move.pit = request->pit();
  if (request->has_expected_ply()) move.expected_ply = request->expected_ply();
  move.request_id = request->request_id();
  matches_.PlayAsync(
      id, std::move(move),
      [response, done = std::move(done)](absl::Status s, MoveReply reply) {
        // On the store's thread: an exception is answered here, not let
        // out into the writer.
        done(Guard("SubmitMove", [&] {
          if (s.ok()) s = ToProto(reply, response);
          return ToGrpc(s);
        }));
      });
}

grpc::Status MatchServiceImpl::Resign(grpc::ServerContextBase* context,
                                      const v1::ResignRequest* request,
                                      v1::Match* response) {
  storage::PlayerRecord caller;
  std::string id;
  if (grpc::Status s = CallerAndMatch(*context, *request, Caller::kPlayer,
                                      request->name(), "name", &caller, &id);
      !s.ok()) {
    return s;
  }
  MatchView view;
  return MatchAnswer(matches_.Resign(id, caller.id, &view), view, response);
}

grpc::Status MatchServiceImpl::ListMoves(grpc::ServerContextBase* context,
                                         const v1::ListMovesRequest* request,
                                         v1::ListMovesResponse* response) {
  storage::PlayerRecord viewer;
  std::string id;
  if (grpc::Status s =
          CallerAndMatch(*context, *request, Caller::kAnyone, request->parent(),
                         "parent", &viewer, &id);
      !s.ok()) {
    return s;
  }
  return ReadMovePage(
      matches_,
      {id, request->page_size(), request->page_token(), request->after_ply()},
      response->mutable_moves(), response->mutable_next_page_token());
}

grpc::Status MatchServiceImpl::JoinMatch(grpc::ServerContextBase* context,
                                         const v1::JoinMatchRequest* request,
                                         v1::Match* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          auth_.Admit(*context, *request, Caller::kPlayer, &caller);
      !s.ok()) {
    return s;
  }
  if (request->invite_code().empty())
    return GrpcInvalidField("invite_code is empty");
  std::optional<int> seat;
  if (request->has_seat()) seat = request->seat();
  MatchView view;
  return MatchAnswer(
      matches_.Join(request->invite_code(), seat, caller.id, &view), view,
      response);
}

grpc::Status MatchServiceImpl::CancelMatch(
    grpc::ServerContextBase* context, const v1::CancelMatchRequest* request,
    v1::Match* response) {
  storage::PlayerRecord caller;
  std::string id;
  if (grpc::Status s = CallerAndMatch(*context, *request, Caller::kPlayer,
                                      request->name(), "name", &caller, &id);
      !s.ok()) {
    return s;
  }
  MatchView view;
  return MatchAnswer(matches_.Cancel(id, caller.id, &view), view, response);
}

grpc::Status MatchServiceImpl::Rematch(grpc::ServerContextBase* context,
                                       const v1::RematchRequest* request,
                                       v1::Match* response) {
  storage::PlayerRecord caller;
  std::string id;
  if (grpc::Status s = CallerAndMatch(*context, *request, Caller::kPlayer,
                                      request->name(), "name", &caller, &id);
      !s.ok()) {
    return s;
  }
  MatchView view;
  return MatchAnswer(matches_.Rematch(id, caller.id, &view), view, response);
}

grpc::ServerWriteReactor<v1::WatchEvent>* MatchServiceImpl::WatchMatch(
    grpc::CallbackServerContext* context,
    const v1::WatchMatchRequest* request) {
  auto sink = std::make_shared<WatchStream>(max_queued_events_);
  std::string id;
  storage::PlayerRecord viewer;
  grpc::Status status = CallerAndMatch(*context, *request, Caller::kAnyone,
                                       request->name(), "name", &viewer, &id);
  if (status.ok() && request->after_ply() < 0) {
    status = GrpcInvalidField("after_ply must be >= 0, got " +
                              std::to_string(request->after_ply()));
  }
  if (status.ok()) {
    status = ToGrpc(matches_.Watch(id, viewer.id, request->after_ply(), sink));
  }
  LiveMatches* matches = &matches_;
  // A player watching (their own match or another) is online while the
  // stream is open; an anonymous spectator is nobody.
  OnlinePlayers* online =
      status.ok() && !viewer.id.empty() ? auth_.online() : nullptr;
  if (online != nullptr) online->Hold(viewer.id);
  auto* reactor = new EventReactor<v1::WatchEvent>(
      sink->stream(), [matches, online, id, viewer_id = viewer.id, sink] {
        matches->Unwatch(id, sink);
        if (online != nullptr) online->Release(viewer_id);
      });
  if (!status.ok()) sink->stream()->Close(status);
  reactor->Start();
  return reactor;
}

}  // namespace mancala::services
