// gRPC errors with a stable machine-readable reason.
//
// Every error the services return goes through Error(): the status carries a
// google.rpc.Status in its binary details (the standard
// `grpc-status-details-bin` trailer) holding a google.rpc.ErrorInfo with
// domain "mancala.v1" and the given reason, e.g. NOT_YOUR_TURN, PIT_EMPTY.
// Clients that ignore details still get the code and the message.

#ifndef MANCALA_SERVICES_ERRORS_H_
#define MANCALA_SERVICES_ERRORS_H_

#include <grpcpp/grpcpp.h>

#include <map>
#include <string>

#include "absl/status/status.h"

namespace mancala::services {

inline constexpr char kErrorDomain[] = "mancala.v1";

grpc::Status Error(grpc::StatusCode code, const std::string& reason,
                   const std::string& message,
                   const std::map<std::string, std::string>& metadata = {});

// INVALID_ARGUMENT (reason INVALID_ARGUMENT): a request field is malformed;
// `message` names the field and what it must be.
grpc::Status Invalid(const std::string& message);

// INVALID_ARGUMENT (reason INVALID_PAGE_TOKEN): a page_token that this
// listing did not hand out (page_token.h).
grpc::Status InvalidPageToken();

// DATA_LOSS (reason BAD_STORED_DATA): a stored value cannot be read back
// (an enum value outside its enum, an unreadable blob, a match shape the
// service would refuse). Never decoded as a default.
grpc::Status BadStoredData(const std::string& message);

// A storage failure as the client should see it: ABORTED (another writer
// moved the match on) is ABORTED (reason STALE_PLY); DATA_LOSS is
// BadStoredData(); anything else, an unexpected NOT_FOUND included, is
// UNAVAILABLE (reason STORAGE), since the request may succeed later.
// Reasons: mancala.v1.ErrorReason (proto/mancala/v1/error_reason.proto),
// the complete list.
grpc::Status FromStorage(const absl::Status& status);

// UNAVAILABLE (reason SHUTTING_DOWN) "server shutting down; <retry>": a
// stream ended or refused because the server stops; the client may
// reconnect to the next server and `retry`.
grpc::Status ShuttingDown(const std::string& retry);

// The ErrorInfo reason of `status`, or "" if it has none (for tests and
// clients).
std::string ErrorReason(const grpc::Status& status);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_ERRORS_H_
