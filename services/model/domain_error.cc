// The match domain's errors (domain_error.h).

#include "services/model/domain_error.h"

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace mancala::services {
namespace {

// Payload type URLs: one for the reason, one per metadata key (the key
// follows the prefix). Never on the wire: ToGrpc() reads them back.
constexpr absl::string_view kReasonUrl = "mancala.v1/error.reason";
constexpr absl::string_view kMetadataUrl = "mancala.v1/error.metadata/";

}  // namespace

absl::Status DomainError(absl::StatusCode code, absl::string_view reason,
                         absl::string_view message,
                         const std::map<std::string, std::string>& metadata) {
  absl::Status status(code, message);
  status.SetPayload(kReasonUrl, absl::Cord(reason));
  for (const auto& [key, value] : metadata) {
    status.SetPayload(absl::StrCat(kMetadataUrl, key), absl::Cord(value));
  }
  return status;
}

ErrorDetail DetailOf(const absl::Status& status) {
  ErrorDetail detail;
  status.ForEachPayload([&](absl::string_view url, const absl::Cord& value) {
    if (url == kReasonUrl) {
      detail.reason = std::string(value);
    } else if (absl::StartsWith(url, kMetadataUrl)) {
      detail.metadata[std::string(url.substr(kMetadataUrl.size()))] =
          std::string(value);
    }
  });
  return detail;
}

absl::Status InvalidField(absl::string_view message) {
  return DomainError(absl::StatusCode::kInvalidArgument, "INVALID_ARGUMENT",
                     message);
}

absl::Status StoredDataLoss(absl::string_view message) {
  return DomainError(absl::StatusCode::kDataLoss, "BAD_STORED_DATA", message);
}

absl::Status StorageFailure(const absl::Status& status) {
  if (absl::IsDataLoss(status)) {
    return StoredDataLoss(
        absl::StrCat("stored data unreadable: ", status.message()));
  }
  if (absl::IsAborted(status)) {
    return DomainError(absl::StatusCode::kAborted, "STALE_PLY",
                       status.message());
  }
  if (absl::IsDeadlineExceeded(status)) {
    return DomainError(
        absl::StatusCode::kDeadlineExceeded, "STORAGE_TIMEOUT",
        absl::StrCat("the database did not answer in time; a write may or "
                     "may not have been stored (a retry with the same "
                     "request_id tells): ",
                     status.message()));
  }
  if (absl::IsResourceExhausted(status)) {
    return DomainError(absl::StatusCode::kResourceExhausted, "STORAGE_FULL",
                       absl::StrCat("the database is full; nothing was "
                                    "written: ",
                                    status.message()));
  }
  return DomainError(absl::StatusCode::kUnavailable, "STORAGE",
                     absl::StrCat("storage failed: ", status.message()));
}

absl::Status ShuttingDown(absl::string_view retry) {
  return DomainError(absl::StatusCode::kUnavailable, "SHUTTING_DOWN",
                     absl::StrCat("server shutting down; ", retry));
}

}  // namespace mancala::services
