// Time, injected so that tests never sleep through turn limits.
//
// Services read the time only through a Clock. SystemClock is the real one;
// ManualClock stands still until a test advances it.
// Thread-safety: both are safe to use from any thread.

#ifndef MANCALA_SERVICES_BASE_CLOCK_H_
#define MANCALA_SERVICES_BASE_CLOCK_H_

#include <atomic>
#include <chrono>
#include <cstdint>

namespace mancala::services {

class Clock {
 public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch (UTC).
  virtual int64_t NowMs() const = 0;
};

class SystemClock final : public Clock {
 public:
  int64_t NowMs() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_ms) : now_ms_(start_ms) {}
  int64_t NowMs() const override { return now_ms_.load(); }
  void AdvanceMs(int64_t ms) { now_ms_ += ms; }

 private:
  std::atomic<int64_t> now_ms_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_CLOCK_H_
