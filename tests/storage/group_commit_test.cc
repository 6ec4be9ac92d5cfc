// The writer's group commit (storage/sqlite_writer.h): writes queued
// together share one transaction yet keep their own results; a failed
// commit fails every caller of the batch and writes nothing; closing
// answers everyone queued.
//
// To make a batch on purpose, an outside connection holds the write lock
// (BEGIN IMMEDIATE) while the callers queue; the writer's BEGIN waits (busy
// timeout), and once the lock is released it takes all of them at once.

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "storage/call_deadline.h"
#include "storage/store_metrics.h"
#include "tests/storage/store_test_fixture.h"

namespace mancala::storage {
namespace {

class GroupCommitTest : public StoreFileTest {
 protected:
  void SetUp() override {
    StoreFileTest::SetUp();
    SqliteStoreOptions options;
    options.busy_timeout_ms = 20'000;  // The batch waits for the test.
    store_ = Open(options);
    for (const char* id : {"m0", "m1", "m2", "m3"}) {
      ASSERT_TRUE(store_->CreateMatch(SampleMatch(id)).ok());
    }
    outside_ =
        std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READWRITE);
  }

  // Runs `appends` concurrently as one batch; returns their statuses.
  std::vector<absl::Status> AppendAsOneBatch(const std::vector<MoveRow>& rows) {
    const SqliteWriter::Stats before = store_->writer_stats();
    outside_->exec("BEGIN IMMEDIATE");
    std::vector<absl::Status> results(rows.size());
    std::vector<std::thread> callers;
    for (size_t i = 0; i < rows.size(); ++i) {
      callers.emplace_back(
          [&, i] { results[i] = store_->AppendMove(rows[i], {}); });
    }
    EXPECT_TRUE(WaitFor([&] {
      return store_->writer_stats().queued == static_cast<int64_t>(rows.size());
    }));
    outside_->exec("ROLLBACK");
    for (auto& t : callers) t.join();
    const SqliteWriter::Stats after = store_->writer_stats();
    EXPECT_EQ(after.batches - before.batches, 1);
    EXPECT_EQ(after.transactions - before.transactions,
              static_cast<int64_t>(rows.size()));
    return results;
  }

  int64_t Ply(const std::string& id) { return store_->GetMatch(id)->ply; }
  size_t MoveCount(const std::string& id) {
    return store_->ListMoves(id, 1, 100)->size();
  }

  std::unique_ptr<SqliteStore> store_;
  std::unique_ptr<SQLite::Database> outside_;
};

TEST_F(GroupCommitTest, OnlyTheAppendThatLostItsPlyIsAborted) {
  auto results = AppendAsOneBatch({Move(1, 0, 1, "m0"), Move(1, 0, 2, "m0"),
                                   Move(1, 0, 3, "m1"), Move(5, 0, 4, "m2")});
  // Two appends raced for ply 1 of m0: exactly one won.
  ASSERT_NE(results[0].ok(), results[1].ok()) << results[0] << results[1];
  const int winner_pit = results[0].ok() ? 1 : 2;
  EXPECT_TRUE(absl::IsAborted(results[0].ok() ? results[1] : results[0]));
  EXPECT_TRUE(results[2].ok()) << results[2];
  EXPECT_TRUE(absl::IsAborted(results[3])) << results[3];
  EXPECT_EQ(Ply("m0"), 1);
  ASSERT_EQ(MoveCount("m0"), 1u);
  EXPECT_EQ(store_->ListMoves("m0", 1, 10)->at(0).pit, winner_pit);
  EXPECT_EQ(Ply("m1"), 1);
  EXPECT_EQ(store_->ListMoves("m1", 1, 10)->at(0).pit, 3);
  EXPECT_EQ(Ply("m2"), 0);  // The loser wrote nothing.
  EXPECT_EQ(MoveCount("m2"), 0u);
}

TEST_F(GroupCommitTest, AFailedCommitFailsEveryCallerAndWritesNothing) {
  // A deferred foreign key is checked only at COMMIT: a move with pit 99
  // makes the whole batch's commit fail, after every statement succeeded.
  outside_->exec(
      "CREATE TABLE poison (match_id TEXT REFERENCES matches (id) "
      "DEFERRABLE INITIALLY DEFERRED);"
      "CREATE TRIGGER poison_move AFTER INSERT ON moves WHEN NEW.pit = 99 "
      "BEGIN INSERT INTO poison VALUES ('no such match'); END;");
  auto results = AppendAsOneBatch(
      {Move(1, 0, 1, "m0"), Move(1, 0, 99, "m1"), Move(1, 0, 3, "m2")});
  for (const absl::Status& s : results) {
    EXPECT_TRUE(absl::IsInternal(s)) << s;
    EXPECT_NE(s.message().find("FOREIGN KEY"), std::string::npos) << s;
  }
  for (const char* id : {"m0", "m1", "m2"}) {
    EXPECT_EQ(Ply(id), 0) << id;
    EXPECT_EQ(MoveCount(id), 0u) << id;
  }
  // The writer is not wedged: the next writes commit.
  EXPECT_TRUE(store_->AppendMove(Move(1, 0, 1, "m0"), {}).ok());
  EXPECT_TRUE(store_->AppendMove(Move(1, 0, 2, "m1"), {}).ok());
  EXPECT_EQ(Ply("m0"), 1);
  EXPECT_EQ(Ply("m1"), 1);
}

TEST_F(GroupCommitTest, CloseAnswersEveryQueuedCaller) {
  outside_->exec("BEGIN IMMEDIATE");
  const std::vector<std::string> ids = {"m0", "m1", "m2", "m3"};
  std::vector<absl::Status> results(ids.size());
  std::vector<std::thread> callers;
  for (size_t i = 0; i < ids.size(); ++i) {
    callers.emplace_back(
        [&, i] { results[i] = store_->AppendMove(Move(1, 0, 2, ids[i]), {}); });
  }
  ASSERT_TRUE(WaitFor([&] { return store_->writer_stats().queued == 4; }));
  std::thread closer([&] { store_->Close(); });
  outside_->exec("ROLLBACK");
  closer.join();
  for (auto& t : callers) t.join();
  for (size_t i = 0; i < ids.size(); ++i) {
    EXPECT_TRUE(results[i].ok()) << ids[i] << ": " << results[i];
    EXPECT_EQ(Ply(ids[i]), 1) << ids[i];  // Reads still work.
  }
  absl::Status late = store_->AppendMove(Move(2, 1, 0, "m0"), {});
  EXPECT_TRUE(absl::IsUnavailable(late)) << late;
}

// Records the failures a store reports (store_metrics.h).
class FailureLog final : public StoreMetrics {
 public:
  void OnCommit(const CommitReport&) override {}
  void OnMoveCommitted() override {}
  void OnFailure(const char* what, const absl::Status& status) override {
    std::lock_guard lock(mu);
    lines.push_back(std::string(what) + " " + FailureReason(status));
  }
  std::mutex mu;
  std::vector<std::string> lines;
};

// A caller that gives up while its write waits in the queue (the writer
// is held up by another process's lock) is told DEADLINE_EXCEEDED at its
// deadline, while the lock is still held, and the write is never made
// later; the other queued write commits once the lock goes. The store
// reports the failure as a timeout.
TEST_F(GroupCommitTest, AWriteWhoseDeadlinePassedInTheQueueIsNeverMade) {
  FailureLog failures;
  store_->set_metrics(&failures);
  outside_->exec("BEGIN IMMEDIATE");
  absl::Status patient;
  std::thread waiting(
      [&] { patient = store_->AppendMove(Move(1, 0, 3, "m1"), {}); });
  ASSERT_TRUE(WaitFor([&] { return store_->writer_stats().queued == 1; }));
  const auto start = std::chrono::steady_clock::now();
  absl::Status late;
  {
    const CallDeadline deadline(start + std::chrono::milliseconds(300));
    late = store_->AppendMove(Move(1, 0, 2, "m0"), {});
  }
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(store_->writer_stats().queued, 1);  // It left the queue.
  outside_->exec("ROLLBACK");
  waiting.join();
  EXPECT_TRUE(absl::IsDeadlineExceeded(late)) << late;
  EXPECT_NE(late.message().find("nothing was written"), std::string::npos);
  EXPECT_GE(took, std::chrono::milliseconds(250));
  EXPECT_TRUE(patient.ok()) << patient;
  EXPECT_EQ(Ply("m0"), 0);
  EXPECT_EQ(MoveCount("m0"), 0u);
  EXPECT_EQ(Ply("m1"), 1);
  std::lock_guard lock(failures.mu);
  EXPECT_EQ(failures.lines, std::vector<std::string>{"append move timeout"});
  store_->set_metrics(nullptr);
}

TEST_F(GroupCommitTest, WithoutGroupCommitEachWriteIsItsOwnTransaction) {
  store_.reset();
  SqliteStoreOptions options;
  options.group_commit = false;
  store_ = Open(options);
  ASSERT_TRUE(store_->AppendMove(Move(1, 0, 1, "m0"), {}).ok());
  EXPECT_TRUE(absl::IsAborted(store_->AppendMove(Move(1, 0, 2, "m0"), {})));
  ASSERT_TRUE(store_->AppendMove(Move(2, 1, 0, "m0"), {}).ok());
  EXPECT_EQ(store_->writer_stats().batches, 3);
  EXPECT_EQ(Ply("m0"), 2);
}

}  // namespace
}  // namespace mancala::storage
