#include "tests/bench/service/perf_counts.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace mancala::bench {

std::unique_ptr<PerfCounts> PerfCounts::Start(pid_t pid) {
  std::unique_ptr<PerfCounts> counts(new PerfCounts());
  std::string name =
      (std::filesystem::temp_directory_path() / "mancala_perf_XXXXXX").string();
  char* path = name.data();
  const int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("perf: no temporary file");
  close(fd);
  counts->out_path_ = path;
  const std::string target = std::to_string(pid);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("perf: fork failed");
  if (child == 0) {
    // CSV (-x,) into the file; perf runs until SIGINT.
    execlp("perf", "perf", "stat", "-x,", "-o", path, "-e",
           "raw_syscalls:sys_enter,sched:sched_process_fork", "-p",
           target.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  counts->perf_ = child;
  return counts;
}

PerfCounts::~PerfCounts() {
  if (perf_ > 0) {
    kill(perf_, SIGINT);
    waitpid(perf_, nullptr, 0);
  }
  if (!out_path_.empty()) unlink(out_path_.c_str());
}

PerfCounts::Counts PerfCounts::Stop() {
  kill(perf_, SIGINT);
  int status = 0;
  waitpid(perf_, &status, 0);
  perf_ = -1;
  std::ifstream in(out_path_);
  std::stringstream text;
  text << in.rdbuf();
  Counts counts;
  bool syscalls = false, threads = false;
  std::string line;
  while (std::getline(text, line)) {
    // "<count>,<unit>,<event>,..." ("<not counted>" when it never ran).
    const size_t first = line.find(',');
    if (first == std::string::npos) continue;
    const size_t second = line.find(',', first + 1);
    if (second == std::string::npos) continue;
    const std::string event =
        line.substr(second + 1, line.find(',', second + 1) - second - 1);
    char* end = nullptr;
    const double value = std::strtod(line.c_str(), &end);
    if (end == line.c_str()) continue;
    if (event == "raw_syscalls:sys_enter") {
      counts.syscalls = value;
      syscalls = true;
    } else if (event == "sched:sched_process_fork") {
      counts.new_threads = value;
      threads = true;
    }
  }
  if (!syscalls || !threads) {
    throw std::runtime_error("perf stat counted nothing (exit status " +
                             std::to_string(status) + "): " + text.str());
  }
  return counts;
}

}  // namespace mancala::bench
