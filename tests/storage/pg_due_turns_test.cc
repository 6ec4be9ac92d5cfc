// The cluster tables on PostgreSQL (storage/node_registry.h,
// storage/due_turns.h): heartbeats, due times written with the move, claims
// (one winner, lapsing, dead nodes), presence and the outage rule.

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <pqxx/pqxx>
#include <thread>

#include "storage/pg_cluster.h"
#include "storage/pg_store.h"
#include "tests/storage/store_test_fixture.h"
#include "tests/support/test_database.h"

namespace mancala::storage {
namespace {

constexpr int64_t kMinute = 60'000;

class PgDueTurnsTest : public testing::PostgresTest {
 protected:
  void SetUp() override {
    testing::PostgresTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto store = PgStore::Open(db_->url(), 2);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
    auto pool = PgPool::Open(db_->url(), 4, nullptr);
    ASSERT_TRUE(pool.ok()) << pool.status();
    pool_ = *std::move(pool);
    nodes_ = std::make_unique<PgNodeRegistry>(*pool_);
    due_ = std::make_unique<PgDueTurns>(*pool_);
    ASSERT_TRUE(nodes_->Heartbeat("A", kMinute).ok());
    ASSERT_TRUE(nodes_->Heartbeat("B", kMinute).ok());
    // A's first beat found nobody alive and recorded the service's return;
    // the tests below start from a service that has always been up.
    Sql("DELETE FROM service_resumed");
  }

  // Player p1 (seat 0) against a CPU (seat 1), seat 1 to move first, in
  // progress; `turn_limit_s` on the match.
  void CreateMatch(const std::string& id, int turn_limit_s = 0) {
    MatchRecord m = SampleMatch(id);
    m.status = MatchStatus::kInProgress;
    m.turn_limit_s = turn_limit_s;
    ASSERT_TRUE(store_->CreateMatch(m).ok());
  }

  // Appends move `ply` by `seat` with the given due fields.
  absl::Status Append(const std::string& id, int64_t ply, int seat, int to_move,
                      int64_t due_after_ms,
                      const std::string& claim_node = "") {
    MatchUpdate update;
    update.to_move = to_move;
    update.due_after_ms = due_after_ms;
    update.claim_node = claim_node;
    update.claim_ttl_ms = kMinute;
    return store_->AppendMove(SampleMove(ply, seat, 0, id), update);
  }

  void Sql(const std::string& sql) {
    pqxx::connection c(db_->url());
    pqxx::nontransaction tx(c);
    tx.exec(sql);
  }

  std::string Scalar(const std::string& sql) {
    pqxx::connection c(db_->url());
    pqxx::nontransaction tx(c);
    pqxx::row r = tx.exec1(sql);
    return r[0].is_null() ? "NULL" : r[0].as<std::string>();
  }

  std::vector<DueTurn> Due(int64_t grace_ms = kMinute) {
    auto due = due_->ListDue({grace_ms, kMinute}, 100);
    EXPECT_TRUE(due.ok()) << due.status();
    return due.ok() ? *due : std::vector<DueTurn>{};
  }

  bool Claim(const std::string& node, const std::string& id, int64_t ply,
             int64_t ttl_ms = kMinute) {
    auto claimed = due_->Claim(id, ply, node, ttl_ms, kMinute);
    EXPECT_TRUE(claimed.ok()) << claimed.status();
    return claimed.ok() && *claimed;
  }

  std::unique_ptr<PgStore> store_;
  std::unique_ptr<PgPool> pool_;
  std::unique_ptr<PgNodeRegistry> nodes_;
  std::unique_ptr<PgDueTurns> due_;
};

TEST_F(PgDueTurnsTest, HeartbeatsMakeNodesLiveAndRemoveEndsThem) {
  EXPECT_EQ(*nodes_->LiveNodes(kMinute), (std::vector<std::string>{"A", "B"}));
  Sql("UPDATE nodes SET heartbeat_at = now() - interval '2 minutes' "
      "WHERE id = 'A'");
  EXPECT_EQ(*nodes_->LiveNodes(kMinute), (std::vector<std::string>{"B"}));
  ASSERT_TRUE(
      nodes_->Heartbeat("A", kMinute).ok());  // Back: the same row again.
  EXPECT_EQ(*nodes_->LiveNodes(kMinute), (std::vector<std::string>{"A", "B"}));
  ASSERT_TRUE(nodes_->Remove("B").ok());
  ASSERT_TRUE(nodes_->Remove("B").ok());  // Idempotent.
  EXPECT_EQ(*nodes_->LiveNodes(kMinute), (std::vector<std::string>{"A"}));
}

TEST_F(PgDueTurnsTest, ForgetDeletesOnlyTheRowsSilentForLongerThanAsked) {
  ASSERT_TRUE(nodes_->Heartbeat("C", kMinute).ok());
  Sql("UPDATE nodes SET heartbeat_at = now() - interval '2 hours' "
      "WHERE id = 'A'");
  Sql("UPDATE nodes SET heartbeat_at = now() - interval '30 minutes' "
      "WHERE id = 'C'");
  EXPECT_EQ(*nodes_->Forget(3'600'000), 1);  // A only: silent for 2 h > 1 h.
  EXPECT_EQ(Scalar("SELECT string_agg(id, ',' ORDER BY id) FROM nodes"), "B,C");
  EXPECT_EQ(*nodes_->Forget(3'600'000), 0);
  EXPECT_EQ(*nodes_->Forget(20 * 60'000), 1);  // C: 30 min > 20 min.
  EXPECT_EQ(Scalar("SELECT string_agg(id, ',' ORDER BY id) FROM nodes"), "B");
}

TEST_F(PgDueTurnsTest, TheAppendStoresTheDueTimeOnTheDatabaseClock) {
  CreateMatch("m1", 30);
  ASSERT_TRUE(Append("m1", 1, 1, 0, 30'000).ok());
  EXPECT_EQ(Scalar("SELECT to_move FROM matches WHERE id = 'm1'"), "0");
  // 30 s after the commit, by the database's clock (a little under, as
  // clock_timestamp() ran before this query's now()).
  const double left = std::stod(Scalar(
      "SELECT extract(epoch FROM due_at - now()) FROM matches WHERE id = "
      "'m1'"));
  EXPECT_GT(left, 29.0);
  EXPECT_LE(left, 30.0);
  EXPECT_EQ(Scalar("SELECT claim_node FROM matches WHERE id = 'm1'"), "NULL");
  // The game over: nothing due.
  ASSERT_TRUE(Append("m1", 2, 0, -1, -1).ok());
  EXPECT_EQ(Scalar("SELECT due_at FROM matches WHERE id = 'm1'"), "NULL");
}

// A match read carries how long the player's turn has left by the
// deadline the sweep times it out at: the stored due time, or a full turn
// after the service came back if later, clamped to the turn limit (a node's
// clock ahead of the database's); none for a CPU seat's turn or without a
// limit.
TEST_F(PgDueTurnsTest, TheMatchReadCarriesTheTurnsTimeLeft) {
  CreateMatch("m1", 30);
  ASSERT_TRUE(Append("m1", 1, 1, 0, 30'000).ok());  // p1 (seat 0) to move.
  auto left = [&](const std::string& id) {
    auto m = store_->GetMatch(id);
    EXPECT_TRUE(m.ok()) << m.status();
    return m.ok() ? m->turn_time_left_ms : -2;
  };
  auto timeout = [&] {
    auto claimed = due_->Claim("m1", 1, "A", kMinute, kMinute, 0, true);
    EXPECT_TRUE(claimed.ok()) << claimed.status();
    return claimed.ok() && *claimed;
  };
  EXPECT_GT(left("m1"), 29'000);
  EXPECT_LE(left("m1"), 30'000);
  Sql("UPDATE matches SET due_at = now() + interval '12 s'");
  EXPECT_GT(left("m1"), 11'000);
  EXPECT_LE(left("m1"), 12'000);
  Sql("UPDATE matches SET due_at = now() + interval '1 hour'");
  EXPECT_EQ(left("m1"), 30'000);  // Never more than a turn.

  // Passed an hour ago, but the service came back 10 s ago: 20 s to go,
  // and no timeout yet.
  Sql("UPDATE matches SET due_at = now() - interval '1 hour'");
  Sql("INSERT INTO service_resumed VALUES (1, now() - interval '10 s')");
  EXPECT_GT(left("m1"), 19'000);
  EXPECT_LE(left("m1"), 20'000);
  EXPECT_FALSE(timeout());
  Sql("UPDATE service_resumed SET at = now() - interval '31 s'");
  EXPECT_EQ(left("m1"), 0);
  EXPECT_TRUE(timeout());

  // The CPU seat to move: no player's turn to count down.
  ASSERT_TRUE(Append("m1", 2, 0, 1, 0, "A").ok());
  EXPECT_EQ(left("m1"), -1);
  CreateMatch("m2");  // No turn limit.
  ASSERT_TRUE(Append("m2", 1, 1, 0, -1).ok());
  EXPECT_EQ(left("m2"), -1);
}

TEST_F(PgDueTurnsTest, TwoClaimersOfOneTurnOneWins) {
  CreateMatch("m1");
  EXPECT_TRUE(Claim("A", "m1", 0));
  EXPECT_FALSE(Claim("B", "m1", 0));
  EXPECT_TRUE(Claim("A", "m1", 0));   // Renewed by its holder.
  EXPECT_FALSE(Claim("B", "m1", 1));  // Not at that ply.
  // At once, on many matches: exactly one winner each.
  constexpr int kMatches = 20;
  for (int i = 0; i < kMatches; ++i) CreateMatch("r" + std::to_string(i));
  std::barrier start(2);
  std::atomic<int> wins_a{0}, wins_b{0};
  auto claimer = [&](const std::string& node, std::atomic<int>& wins) {
    start.arrive_and_wait();
    for (int i = 0; i < kMatches; ++i) {
      auto won =
          due_->Claim("r" + std::to_string(i), 0, node, kMinute, kMinute);
      if (won.ok() && *won) ++wins;
    }
  };
  std::thread a([&] { claimer("A", wins_a); });
  std::thread b([&] { claimer("B", wins_b); });
  a.join();
  b.join();
  EXPECT_EQ(wins_a + wins_b, kMatches);
  EXPECT_EQ(Scalar("SELECT count(*) FROM matches WHERE id LIKE 'r%' AND "
                   "claim_node IS NOT NULL"),
            std::to_string(kMatches));
}

TEST_F(PgDueTurnsTest, ALapsedClaimIsTakenByAnotherNode) {
  CreateMatch("m1");
  EXPECT_TRUE(Claim("A", "m1", 0, /*ttl_ms=*/200));
  EXPECT_FALSE(Claim("B", "m1", 0));
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool taken = false;
  while (!taken && std::chrono::steady_clock::now() < deadline) {
    taken = Claim("B", "m1", 0);
    if (!taken) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(taken);
  EXPECT_EQ(Scalar("SELECT claim_node FROM matches WHERE id = 'm1'"), "B");
  EXPECT_FALSE(Claim("A", "m1", 0));
}

TEST_F(PgDueTurnsTest, ADeadOrRemovedNodesClaimsLapseAtOnce) {
  CreateMatch("m1");
  CreateMatch("m2");
  EXPECT_TRUE(Claim("A", "m1", 0));
  EXPECT_TRUE(Claim("A", "m2", 0));
  Sql("UPDATE nodes SET heartbeat_at = now() - interval '2 minutes' "
      "WHERE id = 'A'");
  EXPECT_TRUE(Claim("B", "m1", 0));  // A is dead: its claim counts no more.
  ASSERT_TRUE(nodes_->Heartbeat("A", kMinute).ok());
  EXPECT_FALSE(Claim("B", "m2", 0));      // A lives again, and so does m2's.
  ASSERT_TRUE(nodes_->Remove("A").ok());  // Drained.
  EXPECT_TRUE(Claim("B", "m2", 0));
}

TEST_F(PgDueTurnsTest, ACpuTurnClaimedWithItsMoveIsDueOnlyOnceItsNodeIsGone) {
  CreateMatch("m1");  // The CPU (seat 1) moves first: due at once.
  std::vector<DueTurn> due = Due();
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].match_id, "m1");
  EXPECT_EQ(due[0].ply, 0);
  EXPECT_EQ(due[0].seat, 1);
  EXPECT_EQ(due[0].reason, DueReason::kCpuSeat);
  // A plays the CPU move, then a player's move for which the CPU answers:
  // A claims that CPU turn in the same statement.
  ASSERT_TRUE(Append("m1", 1, 1, 0, -1).ok());
  ASSERT_TRUE(Append("m1", 2, 0, 1, 0, "A").ok());
  EXPECT_EQ(Scalar("SELECT claim_node || ' ' || claim_ply FROM matches"),
            "A 2");
  EXPECT_TRUE(Due().empty());
  EXPECT_FALSE(Claim("B", "m1", 2));
  ASSERT_TRUE(nodes_->Remove("A").ok());
  due = Due();
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].ply, 2);
  EXPECT_EQ(due[0].reason, DueReason::kCpuSeat);
  EXPECT_TRUE(Claim("B", "m1", 2));
  EXPECT_TRUE(Due().empty());
  // The move clears the claim.
  ASSERT_TRUE(Append("m1", 3, 1, 0, -1).ok());
  EXPECT_EQ(Scalar("SELECT claim_node FROM matches"), "NULL");
}

TEST_F(PgDueTurnsTest, APassedDeadlineIsATimeoutAndAnUnseenPlayerAStandIn) {
  CreateMatch("m1", 30);
  ASSERT_TRUE(Append("m1", 1, 1, 0, 30'000).ok());
  ASSERT_TRUE(due_->MarkSeen("m1", 0, "B").ok());
  EXPECT_TRUE(*due_->SeenWithin("m1", 0, kMinute));
  EXPECT_TRUE(Due().empty());  // Deadline ahead, player seen.
  // Unseen for longer than the grace: the CPU stands in.
  Sql("UPDATE seats SET seen_at = now() - interval '2 minutes' "
      "WHERE seat = 0");
  EXPECT_FALSE(*due_->SeenWithin("m1", 0, kMinute));
  std::vector<DueTurn> due = Due();
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].seat, 0);
  EXPECT_EQ(due[0].reason, DueReason::kStandIn);
  // The deadline passes: a timeout, which wins over absence.
  Sql("UPDATE matches SET due_at = now() - interval '1 second'");
  due = Due();
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].reason, DueReason::kTimeout);
  EXPECT_FALSE(due_->MarkSeen("m1", 7, "B").ok());
}

TEST_F(PgDueTurnsTest, AStandInIsRefusedWhileAnotherNodeSeesThePlayer) {
  CreateMatch("m1");
  ASSERT_TRUE(Append("m1", 1, 1, 0, -1).ok());  // Player p1's turn.
  ASSERT_TRUE(due_->MarkSeen("m1", 0, "A").ok());
  auto claim = [&](const std::string& node) {
    auto won = due_->Claim("m1", 1, node, kMinute, kMinute, kMinute);
    EXPECT_TRUE(won.ok()) << won.status();
    return won.ok() && *won;
  };
  EXPECT_FALSE(claim("B"));  // p1 is on A.
  EXPECT_TRUE(claim("A"));   // A's own view decides for A.
  Sql("UPDATE matches SET claim_node = NULL");
  Sql("UPDATE seats SET seen_at = now() - interval '2 minutes' "
      "WHERE seat = 0");
  EXPECT_TRUE(claim("B"));  // Unseen past the grace: absent everywhere.
}

TEST_F(PgDueTurnsTest, AnOutageNeverTimesAPlayerOut) {
  CreateMatch("m1", 30);
  ASSERT_TRUE(Append("m1", 1, 1, 0, 30'000).ok());
  ASSERT_TRUE(due_->MarkSeen("m1", 0, "A").ok());
  // A dies, and the deadline passes while it is dead.
  Sql("UPDATE nodes SET heartbeat_at = now() - interval '2 minutes' "
      "WHERE id = 'A'");
  Sql("UPDATE matches SET due_at = now() - interval '1 second'");
  EXPECT_TRUE(Due(/*grace_ms=*/10'000).empty());
  // The deadline is now + grace, and then it holds.
  const double left = std::stod(
      Scalar("SELECT extract(epoch FROM due_at - now()) FROM matches"));
  EXPECT_GT(left, 9.0);
  EXPECT_LE(left, 10.0);
  EXPECT_EQ(Scalar("SELECT seen_node FROM seats WHERE seat = 0"), "");
  Sql("UPDATE matches SET due_at = now() - interval '1 second'");
  std::vector<DueTurn> due = Due(10'000);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].reason, DueReason::kTimeout);
}

TEST_F(PgDueTurnsTest, TheFirstBeatAfterNoNodeWasAliveRecordsTheServiceBack) {
  EXPECT_EQ(Scalar("SELECT count(*) FROM service_resumed"), "0");
  Sql("UPDATE nodes SET heartbeat_at = now() - interval '2 minutes'");
  auto beat = nodes_->Heartbeat("C", kMinute);
  ASSERT_TRUE(beat.ok()) << beat.status();
  EXPECT_FALSE(*beat);  // No match in progress: nothing to start again.
  CreateMatch("m1");
  beat = nodes_->Heartbeat("E", kMinute);  // C is alive: it just beat.
  ASSERT_TRUE(beat.ok()) << beat.status();
  EXPECT_FALSE(*beat);
  EXPECT_EQ(Scalar("SELECT count(*) FROM service_resumed"), "0");
  // Everyone silent for 2 minutes (a database outage, the only node down)
  // with m1 in progress: the next beat, whoever's, finds the service back.
  Sql("UPDATE nodes SET heartbeat_at = now() - interval '2 minutes'");
  beat = nodes_->Heartbeat("B", kMinute);
  ASSERT_TRUE(beat.ok()) << beat.status();
  EXPECT_TRUE(*beat);
  EXPECT_EQ(Scalar("SELECT at > now() - interval '10 s' FROM service_resumed"),
            "t");
  beat = nodes_->Heartbeat("B", kMinute);
  EXPECT_FALSE(*beat);       // B's own last beat is recent.
  Sql("DELETE FROM nodes");  // Every node drained: a restart.
  beat = nodes_->Heartbeat("D", kMinute);
  EXPECT_TRUE(*beat);
  EXPECT_EQ(Scalar("SELECT count(*) FROM service_resumed"), "1");
}

// A match whose turn (limit 30 s) was due a minute ago and whose player
// was last seen 2 minutes ago, by a live node (so not the dead-node rule).
TEST_F(PgDueTurnsTest, NobodyPaysForTheTimeTheServiceWasAway) {
  CreateMatch("m1", 30);
  ASSERT_TRUE(Append("m1", 1, 1, 0, 30'000).ok());  // p1 (seat 0) to move.
  Sql("UPDATE matches SET due_at = now() - interval '1 minute'");
  Sql("UPDATE seats SET seen_node = 'B', seen_at = now() - "
      "interval '2 minutes' WHERE seat = 0");
  CreateMatch("m2");  // No turn limit: only presence counts.
  ASSERT_TRUE(Append("m2", 1, 1, 0, 0).ok());
  Sql("UPDATE seats SET seen_node = 'B', seen_at = now() - "
      "interval '2 minutes' WHERE match_id = 'm2' AND seat = 0");
  auto reasons = [&] {
    std::string out;
    for (const DueTurn& t : Due()) {
      out +=
          t.match_id + ":" + std::to_string(static_cast<int>(t.reason)) + " ";
    }
    return out;
  };
  auto claim = [&](const std::string& id, int64_t stand_in_grace_ms,
                   bool timeout) {
    auto claimed =
        due_->Claim(id, 1, "A", kMinute, kMinute, stand_in_grace_ms, timeout);
    EXPECT_TRUE(claimed.ok()) << claimed.status();
    return claimed.ok() && *claimed;
  };
  // The service never left: the deadline passed, p2's player is absent.
  EXPECT_EQ(reasons(), "m1:2 m2:3 ");

  // It came back just now: a fresh turn (30 s) and a fresh grace (1 min).
  Sql("INSERT INTO service_resumed VALUES (1, now())");
  EXPECT_EQ(reasons(), "");
  EXPECT_FALSE(claim("m1", 0, /*timeout=*/true));
  EXPECT_FALSE(claim("m2", kMinute, /*timeout=*/false));
  EXPECT_TRUE(claim("m2", 0, false));  // A CPU seat's turn is not held up.

  // 45 s ago: the fresh turn is over, the grace period not yet.
  Sql("UPDATE service_resumed SET at = now() - interval '45 seconds'");
  Sql("UPDATE matches SET claim_node = NULL, claim_ply = NULL, "
      "claim_until = NULL");  // No claim.
  EXPECT_EQ(reasons(), "m1:2 ");
  EXPECT_TRUE(claim("m1", 0, /*timeout=*/true));
  EXPECT_FALSE(claim("m2", kMinute, false));

  // 2 minutes ago: both count from their own times again.
  Sql("UPDATE service_resumed SET at = now() - interval '2 minutes'");
  Sql("UPDATE matches SET claim_node = NULL, claim_ply = NULL, "
      "claim_until = NULL");  // No claim.
  EXPECT_EQ(reasons(), "m1:2 m2:3 ");
  EXPECT_TRUE(claim("m2", kMinute, false));
}

// The database was away for 2 minutes (every beat silent that long) and
// comes back: a sweep's claim that gets through before any node's beat
// would charge the outage (the marks are 2 minutes old and no return is
// recorded yet), so it is refused; the first beat records the return and
// the claims then wait the fresh periods out. A CPU seat's turn is not
// held up.
TEST_F(PgDueTurnsTest, NoClaimChargesAnOutageBeforeABeatRecordsTheReturn) {
  CreateMatch("m1", 30);
  ASSERT_TRUE(Append("m1", 1, 1, 0, 30'000).ok());  // p1 (seat 0) to move.
  Sql("UPDATE matches SET due_at = now() - interval '1 minute'");
  Sql("UPDATE seats SET seen_node = 'B', seen_at = now() - "
      "interval '2 minutes' WHERE seat = 0");
  Sql("UPDATE nodes SET heartbeat_at = now() - interval '2 minutes'");
  auto claim = [&](int64_t stand_in_grace_ms, bool timeout) {
    auto claimed =
        due_->Claim("m1", 1, "A", kMinute, kMinute, stand_in_grace_ms, timeout);
    EXPECT_TRUE(claimed.ok()) << claimed.status();
    return claimed.ok() && *claimed;
  };
  EXPECT_FALSE(claim(kMinute, false));  // A stand-in.
  EXPECT_FALSE(claim(0, true));         // A timeout.
  auto beat = nodes_->Heartbeat("A", kMinute);
  ASSERT_TRUE(beat.ok()) << beat.status();
  EXPECT_TRUE(*beat);  // The return, recorded.
  EXPECT_FALSE(claim(kMinute, false));
  EXPECT_FALSE(claim(0, true));
  EXPECT_TRUE(claim(0, false));  // A CPU seat's turn.
}

}  // namespace
}  // namespace mancala::storage
