// SubmitMove while another process (the sqlite3 shell, a backup) holds the
// database's write lock: a brief lock delays the move, which then succeeds;
// a lock past --db-busy-timeout-ms answers UNAVAILABLE, and the same move
// sent again afterwards succeeds (nothing was left half-done).

#include <SQLiteCpp/SQLiteCpp.h>

#include <thread>

#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

class OutsideLockServiceTest : public ServiceTest {
 protected:
  void SetUp() override {
    cpu_threads_ = 0;  // The CPU's turn waits; the test controls every move.
    db_busy_timeout_ms_ = 500;
    ServiceTest::SetUp();
    me_ = NewPlayer("Ada");
    ASSERT_TRUE(NewMatchVsCpu(me_, v1::KALAH, &match_).ok());
    outside_ = std::make_unique<SQLite::Database>(
        (dir_ / "mancala.db").string(), SQLite::OPEN_READWRITE);
  }

  TestPlayer me_;
  v1::Match match_;
  std::unique_ptr<SQLite::Database> outside_;
};

TEST_F(OutsideLockServiceTest, ABriefLockDelaysTheMoveALongOneIsUnavailable) {
  outside_->exec("BEGIN IMMEDIATE");
  grpc::Status first;
  v1::SubmitMoveResponse resp;
  // K.4: 4 seeds from pit 2 end in the store: seat 0 moves again.
  std::thread mover([&] { first = Move(me_, match_.name(), 2, &resp); });
  // The lock is held for 200 ms: the scenario, not a wait for a condition.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  outside_->exec("ROLLBACK");
  mover.join();
  ASSERT_TRUE(first.ok()) << first.error_message();
  EXPECT_EQ(Get(match_.name()).ply(), 1);

  outside_->exec("BEGIN IMMEDIATE");
  grpc::Status locked = Move(me_, match_.name(), 0, &resp);  // Waits 500 ms.
  outside_->exec("ROLLBACK");
  EXPECT_EQ(locked.error_code(), grpc::StatusCode::UNAVAILABLE)
      << locked.error_message();
  EXPECT_EQ(Get(match_.name()).ply(), 1);
  grpc::Status retry = Move(me_, match_.name(), 0, &resp);
  ASSERT_TRUE(retry.ok()) << retry.error_message();
  EXPECT_EQ(resp.match().ply(), 2);
  EXPECT_EQ(outside_->execAndGet("SELECT COUNT(*) FROM moves").getInt(), 2);
}

}  // namespace
}  // namespace mancala::testing
