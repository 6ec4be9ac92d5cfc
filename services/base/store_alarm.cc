#include "services/base/store_alarm.h"

#include <spdlog/spdlog.h>

namespace mancala::services {

StoreAlarm::StoreAlarm(Metrics& metrics) : metrics_(metrics) {
  for (const char* reason : storage::kFailureReasons) {
    limits_.try_emplace(reason, kLogEveryMs);
  }
}

void StoreAlarm::OnCommit(const storage::CommitReport& report) {
  metrics_.OnCommit(report);
}

void StoreAlarm::OnMoveCommitted() { metrics_.OnMoveCommitted(); }

void StoreAlarm::OnFailure(const char* what, const absl::Status& status) {
  metrics_.OnFailure(what, status);
  const char* reason = storage::FailureReason(status);
  auto limit = limits_.find(reason != nullptr ? reason : "internal");
  int64_t left_out = 0;
  if (limit == limits_.end() || !limit->second.Allow(&left_out)) return;
  spdlog::warn("storage failure ({}): {} [{} more like it left out]",
               limit->first, std::string(status.message()), left_out);
}

}  // namespace mancala::services
