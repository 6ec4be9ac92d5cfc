// Protobuf's own log lines (e.g. "String field contains invalid UTF-8 data"
// for a request a client sent) go to spdlog, through one LogLimit
// (services/base/log_limit.h), so no client can flood the log with them.

#ifndef MANCALA_SERVICES_API_PROTOBUF_LOG_H_
#define MANCALA_SERVICES_API_PROTOBUF_LOG_H_

namespace mancala::services {

// Installs the handler; call once, before serving.
void LimitProtobufLog();

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_PROTOBUF_LOG_H_
