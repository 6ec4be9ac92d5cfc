// What a store tells the operator about its commits (the metrics endpoint,
// services/base/metrics.h, implements StoreMetrics).
//
// A commit is one durable write to the database (one fsync'd transaction).
// A store that groups several callers' writes into one commit (group commit)
// reports one CommitReport per commit with the number of writes it carried
// (where it commits a batch); a store without grouping reports batch_size 1.
// Separately, each AppendMove that returns OK reports OnMoveCommitted (the
// move is durable then, whichever batch carried it).
// Thread-safety: both may be called from any thread, concurrently.

#ifndef MANCALA_STORAGE_STORE_METRICS_H_
#define MANCALA_STORAGE_STORE_METRICS_H_

#include <chrono>

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
};

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
