// mancalad's logs: spdlog's default logger (standard output, many lines per
// write: batched_log_sink.h), as text for people or
// one JSON object per line for log shippers.
//
// In JSON every line is {"time": RFC 3339 UTC, "level": ..., "msg": ...};
// structured lines (LogFields) add their fields as keys. RPC lines
// (rpc_log.h) are structured: method, status, duration, match, player.
// Thread-safety: Configure once at start-up; LogFields from any thread.

#ifndef MANCALA_SERVICES_BASE_LOGGING_H_
#define MANCALA_SERVICES_BASE_LOGGING_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace mancala::services {

// `format` "text" or "json", `level` one of trace, debug, info, warn,
// error, critical, off. INVALID_ARGUMENT for anything else.
absl::Status ConfigureLogging(const std::string& format,
                              const std::string& level);

// One info line: `msg` then key=value pairs (text), or one JSON object
// with "msg" and the fields (json). Values are strings; numbers passed as
// text stay numbers in JSON when `numeric` is set for them.
struct LogField {
  std::string key;
  std::string value;
  bool numeric = false;
};
void LogFields(const std::string& msg, const std::vector<LogField>& fields);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_LOGGING_H_
