#include "services/rpc_guard.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>

#include "services/errors.h"

namespace mancala::services {

grpc::Status InternalError(const char* rpc, const char* what) {
  // At most one line a second: a bug hit by every call must not flood the
  // log. The count of the lines left out is told with the next one.
  static std::atomic<int64_t> last_s{0};
  static std::atomic<int64_t> dropped{0};
  const int64_t now_s = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
  int64_t last = last_s.load();
  if (now_s > last && last_s.compare_exchange_strong(last, now_s)) {
    spdlog::error("BUG: {} threw: {} ({} similar lines left out)", rpc, what,
                  dropped.exchange(0));
  } else {
    ++dropped;
  }
  return Error(grpc::StatusCode::INTERNAL, "INTERNAL",
               "internal error in " + std::string(rpc) +
                   "; it was logged, and the request may not have completed");
}

}  // namespace mancala::services
