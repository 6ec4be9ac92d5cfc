#include "tests/bench/service/server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace mancala::bench {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string FsType(const std::string& dir) {
  struct statfs s {};
  if (statfs(dir.c_str(), &s) != 0) return "unknown";
  switch (s.f_type) {
    case 0x01021994:
      return "tmpfs";
    case 0xEF53:
      return "ext2/3/4";
    case 0x58465342:
      return "xfs";
    case 0x9123683E:
      return "btrfs";
    case 0x794c7630:
      return "overlayfs";
    default:
      return "fs 0x" + [&] {
        std::stringstream h;
        h << std::hex << s.f_type;
        return h.str();
      }();
  }
}

}  // namespace

std::unique_ptr<ServerProcess> ServerProcess::Start(
    const std::string& binary, const std::string& db_dir,
    const std::vector<std::string>& extra_args) {
  std::string templ = db_dir + "/mancala-bench-XXXXXX";
  if (mkdtemp(templ.data()) == nullptr) {
    throw std::runtime_error("cannot make a temporary folder in " + db_dir);
  }
  std::unique_ptr<ServerProcess> p(new ServerProcess);
  p->dir_ = templ;
  p->db_fs_ = FsType(templ);
  const std::string log = templ + "/mancalad.log";
  std::vector<std::string> args = {binary, "--listen", "127.0.0.1:0", "--db",
                                   templ + "/bench.db"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const int rc = posix_spawn(&p->pid_, binary.c_str(), &actions, nullptr,
                             argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    p->pid_ = -1;
    throw std::runtime_error("cannot start " + binary);
  }
  const std::regex port_line("listening on port ([0-9]+)");
  // With --web-listen, the web port's line follows the gRPC port's.
  const bool web =
      std::find(args.begin(), args.end(), "--web-listen") != args.end();
  const std::regex web_line("web port on port ([0-9]+)");
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    std::smatch m;
    const std::string text = ReadFile(log);
    std::smatch w;
    if (std::regex_search(text, m, port_line) &&
        (!web || std::regex_search(text, w, web_line))) {
      p->port_ = std::stoi(m[1]);
      if (web) p->web_port_ = std::stoi(w[1]);
      return p;
    }
    int status = 0;
    if (waitpid(p->pid_, &status, WNOHANG) == p->pid_) {
      p->pid_ = -1;
      throw std::runtime_error("mancalad exited at start:\n" + text);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("mancalad did not say its port within 30 s:\n" +
                           ReadFile(log));
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

ProcStats ServerProcess::Stats() const {
  ProcStats s;
  const std::string proc = "/proc/" + std::to_string(pid_);
  // Fields after the command name (which may hold spaces): state is field
  // 3, utime and stime are fields 14 and 15 (proc(5)).
  const std::string stat = ReadFile(proc + "/stat");
  const size_t paren = stat.rfind(')');
  if (paren != std::string::npos) {
    std::istringstream in(stat.substr(paren + 2));
    std::string field;
    long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && in >> field; ++i) {
      if (i == 14) utime = std::stoll(field);
      if (i == 15) stime = std::stoll(field);
    }
    s.cpu_seconds = static_cast<double>(utime + stime) / sysconf(_SC_CLK_TCK);
  }
  std::istringstream status(ReadFile(proc + "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) s.threads = std::stoi(line.substr(8));
    if (line.rfind("VmRSS:", 0) == 0) s.rss_kib = std::stol(line.substr(6));
  }
  return s;
}

}  // namespace mancala::bench
