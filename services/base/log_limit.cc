#include "services/base/log_limit.h"

#include <chrono>

namespace mancala::services {

bool LogLimit::Allow(int64_t now_ms, int64_t* left_out) {
  int64_t next = next_ms_.load();
  if (now_ms >= next &&
      next_ms_.compare_exchange_strong(next, now_ms + interval_ms_)) {
    *left_out = left_out_.exchange(0);
    return true;
  }
  ++left_out_;
  return false;
}

bool LogLimit::Allow(int64_t* left_out) {
  return Allow(std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
                   .count(),
               left_out);
}

}  // namespace mancala::services
