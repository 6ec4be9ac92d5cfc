// SubmitMove while another process (the sqlite3 shell, a backup; on
// PostgreSQL another session's LOCK TABLE) holds the database's write lock:
// a brief lock delays the move, which then succeeds; a lock past
// --db-busy-timeout-ms answers UNAVAILABLE, and the same move sent again
// afterwards succeeds (nothing was left half-done).

#include <SQLiteCpp/SQLiteCpp.h>

#include <thread>
#ifdef MANCALA_HAVE_POSTGRES
#include <pqxx/pqxx>
#endif

#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

// Another client of the database that takes its write lock (reads stay
// open), on whichever backend the test runs.
class OutsideClient {
 public:
  virtual ~OutsideClient() = default;
  virtual void Lock() = 0;
  virtual void Unlock() = 0;
  virtual int CountMoves() = 0;
};

class SqliteOutside : public OutsideClient {
 public:
  explicit SqliteOutside(const std::string& path)
      : db_(path, SQLite::OPEN_READWRITE) {}
  void Lock() override { db_.exec("BEGIN IMMEDIATE"); }
  void Unlock() override { db_.exec("ROLLBACK"); }
  int CountMoves() override {
    return db_.execAndGet("SELECT COUNT(*) FROM moves").getInt();
  }

 private:
  SQLite::Database db_;
};

#ifdef MANCALA_HAVE_POSTGRES
class PgOutside : public OutsideClient {
 public:
  explicit PgOutside(const std::string& url) : conn_(url) {}
  void Lock() override {
    tx_ = std::make_unique<pqxx::work>(conn_);
    // Blocks every write to matches, as BEGIN IMMEDIATE does; reads go on.
    tx_->exec("LOCK TABLE matches IN EXCLUSIVE MODE");
  }
  void Unlock() override {
    tx_->abort();
    tx_.reset();
  }
  int CountMoves() override {
    pqxx::nontransaction tx(conn_);
    return tx.exec1("SELECT COUNT(*) FROM moves")[0].as<int>();
  }

 private:
  pqxx::connection conn_;
  std::unique_ptr<pqxx::work> tx_;
};
#endif

class OutsideLockServiceTest : public ServiceTest {
 protected:
  void SetUp() override {
    cpu_threads_ = 0;  // The CPU's turn waits; the test controls every move.
    db_busy_timeout_ms_ = busy_timeout_ms_;
    ServiceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    me_ = NewPlayer("Ada");
    ASSERT_TRUE(NewMatchVsCpu(me_, v1::KALAH, &match_).ok());
#ifdef MANCALA_HAVE_POSTGRES
    if (db_->backend() == Backend::kPostgres) {
      outside_ = std::make_unique<PgOutside>(db_->url());
      return;
    }
#endif
    outside_ = std::make_unique<SqliteOutside>(db_->url());
  }

  int busy_timeout_ms_ = 500;
  TestPlayer me_;
  v1::Match match_;
  std::unique_ptr<OutsideClient> outside_;
};

// The same with a lock the moves outwait.
class OutsideLockPatientTest : public OutsideLockServiceTest {
 protected:
  OutsideLockPatientTest() { busy_timeout_ms_ = 5000; }
};

TEST_F(OutsideLockServiceTest, ABriefLockDelaysTheMoveALongOneIsUnavailable) {
  outside_->Lock();
  grpc::Status first;
  v1::SubmitMoveResponse resp;
  // K.4: 4 seeds from pit 2 end in the store: seat 0 moves again.
  std::thread mover([&] { first = Move(me_, match_.name(), 2, &resp); });
  // The lock is held for 200 ms: the scenario, not a wait for a condition.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  outside_->Unlock();
  mover.join();
  ASSERT_TRUE(first.ok()) << first.error_message();
  EXPECT_EQ(Get(match_.name()).ply(), 1);

  outside_->Lock();
  grpc::Status locked = Move(me_, match_.name(), 0, &resp);  // Waits 500 ms.
  outside_->Unlock();
  EXPECT_EQ(locked.error_code(), grpc::StatusCode::UNAVAILABLE)
      << locked.error_message();
  EXPECT_EQ(Get(match_.name()).ply(), 1);
  grpc::Status retry = Move(me_, match_.name(), 0, &resp);
  ASSERT_TRUE(retry.ok()) << retry.error_message();
  EXPECT_EQ(resp.match().ply(), 2);
  EXPECT_EQ(outside_->CountMoves(), 2);
}

// A move waiting for the database holds the match for writers only: a read
// of the match answers at once with the match as last answered (the move
// is not played until it is stored), a resignation sent meanwhile is
// played after the move, on the match it leaves.
TEST_F(OutsideLockPatientTest, AMoveWaitingForTheStoreHoldsUpNoRead) {
  outside_->Lock();
  grpc::Status moved;
  v1::SubmitMoveResponse move_resp;
  // K.4: 4 seeds from pit 2 end in the store: seat 0 moves again.
  std::thread mover([&] { moved = Move(me_, match_.name(), 2, &move_resp); });
  // The move reaches the writer meanwhile: the scenario, not a wait for a
  // condition (a read before it arrives sees the same).
  std::this_thread::sleep_for(std::chrono::milliseconds(50));

  v1::GetMatchRequest get;
  get.set_name(match_.name());
  v1::Match seen;
  auto ctx = Ctx();
  // The lock is held until this read is answered: a read that waited for
  // the move would wait for ever, and fails at this deadline.
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(2));
  grpc::Status read = matches_->GetMatch(ctx.get(), get, &seen);
  EXPECT_TRUE(read.ok()) << read.error_message();  // The threads end below.
  EXPECT_EQ(seen.ply(), 0);
  EXPECT_EQ(seen.board().sides(0).pits(2), 4);

  grpc::Status resigned;
  v1::Match resign_resp;
  std::thread resigner([&] {
    v1::ResignRequest req;
    req.set_name(match_.name());
    auto c = Ctx(me_.token);
    resigned = matches_->Resign(c.get(), req, &resign_resp);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // Scenario.
  outside_->Unlock();
  mover.join();
  resigner.join();
  ASSERT_TRUE(moved.ok()) << moved.error_message();
  EXPECT_EQ(move_resp.match().ply(), 1);
  EXPECT_EQ(move_resp.match().board().sides(0).pits(2), 0);
  EXPECT_EQ(move_resp.match().board().sides(0).store(), 1);
  ASSERT_TRUE(resigned.ok()) << resigned.error_message();
  EXPECT_EQ(resign_resp.ply(), 2);
  EXPECT_EQ(resign_resp.state(), v1::Match::FINISHED);
  EXPECT_EQ(outside_->CountMoves(), 2);
}

}  // namespace
}  // namespace mancala::testing
