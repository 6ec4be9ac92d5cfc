#include "services/errors.h"

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace mancala::services {

grpc::Status Error(grpc::StatusCode code, const std::string& reason,
                   const std::string& message,
                   const std::map<std::string, std::string>& metadata) {
  google::rpc::ErrorInfo info;
  info.set_reason(reason);
  info.set_domain(kErrorDomain);
  for (const auto& [k, v] : metadata) (*info.mutable_metadata())[k] = v;
  google::rpc::Status details;
  details.set_code(code);
  details.set_message(message);
  details.add_details()->PackFrom(info);
  return grpc::Status(code, message, details.SerializeAsString());
}

grpc::Status Invalid(const std::string& message) {
  return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT", message);
}

grpc::Status InvalidPageToken() {
  return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_PAGE_TOKEN",
               "page_token does not belong to this listing");
}

grpc::Status BadStoredData(const std::string& message) {
  return Error(grpc::StatusCode::DATA_LOSS, "BAD_STORED_DATA", message);
}

grpc::Status FromStorage(const absl::Status& status) {
  // Callers that expect NOT_FOUND (an unknown match or player) check for it
  // first and answer with their own reason; a record missing anywhere else
  // is a storage fault like any other.
  if (absl::IsDataLoss(status)) {
    return BadStoredData("stored data unreadable: " +
                         std::string(status.message()));
  }
  if (absl::IsAborted(status)) {
    return Error(grpc::StatusCode::ABORTED, "STALE_PLY",
                 std::string(status.message()));
  }
  return Error(grpc::StatusCode::UNAVAILABLE, "STORAGE",
               "storage failed: " + std::string(status.message()));
}

grpc::Status ShuttingDown(const std::string& retry) {
  return Error(grpc::StatusCode::UNAVAILABLE, "SHUTTING_DOWN",
               "server shutting down; " + retry);
}

std::string ErrorReason(const grpc::Status& status) {
  google::rpc::Status details;
  if (status.error_details().empty() ||
      !details.ParseFromString(status.error_details())) {
    return "";
  }
  for (const auto& any : details.details()) {
    google::rpc::ErrorInfo info;
    if (any.UnpackTo(&info)) return info.reason();
  }
  return "";
}

}  // namespace mancala::services
