// PgMoveNotices (storage/pg_move_notices.h) on a real PostgreSQL: notices
// published on one object reach a listener, batched to the latest ply per
// match; a node does not hear its own notices; foreign payloads on the
// channel are ignored; a listener whose connection is killed reconnects by
// itself and asks for a resync.

#include "storage/pg_move_notices.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <mutex>
#include <pqxx/pqxx>
#include <thread>

#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

// What a listener heard, read under a lock by the test thread.
struct Heard {
  std::mutex mu;
  std::map<std::string, int64_t> latest;  // Match id -> highest ply.
  int notices = 0;
  int resyncs = 0;
};

// Polls `condition` (under heard.mu) every 10 ms for at most 20 s.
template <class F>
bool WaitFor(Heard& heard, F condition) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < end) {
    {
      std::lock_guard<std::mutex> lock(heard.mu);
      if (condition()) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

class PgMoveNoticesTest : public testing::PostgresTest {
 protected:
  // Listens on a PgMoveNotices of its own, as another node would. Its
  // connections carry `application_name` (if given), so a test can find
  // them among those of tests running at the same time on the same server
  // (test databases are schemas of one database: tests/support).
  std::unique_ptr<PgMoveNotices> Listener(Heard& heard,
                                          const std::string& app_name = "") {
    auto n = std::make_unique<PgMoveNotices>(
        app_name.empty() ? db_->url()
                         : db_->url() + "&application_name=" + app_name);
    n->Listen(
        [this, &heard](const std::string& id, int64_t ply) {
          // The channel is the whole server's: tests running at the same
          // time publish on it too. Only this test's ids count.
          if (id.rfind(prefix_, 0) != 0) return;
          std::lock_guard<std::mutex> lock(heard.mu);
          int64_t& latest = heard.latest[id];
          latest = std::max(latest, ply);
          ++heard.notices;
        },
        [&heard] {
          std::lock_guard<std::mutex> lock(heard.mu);
          ++heard.resyncs;
        });
    return n;
  }
  // This test's match ids start with it (unique per test process).
  const std::string prefix_ = "t" + std::to_string(getpid()) + "_";
  std::string Id(const char* name) const { return prefix_ + name; }
};

TEST_F(PgMoveNoticesTest, PublishedPliesReachAnotherNodesListener) {
  Heard heard;
  auto listener = Listener(heard);
  ASSERT_TRUE(WaitFor(heard, [&] { return heard.resyncs == 1; }));
  PgMoveNotices sender(db_->url());
  for (int ply = 1; ply <= 50; ++ply) sender.Publish(Id("m1"), ply);
  sender.Publish(Id("m2"), 7);
  sender.Publish(Id("m2"), 3);  // Older than what is queued: adds nothing.
  ASSERT_TRUE(WaitFor(heard, [&] {
    return heard.latest[Id("m1")] == 50 && heard.latest[Id("m2")] == 7;
  }));
  std::lock_guard<std::mutex> lock(heard.mu);
  // Batched: never more notices than publications, usually far fewer.
  EXPECT_LE(heard.notices, 51);
}

TEST_F(PgMoveNoticesTest, ANodeDoesNotHearItsOwnNotices) {
  Heard heard_a, heard_b;
  auto a = Listener(heard_a);
  auto b = Listener(heard_b);
  ASSERT_TRUE(WaitFor(heard_a, [&] { return heard_a.resyncs == 1; }));
  ASSERT_TRUE(WaitFor(heard_b, [&] { return heard_b.resyncs == 1; }));
  a->Publish(Id("m1"), 4);
  // B heard A's notice: it is committed, and delivered before anything
  // published after it (PostgreSQL delivers notices in commit order).
  ASSERT_TRUE(WaitFor(heard_b, [&] { return heard_b.latest[Id("m1")] == 4; }));
  b->Publish(Id("m2"), 9);
  ASSERT_TRUE(WaitFor(heard_a, [&] { return heard_a.latest[Id("m2")] == 9; }));
  std::lock_guard<std::mutex> lock(heard_a.mu);
  EXPECT_EQ(heard_a.notices, 1);  // B's only.
  EXPECT_EQ(heard_a.latest.count(Id("m1")), 0u);
}

TEST_F(PgMoveNoticesTest, ForeignPayloadsOnTheChannelAreIgnored) {
  Heard heard;
  auto listener = Listener(heard);
  ASSERT_TRUE(WaitFor(heard, [&] { return heard.resyncs == 1; }));
  pqxx::connection c(db_->url());
  pqxx::nontransaction tx(c);
  for (const std::string& payload : {std::string(), Id("m1"), Id("m1") + " x",
                                     Id("m1") + " 12abc", std::string(" 4")}) {
    tx.exec_params("SELECT pg_notify($1, $2)",
                   std::string(PgMoveNotices::kChannel), payload);
  }
  tx.exec_params("SELECT pg_notify($1, $2)",
                 std::string(PgMoveNotices::kChannel), Id("m9") + " 4");
  ASSERT_TRUE(WaitFor(heard, [&] { return heard.latest.count(Id("m9")) > 0; }));
  std::lock_guard<std::mutex> lock(heard.mu);
  EXPECT_EQ(heard.notices, 1);  // Delivered in order: the others came first.
  EXPECT_EQ(heard.latest[Id("m9")], 4);
}

TEST_F(PgMoveNoticesTest, AKilledListenerReconnectsAndAsksForAResync) {
  Heard heard;
  const std::string app = "mancala_listener_" + std::to_string(getpid());
  auto listener = Listener(heard, app);
  ASSERT_TRUE(WaitFor(heard, [&] { return heard.resyncs == 1; }));
  {
    pqxx::connection c(db_->url());
    pqxx::nontransaction tx(c);
    // Only the listener's connection is open under that name (it publishes
    // nothing, so it has no sender connection).
    pqxx::result killed = tx.exec_params(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
        "application_name = $1",
        app);
    ASSERT_EQ(killed.size(), 1u);
  }
  // Notices sent while it was away may be lost: the resync says so.
  ASSERT_TRUE(WaitFor(heard, [&] { return heard.resyncs == 2; }));
  PgMoveNotices sender(db_->url());
  sender.Publish(Id("m1"), 3);
  EXPECT_TRUE(WaitFor(heard, [&] { return heard.latest[Id("m1")] == 3; }));
}

}  // namespace
}  // namespace mancala::storage
