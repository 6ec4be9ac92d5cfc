#include "storage/sqlite_writer.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "storage/call_deadline.h"

namespace mancala::storage {
namespace {

// A failed COMMIT is the database's failure, whatever SQLite calls it (a
// deferred constraint reports SQLITE_CONSTRAINT): INTERNAL, or UNAVAILABLE
// when it was a lock.
absl::Status CommitError(const SQLite::Exception& e) {
  absl::Status s = FromException(e, "commit");
  if (absl::IsAlreadyExists(s)) return absl::InternalError(s.message());
  return s;
}

absl::Status DeadlineExceeded() {
  return absl::DeadlineExceededError(
      "the call's deadline passed while its write waited for the writer; "
      "nothing was written");
}

}  // namespace

SqliteWriter::SqliteWriter(Connection& connection, bool group_commit,
                           int max_batch, int checkpoint_pages)
    : connection_(connection),
      group_commit_(group_commit),
      max_batch_(max_batch > 0 ? max_batch : 1),
      checkpoint_pages_(checkpoint_pages) {
  // Replaces SQLite's autocheckpoint (itself a wal hook): only counts here,
  // the checkpoint runs after COMMIT has returned.
  sqlite3_wal_hook(
      connection_.db().getHandle(),
      [](void* self, sqlite3*, const char*, int frames) {
        static_cast<SqliteWriter*>(self)->wal_frames_ = frames;
        return SQLITE_OK;
      },
      this);
  if (group_commit_) thread_ = std::thread([this] { Loop(); });
}

SqliteWriter::~SqliteWriter() {
  Close();
  sqlite3_wal_hook(connection_.db().getHandle(), nullptr, nullptr);
}

void SqliteWriter::Close() {
  {
    std::lock_guard lock(mu_);
    closing_ = true;
  }
  work_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  // Without group commit a caller may still be inside its transaction.
  std::lock_guard wait_for_callers(connection_.mu);
}

SqliteWriter::Stats SqliteWriter::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

absl::Status SqliteWriter::Run(const WriteFn& fn) {
  Job job;
  job.fn = &fn;
  job.deadline = CallDeadline::Current();
  std::unique_lock lock(mu_);
  if (closing_) return absl::UnavailableError("the store is closing");
  if (!group_commit_) {
    lock.unlock();
    std::vector<Job*> batch = {&job};
    {
      std::lock_guard conn(connection_.mu);
      RunBatch(batch);
    }
    Answer(batch);
    return job.result;
  }
  queue_.push_back(&job);
  ++stats_.queued;
  lock.unlock();
  work_cv_.notify_one();
  auto done = [&job] { return job.done; };
  std::unique_lock wait(job.mu);
  if (job.deadline && !job.answered.wait_until(wait, *job.deadline, done)) {
    // Still queued: it leaves the queue and is never written. Taken into a
    // batch already: it is being written, and the commit is near.
    wait.unlock();
    lock.lock();
    auto queued = std::find(queue_.begin(), queue_.end(), &job);
    if (queued != queue_.end()) {
      queue_.erase(queued);
      --stats_.queued;
      return DeadlineExceeded();
    }
    lock.unlock();
    wait.lock();
  }
  job.answered.wait(wait, done);
  return job.result;
}

void SqliteWriter::Submit(
    WriteFn fn, std::optional<std::chrono::steady_clock::time_point> deadline,
    Done done) {
  auto job = std::make_unique<Job>();
  job->owned_fn = std::move(fn);
  job->fn = &job->owned_fn;
  job->deadline = deadline;
  job->on_done = std::move(done);
  std::unique_lock lock(mu_);
  if (closing_) {
    lock.unlock();
    job->on_done(absl::UnavailableError("the store is closing"));
    return;
  }
  if (!group_commit_) {
    lock.unlock();
    std::vector<Job*> batch = {job.release()};
    {
      std::lock_guard conn(connection_.mu);
      RunBatch(batch);
    }
    Answer(batch);
    return;
  }
  queue_.push_back(job.release());
  ++stats_.queued;
  lock.unlock();
  work_cv_.notify_one();
}

void SqliteWriter::Loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [this] { return !queue_.empty() || closing_; });
    if (queue_.empty()) return;  // Closing, and everyone was answered.
    // Take the batch only once the write lock is ours: whoever queues while
    // BEGIN waits (another process's lock, the previous fsync) joins it.
    std::vector<Job*> batch;
    lock.unlock();
    {
      std::lock_guard conn(connection_.mu);
      RunBatch(batch);
    }
    Answer(batch);
    lock.lock();
  }
}

void SqliteWriter::RunBatch(std::vector<Job*>& batch) {
  absl::Status batch_status;
  const CommitTimer timer(metrics_);
  try {
    connection_.Prepare("BEGIN IMMEDIATE")->exec();
  } catch (const SQLite::Exception& e) {
    batch_status = FromException(e, "begin write transaction");
  }
  if (batch.empty()) {  // Group commit: take what is queued now.
    std::lock_guard lock(mu_);
    while (!queue_.empty() && batch.size() < max_batch_) {
      batch.push_back(queue_.front());
      queue_.pop_front();
      --stats_.queued;
    }
  }
  sqlite3* handle = connection_.db().getHandle();
  for (Job* job : batch) {
    if (!batch_status.ok()) break;
    if (job->deadline && std::chrono::steady_clock::now() >= *job->deadline) {
      // Its caller is giving up: writing it now would do what the caller
      // is told has not happened.
      job->result = DeadlineExceeded();
      continue;
    }
    absl::Status s;
    try {
      connection_.Prepare("SAVEPOINT txn")->exec();
      s = (*job->fn)(connection_);
    } catch (const SQLite::Exception& e) {
      s = FromException(e, "write");
    } catch (const std::exception& e) {
      s = absl::InternalError(std::string("write failed: ") + e.what());
    }
    if (sqlite3_get_autocommit(handle)) {
      // SQLite rolled the whole transaction back (I/O error, disk full):
      // the batch so far is gone with it.
      batch_status =
          s.ok() ? absl::InternalError("write transaction rolled back") : s;
      break;
    }
    try {
      if (!s.ok()) connection_.Prepare("ROLLBACK TO txn")->exec();
      connection_.Prepare("RELEASE txn")->exec();
    } catch (const SQLite::Exception& e) {
      batch_status = FromException(e, "savepoint");
      break;
    }
    job->result = std::move(s);
  }
  if (batch_status.ok()) {
    try {
      connection_.Prepare("COMMIT")->exec();
    } catch (const SQLite::Exception& e) {
      batch_status = CommitError(e);
    }
  }
  if (batch_status.ok()) {
    timer.Done(static_cast<int>(batch.size()));
    MaybeCheckpoint();
    return;
  }
  if (!sqlite3_get_autocommit(handle)) {
    sqlite3_exec(handle, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  for (Job* job : batch) job->result = batch_status;
}

void SqliteWriter::MaybeCheckpoint() {
  if (checkpoint_pages_ <= 0 || wal_frames_ < checkpoint_pages_) return;
  const int mode = wal_frames_ >= 4 * checkpoint_pages_
                       ? SQLITE_CHECKPOINT_RESTART
                       : SQLITE_CHECKPOINT_PASSIVE;
  // SQLITE_BUSY (a reader outlasted the busy timeout) is no error: the
  // next commit tries again.
  sqlite3_wal_checkpoint_v2(connection_.db().getHandle(), nullptr, mode,
                            nullptr, nullptr);
}

void SqliteWriter::Answer(std::vector<Job*>& batch) {
  {
    std::lock_guard lock(mu_);
    ++stats_.batches;
    stats_.transactions += static_cast<int64_t>(batch.size());
  }
  for (Job* job : batch) {
    if (job->on_done) {  // Submit(): ours to delete once answered.
      std::unique_ptr<Job> owned(job);
      owned->on_done(std::move(owned->result));
      continue;
    }
    // Notified under the job's lock: its caller may destroy it as soon as
    // it gets the lock back.
    std::lock_guard lock(job->mu);
    job->done = true;
    job->answered.notify_one();
  }
}

}  // namespace mancala::storage
