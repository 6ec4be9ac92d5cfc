#include "services/api/rpc_guard.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "services/base/log_limit.h"
#include "services/wire/errors.h"

namespace mancala::services {

ClientDeadline::ClientDeadline(const grpc::ServerContextBase& context,
                               std::chrono::milliseconds bound) {
  using std::chrono::system_clock;
  // On the steady clock, as the store measures; system_clock::max() (no
  // deadline) and any far one end up as the bound.
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(bound);
  const system_clock::time_point deadline = context.deadline();
  const system_clock::time_point now = system_clock::now();
  if (deadline < now + bound) {
    left = std::max(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now),
        std::chrono::milliseconds(0));
  }
  scope_.emplace(std::chrono::steady_clock::now() + left);
}

grpc::Status InternalError(const char* rpc, const char* what) {
  // A bug hit by every call must not flood the log (log_limit.h).
  static LogLimit limit;
  int64_t left_out = 0;
  if (limit.Allow(&left_out)) {
    spdlog::error("BUG: {} threw: {} ({} similar lines left out)", rpc, what,
                  left_out);
  }
  return GrpcError(
      grpc::StatusCode::INTERNAL, "INTERNAL",
      "internal error in " + std::string(rpc) +
          "; it was logged, and the request may not have completed");
}

}  // namespace mancala::services
