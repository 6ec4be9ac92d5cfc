// A process's system calls and new threads over a window, counted by the
// kernel's tracepoints through `perf stat` (Debian's linux-perf):
// raw_syscalls:sys_enter (every system call entered) and
// sched:sched_process_fork (every process or thread created). For
// service_bench --syscalls: per call = count / calls answered in the window.
//
// Start() runs `perf stat -p PID` until Stop(), which interrupts it and reads
// its counts. perf attaches within a few milliseconds of Start(), so a 4 s
// window is counted to within a fraction of a per cent.
// Thread-safety: one object per thread.

#ifndef MANCALA_TESTS_BENCH_SERVICE_PERF_COUNTS_H_
#define MANCALA_TESTS_BENCH_SERVICE_PERF_COUNTS_H_

#include <sys/types.h>

#include <memory>
#include <string>

namespace mancala::bench {

class PerfCounts {
 public:
  // Throws std::runtime_error if perf cannot be started.
  static std::unique_ptr<PerfCounts> Start(pid_t pid);
  ~PerfCounts();  // Stops perf if Stop() was not called.

  struct Counts {
    double syscalls = 0;
    double new_threads = 0;
  };
  // Throws std::runtime_error if perf did not count both (no perf, no
  // permission for the tracepoints: its output is in the message).
  Counts Stop();

 private:
  PerfCounts() = default;
  pid_t perf_ = -1;
  std::string out_path_;
};

}  // namespace mancala::bench

#endif  // MANCALA_TESTS_BENCH_SERVICE_PERF_COUNTS_H_
