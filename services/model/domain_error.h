// The match domain's errors: plain absl::Status values that carry the
// stable ErrorInfo reason (proto/mancala/v1/error_reason.proto) and its
// metadata as payloads, so the domain core (live_matches.h and the files
// split from it) knows nothing of gRPC. The gRPC edge turns them into a
// grpc::Status with a google.rpc.ErrorInfo detail exactly once, in
// ToGrpc() (errors.h). Codes are absl's, numerically equal to gRPC's.
// Thread-safety: pure functions.

#ifndef MANCALA_SERVICES_MODEL_DOMAIN_ERROR_H_
#define MANCALA_SERVICES_MODEL_DOMAIN_ERROR_H_

#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace mancala::services {

// A refusal with `code`, a short message for the client and the stable
// `reason` (e.g. "NOT_YOUR_TURN") with `metadata` (e.g. {"to_move": "1"}).
absl::Status DomainError(
    absl::StatusCode code, absl::string_view reason, absl::string_view message,
    const std::map<std::string, std::string>& metadata = {});

// The reason and metadata DomainError() attached; an empty reason for a
// status without one (OK, or a raw status from elsewhere).
struct ErrorDetail {
  std::string reason;
  std::map<std::string, std::string> metadata;
};
ErrorDetail DetailOf(const absl::Status& status);

// INVALID_ARGUMENT (reason INVALID_ARGUMENT): a request field is malformed;
// `message` names the field and what it must be.
absl::Status InvalidField(absl::string_view message);

// DATA_LOSS (reason BAD_STORED_DATA): a stored value cannot be read back
// (an enum value outside its enum, an unreadable blob, a match shape the
// service would refuse). Never decoded as a default.
absl::Status StoredDataLoss(absl::string_view message);

// A storage failure as the client should see it: ABORTED (another writer
// moved the match on) is ABORTED (reason STALE_PLY); DATA_LOSS is
// StoredDataLoss(); DEADLINE_EXCEEDED (no answer in time: a write's outcome
// unknown) is DEADLINE_EXCEEDED (STORAGE_TIMEOUT); RESOURCE_EXHAUSTED (a
// full disk) is RESOURCE_EXHAUSTED (STORAGE_FULL), which AIP-193 leaves to
// the client to retry later, not at once; anything else, an unexpected
// NOT_FOUND included, is UNAVAILABLE (reason STORAGE), since the request
// may succeed on a retry.
// Callers that expect NOT_FOUND check for it first and answer with their
// own reason.
absl::Status StorageFailure(const absl::Status& status);

// UNAVAILABLE (reason SHUTTING_DOWN) "server shutting down; <retry>": a
// stream ended or refused because the server stops; the client may
// reconnect to the next server and `retry`.
absl::Status ShuttingDown(absl::string_view retry);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MODEL_DOMAIN_ERROR_H_
