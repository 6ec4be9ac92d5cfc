#include "services/base/logging.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>

#include "services/base/batched_log_sink.h"

namespace mancala::services {
namespace {

std::atomic<bool> json_logs{false};

std::string Rfc3339(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      t.time_since_epoch())
                      .count();
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&secs, &utc);
  char buf[40];
  const size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms % 1000));
  return buf;
}

// One JSON object per line. A payload that is itself a JSON object (from
// LogFields) is merged in; any other text becomes "msg".
class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg,
              spdlog::memory_buf_t& dest) override {
    const std::string payload(msg.payload.data(), msg.payload.size());
    nlohmann::ordered_json line = {
        {"time", Rfc3339(msg.time)},
        {"level",
         std::string(spdlog::level::to_string_view(msg.level).data(),
                     spdlog::level::to_string_view(msg.level).size())}};
    nlohmann::ordered_json fields =
        nlohmann::ordered_json::parse(payload, nullptr, false);
    if (!payload.empty() && payload.front() == '{' && fields.is_object()) {
      line.update(fields);
    } else {
      line["msg"] = payload;
    }
    const std::string text =
        line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
        "\n";
    dest.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonFormatter>();
  }
};

// logfmt quoting: bare when safe, else in double quotes with escapes.
std::string Quote(const std::string& v) {
  if (!v.empty() && v.find_first_of(" \"=\\\n\t") == std::string::npos) {
    return v;
  }
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c == '\n' ? ' ' : c);
  }
  return out + "\"";
}

}  // namespace

absl::Status ConfigureLogging(const std::string& format,
                              const std::string& level) {
  const spdlog::level::level_enum lvl = spdlog::level::from_str(level);
  // from_str answers "off" for any unknown name; only "off" means it.
  if (lvl == spdlog::level::off && level != "off") {
    return absl::InvalidArgumentError(
        "--log-level must be trace, debug, info, warn, error, critical or off");
  }
  if (format != "text" && format != "json") {
    return absl::InvalidArgumentError("--log-format must be text or json");
  }
  // Standard output, where spdlog's default logger wrote, but many lines
  // per write (batched_log_sink.h).
  spdlog::set_default_logger(std::make_shared<spdlog::logger>(
      "", std::make_shared<BatchedLogSink>(STDOUT_FILENO)));
  spdlog::set_level(lvl);
  json_logs = format == "json";
  if (json_logs) spdlog::set_formatter(std::make_unique<JsonFormatter>());
  return absl::OkStatus();
}

void LogFields(const std::string& msg, const std::vector<LogField>& fields) {
  if (!spdlog::should_log(spdlog::level::info)) return;
  if (json_logs) {
    nlohmann::ordered_json line = {{"msg", msg}};
    for (const LogField& f : fields) {
      nlohmann::json number =
          f.numeric ? nlohmann::json::parse(f.value, nullptr, false)
                    : nlohmann::json();
      line[f.key] = number.is_number() ? number : nlohmann::json(f.value);
    }
    spdlog::info("{}", line.dump(-1, ' ', false,
                                 nlohmann::json::error_handler_t::replace));
    return;
  }
  std::string text = msg;
  for (const LogField& f : fields) text += " " + f.key + "=" + Quote(f.value);
  spdlog::info("{}", text);
}

}  // namespace mancala::services
