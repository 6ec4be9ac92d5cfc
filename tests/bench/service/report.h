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
  // Server system calls and threads created per OK call (--syscalls);
  // -1: not counted.
  double syscalls_per_call = -1, new_threads_per_call = -1;
};

// The web port's stream phase (--web): `streams` open WatchMatch streams
// through it on one node, the server's threads and resident memory before
// they opened (idle) and with all open, and the moves they missed.
struct WebStreams {
  int streams = 0;
  double threads_idle = 0, threads_open = 0;
  double kib_per_stream = 0;
  double moves_missed = 0;  // (stream, move) pairs never delivered.
};

struct RunResult {
  std::map<std::string, Row> rows;
  double kib_per_match = 0;
  std::string db_fs;  // File system of the on-disk database.
  WebStreams web;     // streams == 0: no --web.
};

// Rows of the web phases (--web): "GetMatch @8 web", "GetMatch @8 native,
// web server", the same of Health/Check, and the delivery rows.
inline constexpr char kWebSuffix[] = "web";
inline constexpr char kNativeBesideWebSuffix[] = "native, web server";
// "Delivery, 500 web watchers" / "Delivery, 500 native watchers".
std::string DeliveryRowName(int watchers, bool web);

struct Header {
  int runs = 0;
  int cores = 0;
  int measure_ms = 0;
  std::string load_before, load_after;
  std::vector<std::string> server_args;
  // --web: the clients of its unary phases and the watchers of its
  // delivery phase (0: no --web).
  int web_clients = 0;
  int web_watchers = 0;
};

// Row suffix of the phases on two mancalad nodes sharing one PostgreSQL
// database ("postgres" alone: one node on it).
inline constexpr char kTwoNodesSuffix[] = "postgres 2 nodes";

// The store alone appending a move's rows with its group commit, on the
// same disk in the same run ("bare group commit @8"; store_load.h).
inline constexpr char kBareCommitRow[] = "bare group commit";

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
