#include "services/base/metrics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <utility>

#include "absl/status/status.h"
#include "services/base/build_info.h"

namespace mancala::services {
namespace {

// Bucket bounds, seconds: RPCs from sub-millisecond reads to long streams;
// commits around an fsync; CPU searches up to the largest move budget.
const std::vector<double> kRpcBounds = {0.0005, 0.001, 0.0025, 0.005, 0.01,
                                        0.025,  0.05,  0.1,    0.25,  0.5,
                                        1,      2.5,   5,      10,    60};
const std::vector<double> kCommitBounds = {0.0001, 0.00025, 0.0005, 0.001,
                                           0.0025, 0.005,   0.01,   0.025,
                                           0.05,   0.1,     0.25,   1};
const std::vector<double> kBatchBounds = {1, 2, 4, 8, 16, 32, 64, 128};
const std::vector<double> kCpuBounds = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1,
                                        0.25,  0.5,   1,    2.5,   5,    10};

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// Shortest text that reads back as the same double ("10", "0.0005"), and
// Prometheus' spellings of the infinities.
std::string Number(double v) {
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  // Plain digits where they stay short (bucket bounds, counts, times).
  const double a = std::fabs(v);
  const bool plain = a == 0 || (a >= 1e-6 && a < 1e15);
  auto [end, ec] =
      plain ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
            : std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, ec == std::errc() ? end : buf);
}

// The text format escapes backslash, double quote and newline in values.
std::string Escape(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

using Labels = std::vector<std::pair<std::string, std::string>>;

std::string LabelText(const Labels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) out += ",";
    out += labels[i].first + "=\"" + Escape(labels[i].second) + "\"";
  }
  return out + "}";
}

class Writer {
 public:
  void Family(const std::string& name, const std::string& type,
              const std::string& help) {
    out_ << "# HELP " << name << " " << help << "\n# TYPE " << name << " "
         << type << "\n";
  }
  void Sample(const std::string& name, const Labels& labels, double value) {
    out_ << name << LabelText(labels) << " " << Number(value) << "\n";
  }
  void Histogram(const std::string& name, const Labels& labels,
                 const Metrics::Histogram& h) {
    uint64_t cumulative = 0;
    for (size_t i = 0; i < h.bounds->size(); ++i) {
      cumulative += h.counts[i];
      Labels with_le = labels;
      with_le.emplace_back("le", Number((*h.bounds)[i]));
      Sample(name + "_bucket", with_le, static_cast<double>(cumulative));
    }
    Labels inf = labels;
    inf.emplace_back("le", "+Inf");
    Sample(name + "_bucket", inf, static_cast<double>(h.count));
    Sample(name + "_sum", labels, h.sum);
    Sample(name + "_count", labels, static_cast<double>(h.count));
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

}  // namespace

void Metrics::Histogram::Observe(double value) {
  auto it = std::lower_bound(bounds->begin(), bounds->end(), value);
  if (it != bounds->end()) ++counts[it - bounds->begin()];
  ++count;
  sum += value;
}

Metrics::Metrics(std::string grpc_version)
    : grpc_version_(std::move(grpc_version)),
      start_time_seconds_(
          std::chrono::duration<double>(
              std::chrono::system_clock::now().time_since_epoch())
              .count()),
      commit_seconds_(&kCommitBounds),
      commit_batch_(&kBatchBounds) {
  // Exported at 0 from the start: an alert on a rate needs the series.
  for (const char* reason : storage::kFailureReasons) {
    store_errors_[reason] = 0;
  }
}

void Metrics::SetGaugeSource(std::function<GaugeReadings()> source) {
  std::lock_guard lock(mu_);
  gauges_ = std::move(source);
}

void Metrics::RecordRpc(const std::string& full_method, absl::StatusCode code,
                        std::chrono::steady_clock::duration took) {
  // "/package.Service/Method".
  const size_t slash = full_method.rfind('/');
  const std::string service =
      slash == std::string::npos ? "" : full_method.substr(1, slash - 1);
  const std::string method = full_method.substr(slash + 1);
  const std::string code_name = absl::StatusCodeToString(code);
  std::lock_guard lock(mu_);
  ++rpc_handled_[{{"grpc_service", service},
                  {"grpc_method", method},
                  {"grpc_code", code_name}}];
  Labels key = {{"grpc_service", service}, {"grpc_method", method}};
  rpc_seconds_.try_emplace(key, &kRpcBounds)
      .first->second.Observe(Seconds(took));
}

void Metrics::RecordCpuSearch(int level,
                              std::chrono::steady_clock::duration took) {
  std::lock_guard lock(mu_);
  ++cpu_searches_[level];
  cpu_seconds_.try_emplace(level, &kCpuBounds)
      .first->second.Observe(Seconds(took));
}

void Metrics::OnCommit(const storage::CommitReport& report) {
  std::lock_guard lock(mu_);
  commit_seconds_.Observe(Seconds(report.latency));
  commit_batch_.Observe(report.batch_size);
}

void Metrics::OnMoveCommitted() {
  std::lock_guard lock(mu_);
  ++moves_committed_;
}

void Metrics::OnFailure(const char* /*what*/, const absl::Status& status) {
  const char* reason = storage::FailureReason(status);
  std::lock_guard lock(mu_);
  ++store_errors_[reason != nullptr ? reason : "internal"];
}

std::string Metrics::Render() const {
  std::function<GaugeReadings()> source;
  {
    std::lock_guard lock(mu_);
    source = gauges_;
  }
  // Read outside mu_: the sources take their own locks.
  const GaugeReadings g = source ? source() : GaugeReadings{};

  Writer w;
  std::lock_guard lock(mu_);
  w.Family("grpc_server_handled_total", "counter",
           "RPCs completed on the server, by service, method and status code.");
  for (const auto& [labels, n] : rpc_handled_) {
    w.Sample("grpc_server_handled_total", labels, static_cast<double>(n));
  }
  w.Family("grpc_server_handling_seconds", "histogram",
           "Time from an RPC's arrival to its status (a stream's whole life).");
  for (const auto& [labels, h] : rpc_seconds_) {
    w.Histogram("grpc_server_handling_seconds", labels, h);
  }
  w.Family("mancala_moves_committed_total", "counter",
           "Moves (and resignations) made durable in the store.");
  w.Sample("mancala_moves_committed_total", {},
           static_cast<double>(moves_committed_));
  w.Family("mancala_store_errors_total", "counter",
           "Store calls the database failed, by kind: timeout (no answer "
           "in time), unavailable (lost, refused or locked), full (disk or "
           "memory), data_loss, internal.");
  for (const auto& [reason, n] : store_errors_) {
    w.Sample("mancala_store_errors_total", {{"reason", reason}},
             static_cast<double>(n));
  }
  w.Family("mancala_store_commit_duration_seconds", "histogram",
           "Store commits, from transaction start until durable.");
  w.Histogram("mancala_store_commit_duration_seconds", {}, commit_seconds_);
  w.Family("mancala_store_commit_batch_size", "histogram",
           "Writes made durable by one store commit.");
  w.Histogram("mancala_store_commit_batch_size", {}, commit_batch_);
  w.Family("mancala_live_matches", "gauge",
           "Matches held in memory, by state.");
  for (const auto& [state, n] : g.live_matches_by_state) {
    w.Sample("mancala_live_matches", {{"state", state}}, n);
  }
  w.Family("mancala_watch_streams_open", "gauge", "Open WatchMatch streams.");
  w.Sample("mancala_watch_streams_open", {}, g.watch_streams_open);
  w.Family("mancala_matchmaking_searching_players", "gauge",
           "Players waiting in FindMatch, by game, on every node sharing "
           "the database.");
  for (const auto& [game, n] : g.searching_by_game) {
    w.Sample("mancala_matchmaking_searching_players", {{"game", game}}, n);
  }
  w.Family("mancala_cpu_turns_queued", "gauge",
           "CPU turns waiting for a CPU worker thread.");
  w.Sample("mancala_cpu_turns_queued", {}, g.cpu_turns_queued);
  w.Family("mancala_players_online", "gauge",
           "Players online on every node sharing the database: a stream "
           "open with their token, or a call within the grace period.");
  w.Sample("mancala_players_online", {}, g.players_online);
  w.Family("mancala_cpu_searches_total", "counter",
           "Move searches by the CPU player, by level.");
  for (const auto& [level, n] : cpu_searches_) {
    w.Sample("mancala_cpu_searches_total", {{"level", std::to_string(level)}},
             static_cast<double>(n));
  }
  w.Family("mancala_cpu_search_duration_seconds", "histogram",
           "Time the CPU player searched for one move, by level.");
  for (const auto& [level, h] : cpu_seconds_) {
    w.Histogram("mancala_cpu_search_duration_seconds",
                {{"level", std::to_string(level)}}, h);
  }
  w.Family("mancala_build_info", "gauge",
           "Always 1; the labels tell which build is running.");
  w.Sample("mancala_build_info",
           {{"version", kMancalaVersion},
            {"revision", kMancalaRevision},
            {"grpc_version", grpc_version_}},
           1);
  w.Family("process_start_time_seconds", "gauge",
           "Start time of the process since the Unix epoch, seconds.");
  w.Sample("process_start_time_seconds", {}, start_time_seconds_);
  return w.str();
}

}  // namespace mancala::services
