// Metrics: the text exposition of counters, histograms and gauges.

#include "services/base/metrics.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace mancala::services {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

bool Has(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

TEST(Metrics, RpcCounterSplitsServiceMethodAndCode) {
  Metrics m;
  m.RecordRpc("/mancala.v1.MatchService/SubmitMove", absl::StatusCode::kOk,
              milliseconds(3));
  m.RecordRpc("/mancala.v1.MatchService/SubmitMove", absl::StatusCode::kOk,
              milliseconds(3));
  m.RecordRpc("/mancala.v1.MatchService/SubmitMove",
              absl::StatusCode::kFailedPrecondition, milliseconds(1));
  const std::string text = m.Render();
  EXPECT_TRUE(Has(text,
                  "grpc_server_handled_total{grpc_service=\"mancala.v1."
                  "MatchService\",grpc_method=\"SubmitMove\",grpc_code=\"OK\"}"
                  " 2"))
      << text;
  EXPECT_TRUE(
      Has(text,
          "grpc_server_handled_total{grpc_service=\"mancala.v1."
          "MatchService\",grpc_method=\"SubmitMove\",grpc_code=\"FAILED_"
          "PRECONDITION\"} 1"))
      << text;
}

TEST(Metrics, HistogramBucketsAreCumulativeWithUpperBoundsInclusive) {
  Metrics m;
  const std::string method = "/mancala.v1.PlayerService/GetPlayer";
  // 1 ms lands in le="0.001" (bounds are inclusive), 3 ms in le="0.005",
  // 2 minutes only in +Inf.
  m.RecordRpc(method, absl::StatusCode::kOk, milliseconds(1));
  m.RecordRpc(method, absl::StatusCode::kOk, milliseconds(3));
  m.RecordRpc(method, absl::StatusCode::kOk, std::chrono::minutes(2));
  const std::string text = m.Render();
  const std::string h =
      "grpc_server_handling_seconds_bucket{grpc_service=\"mancala.v1."
      "PlayerService\",grpc_method=\"GetPlayer\",le=";
  EXPECT_TRUE(Has(text, h + "\"0.0005\"} 0")) << text;
  EXPECT_TRUE(Has(text, h + "\"0.001\"} 1")) << text;
  EXPECT_TRUE(Has(text, h + "\"0.0025\"} 1")) << text;
  EXPECT_TRUE(Has(text, h + "\"0.005\"} 2")) << text;
  EXPECT_TRUE(Has(text, h + "\"10\"} 2")) << text;
  EXPECT_TRUE(Has(text, h + "\"60\"} 2")) << text;
  EXPECT_TRUE(Has(text, h + "\"+Inf\"} 3")) << text;
  EXPECT_TRUE(Has(text,
                  "grpc_server_handling_seconds_sum{grpc_service=\"mancala.v1."
                  "PlayerService\",grpc_method=\"GetPlayer\"} 120.004"))
      << text;
  EXPECT_TRUE(Has(text,
                  "grpc_server_handling_seconds_count{grpc_service=\"mancala."
                  "v1.PlayerService\",grpc_method=\"GetPlayer\"} 3"))
      << text;
}

TEST(Metrics, StoreCommitsCountMovesAndBatches) {
  Metrics m;
  m.OnCommit({microseconds(400), 3});
  m.OnCommit({microseconds(200), 1});
  for (int i = 0; i < 3; ++i) m.OnMoveCommitted();
  const std::string text = m.Render();
  EXPECT_TRUE(Has(text, "mancala_moves_committed_total 3")) << text;
  EXPECT_TRUE(Has(text, "mancala_store_commit_batch_size_bucket{le=\"1\"} 1"));
  EXPECT_TRUE(Has(text, "mancala_store_commit_batch_size_bucket{le=\"2\"} 1"));
  EXPECT_TRUE(Has(text, "mancala_store_commit_batch_size_bucket{le=\"4\"} 2"));
  EXPECT_TRUE(Has(text, "mancala_store_commit_batch_size_sum 4"));
  EXPECT_TRUE(Has(
      text, "mancala_store_commit_duration_seconds_bucket{le=\"0.00025\"} 1"));
  EXPECT_TRUE(Has(
      text, "mancala_store_commit_duration_seconds_bucket{le=\"0.0005\"} 2"));
  // 0.0004 + 0.0002 is not exactly 0.0006 in binary.
  EXPECT_NE(text.find("\nmancala_store_commit_duration_seconds_sum 0.0006"),
            std::string::npos);
}

TEST(Metrics, GaugesComeFromTheSourceAtEachScrapeWithLabelsEscaped) {
  Metrics m;
  int scrapes = 0;
  m.SetGaugeSource([&scrapes] {
    GaugeReadings g;
    g.live_matches_by_state["in_progress"] = ++scrapes;
    g.watch_streams_open = 7;
    g.searching_by_game["odd\"name\\"] = 2;
    g.cpu_turns_queued = 1;
    g.players_online = 12;
    return g;
  });
  m.Render();
  const std::string text = m.Render();
  EXPECT_TRUE(Has(text, "mancala_live_matches{state=\"in_progress\"} 2"));
  EXPECT_TRUE(Has(text, "mancala_watch_streams_open 7"));
  EXPECT_TRUE(Has(text,
                  "mancala_matchmaking_searching_players{game=\"odd\\\"name\\\\"
                  "\"} 2"))
      << text;
  EXPECT_TRUE(Has(text, "mancala_cpu_turns_queued 1"));
  EXPECT_TRUE(Has(text, "mancala_players_online 12"));
}

TEST(Metrics, CpuSearchesByLevelAndEveryFamilyTyped) {
  Metrics m;
  m.RecordCpuSearch(3, milliseconds(300));
  m.RecordCpuSearch(3, milliseconds(20));
  const std::string text = m.Render();
  EXPECT_TRUE(Has(text, "mancala_cpu_searches_total{level=\"3\"} 2"));
  EXPECT_TRUE(Has(text,
                  "mancala_cpu_search_duration_seconds_bucket{level=\"3\",le="
                  "\"0.025\"} 1"));
  EXPECT_TRUE(
      Has(text, "# TYPE mancala_cpu_search_duration_seconds histogram"));
  EXPECT_TRUE(Has(text, "# TYPE mancala_build_info gauge"));
  EXPECT_NE(text.find("mancala_build_info{version=\""), std::string::npos);
}

}  // namespace
}  // namespace mancala::services
