// What only the PostgreSQL backend promises (the shared contract is in
// store_contract_test.cc): migrations are recorded in their table, an
// unreachable server is UNAVAILABLE at once, and the pool serves more
// concurrent callers than it has connections.

#include "storage/pg_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <pqxx/pqxx>
#include <thread>

#include "storage/pg_schema.h"
#include "tests/storage/pg_test_fixture.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

using PgStoreTest = PgTest;

TEST_F(PgStoreTest, MigrationsAreRecordedInTheirTable) {
  ASSERT_TRUE(PgStore::Open(db_->url(), 1).ok());
  ASSERT_TRUE(PgStore::Open(db_->url(), 1).ok());  // Twice: nothing to do.
  pqxx::connection c(db_->url());
  pqxx::nontransaction tx(c);
  pqxx::result r =
      tx.exec("SELECT version FROM mancala_schema_migrations ORDER BY version");
  ASSERT_EQ(r.size(), static_cast<size_t>(PgSchemaVersion()));
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r[i][0].as<int>(), static_cast<int>(i) + 1);
  }
}

TEST_F(PgStoreTest, UnreachableServerIsUnavailable) {
  // Port 1 on loopback: nothing listens, the connection is refused.
  auto store = PgStore::Open("postgresql://postgres@127.0.0.1:1/postgres", 2);
  EXPECT_TRUE(absl::IsUnavailable(store.status())) << store.status();
}

TEST_F(PgStoreTest, MoreCallersThanConnectionsAllGetServed) {
  auto store = PgStore::Open(db_->url(), 2);
  ASSERT_TRUE(store.ok()) << store.status();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        const std::string id =
            "p" + std::to_string(t) + "_" + std::to_string(i);
        if ((*store)->CreatePlayer({id, "x", true, "h" + id, 1}).ok()) ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 160);
  EXPECT_TRUE((*store)->Ping().ok());
}

// Two transactions take two rows in opposite orders: PostgreSQL breaks the
// deadlock by failing one (SQLSTATE 40P01), the pool runs that one again,
// and both commit.
TEST_F(PgStoreTest, ADeadlockVictimIsRetriedAndBothCommit) {
  ASSERT_TRUE(PgStore::Open(db_->url(), 1).ok());  // Creates the schema.
  auto pool = PgPool::Open(db_->url(), 2, nullptr);
  ASSERT_TRUE(pool.ok()) << pool.status();
  ASSERT_TRUE((*pool)
                  ->Run("setup",
                        [](pqxx::connection& c) {
                          pqxx::nontransaction tx(c);
                          tx.exec(
                              "INSERT INTO players VALUES "
                              "('a', 'A', false, 'ha', 0), "
                              "('b', 'B', false, 'hb', 0)");
                          return absl::OkStatus();
                        })
                  .ok());
  std::barrier both_hold_one(2);
  std::atomic<int> attempts{0};
  auto cross = [&](const char* first, const char* second) {
    bool waited = false;
    return (*pool)->Run("cross", [&, first, second](pqxx::connection& c) {
      ++attempts;
      pqxx::work tx(c);
      tx.exec_params(
          "UPDATE players SET created_at_ms = created_at_ms + 1 "
          "WHERE id = $1",
          first);
      if (!waited) {
        waited = true;
        both_hold_one.arrive_and_wait();
      }
      tx.exec_params(
          "UPDATE players SET created_at_ms = created_at_ms + 1 "
          "WHERE id = $1",
          second);
      tx.commit();
      return absl::OkStatus();
    });
  };
  absl::Status s1, s2;
  std::thread t1([&] { s1 = cross("a", "b"); });
  std::thread t2([&] { s2 = cross("b", "a"); });
  t1.join();
  t2.join();
  EXPECT_TRUE(s1.ok()) << s1;
  EXPECT_TRUE(s2.ok()) << s2;
  EXPECT_EQ(attempts.load(), 3);  // One victim, run once more.
  auto store = PgStore::Open(db_->url(), 1);
  EXPECT_EQ((*store)->GetPlayer("a")->created_at_ms, 2);
  EXPECT_EQ((*store)->GetPlayer("b")->created_at_ms, 2);
}

TEST(PgErrorsTest, StatusesByKind) {
  bool retry = false;
  EXPECT_TRUE(absl::IsUnavailable(
      FromPqxx(pqxx::deadlock_detected("x"), "op", &retry)));
  EXPECT_TRUE(retry);
  EXPECT_TRUE(absl::IsUnavailable(
      FromPqxx(pqxx::serialization_failure("x"), "op", &retry)));
  EXPECT_TRUE(retry);
  EXPECT_TRUE(absl::IsAlreadyExists(
      FromPqxx(pqxx::unique_violation("x", "q", "23505"), "op", &retry)));
  EXPECT_FALSE(retry);
  EXPECT_TRUE(absl::IsUnavailable(
      FromPqxx(pqxx::broken_connection("gone"), "op", &retry)));
  EXPECT_FALSE(retry);
  EXPECT_TRUE(absl::IsUnavailable(FromPqxx(
      pqxx::sql_error("terminating connection", "q", "57P01"), "op", &retry)));
  EXPECT_TRUE(absl::IsInternal(
      FromPqxx(pqxx::syntax_error("x", "q", "42601"), "op", &retry)));
}

}  // namespace
}  // namespace mancala::storage
