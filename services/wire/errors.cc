#include "services/wire/errors.h"

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace mancala::services {

grpc::Status GrpcError(grpc::StatusCode code, const std::string& reason,
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

grpc::Status ToGrpc(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  ErrorDetail detail = DetailOf(status);
  if (detail.reason.empty()) return GrpcStorageFailure(status);
  return GrpcError(static_cast<grpc::StatusCode>(status.code()), detail.reason,
                   std::string(status.message()), detail.metadata);
}

grpc::Status GrpcInvalidField(const std::string& message) {
  return ToGrpc(InvalidField(message));
}

grpc::Status GrpcInvalidPageToken() {
  return GrpcError(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_PAGE_TOKEN",
                   "page_token does not belong to this listing");
}

grpc::Status GrpcStorageFailure(const absl::Status& status) {
  return ToGrpc(StorageFailure(status));
}

grpc::Status GrpcShuttingDown(const std::string& retry) {
  return ToGrpc(ShuttingDown(retry));
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
