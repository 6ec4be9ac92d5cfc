// One server per database: an exclusive flock(2) on "<database>.lock",
// held for the lifetime of the DatabaseLock (the process's, for mancalad).
// Two servers on one file would each trust their own cached state and
// refuse each other's moves; the second must not start.
//
// The lock file holds the owner's pid (for the message only: the lock is
// the flock, which the kernel drops when the process dies, kill -9
// included). It is created 0600 and never deleted (deleting it would let a
// third opener lock a new file while the first still runs).

#ifndef MANCALA_STORAGE_DATABASE_LOCK_H_
#define MANCALA_STORAGE_DATABASE_LOCK_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace mancala::storage {

class DatabaseLock {
 public:
  // FAILED_PRECONDITION naming the database, the lock file and the holding
  // pid if another open file (this process or another) holds it;
  // UNAVAILABLE if the lock file cannot be created.
  static absl::StatusOr<std::unique_ptr<DatabaseLock>> Acquire(
      const std::string& database_path);
  ~DatabaseLock();  // Releases the lock.
  DatabaseLock(const DatabaseLock&) = delete;
  DatabaseLock& operator=(const DatabaseLock&) = delete;

  const std::string& path() const { return path_; }

 private:
  DatabaseLock(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_DATABASE_LOCK_H_
