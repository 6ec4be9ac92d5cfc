#include "services/web/web_methods.h"

#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>

#include <memory>

// Linked in for their descriptors: the generated pool only holds the files
// whose code is in the binary.
#include "grpc/health/v1/health.pb.h"
#include "mancala/v1/admin_service.pb.h"
#include "mancala/v1/match_service.pb.h"
#include "mancala/v1/matchmaking_service.pb.h"
#include "mancala/v1/player_service.pb.h"
#include "mancala/v1/rating_service.pb.h"

namespace mancala::services::web {
namespace {

namespace pb = google::protobuf;

std::unique_ptr<pb::Message> New(const pb::Descriptor* type) {
  return std::unique_ptr<pb::Message>(
      pb::MessageFactory::generated_factory()->GetPrototype(type)->New());
}

}  // namespace

WebMethods::WebMethods() {
  // One message of each file names it (and links its code in).
  for (const pb::FileDescriptor* file :
       {grpc::health::v1::HealthCheckRequest::descriptor()->file(),
        v1::CreatePlayerRequest::descriptor()->file(),
        v1::CreateMatchRequest::descriptor()->file(),
        v1::GetRatingRequest::descriptor()->file(),
        v1::ListMatchesRequest::descriptor()->file(),
        v1::FindMatchRequest::descriptor()->file()}) {
    for (int s = 0; s < file->service_count(); ++s) {
      const pb::ServiceDescriptor* service = file->service(s);
      for (int m = 0; m < service->method_count(); ++m) {
        const pb::MethodDescriptor* method = service->method(m);
        if (method->client_streaming()) continue;  // None a browser can call.
        // Of Health, only Check: Watch is the liveness of gRPC's own stream.
        if (service->full_name() == "grpc.health.v1.Health" &&
            method->name() != "Check") {
          continue;
        }
        WebMethod w{"/" + service->full_name() + "/" + method->name(), method,
                    method->server_streaming()};
        methods_.emplace(w.path, std::move(w));
      }
    }
  }
}

const WebMethod* WebMethods::Find(const std::string& service,
                                  const std::string& method) const {
  auto it = methods_.find("/" + service + "/" + method);
  return it == methods_.end() ? nullptr : &it->second;
}

absl::StatusOr<std::string> WebMethods::RequestFromJson(
    const WebMethod& method, std::string_view json) const {
  std::unique_ptr<pb::Message> message = New(method.descriptor->input_type());
  pb::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const pb::util::Status s = pb::util::JsonStringToMessage(
      pb::StringPiece(json.data(), json.size()), message.get(), options);
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        "request is not a " + method.descriptor->input_type()->full_name() +
        " in JSON: " + std::string(s.message()));
  }
  return message->SerializeAsString();
}

absl::StatusOr<std::string> WebMethods::ResponseToJson(
    const WebMethod& method, std::string_view bytes) const {
  std::unique_ptr<pb::Message> message = New(method.descriptor->output_type());
  if (!message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::InternalError("response does not parse as " +
                               method.descriptor->output_type()->full_name());
  }
  std::string json;
  const pb::util::Status s = pb::util::MessageToJsonString(
      *message, &json, pb::util::JsonPrintOptions());
  if (!s.ok()) return absl::InternalError(std::string(s.message()));
  return json;
}

}  // namespace mancala::services::web
