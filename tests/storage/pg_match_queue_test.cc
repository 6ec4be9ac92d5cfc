// The matchmaking queue on PostgreSQL (storage/pg_match_queue.h) as two
// nodes on one database see it: claims never take one search twice, even
// racing; a claim and its match reach the owner node; CancelFind works
// from any node; a dead node's searches expire on the database clock; the
// count is site-wide.

#include "storage/pg_match_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <pqxx/pqxx>
#include <set>
#include <thread>

#include "storage/pg_store.h"
#include "tests/storage/match_queue_helpers.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

class PgMatchQueueTest : public testing::PostgresTest {
 protected:
  void SetUp() override {
    PostgresTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto store = PgStore::Open(db_->url(), 1);  // Migrates the schema.
    ASSERT_TRUE(store.ok()) << store.status();
    a_ = Node("A");
    b_ = Node("B");
  }
  std::unique_ptr<PgMatchQueue> Node(const std::string& id,
                                     int expire_ms = 5'000) {
    auto q = PgMatchQueue::Open(db_->url(), id, expire_ms);
    EXPECT_TRUE(q.ok()) << q.status();
    return q.ok() ? *std::move(q) : nullptr;
  }
  std::unique_ptr<PgMatchQueue> a_, b_;
};

TEST_F(PgMatchQueueTest, SearchersOnTwoNodesPairAndTheOwnerLearnsItsMatch) {
  ASSERT_TRUE(a_->Add(Search("p1", "A")).ok());
  ASSERT_TRUE(b_->Add(Search("p2", "B")).ok());
  // One player, one search, site-wide.
  EXPECT_TRUE(absl::IsAlreadyExists(b_->Add(Search("p1", "B"))));
  EXPECT_EQ(Searching(*a_), 2);
  EXPECT_EQ(Searching(*b_), 2);

  std::vector<std::vector<QueueEntry>> groups;
  ASSERT_TRUE(b_->Claim("kalah|casual", Pairs(&groups)).ok());
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0][0].player_id, "p1");  // Arrival order: seat 0.
  EXPECT_EQ(groups[0][0].node_id, "A");
  EXPECT_EQ(groups[0][1].player_id, "p2");
  EXPECT_EQ(Searching(*a_), 0);  // Claimed: no longer counted.
  // A claimed search cannot be cancelled (its match is being made).
  auto cancelled = a_->Cancel("p1");
  ASSERT_TRUE(cancelled.ok());
  EXPECT_FALSE(*cancelled);

  auto own = a_->Refresh();
  ASSERT_TRUE(own.ok()) << own.status();
  ASSERT_EQ(own->size(), 1u);
  EXPECT_EQ((*own)[0].player_id, "p1");
  EXPECT_EQ((*own)[0].match_id, "");  // Claimed, not yet assigned.
  ASSERT_TRUE(b_->Assign("s-p1", "m1", 0).ok());
  own = a_->Refresh();
  ASSERT_TRUE(own.ok());
  ASSERT_EQ(own->size(), 1u);
  EXPECT_EQ((*own)[0].match_id, "m1");
  EXPECT_EQ((*own)[0].seat, 0);
  ASSERT_TRUE(a_->Remove("s-p1").ok());
  own = a_->Refresh();
  ASSERT_TRUE(own.ok());
  EXPECT_TRUE(own->empty());
}

TEST_F(PgMatchQueueTest, CancelFromAnotherNodeRemovesTheSearch) {
  ASSERT_TRUE(a_->Add(Search("p1", "A")).ok());
  auto cancelled = b_->Cancel("p1");
  ASSERT_TRUE(cancelled.ok()) << cancelled.status();
  EXPECT_TRUE(*cancelled);
  EXPECT_EQ(Searching(*a_), 0);
  // The owner sees its search gone (and ends the stream).
  auto own = a_->Refresh();
  ASSERT_TRUE(own.ok());
  EXPECT_TRUE(own->empty());
  cancelled = b_->Cancel("p1");
  ASSERT_TRUE(cancelled.ok());
  EXPECT_FALSE(*cancelled);
}

TEST_F(PgMatchQueueTest, ADeadNodesSearchesExpire) {
  // D dies: its last refresh was an hour ago on the database clock (its
  // row's seen_at set back), far beyond the expiry of 60 s; L lives. The
  // expiry is long so that no stall of a loaded machine between L's own
  // refresh and its next look can make L's row look dead too: with 400 ms
  // and real waiting, a stall of 400 ms between the last refresh and the
  // count below made L count 0 (seen once under AddressSanitizer in CI).
  auto dead = Node("D", 60'000);
  auto live = Node("L", 60'000);
  ASSERT_TRUE(dead->Add(Search("ghost", "D")).ok());
  ASSERT_TRUE(live->Add(Search("p2", "L")).ok());
  EXPECT_EQ(Searching(*live), 2);
  {
    pqxx::connection c(db_->url());
    pqxx::nontransaction tx(c);
    tx.exec(
        "UPDATE match_queue SET seen_at = seen_at - interval '1 hour' "
        "WHERE node_id = 'D'");
  }
  ASSERT_EQ(Searching(*live), 1);  // The ghost is not counted...
  std::vector<std::vector<QueueEntry>> groups;
  ASSERT_TRUE(live->Add(Search("p3", "L")).ok());
  ASSERT_TRUE(live->Claim("kalah|casual", Pairs(&groups)).ok());
  ASSERT_EQ(groups.size(), 1u);  // ...nor paired.
  EXPECT_EQ(groups[0][0].player_id, "p2");
  EXPECT_EQ(groups[0][1].player_id, "p3");
  // The ghost's player may search again at once, on a live node: the
  // expired search is deleted, so only the live node's row remains.
  ASSERT_TRUE(live->Add(Search("ghost", "L")).ok());
  pqxx::connection c(db_->url());
  pqxx::nontransaction tx(c);
  EXPECT_EQ(tx.exec1("SELECT count(*) FROM match_queue WHERE node_id = 'D'")[0]
                .as<int>(),
            0);
}

TEST_F(PgMatchQueueTest, CountsAreSiteWidePerQueue) {
  ASSERT_TRUE(a_->Add(Search("p1", "A")).ok());
  ASSERT_TRUE(b_->Add(Search("p2", "B")).ok());
  ASSERT_TRUE(b_->Add(Search("p3", "B", "oware|ranked")).ok());
  for (PgMatchQueue* q : {a_.get(), b_.get()}) {
    auto counts = q->Counts();
    ASSERT_TRUE(counts.ok()) << counts.status();
    ASSERT_EQ(counts->size(), 2u);
    EXPECT_EQ((*counts)[0].queue_key, "kalah|casual");
    EXPECT_EQ((*counts)[0].queue_info, "{\"game\":\"kalah|casual\"}");
    EXPECT_EQ((*counts)[0].searching, 2);
    EXPECT_EQ((*counts)[1].queue_key, "oware|ranked");
    EXPECT_EQ((*counts)[1].searching, 1);
  }
}

TEST_F(PgMatchQueueTest, TwoNodesClaimingAtOnceNeverTakeOneSearchTwice) {
  constexpr int kPlayers = 60;
  for (int i = 0; i < kPlayers; ++i) {
    const std::string p = "p" + std::to_string(i);
    PgMatchQueue& q = i % 2 == 0 ? *a_ : *b_;
    ASSERT_TRUE(q.Add(Search(p, q.node_id())).ok());
  }
  std::mutex mu;
  std::map<std::string, int> claims;  // Player -> times claimed.
  auto claimer = [&](PgMatchQueue& q) {
    for (int round = 0; round < 40; ++round) {
      // One pair per claim, so the two nodes interleave.
      std::vector<std::vector<QueueEntry>> groups;
      ASSERT_TRUE(q.Claim("kalah|casual", [&](const std::vector<QueueEntry>& s,
                                              int64_t) {
                     std::vector<size_t> c;
                     if (s.size() >= 2) {
                       groups.push_back({s[0], s[1]});
                       c = {0, 1};
                     }
                     return c;
                   }).ok());
      std::lock_guard lock(mu);
      for (const auto& g : groups) {
        for (const QueueEntry& e : g) ++claims[e.player_id];
      }
    }
  };
  std::thread ta(claimer, std::ref(*a_));
  std::thread tb(claimer, std::ref(*b_));
  ta.join();
  tb.join();
  EXPECT_EQ(claims.size(), static_cast<size_t>(kPlayers));
  for (const auto& [player, n] : claims) EXPECT_EQ(n, 1) << player;
  EXPECT_EQ(Searching(*a_), 0);
}

}  // namespace
}  // namespace mancala::storage
