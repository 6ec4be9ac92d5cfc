#include "storage/database_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mancala::storage {

absl::StatusOr<std::unique_ptr<DatabaseLock>> DatabaseLock::Acquire(
    const std::string& database_path) {
  std::string path = database_path + ".lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::UnavailableError("cannot create lock file " + path + ": " +
                                  std::strerror(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char buf[32] = {};
    ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
    ::close(fd);
    std::string holder = n > 0 ? std::string(buf, n) : "";
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' '))
      holder.pop_back();
    if (err != EWOULDBLOCK) {
      return absl::UnavailableError("cannot lock " + path + ": " +
                                    std::strerror(err));
    }
    return absl::FailedPreconditionError(
        "database " + database_path + " is in use by another server: " + path +
        " is locked by pid " + (holder.empty() ? "unknown" : holder) +
        " (one mancalad per database)");
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) !=
                                     static_cast<ssize_t>(pid.size())) {
    // The pid is only for messages; the flock is what counts.
  }
  return std::unique_ptr<DatabaseLock>(new DatabaseLock(std::move(path), fd));
}

DatabaseLock::~DatabaseLock() { ::close(fd_); }

}  // namespace mancala::storage
