// SqliteWriter::Submit (storage/sqlite_writer.h): the writer answers a
// submitted write by calling its `done` after its batch's commit, on the
// writer thread, once; a write that fails is rolled back to its savepoint
// while the batch stands; a write reached after its deadline is not run;
// closing answers what is queued and refuses what comes after.
//
// As in group_commit_test.cc, an outside connection holding the write lock
// (BEGIN IMMEDIATE) makes the submitted writes queue up into one batch.

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "storage/sqlite_writer.h"
#include "tests/storage/store_test_fixture.h"

namespace mancala::storage {
namespace {

using Clock = std::chrono::steady_clock;

// What one `done` saw.
struct Answer {
  absl::Status status;
  std::thread::id thread;
  int64_t rows_seen = -1;  // Rows of t committed, read from outside.
  int calls = 0;
};

class WriterSubmitTest : public StoreFileTest {
 protected:
  void SetUp() override {
    StoreFileTest::SetUp();
    auto db = std::make_unique<SQLite::Database>(
        path_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db->exec("PRAGMA journal_mode=WAL");
    db->exec("CREATE TABLE t (x INTEGER PRIMARY KEY)");
    db->setBusyTimeout(20'000);  // The batch waits for the test.
    connection_ = std::make_unique<Connection>(std::move(db));
    outside_ =
        std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READWRITE);
    reader_ = std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READONLY);
  }
  void TearDown() override {
    writer_.reset();
    connection_.reset();
    StoreFileTest::TearDown();
  }

  void StartWriter(bool group_commit) {
    writer_ = std::make_unique<SqliteWriter>(*connection_, group_commit,
                                             /*max_batch=*/128,
                                             /*checkpoint_pages=*/0);
  }

  // A write that inserts `x`, or fails after inserting it.
  static SqliteWriter::WriteFn Insert(int x, bool fail = false) {
    return [x, fail](Connection& c) {
      c.db().exec("INSERT INTO t VALUES (" + std::to_string(x) + ")");
      return fail ? absl::AbortedError("refused") : absl::OkStatus();
    };
  }

  // Submits `fn`; its answer goes to answers_[slot].
  void Submit(int slot, SqliteWriter::WriteFn fn,
              std::optional<Clock::time_point> deadline = std::nullopt) {
    writer_->Submit(std::move(fn), deadline, [this, slot](absl::Status s) {
      std::lock_guard lock(mu_);
      Answer& a = answers_[slot];
      a.status = std::move(s);
      a.thread = std::this_thread::get_id();
      a.rows_seen = reader_->execAndGet("SELECT COUNT(*) FROM t").getInt64();
      ++a.calls;
      ++answered_;
    });
  }

  bool WaitAnswered(int n) {
    return WaitFor([&] {
      std::lock_guard lock(mu_);
      return answered_ >= n;
    });
  }

  std::unique_ptr<Connection> connection_;
  std::unique_ptr<SqliteWriter> writer_;
  std::unique_ptr<SQLite::Database> outside_;
  std::unique_ptr<SQLite::Database> reader_;  // Used by `done` only.
  std::mutex mu_;
  Answer answers_[8];
  int answered_ = 0;
};

TEST_F(WriterSubmitTest, DoneComesAfterTheCommitOnTheWriterThreadOnce) {
  StartWriter(true);
  outside_->exec("BEGIN IMMEDIATE");
  Submit(0, Insert(1));
  Submit(1, Insert(2, /*fail=*/true));
  Submit(2, Insert(3));
  ASSERT_TRUE(WaitFor([&] { return writer_->stats().queued == 3; }));
  {
    std::lock_guard lock(mu_);
    EXPECT_EQ(answered_, 0);  // Nothing is answered before its commit.
  }
  outside_->exec("ROLLBACK");
  ASSERT_TRUE(WaitAnswered(3));
  writer_->Close();
  std::lock_guard lock(mu_);
  EXPECT_EQ(answered_, 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(answers_[i].calls, 1) << i;
    EXPECT_NE(answers_[i].thread, std::this_thread::get_id()) << i;
    // Committed before `done`: the two writes that stood are visible.
    EXPECT_EQ(answers_[i].rows_seen, 2) << i;
  }
  EXPECT_TRUE(answers_[0].status.ok()) << answers_[0].status;
  EXPECT_TRUE(absl::IsAborted(answers_[1].status)) << answers_[1].status;
  EXPECT_TRUE(answers_[2].status.ok()) << answers_[2].status;
  EXPECT_EQ(reader_->execAndGet("SELECT group_concat(x) FROM t").getString(),
            "1,3");
  const SqliteWriter::Stats stats = writer_->stats();
  EXPECT_EQ(stats.batches, 1);
  EXPECT_EQ(stats.transactions, 3);
}

TEST_F(WriterSubmitTest, AWriteReachedAfterItsDeadlineIsNotRun) {
  StartWriter(true);
  outside_->exec("BEGIN IMMEDIATE");
  Submit(0, Insert(1), Clock::now() + std::chrono::milliseconds(20));
  Submit(1, Insert(2), Clock::now() + std::chrono::seconds(60));
  ASSERT_TRUE(WaitFor([&] { return writer_->stats().queued == 2; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  outside_->exec("ROLLBACK");
  ASSERT_TRUE(WaitAnswered(2));
  std::lock_guard lock(mu_);
  EXPECT_TRUE(absl::IsDeadlineExceeded(answers_[0].status))
      << answers_[0].status;
  EXPECT_TRUE(answers_[1].status.ok()) << answers_[1].status;
  EXPECT_EQ(reader_->execAndGet("SELECT group_concat(x) FROM t").getString(),
            "2");
}

TEST_F(WriterSubmitTest, CloseAnswersWhatIsQueuedAndRefusesWhatComesAfter) {
  StartWriter(true);
  outside_->exec("BEGIN IMMEDIATE");
  Submit(0, Insert(1));
  ASSERT_TRUE(WaitFor([&] { return writer_->stats().queued == 1; }));
  std::thread closer([&] { writer_->Close(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  outside_->exec("ROLLBACK");
  closer.join();
  Submit(1, Insert(2));  // Answered on this thread, before Submit returns.
  std::lock_guard lock(mu_);
  EXPECT_EQ(answered_, 2);
  EXPECT_TRUE(answers_[0].status.ok()) << answers_[0].status;
  EXPECT_TRUE(absl::IsUnavailable(answers_[1].status)) << answers_[1].status;
  EXPECT_EQ(answers_[1].thread, std::this_thread::get_id());
  EXPECT_EQ(reader_->execAndGet("SELECT group_concat(x) FROM t").getString(),
            "1");
}

TEST_F(WriterSubmitTest, WithoutGroupCommitDoneIsCalledBeforeSubmitReturns) {
  StartWriter(false);
  Submit(0, Insert(7));
  std::lock_guard lock(mu_);
  EXPECT_EQ(answers_[0].calls, 1);
  EXPECT_TRUE(answers_[0].status.ok()) << answers_[0].status;
  EXPECT_EQ(answers_[0].thread, std::this_thread::get_id());
  EXPECT_EQ(answers_[0].rows_seen, 1);
}

}  // namespace
}  // namespace mancala::storage
