// Request validation of every RPC: the input picks an RPC of the
// mancala.v1 services (in method full-name order), a caller (anonymous, a
// player, the admin) and the bytes of its request message. The request is
// sent to a real in-process Server (":memory:" database) over loopback.
// Whatever the bytes, the answer is OK or a status the API documents:
// never INTERNAL or UNKNOWN (an exception reaching the gRPC edge, see
// services/api/rpc_guard.h), never a crash or a hang (each call has a
// deadline).
//
// Input: byte 0 = RPC index, byte 1 = caller, the rest = the serialized
// request. A string field starting "@match", "@player" or "@invite" has
// that replaced by a real match name, player name or invite code, so seeds
// reach past the lookups (tests/fuzz/make_rpc_seeds.sh writes the seed corpus).

#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <iostream>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "mancala/v1/match_service.grpc.pb.h"
#include "mancala/v1/matchmaking_service.grpc.pb.h"
#include "mancala/v1/player_service.grpc.pb.h"
#include "services/server.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

namespace pb = google::protobuf;
namespace v1 = mancala::v1;

constexpr char kAdminToken[] = "fuzz-admin-token";

struct World {
  std::unique_ptr<mancala::services::Server> server;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<grpc::GenericStub> generic;
  std::vector<const pb::MethodDescriptor*> methods;
  std::string player_token, player_name, match_name, invite_code;
};

void Die(const std::string& what) { mancala::fuzz::Check(false, what); }

std::unique_ptr<grpc::ClientContext> Context(const World& w, int caller) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(10));
  if (caller == 1)
    ctx->AddMetadata("authorization", "Bearer " + w.player_token);
  if (caller == 2) {
    ctx->AddMetadata("authorization", std::string("Bearer ") + kAdminToken);
  }
  return ctx;
}

World* Setup() {
  auto* w = new World;
  mancala::services::ServerOptions options;
  options.address = "127.0.0.1:0";
  options.db_path = ":memory:";
  options.cpu_threads = 1;
  options.cpu_budget_ms = {1, 1, 1, 1};
  options.tick = std::chrono::milliseconds(0);
  options.admin_token = kAdminToken;
  options.create_burst = 0;  // The fuzzer creates players and matches freely.
  auto server = mancala::services::Server::Start(options);
  if (!server.ok()) Die(server.status().ToString());
  w->server = *std::move(server);
  w->channel =
      grpc::CreateChannel("127.0.0.1:" + std::to_string(w->server->port()),
                          grpc::InsecureChannelCredentials());
  w->generic = std::make_unique<grpc::GenericStub>(w->channel);
  for (const char* name :
       {"mancala.v1.PlayerService", "mancala.v1.MatchService",
        "mancala.v1.MatchmakingService", "mancala.v1.RatingService",
        "mancala.v1.AdminService"}) {
    const pb::ServiceDescriptor* s =
        pb::DescriptorPool::generated_pool()->FindServiceByName(name);
    if (s == nullptr) Die(std::string("no service ") + name);
    for (int i = 0; i < s->method_count(); ++i)
      w->methods.push_back(s->method(i));
  }
  std::sort(w->methods.begin(), w->methods.end(),
            [](auto* a, auto* b) { return a->full_name() < b->full_name(); });
  // A player, a match against the CPU and a match waiting for a second
  // player, for the placeholders.
  auto players = v1::PlayerService::NewStub(w->channel);
  v1::CreatePlayerResponse me;
  auto ctx = Context(*w, 0);
  if (!players->CreatePlayer(ctx.get(), {}, &me).ok()) Die("CreatePlayer");
  w->player_token = me.token();
  w->player_name = me.player().name();
  auto matches = v1::MatchService::NewStub(w->channel);
  for (v1::Seat::Kind other : {v1::Seat::CPU, v1::Seat::OPEN}) {
    v1::CreateMatchRequest req;
    req.set_game(v1::KALAH);
    req.add_seats()->set_kind(v1::Seat::PLAYER);
    req.mutable_seats(0)->set_player(w->player_name);
    req.add_seats()->set_kind(other);
    v1::Match m;
    ctx = Context(*w, 1);
    if (!matches->CreateMatch(ctx.get(), req, &m).ok()) Die("CreateMatch");
    if (other == v1::Seat::CPU) w->match_name = m.name();
    if (other == v1::Seat::OPEN) w->invite_code = m.invite_code();
  }
  return w;
}

// Replaces the placeholders in the top-level string fields.
void FillPlaceholders(const World& w, pb::Message* m) {
  const pb::Reflection* r = m->GetReflection();
  const pb::Descriptor* d = m->GetDescriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* f = d->field(i);
    if (f->type() != pb::FieldDescriptor::TYPE_STRING || f->is_repeated()) {
      continue;
    }
    std::string v = r->GetString(*m, f);
    for (auto [tag, real] : {std::pair{"@match", &w.match_name},
                             std::pair{"@player", &w.player_name},
                             std::pair{"@invite", &w.invite_code}}) {
      if (v.rfind(tag, 0) == 0) {
        r->SetString(m, f, *real + v.substr(std::string_view(tag).size()));
      }
    }
  }
}

grpc::Status CallUnary(const World& w, const pb::MethodDescriptor* method,
                       int caller, const std::string& request) {
  auto ctx = Context(w, caller);
  grpc::Slice slice(request);
  grpc::ByteBuffer in(&slice, 1), out;
  std::promise<grpc::Status> done;
  w.generic->UnaryCall(
      ctx.get(), "/" + method->service()->full_name() + "/" + method->name(),
      grpc::StubOptions(), &in, &out,
      [&done](grpc::Status s) { done.set_value(s); });
  return done.get_future().get();
}

// Server streams: the first message (or the status), then the client
// cancels. A stream that runs past its deadline is fine (a live match).
template <class Req, class Event, class Start>
grpc::Status CallStream(const World& w, int caller, const Req& req,
                        Start start) {
  auto ctx = Context(w, caller);
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::milliseconds(500));
  auto stream = start(ctx.get(), req);
  Event first;
  stream->Read(&first);
  ctx->TryCancel();
  grpc::Status s = stream->Finish();
  if (s.error_code() == grpc::StatusCode::CANCELLED ||
      s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    return grpc::Status::OK;
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World* w = Setup();
  if (size < 2) return 0;
  const pb::MethodDescriptor* method = w->methods[data[0] % w->methods.size()];
  const int caller = data[1] % 3;
  std::unique_ptr<pb::Message> request(pb::MessageFactory::generated_factory()
                                           ->GetPrototype(method->input_type())
                                           ->New());
  if (!request->ParseFromArray(data + 2, static_cast<int>(size - 2))) return 0;
  FillPlaceholders(*w, request.get());
  grpc::Status s;
  if (method->name() == "WatchMatch") {
    auto stub = v1::MatchService::NewStub(w->channel);
    s = CallStream<v1::WatchMatchRequest, v1::WatchEvent>(
        *w, caller, static_cast<const v1::WatchMatchRequest&>(*request),
        [&](grpc::ClientContext* c, const v1::WatchMatchRequest& r) {
          return stub->WatchMatch(c, r);
        });
  } else if (method->name() == "FindMatch") {
    auto stub = v1::MatchmakingService::NewStub(w->channel);
    s = CallStream<v1::FindMatchRequest, v1::FindMatchUpdate>(
        *w, caller, static_cast<const v1::FindMatchRequest&>(*request),
        [&](grpc::ClientContext* c, const v1::FindMatchRequest& r) {
          return stub->FindMatch(c, r);
        });
  } else {
    s = CallUnary(*w, method, caller, request->SerializeAsString());
  }
  if (s.error_code() == grpc::StatusCode::INTERNAL ||
      s.error_code() == grpc::StatusCode::UNKNOWN ||
      s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    Die(method->full_name() + " answered " +
        std::to_string(static_cast<int>(s.error_code())) + " " +
        s.error_message() + " to " + request->ShortDebugString());
  }
  return 0;
}
