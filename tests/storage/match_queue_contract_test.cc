// The matchmaking queue contract (storage/match_queue.h) on both forms
// OpenMatchQueue gives: in memory for SQLite, rows in PostgreSQL (when
// MANCALA_TEST_PG_DSN names a server; a failure under CI=true if not). One
// node's view: a search is searching, claimed, assigned; the former sees
// arrival order; claimed searches are neither counted nor cancelled; a
// release puts them back; the owner sees the match; CancelFind and Remove.
// Two nodes on PostgreSQL: pg_match_queue_test.cc.

#include <gtest/gtest.h>

#include <atomic>

#include "storage/open_match_queue.h"
#include "storage/open_store.h"
#include "tests/storage/match_queue_helpers.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

using ::mancala::testing::Backend;

class MatchQueueContract : public testing::BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto store = OpenStore(db_->url());  // Migrates a PostgreSQL schema.
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = std::move(store->store);
    auto q = OpenMatchQueue(
        db_->url(), "A", [] { return int64_t{1'800'000'000'000}; },
        /*test_clock=*/false);
    ASSERT_TRUE(q.ok()) << q.status();
    q_ = *std::move(q);
  }
  std::unique_ptr<Store> store_;
  std::unique_ptr<MatchQueue> q_;
};

TEST_P(MatchQueueContract, ASearchIsSearchingThenClaimedThenAssigned) {
  EXPECT_EQ(q_->node_id(), "A");
  for (const char* p : {"p1", "p2", "p3"}) {
    ASSERT_TRUE(q_->Add(Search(p, "A")).ok()) << p;
  }
  ASSERT_TRUE(q_->Add(Search("p4", "A", "oware|ranked")).ok());
  EXPECT_TRUE(absl::IsAlreadyExists(q_->Add(Search("p1", "A", "oware|x"))));
  EXPECT_EQ(Searching(*q_), 3);
  EXPECT_EQ(Searching(*q_, "oware|ranked"), 1);

  std::vector<std::vector<QueueEntry>> groups;
  ASSERT_TRUE(q_->Claim("kalah|casual", Pairs(&groups)).ok());
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0][0].player_id, "p1");  // Arrival order.
  EXPECT_EQ(groups[0][1].player_id, "p2");
  EXPECT_EQ(groups[0][0].queue_info, "{\"game\":\"kalah|casual\"}");
  EXPECT_GT(groups[0][0].enqueued_ms, 0);
  EXPECT_LE(groups[0][0].enqueued_ms, groups[0][1].enqueued_ms);
  EXPECT_EQ(Searching(*q_), 1);       // p3.
  auto cancelled = q_->Cancel("p1");  // Its match is being made.
  ASSERT_TRUE(cancelled.ok());
  EXPECT_FALSE(*cancelled);

  // Released (the match was not created): searching again, in order.
  ASSERT_TRUE(q_->Release({"s-p1", "s-p2"}).ok());
  EXPECT_EQ(Searching(*q_), 3);
  groups.clear();
  ASSERT_TRUE(q_->Claim("kalah|casual", Pairs(&groups)).ok());
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0][0].player_id, "p1");

  ASSERT_TRUE(q_->Assign("s-p2", "m1", 1).ok());
  auto own = q_->Refresh();
  ASSERT_TRUE(own.ok()) << own.status();
  std::map<std::string, std::pair<std::string, int>> by_id;
  for (const OwnSearch& s : *own) by_id[s.search_id] = {s.match_id, s.seat};
  EXPECT_EQ(by_id.size(), 4u);
  EXPECT_EQ(by_id["s-p2"], (std::pair<std::string, int>{"m1", 1}));
  EXPECT_EQ(by_id["s-p1"].first, "");  // Claimed, not yet assigned.
  EXPECT_EQ(by_id["s-p3"].first, "");

  ASSERT_TRUE(q_->Remove("s-p1").ok());
  ASSERT_TRUE(q_->Remove("s-p2").ok());
  ASSERT_TRUE(q_->Remove("s-p2").ok());  // Gone already: no error.
  cancelled = q_->Cancel("p3");
  ASSERT_TRUE(cancelled.ok());
  EXPECT_TRUE(*cancelled);
  EXPECT_EQ(Searching(*q_), 0);
  own = q_->Refresh();
  ASSERT_TRUE(own.ok());
  ASSERT_EQ(own->size(), 1u);
  EXPECT_EQ((*own)[0].player_id, "p4");
  // Every search of p1 is gone: they may search again.
  EXPECT_TRUE(q_->Add(Search("p1", "A")).ok());
}

TEST_P(MatchQueueContract, TheFormerClaimsOnlyWhatItReturns) {
  for (const char* p : {"p1", "p2", "p3"}) {
    ASSERT_TRUE(q_->Add(Search(p, "A")).ok()) << p;
  }
  int runs = 0;
  ASSERT_TRUE(q_->Claim("kalah|casual", [&](const std::vector<QueueEntry>& s,
                                            int64_t now) {
                  ++runs;
                  EXPECT_EQ(s.size(), 3u);
                  for (const QueueEntry& e : s) {
                    EXPECT_GE(now, e.enqueued_ms);
                  }
                  return std::vector<size_t>{1};  // p2 only.
                }).ok());
  EXPECT_EQ(runs, 1);
  std::vector<std::vector<QueueEntry>> groups;
  ASSERT_TRUE(q_->Claim("kalah|casual", Pairs(&groups)).ok());
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0][0].player_id, "p1");
  EXPECT_EQ(groups[0][1].player_id, "p3");
  // No searcher left: the former is not run.
  ASSERT_TRUE(
      q_->Claim("kalah|casual", [&](const std::vector<QueueEntry>&, int64_t) {
          ++runs;
          return std::vector<size_t>{};
        }).ok());
  EXPECT_EQ(runs, 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, MatchQueueContract,
                         ::testing::Values(Backend::kSqlite,
                                           Backend::kPostgres),
                         testing::BackendParamName);

}  // namespace
}  // namespace mancala::storage
