// The service benchmark's results and its one table: every phase's QPS,
// latency, server CPU per call and threads (median of the runs), then each
// ratio against its goal (README "The service from outside").

#ifndef MANCALA_TESTS_BENCH_SERVICE_REPORT_H_
#define MANCALA_TESTS_BENCH_SERVICE_REPORT_H_

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace mancala::bench {

struct Row {
  double concurrency = 0;
  double calls = 0;   // Answered OK in the measuring window.
  double errors = 0;  // Answered with an error in the window.
  double qps = 0;
  double p50_ms = 0, p99_ms = 0;
  double cpu_us = 0;   // Server CPU (user + system) per OK call.
  double threads = 0;  // Server threads, most seen.
};

struct RunResult {
  std::map<std::string, Row> rows;
  double kib_per_match = 0;
  std::string db_fs;  // File system of the on-disk database.
};

struct Header {
  int runs = 0;
  int cores = 0;
  int measure_ms = 0;
  std::string load_before, load_after;
  std::vector<std::string> server_args;
};

// Row suffix of the phases on two mancalad nodes sharing one PostgreSQL
// database ("postgres" alone: one node on it).
inline constexpr char kTwoNodesSuffix[] = "postgres 2 nodes";

// "SubmitMove @64", "Health/Check @8 tmpfs".
std::string RowName(const std::string& call, int concurrency,
                    const std::string& suffix);
// "SubmitMove, 100 watchers".
std::string WatchRowName(int watchers);

void PrintReport(const Header& header, const std::vector<int>& levels,
                 const std::vector<int>& watcher_levels, bool tmpfs,
                 const std::vector<RunResult>& runs, std::ostream& out);

}  // namespace mancala::bench

#endif  // MANCALA_TESTS_BENCH_SERVICE_REPORT_H_
