// gRPC errors with a stable machine-readable reason: the gRPC edge.
//
// Every error the services return goes through GrpcError(): the status carries
// a google.rpc.Status in its binary details (the standard
// `grpc-status-details-bin` trailer) holding a google.rpc.ErrorInfo with
// domain "mancala.v1" and the given reason, e.g. NOT_YOUR_TURN, PIT_EMPTY.
// Clients that ignore details still get the code and the message.
// The match domain returns absl::Status (domain_error.h); the services turn
// it into a grpc::Status once, with ToGrpc().
// Names: each helper here is its domain twin of domain_error.h with the
// prefix Grpc (GrpcInvalidField = ToGrpc(InvalidField(...))), so one reason
// has one name on both sides.

#ifndef MANCALA_SERVICES_WIRE_ERRORS_H_
#define MANCALA_SERVICES_WIRE_ERRORS_H_

#include <grpcpp/grpcpp.h>

#include <map>
#include <string>

#include "absl/status/status.h"
#include "services/model/domain_error.h"

namespace mancala::services {

inline constexpr char kErrorDomain[] = "mancala.v1";

grpc::Status GrpcError(grpc::StatusCode code, const std::string& reason,
                       const std::string& message,
                       const std::map<std::string, std::string>& metadata = {});

// A domain status (domain_error.h) as the client sees it: same code and
// message, its reason and metadata as the ErrorInfo. A status without a
// reason is a raw storage status and maps as GrpcStorageFailure() does.
grpc::Status ToGrpc(const absl::Status& status);

// InvalidField() (domain_error.h) at the edge.
grpc::Status GrpcInvalidField(const std::string& message);

// INVALID_ARGUMENT (reason INVALID_PAGE_TOKEN): a page_token that this
// listing did not hand out (page_token.h).
grpc::Status GrpcInvalidPageToken();

// StorageFailure() (domain_error.h) at the edge.
// Reasons: mancala.v1.ErrorReason (proto/mancala/v1/error_reason.proto),
// the complete list.
grpc::Status GrpcStorageFailure(const absl::Status& status);

// ShuttingDown() (domain_error.h) at the edge.
grpc::Status GrpcShuttingDown(const std::string& retry);

// The ErrorInfo reason of `status`, or "" if it has none (for tests and
// clients).
std::string ErrorReason(const grpc::Status& status);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WIRE_ERRORS_H_
