// Who is online site-wide, on PostgreSQL (storage/online_players.h): marks
// count at once, a player counts once however often and by however many
// nodes they are marked, rows older than the grace period do not count, and
// Forget() deletes only rows older than its limit.

#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "storage/pg_cluster.h"
#include "storage/pg_store.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

constexpr int64_t kMinute = 60'000;

class PgOnlineRosterTest : public testing::PostgresTest {
 protected:
  void SetUp() override {
    testing::PostgresTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    // The store migrates the schema.
    auto store = PgStore::Open(db_->url(), 1);
    ASSERT_TRUE(store.ok()) << store.status();
    auto pool = PgPool::Open(db_->url(), 2, nullptr);
    ASSERT_TRUE(pool.ok()) << pool.status();
    pool_ = *std::move(pool);
    roster_ = std::make_unique<PgOnlineRoster>(*pool_);
  }

  void Sql(const std::string& sql) {
    pqxx::connection c(db_->url());
    pqxx::nontransaction tx(c);
    tx.exec(sql);
  }

  int Count(std::vector<std::string> ids = {}) {
    auto n = roster_->MarkAndCount(ids, kMinute);
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : -1;
  }

  std::unique_ptr<PgPool> pool_;
  std::unique_ptr<PgOnlineRoster> roster_;
};

TEST_F(PgOnlineRosterTest, MarksCountOnceAndAtOnce) {
  if (IsSkipped()) GTEST_SKIP();
  EXPECT_EQ(Count(), 0);
  // Counted in the very call that marks them, a repeated id once.
  EXPECT_EQ(Count({"p1", "p2", "p1"}), 2);
  // Another node marking p2 again and p3: three players, not four.
  EXPECT_EQ(Count({"p2", "p3"}), 3);
  EXPECT_EQ(Count(), 3);
}

TEST_F(PgOnlineRosterTest, OnlyTheGracePeriodCounts) {
  if (IsSkipped()) GTEST_SKIP();
  ASSERT_EQ(Count({"p1", "p2", "p3"}), 3);
  // p1 last seen 2 minutes ago, p2 30 s ago (the database's clock).
  Sql("UPDATE online_players SET seen_at = now() - interval '2 minutes' "
      "WHERE player_id = 'p1'");
  Sql("UPDATE online_players SET seen_at = now() - interval '30 seconds' "
      "WHERE player_id = 'p2'");
  EXPECT_EQ(Count(), 2);  // p2, p3 within a minute
  auto within_20s = roster_->MarkAndCount({}, 20'000);
  ASSERT_TRUE(within_20s.ok()) << within_20s.status();
  EXPECT_EQ(*within_20s, 1);  // p3
  // Seen again: p1 counts again, from now.
  EXPECT_EQ(Count({"p1"}), 3);
}

TEST_F(PgOnlineRosterTest, ForgetDeletesOnlyOldRows) {
  if (IsSkipped()) GTEST_SKIP();
  ASSERT_EQ(Count({"p1", "p2"}), 2);
  Sql("UPDATE online_players SET seen_at = now() - interval '2 minutes' "
      "WHERE player_id = 'p1'");
  auto forgotten = roster_->Forget(kMinute);
  ASSERT_TRUE(forgotten.ok()) << forgotten.status();
  EXPECT_EQ(*forgotten, 1);
  pqxx::connection c(db_->url());
  pqxx::nontransaction tx(c);
  EXPECT_EQ(tx.exec("SELECT player_id FROM online_players")[0][0]
                .as<std::string>(),
            "p2");
  EXPECT_EQ(tx.exec("SELECT count(*) FROM online_players")[0][0].as<int>(), 1);
}

}  // namespace
}  // namespace mancala::storage
