// Log lines that clients or a failing dependency can cause again and again
// (a malformed request, a bug they hit, a database that is away) are
// rate-limited, so none of them can flood the log: at
// most one line per interval for each LogLimit, and the next line written
// tells how many were left out.
// Thread-safety: Allow() may be called from any thread.

#ifndef MANCALA_SERVICES_BASE_LOG_LIMIT_H_
#define MANCALA_SERVICES_BASE_LOG_LIMIT_H_

#include <atomic>
#include <cstdint>

namespace mancala::services {

class LogLimit {
 public:
  explicit LogLimit(int64_t interval_ms = 1000) : interval_ms_(interval_ms) {}

  // True if a line may be written at `now_ms` (steady time); then
  // `*left_out` is the number of lines refused since the last one written.
  bool Allow(int64_t now_ms, int64_t* left_out);
  // The same at the steady clock's now.
  bool Allow(int64_t* left_out);

 private:
  const int64_t interval_ms_;
  std::atomic<int64_t> next_ms_{INT64_MIN};
  std::atomic<int64_t> left_out_{0};
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_LOG_LIMIT_H_
