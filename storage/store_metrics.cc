#include "storage/store_metrics.h"

namespace mancala::storage {

const char* FailureReason(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kDeadlineExceeded:
      return "timeout";
    case absl::StatusCode::kUnavailable:
      return "unavailable";
    case absl::StatusCode::kResourceExhausted:
      return "full";
    case absl::StatusCode::kDataLoss:
      return "data_loss";
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnknown:
      return "internal";
    default:
      return nullptr;
  }
}

absl::Status ReportFailure(StoreMetrics* metrics, const char* what,
                           absl::Status status) {
  if (metrics != nullptr && FailureReason(status) != nullptr) {
    metrics->OnFailure(what, status);
  }
  return status;
}

}  // namespace mancala::storage
