// Closed-loop load: N sessions, each with exactly one call in flight; a
// session starts its next call from the completion of the last one (gRPC's
// callback API, so N calls need no N client threads).
//
// A phase runs for `warmup` then `measure`; calls that complete inside the
// measuring window count, together with the server's CPU time and the most
// threads it had in that window (sampled every 20 ms), when `server` is
// given; with `count_syscalls`, also the system calls it made and the
// threads it created in the window (perf_counts.h; throws without perf).
// Thread-safety: Run() from one thread; sessions are called from gRPC's
// callback threads, one call at a time per session.

#ifndef MANCALA_TESTS_BENCH_SERVICE_CLOSED_LOOP_H_
#define MANCALA_TESTS_BENCH_SERVICE_CLOSED_LOOP_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "tests/bench/service/server_process.h"

namespace mancala::bench {

// What one call of a session was: `counted` false for bookkeeping calls
// (making a new match when one ended), which are neither timed nor counted.
struct CallOutcome {
  bool counted = true;
  grpc::StatusCode code = grpc::StatusCode::OK;
};

class Session {
 public:
  virtual ~Session() = default;
  // Starts one call; `done` is called once when it completes.
  virtual void Call(std::function<void(CallOutcome)> done) = 0;
};

struct PhaseResult {
  int64_t calls = 0;  // Counted calls answered OK in the window.
  // Calls answered with an error in the window, counted or not.
  std::map<grpc::StatusCode, int64_t> errors;
  double seconds = 0;                // Length of the window.
  double cpu_seconds = 0;            // Server CPU in the window.
  int max_threads = 0;               // Server threads, most seen in the window.
  std::vector<double> latencies_ms;  // Counted OK calls, sorted.
  // Server system calls and threads created in the window; -1: not
  // counted.
  double syscalls = -1, new_threads = -1;

  double qps() const { return seconds > 0 ? calls / seconds : 0; }
  double Percentile(double p) const;
  double cpu_us_per_call() const {
    return calls > 0 ? 1e6 * cpu_seconds / calls : 0;
  }
};

PhaseResult RunClosedLoop(std::vector<std::unique_ptr<Session>>& sessions,
                          std::chrono::milliseconds warmup,
                          std::chrono::milliseconds measure,
                          const ServerProcess* server,
                          bool count_syscalls = false);
// The same with several servers (nodes) taking the calls: CPU and threads
// are their sums.
PhaseResult RunClosedLoop(std::vector<std::unique_ptr<Session>>& sessions,
                          std::chrono::milliseconds warmup,
                          std::chrono::milliseconds measure,
                          const std::vector<const ServerProcess*>& servers,
                          bool count_syscalls = false);

}  // namespace mancala::bench

#endif  // MANCALA_TESTS_BENCH_SERVICE_CLOSED_LOOP_H_
