#include "services/api/protobuf_log.h"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include "services/base/log_limit.h"

namespace mancala::services {

void LimitProtobufLog() {
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel level,
                                     const char* file, int line,
                                     const std::string& message) {
    static LogLimit limit;
    int64_t left_out = 0;
    if (level < google::protobuf::LOGLEVEL_FATAL && !limit.Allow(&left_out)) {
      return;
    }
    spdlog::warn("protobuf {}:{}: {} ({} similar lines left out)", file, line,
                 message, left_out);
  });
}

}  // namespace mancala::services
