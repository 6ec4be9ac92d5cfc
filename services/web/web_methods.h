// The RPCs the web port serves, and their messages between protobuf's JSON
// mapping and the binary form the in-process gRPC call carries.
//
// Served: every method of the five mancala.v1 services and
// grpc.health.v1.Health/Check, looked up in the generated descriptor pool
// (so a method added to a proto is served with no change here). JSON is
// protobuf's own mapping (google::protobuf::util), field names in
// lowerCamelCase out, either form in; unknown fields are refused, as a
// typo would otherwise pass silently.
// Thread-safety: immutable after construction; any thread.

#ifndef MANCALA_SERVICES_WEB_WEB_METHODS_H_
#define MANCALA_SERVICES_WEB_WEB_METHODS_H_

#include <google/protobuf/descriptor.h>

#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace mancala::services::web {

struct WebMethod {
  std::string path;  // "/mancala.v1.MatchService/GetMatch"
  const google::protobuf::MethodDescriptor* descriptor = nullptr;
  bool server_streaming = false;
};

class WebMethods {
 public:
  WebMethods();

  // Null for a method the port does not serve.
  const WebMethod* Find(const std::string& service,
                        const std::string& method) const;

  // INVALID_ARGUMENT (with the parser's reason) for JSON that is not the
  // method's request message.
  absl::StatusOr<std::string> RequestFromJson(const WebMethod& method,
                                              std::string_view json) const;
  // INTERNAL if `bytes` is not the method's response message.
  absl::StatusOr<std::string> ResponseToJson(const WebMethod& method,
                                             std::string_view bytes) const;

 private:
  std::map<std::string, WebMethod> methods_;  // By path.
};

}  // namespace mancala::services::web

#endif  // MANCALA_SERVICES_WEB_WEB_METHODS_H_
