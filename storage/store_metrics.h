// What a store tells the operator about its commits and its failures (the
// server implements StoreMetrics: services/base/store_alarm.h counts and
// logs them).
//
// A commit is one durable write to the database (one fsync'd transaction).
// A store that groups several callers' writes into one commit (group commit)
// reports one CommitReport per commit with the number of writes it carried
// (where it commits a batch); a store without grouping reports batch_size 1.
// Separately, each AppendMove that returns OK reports OnMoveCommitted (the
// move is durable then, whichever batch carried it).
// A failure is a store call that the database failed (store.h's
// UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, DATA_LOSS, INTERNAL),
// not an answer about the records (NOT_FOUND, ALREADY_EXISTS, ABORTED,
// FAILED_PRECONDITION): each one is reported by OnFailure with the
// operation it ended and its status; FailureReason() names its kind.
// Thread-safety: all may be called from any thread, concurrently.

#ifndef MANCALA_STORAGE_STORE_METRICS_H_
#define MANCALA_STORAGE_STORE_METRICS_H_

#include <chrono>

#include "absl/status/status.h"

namespace mancala::storage {

struct CommitReport {
  // From the start of the transaction to the end of its commit (durable),
  // without the wait for the store's lock.
  std::chrono::steady_clock::duration latency{};
  int batch_size = 1;  // Callers' writes made durable by this commit.
};

class StoreMetrics {
 public:
  virtual ~StoreMetrics() = default;
  virtual void OnCommit(const CommitReport& report) = 0;
  virtual void OnMoveCommitted() = 0;
  // `what` ("append move") failed with `status`, a failure (above).
  virtual void OnFailure(const char* what, const absl::Status& status) = 0;
};

// The kind of a failure, for metrics and logs: "timeout" (DEADLINE_EXCEEDED:
// the database did not answer in time), "unavailable" (lost, refused or
// locked elsewhere; closing), "full" (RESOURCE_EXHAUSTED: disk or memory),
// "data_loss", "internal"; nullptr for a status that is no failure.
const char* FailureReason(const absl::Status& status);
// Every value FailureReason() returns.
inline constexpr const char* kFailureReasons[] = {
    "timeout", "unavailable", "full", "data_loss", "internal"};

// Reports `status` to `metrics` (if both are set) when it is a failure;
// returns it.
absl::Status ReportFailure(StoreMetrics* metrics, const char* what,
                           absl::Status status);

// Measures one commit: start it when the transaction begins, call Done()
// once it is durable. Does nothing when `metrics` is null.
class CommitTimer {
 public:
  explicit CommitTimer(StoreMetrics* metrics)
      : metrics_(metrics), start_(std::chrono::steady_clock::now()) {}
  void Done(int batch_size) const {
    if (metrics_ == nullptr) return;
    metrics_->OnCommit({std::chrono::steady_clock::now() - start_, batch_size});
  }

 private:
  StoreMetrics* metrics_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_STORE_METRICS_H_
