// A real `mancalad` started by the service benchmark, and what /proc tells
// about it while it runs.
//
// Start() runs the binary on 127.0.0.1 port 0 with a fresh database in a new
// temporary folder under `db_dir`, and reads the port back from the line the
// server logs ("listening on port N"; with --web-listen among the
// arguments also "web port on port N"). The destructor stops the server
// (SIGTERM, then SIGKILL after 10 s) and removes the folder.
// Thread-safety: Stats() may be called from any thread.

#ifndef MANCALA_TESTS_BENCH_SERVICE_SERVER_PROCESS_H_
#define MANCALA_TESTS_BENCH_SERVICE_SERVER_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace mancala::bench {

// One look at /proc/<pid>: CPU time used so far (user + system, seconds;
// clock-tick resolution), threads now, resident memory now (KiB).
struct ProcStats {
  double cpu_seconds = 0;
  int threads = 0;
  long rss_kib = 0;
};

class ServerProcess {
 public:
  // Throws std::runtime_error if the server does not say its port within
  // 30 s (the log is in the message).
  static std::unique_ptr<ServerProcess> Start(
      const std::string& binary, const std::string& db_dir,
      const std::vector<std::string>& extra_args);
  ~ServerProcess();

  int port() const { return port_; }
  int web_port() const { return web_port_; }  // 0 without --web-listen.
  pid_t pid() const { return pid_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  // The file system type of the database folder ("ext4", "tmpfs", ...).
  const std::string& db_fs() const { return db_fs_; }
  ProcStats Stats() const;

 private:
  ServerProcess() = default;
  pid_t pid_ = -1;
  int port_ = 0;
  int web_port_ = 0;
  std::string dir_;
  std::string db_fs_;
};

}  // namespace mancala::bench

#endif  // MANCALA_TESTS_BENCH_SERVICE_SERVER_PROCESS_H_
