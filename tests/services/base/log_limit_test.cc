// Rate-limited log lines (services/base/log_limit.h) and the store's
// failures as the operator sees them (services/base/store_alarm.h).

#include "services/base/log_limit.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>
#include <string>

#include "services/base/metrics.h"
#include "services/base/store_alarm.h"

namespace mancala {
namespace {

TEST(LogLimit, OneLineAnIntervalThenTellsHowManyWereLeftOut) {
  services::LogLimit limit(1000);
  int64_t left_out = -1;
  EXPECT_TRUE(limit.Allow(5'000, &left_out));
  EXPECT_EQ(left_out, 0);
  EXPECT_FALSE(limit.Allow(5'001, &left_out));
  EXPECT_FALSE(limit.Allow(5'999, &left_out));
  EXPECT_TRUE(limit.Allow(6'000, &left_out));
  EXPECT_EQ(left_out, 2);
  EXPECT_FALSE(limit.Allow(6'500, &left_out));
}

// Each failure is counted by kind; the log gets one warning line per kind
// per interval, the next one telling how many were left out.
TEST(StoreAlarm, CountsEveryFailureAndLogsOneLinePerKindPerInterval) {
  services::Metrics metrics;
  services::StoreAlarm alarm(metrics);
  std::ostringstream log;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log);
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>("test", sink));
  for (int i = 0; i < 3; ++i) {
    alarm.OnFailure("append move",
                    absl::DeadlineExceededError("append move: no answer"));
  }
  alarm.OnFailure("create player", absl::ResourceExhaustedError("disk full"));
  spdlog::set_default_logger(previous);
  const std::string text = metrics.Render();
  EXPECT_NE(text.find("mancala_store_errors_total{reason=\"timeout\"} 3"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("mancala_store_errors_total{reason=\"full\"} 1"),
            std::string::npos);
  EXPECT_NE(text.find("mancala_store_errors_total{reason=\"unavailable\"} 0"),
            std::string::npos);
  const std::string lines = log.str();
  EXPECT_NE(lines.find("storage failure (timeout): append move: no answer"),
            std::string::npos)
      << lines;
  EXPECT_NE(lines.find("storage failure (full): disk full"), std::string::npos);
  // One line each: the two repeats of the timeout were left out.
  EXPECT_EQ(lines.find("storage failure (timeout)",
                       lines.find("storage failure (timeout)") + 1),
            std::string::npos);
  EXPECT_NE(lines.find("[warning]"), std::string::npos);
}

}  // namespace
}  // namespace mancala
