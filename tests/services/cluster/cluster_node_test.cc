// A node of a cluster on PostgreSQL (services/cluster/cluster_node.h): its
// heartbeat row, long-dead nodes' rows deleted, its sweep handing each due turn
// to exactly one node, a stopped node's turn taken by its peer, and presence
// marks written once.

#include "services/cluster/cluster_node.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <pqxx/pqxx>
#include <thread>

#include "services/base/mutex.h"
#include "storage/pg_store.h"
#include "tests/support/test_database.h"

namespace mancala::services {
namespace {

using ::mancala::testing::Backend;

bool WaitFor(const std::function<bool()>& done) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

class ClusterNodeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MANCALA_SKIP_WITHOUT_POSTGRES(Backend::kPostgres);
    auto db = testing::TestDatabase::Create(
        Backend::kPostgres,
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    auto store = storage::PgStore::Open(db_->url(), 1);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
  }

  // A node whose claimed turns are recorded, not played; `online` its
  // players online, if any.
  std::unique_ptr<ClusterNode> Start(const std::string& id,
                                     OnlinePlayers* online = nullptr) {
    auto tables = storage::OpenCluster(db_->url());
    EXPECT_TRUE(tables.ok()) << tables.status();
    ClusterOptions options;
    options.node_id = id;
    options.heartbeat = std::chrono::milliseconds(50);
    options.sweep = std::chrono::milliseconds(20);
    options.grace_ms = 60'000;
    options.claim_ttl_ms = 60'000;
    auto node = ClusterNode::Start(
        *std::move(tables), options, [this, id](const storage::DueTurn& t) {
          MutexLock lock(&mu_);
          played_.push_back(id + " " + t.match_id + " " +
                            std::to_string(t.ply));
        },
        online);
    EXPECT_TRUE(node.ok()) << node.status();
    return node.ok() ? *std::move(node) : nullptr;
  }

  // A Kalah match, in progress, whose CPU seat (seat 0) moves first.
  void CreateCpuFirstMatch(const std::string& id) {
    storage::MatchRecord m;
    m.id = id;
    m.game = "kalah";
    m.seats = {{storage::SeatRecord::Kind::kCpu, "", 1},
               {storage::SeatRecord::Kind::kPlayer, "p1", 0}};
    m.created_by = "p1";
    ASSERT_TRUE(store_->CreateMatch(m).ok());
  }

  std::string Scalar(const std::string& sql) {
    pqxx::connection c(db_->url());
    pqxx::nontransaction tx(c);
    pqxx::row r = tx.exec1(sql);
    return r[0].is_null() ? "NULL" : r[0].as<std::string>();
  }

  std::vector<std::string> Played() {
    MutexLock lock(&mu_);
    return played_;
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<storage::PgStore> store_;
  Mutex mu_;
  std::vector<std::string> played_;
};

TEST_F(ClusterNodeTest, AHeartbeatRowLivesFromStartToStop) {
  auto a = Start("A");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(Scalar("SELECT count(*) FROM nodes WHERE id = 'A'"), "1");
  a->Stop();
  EXPECT_EQ(Scalar("SELECT count(*) FROM nodes"), "0");
  a->Stop();  // Idempotent.
}

TEST_F(ClusterNodeTest, EveryNodeCountsThePlayersOnlineOnAnyNode) {
  SystemClock clock;
  OnlinePlayers on_a(clock, 60'000), on_b(clock, 60'000);
  // p1 called A; p2 called B and holds a stream open on B; p3 called both.
  on_a.Seen("p1");
  on_a.Seen("p3");
  on_b.Seen("p3");
  on_b.Hold("p2");
  auto a = Start("A", &on_a);
  auto b = Start("B", &on_b);
  ASSERT_TRUE(a && b);
  // B's start wrote B's players after A's: B counts all three at once; A
  // does after its next beat (50 ms).
  EXPECT_EQ(on_b.Count(), 3);
  EXPECT_TRUE(WaitFor([&] { return on_a.Count() == 3; })) << on_a.Count();
  EXPECT_EQ(Scalar("SELECT string_agg(player_id, ',' ORDER BY player_id) "
                   "FROM online_players"),
            "p1,p2,p3");
  // p4 arrives on A: B counts four after A's next beat.
  on_a.Seen("p4");
  EXPECT_TRUE(WaitFor([&] { return on_b.Count() == 4; })) << on_b.Count();
  // p1's row aged past the grace period (a minute here) no longer counts
  // on B, though A still holds p1 (A wrote p1 lately, so it does not write
  // them again for a quarter of the grace period).
  Scalar("WITH u AS (UPDATE online_players SET seen_at = now() - interval "
         "'2 minutes' WHERE player_id = 'p1' RETURNING 1) SELECT 1");
  EXPECT_TRUE(WaitFor([&] { return on_b.Count() == 3; })) << on_b.Count();
  b->Stop();
  a->Stop();
}

TEST_F(ClusterNodeTest, ANodeDeletesTheRowsOfNodesDeadForOverAnHour) {
  // Z was killed two hours ago, Y ten minutes ago (neither removed its row).
  ASSERT_EQ(Scalar("WITH i AS (INSERT INTO nodes (id, heartbeat_at) VALUES "
                   "('Z', now() - interval '2 hours'), "
                   "('Y', now() - interval '10 minutes') RETURNING 1) "
                   "SELECT count(*) FROM i"),
            "2");
  auto a = Start("A");
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(WaitFor([&] {
    return Scalar("SELECT count(*) FROM nodes WHERE id = 'Z'") == "0";
  }));
  EXPECT_EQ(Scalar("SELECT string_agg(id, ',' ORDER BY id) FROM nodes"), "A,Y");
}

TEST_F(ClusterNodeTest, ADueTurnGoesToOneNodeAndToItsPeerWhenItStops) {
  CreateCpuFirstMatch("m1");
  auto a = Start("A");
  auto b = Start("B");
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(WaitFor([&] { return !Played().empty(); }));
  // Both swept several times more: still nobody else took it.
  const int64_t a_sweeps = a->sweeps(), b_sweeps = b->sweeps();
  ASSERT_TRUE(WaitFor([&] {
    return a->sweeps() > a_sweeps + 3 && b->sweeps() > b_sweeps + 3;
  }));
  std::vector<std::string> played = Played();
  ASSERT_EQ(played.size(), 1u);
  const std::string first = played[0].substr(0, 1);
  EXPECT_EQ(played[0].substr(1), " m1 0");
  EXPECT_EQ(Scalar("SELECT claim_node FROM matches"), first);
  // The holder leaves without playing it: its peer takes the turn at once
  // (not after the grace period, a minute here).
  (first == "A" ? a : b)->Stop();
  ASSERT_TRUE(WaitFor([&] { return Played().size() == 2; }));
  EXPECT_EQ(Played()[1], std::string(first == "A" ? "B" : "A") + " m1 0");
}

TEST_F(ClusterNodeTest, PresenceIsWrittenWhenNewAndNotAtEveryCall) {
  CreateCpuFirstMatch("m1");
  auto a = Start("A");
  ASSERT_NE(a, nullptr);
  a->SeatSeen("m1", 1);
  ASSERT_TRUE(WaitFor([&] {
    return Scalar("SELECT seen_node FROM seats WHERE seat = 1") == "A";
  }));
  const std::string first = Scalar("SELECT seen_at FROM seats WHERE seat = 1");
  const int64_t sweeps = a->sweeps();
  a->SeatSeen("m1", 1);  // Just written: nothing to write.
  ASSERT_TRUE(WaitFor([&] { return a->sweeps() > sweeps + 2; }));
  EXPECT_EQ(Scalar("SELECT seen_at FROM seats WHERE seat = 1"), first);
}

}  // namespace
}  // namespace mancala::services
