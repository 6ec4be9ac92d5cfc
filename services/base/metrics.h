// mancalad's Prometheus metrics and their text exposition (format 0.0.4,
// https://prometheus.io/docs/instrumenting/exposition_formats/).
//
// Debian 12 has no Prometheus client library for C++, so the few metric
// kinds we need (counters, gauges, histograms with fixed buckets) and their
// rendering live here, in one place. Names follow Prometheus conventions:
// base units (seconds), `_total` for counters, `_seconds` for durations.
//
//   grpc_server_handled_total{grpc_service,grpc_method,grpc_code}  counter
//   grpc_server_handling_seconds{grpc_service,grpc_method}  histogram; for a
//       stream, its whole life
//   mancala_moves_committed_total  counter: moves made durable
//   mancala_store_commit_duration_seconds  histogram: one commit, begin to
//       durable (storage/store_metrics.h)
//   mancala_store_commit_batch_size  histogram: writes per commit
//   mancala_store_errors_total{reason}  counter: store calls the database
//       failed (storage/store_metrics.h FailureReason; every reason is
//       exported from the start, at 0)
//   mancala_live_matches{state}  gauge: matches in memory by state
//   mancala_watch_streams_open  gauge: open WatchMatch streams
//   mancala_matchmaking_searching_players{game}  gauge: players in FindMatch
//   mancala_cpu_turns_queued  gauge: CPU turns waiting for a worker thread
//   mancala_players_online  gauge: players online on the whole site
//   mancala_cpu_searches_total{level}  counter
//   mancala_cpu_search_duration_seconds{level}  histogram
//   mancala_build_info{version,revision,grpc_version}  gauge, always 1
//   process_start_time_seconds  gauge: Unix time the process started
//
// Thread-safety: every method may be called from any thread.

#ifndef MANCALA_SERVICES_BASE_METRICS_H_
#define MANCALA_SERVICES_BASE_METRICS_H_

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "storage/store_metrics.h"

namespace mancala::services {

// Values read at scrape time from the parts that hold them.
struct GaugeReadings {
  std::map<std::string, int> live_matches_by_state;  // "in_progress" -> n.
  int watch_streams_open = 0;
  std::map<std::string, int> searching_by_game;  // "kalah" -> players.
  int cpu_turns_queued = 0;
  int players_online = 0;  // On the whole site (QueueStats.online).
};

class Metrics final : public storage::StoreMetrics {
 public:
  // `grpc_version`: the mancala_build_info label; the process that serves
  // gRPC knows it (server.cc), this layer builds without gRPC.
  explicit Metrics(std::string grpc_version = "unknown");

  // Called on every scrape; set once, before serving.
  void SetGaugeSource(std::function<GaugeReadings()> source);

  // One finished RPC; `full_method` as gRPC names it:
  // "/mancala.v1.MatchService/SubmitMove"; `code` is gRPC's (the two
  // enums share their numbers).
  void RecordRpc(const std::string& full_method, absl::StatusCode code,
                 std::chrono::steady_clock::duration took);
  // One CPU move search at `level` (1-4).
  void RecordCpuSearch(int level, std::chrono::steady_clock::duration took);
  void OnCommit(const storage::CommitReport& report) override;
  void OnMoveCommitted() override;
  // Counts the failure; logs nothing (store_alarm.h does).
  void OnFailure(const char* what, const absl::Status& status) override;

  // Every metric in the Prometheus text format.
  std::string Render() const;

  // A histogram with fixed upper bounds (ascending, +Inf implied).
  struct Histogram {
    explicit Histogram(const std::vector<double>* upper_bounds)
        : bounds(upper_bounds), counts(upper_bounds->size()) {}
    void Observe(double value);
    const std::vector<double>* bounds;
    std::vector<uint64_t> counts;  // Per bound, not cumulative.
    uint64_t count = 0;
    double sum = 0;
  };

 private:
  using Labels = std::vector<std::pair<std::string, std::string>>;

  mutable std::mutex mu_;
  std::function<GaugeReadings()> gauges_;
  const std::string grpc_version_;
  const double start_time_seconds_;
  std::map<Labels, uint64_t> rpc_handled_;   // service, method, code.
  std::map<Labels, Histogram> rpc_seconds_;  // service, method.
  uint64_t moves_committed_ = 0;
  std::map<std::string, uint64_t> store_errors_;  // By reason.
  Histogram commit_seconds_;
  Histogram commit_batch_;
  std::map<int, uint64_t> cpu_searches_;  // By level.
  std::map<int, Histogram> cpu_seconds_;  // By level.
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_METRICS_H_
