// Group commit: the one thread that writes a SQLite database.
//
// Callers hand Run() a write transaction (a function of the connection) and
// block. The writer thread takes everything queued, opens one
// BEGIN IMMEDIATE transaction, runs each caller's function inside its own
// SAVEPOINT (a function that fails, e.g. a ply-conditional append that
// lost, is rolled back to its savepoint and writes nothing while the
// others stand), then commits the batch: one fsync for the whole batch
// (synchronous=FULL). Each caller returns only after that commit, with its
// own status. If BEGIN or COMMIT fails, every caller of the batch gets that
// error and nothing of the batch is written.
//
// Without group commit (the old path, kept as a benchmark baseline) each
// Run() is its own transaction, committed on the caller's thread.
//
// Checkpoints: the writer checkpoints the WAL after a commit once it holds
// `checkpoint_pages` frames (PASSIVE, like SQLite's autocheckpoint, which
// this replaces). Under steady reads a passive checkpoint can never finish
// (some reader always holds the snapshot before the last commit), so when
// the WAL has grown to four times that it runs a RESTART checkpoint, which
// waits the moment it takes current readers to finish, so the WAL starts
// over (and journal_size_limit truncates it).
//
// Deadlines: a write still queued when its caller's deadline
// (call_deadline.h) passes leaves the queue, and one the writer reaches
// after it is not run: its caller gets DEADLINE_EXCEEDED at the deadline,
// and it is never written later. One the writer has begun runs to its
// commit (a local disk; its caller waits for it).
//
// Submit() is Run() without the wait, for callers that must not hold a
// thread while a batch commits (gRPC's callback API, issue 28): the write
// is queued and `done` is called with its status on the writer thread
// right after its batch's commit (or on the caller's thread: UNAVAILABLE
// when closing, and every write without group commit). A submitted write
// whose deadline has passed when the writer reaches it is not run and gets
// DEADLINE_EXCEEDED then (no timer answers it earlier: a queued write
// waits for at most the batch before it).
//
// Close() stops taking work (later Run() and Submit() calls get
// UNAVAILABLE), answers everything already queued (committed as usual) and
// joins the thread.
//
// Thread safety: Run() and Submit() may be called from any thread. The
// write function runs on the writer thread (or the caller's, without group
// commit) and must not call back into the writer; so must `done`, which
// must also return quickly (the next batch waits for it).

#ifndef MANCALA_STORAGE_SQLITE_WRITER_H_
#define MANCALA_STORAGE_SQLITE_WRITER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "storage/sqlite_connection.h"
#include "storage/store_metrics.h"

namespace mancala::storage {

class SqliteWriter {
 public:
  // One write transaction. Returning a non-OK status (or throwing
  // SQLite::Exception) undoes everything it wrote.
  using WriteFn = std::function<absl::Status(Connection&)>;

  // `max_batch` bounds the transactions committed together;
  // `checkpoint_pages` 0 turns checkpoints off.
  SqliteWriter(Connection& connection, bool group_commit, int max_batch,
               int checkpoint_pages);
  ~SqliteWriter();  // Close().

  // Called once with a submitted write's status (see above).
  using Done = std::function<void(absl::Status)>;

  absl::Status Run(const WriteFn& fn);
  void Submit(WriteFn fn,
              std::optional<std::chrono::steady_clock::time_point> deadline,
              Done done);
  void Close();

  // Where each commit is reported (one CommitReport per batch); null
  // reports nowhere. Set before the first Run.
  void set_metrics(StoreMetrics* metrics) { metrics_ = metrics; }

  // Counters for tests and benchmarks: commits attempted, transactions run,
  // transactions waiting now.
  struct Stats {
    int64_t batches = 0;
    int64_t transactions = 0;
    int64_t queued = 0;
  };
  Stats stats() const;

 private:
  struct Job {
    const WriteFn* fn = nullptr;
    // Submit(): the job owns its write (fn points at it) and is answered
    // by calling `on_done`, then deleted. Run(): both empty; the caller
    // waits on `answered` and owns the job.
    WriteFn owned_fn;
    Done on_done;
    // The caller's (call_deadline.h): a job still queued when it passes is
    // answered DEADLINE_EXCEEDED and not run.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    absl::Status result;
    // Each caller waits on its own: a commit wakes exactly the callers it
    // answered (a shared condition variable woke every waiter, most of
    // them to sleep again), and the caller cannot return (destroying the
    // job) before the writer has let go of `mu`.
    std::mutex mu;
    std::condition_variable answered;
    bool done = false;  // GUARDED_BY(mu)
  };
  void Loop();
  // Runs `batch` as one transaction and sets every job's result. Requires
  // connection_.mu.
  void RunBatch(std::vector<Job*>& batch);
  void Answer(std::vector<Job*>& batch);
  // After a commit: checkpoints if the WAL is long enough. Requires
  // connection_.mu.
  void MaybeCheckpoint();

  Connection& connection_;
  const bool group_commit_;
  const size_t max_batch_;
  const int checkpoint_pages_;
  StoreMetrics* metrics_ = nullptr;
  int wal_frames_ = 0;  // WAL length after the last commit (wal hook).

  // Guards the queue, closing_ and stats_. Never held with a Job::mu.
  mutable std::mutex mu_;
  std::condition_variable work_cv_;  // Jobs queued, or closing.
  std::deque<Job*> queue_;
  bool closing_ = false;
  Stats stats_;
  std::thread thread_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_SQLITE_WRITER_H_
