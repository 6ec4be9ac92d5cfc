#include "services/api/rpc_log.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <unordered_map>

#include "absl/status/status.h"
#include "services/base/logging.h"

namespace mancala::services {
namespace {

using Hook = grpc::experimental::InterceptionHookPoints;

// Player ids of the calls in flight, by their server context.
std::mutex notes_mu;
std::unordered_map<const grpc::ServerContextBase*, std::string> notes;

// The first "matches/..." in a string field named name, match or parent,
// of `m` or of a message field directly inside it (SubmitMoveResponse,
// FindMatchUpdate.found).
std::string FindMatchName(const google::protobuf::Message& m, int depth = 0) {
  const auto* d = m.GetDescriptor();
  const auto* r = m.GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const auto* f = d->field(i);
    if (f->is_repeated()) continue;
    if (f->type() == google::protobuf::FieldDescriptor::TYPE_STRING &&
        (f->name() == "name" || f->name() == "match" ||
         f->name() == "parent")) {
      std::string v = r->GetString(m, f);
      if (v.rfind("matches/", 0) == 0) return v;
    } else if (f->type() == google::protobuf::FieldDescriptor::TYPE_MESSAGE &&
               depth < 2 && r->HasField(m, f)) {
      std::string v = FindMatchName(r->GetMessage(m, f), depth + 1);
      if (!v.empty()) return v;
    }
  }
  return "";
}

class RpcInterceptor final : public grpc::experimental::Interceptor {
 public:
  RpcInterceptor(grpc::experimental::ServerRpcInfo* info, Metrics* metrics,
                 std::atomic<int>* in_flight)
      : context_(info->server_context()),
        method_(info->method()),
        // Only our generated services surely carry protobuf messages (the
        // health service, for one, handles raw bytes).
        typed_(method_.rfind("/mancala.", 0) == 0),
        metrics_(metrics),
        in_flight_(typed_ ? in_flight : nullptr),
        start_(std::chrono::steady_clock::now()) {
    if (in_flight_ != nullptr) in_flight_->fetch_add(1);
    std::lock_guard lock(notes_mu);
    notes[context_];
  }
  ~RpcInterceptor() override {
    // A call can end without a status sent (the client went away first).
    if (!done_) Finish(grpc::StatusCode::CANCELLED, "");
    {
      std::lock_guard lock(notes_mu);
      notes.erase(context_);
    }
    // gRPC destroys the interceptor once the call is over, its status
    // handed to the transport.
    if (in_flight_ != nullptr) in_flight_->fetch_sub(1);
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
    Inspect(m);
    m->Proceed();
  }

 private:
  // A stream's batches may run on different threads at once.
  void Inspect(grpc::experimental::InterceptorBatchMethods* m) {
    std::lock_guard lock(mu_);
    if (typed_ && match_.empty() &&
        m->QueryInterceptionHookPoint(Hook::POST_RECV_MESSAGE) &&
        m->GetRecvMessage() != nullptr) {
      // gRPC hands the deserialized request untyped; every service here
      // is protobuf.
      match_ = FindMatchName(
          *static_cast<const google::protobuf::Message*>(m->GetRecvMessage()));
    }
    if (typed_ && match_.empty() &&
        m->QueryInterceptionHookPoint(Hook::PRE_SEND_MESSAGE) &&
        m->GetSendMessage() != nullptr) {
      match_ = FindMatchName(
          *static_cast<const google::protobuf::Message*>(m->GetSendMessage()));
    }
    if (!done_ && m->QueryInterceptionHookPoint(Hook::PRE_SEND_STATUS)) {
      const grpc::Status s = m->GetSendStatus();
      Finish(s.error_code(), s.error_message());
    }
  }

  // Requires mu_ (or the destructor).
  void Finish(grpc::StatusCode code, const std::string& error) {
    done_ = true;
    const auto took = std::chrono::steady_clock::now() - start_;
    if (metrics_ != nullptr) {
      metrics_->RecordRpc(method_, static_cast<absl::StatusCode>(code), took);
    }
    std::string player;
    {
      std::lock_guard lock(notes_mu);
      if (auto it = notes.find(context_); it != notes.end())
        player = it->second;
    }
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3f",
                  std::chrono::duration<double, std::milli>(took).count());
    std::vector<LogField> fields = {
        {"method", method_},
        {"status",
         absl::StatusCodeToString(static_cast<absl::StatusCode>(code))},
        {"duration_ms", ms, true}};
    if (!match_.empty()) fields.push_back({"match", match_});
    if (!player.empty()) fields.push_back({"player", "players/" + player});
    if (code != grpc::StatusCode::OK && !error.empty()) {
      fields.push_back({"error", error});
    }
    LogFields("rpc", fields);
  }

  const grpc::ServerContextBase* context_;
  const std::string method_;
  const bool typed_;
  Metrics* metrics_;
  std::atomic<int>* const in_flight_;  // Null: not counted.
  const std::chrono::steady_clock::time_point start_;
  std::mutex mu_;
  std::string match_;
  bool done_ = false;
};

class Factory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  Factory(Metrics* metrics, std::atomic<int>* in_flight)
      : metrics_(metrics), in_flight_(in_flight) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    return new RpcInterceptor(info, metrics_, in_flight_);
  }

 private:
  Metrics* metrics_;
  std::atomic<int>* in_flight_;
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewRpcInterceptorFactory(Metrics* metrics, std::atomic<int>* in_flight) {
  return std::make_unique<Factory>(metrics, in_flight);
}

void NoteCallPlayer(const grpc::ServerContextBase& context,
                    const std::string& player_id) {
  std::lock_guard lock(notes_mu);
  if (auto it = notes.find(&context); it != notes.end()) it->second = player_id;
}

}  // namespace mancala::services
