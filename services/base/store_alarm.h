// What the operator hears of the store (storage/store_metrics.h): its
// commits and failures go to the metrics (mancala_store_errors_total
// {reason}), and each failure is also logged at warning level, at most one
// line every 10 s per kind (log_limit.h), the next line telling how many
// were left out. A database that is away fails every call: the log shows it
// at once and keeps showing it, without a line per call.
// Thread-safety: every method may be called from any thread.

#ifndef MANCALA_SERVICES_BASE_STORE_ALARM_H_
#define MANCALA_SERVICES_BASE_STORE_ALARM_H_

#include <map>
#include <string>

#include "services/base/log_limit.h"
#include "services/base/metrics.h"
#include "storage/store_metrics.h"

namespace mancala::services {

class StoreAlarm final : public storage::StoreMetrics {
 public:
  static constexpr int64_t kLogEveryMs = 10'000;

  explicit StoreAlarm(Metrics& metrics);

  void OnCommit(const storage::CommitReport& report) override;
  void OnMoveCommitted() override;
  void OnFailure(const char* what, const absl::Status& status) override;

 private:
  Metrics& metrics_;
  // One limit per storage::FailureReason; the map is never changed after
  // construction, so lookups need no lock.
  std::map<std::string, LogLimit> limits_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_STORE_ALARM_H_
