#include "services/api/rpc_guard.h"

#include <spdlog/spdlog.h>

#include "services/api/log_limit.h"
#include "services/wire/errors.h"

namespace mancala::services {

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
