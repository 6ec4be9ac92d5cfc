// Matches waiting for players (README "Limits"): at most
// --max-waiting-matches-per-player of them per creator, each cancelled
// (cancel_reason EXPIRED) --waiting-match-ttl-seconds after its creation,
// also across a restart; and CreateMatch's request id (AIP-155): a retry
// returns the first match, also after a restart. Times run on the
// ManualClock; the tests call Tick() as the server's ticker would.

#include <google/protobuf/util/time_util.h>

#include "services/match/waiting_expiry.h"
#include "services/wire/errors.h"
#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

using google::protobuf::util::TimeUtil;
using services::ErrorReason;

constexpr int64_t kTtlMs = 60'000;

class WaitingMatchesTest : public ServiceTest {
 protected:
  void SetUp() override {
    configure_ = [](services::ServerOptions& o) {
      o.max_waiting_matches_per_player = 2;
      o.waiting_match_ttl = std::chrono::seconds(kTtlMs / 1000);
    };
    ServiceTest::SetUp();
  }

  // CreateMatch of `creator` (seat 0) with one OPEN seat, or a CPU seat.
  grpc::Status Create(const TestPlayer& creator, v1::Match* out,
                      const std::string& request_id = "", bool open = true,
                      v1::Game game = v1::KALAH) {
    v1::CreateMatchRequest req;
    req.set_game(game);
    req.set_request_id(request_id);
    v1::Seat* mine = req.add_seats();
    mine->set_kind(v1::Seat::PLAYER);
    mine->set_player(creator.name);
    req.add_seats()->set_kind(open ? v1::Seat::OPEN : v1::Seat::CPU);
    auto ctx = Ctx(creator.token);
    return matches_->CreateMatch(ctx.get(), req, out);
  }
  grpc::Status Cancel(const TestPlayer& p, const std::string& match) {
    v1::CancelMatchRequest req;
    req.set_name(match);
    v1::Match out;
    auto ctx = Ctx(p.token);
    return matches_->CancelMatch(ctx.get(), req, &out);
  }
};

TEST_F(WaitingMatchesTest, ACreatorHoldsAtMostTheLimitOfWaitingMatches) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match first, second, out;
  ASSERT_TRUE(Create(a, &first).ok());
  ASSERT_TRUE(Create(a, &second).ok());
  grpc::Status s = Create(a, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ErrorReason(s), "TOO_MANY_WAITING_MATCHES");
  // Matches that start at once do not wait, and others have their own cap.
  EXPECT_TRUE(Create(a, &out, "", /*open=*/false).ok());
  EXPECT_TRUE(Create(b, &out).ok());
  // A match that starts (its seat taken) or is cancelled frees a place.
  ASSERT_TRUE(Join(b, first.invite_code(), &out).ok());
  EXPECT_EQ(out.state(), v1::Match::IN_PROGRESS);
  ASSERT_TRUE(Create(a, &out).ok());
  EXPECT_EQ(ErrorReason(Create(a, &out)), "TOO_MANY_WAITING_MATCHES");
  ASSERT_TRUE(Cancel(a, second.name()).ok());
  EXPECT_TRUE(Create(a, &out).ok());
}

TEST_F(WaitingMatchesTest, AWaitingMatchExpiresAfterItsTimeAndTellsWatchers) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match m, other;
  ASSERT_TRUE(Create(a, &m).ok());
  clock_.AdvanceMs(10'000);
  ASSERT_TRUE(Create(a, &other).ok());  // Expires 10 s later.
  WatchClient watcher(matches_.get(), m.name());
  ASSERT_TRUE(watcher.WaitFor([](const auto& e, bool) { return !e.empty(); }));

  clock_.AdvanceMs(kTtlMs - 10'000 - 1);  // 1 ms before m's time.
  server_->Tick();
  EXPECT_EQ(Get(m.name()).state(), v1::Match::WAITING);
  clock_.AdvanceMs(1);
  server_->Tick();
  v1::Match expired = Get(m.name());
  EXPECT_EQ(expired.state(), v1::Match::CANCELLED);
  EXPECT_EQ(expired.cancel_reason(), v1::Match::EXPIRED);
  EXPECT_EQ(TimeUtil::TimestampToMilliseconds(expired.end_time()),
            TimeUtil::TimestampToMilliseconds(m.create_time()) + kTtlMs);
  EXPECT_EQ(expired.invite_code(), "");
  EXPECT_EQ(Get(other.name()).state(), v1::Match::WAITING);

  // The watcher's last event is the cancelled match (`finished`); its
  // stream ends OK.
  ASSERT_TRUE(watcher.WaitDone());
  EXPECT_TRUE(watcher.status().ok()) << watcher.status().error_message();
  const v1::WatchEvent last = watcher.events().back();
  ASSERT_TRUE(last.has_finished());
  EXPECT_EQ(last.finished().state(), v1::Match::CANCELLED);
  EXPECT_EQ(last.finished().cancel_reason(), v1::Match::EXPIRED);

  // The code is free: it finds nothing now.
  v1::Match out;
  grpc::Status s = Join(b, m.invite_code(), &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ErrorReason(s), "INVITE_NOT_FOUND");
  // A place is free again under the cap of 2.
  EXPECT_TRUE(Create(a, &out).ok());
  clock_.AdvanceMs(10'000);
  server_->Tick();
  EXPECT_EQ(Get(other.name()).cancel_reason(), v1::Match::EXPIRED);
  // A creator's cancel says so.
  ASSERT_TRUE(Cancel(a, out.name()).ok());
  EXPECT_EQ(Get(out.name()).cancel_reason(), v1::Match::CREATOR_CANCELLED);
}

TEST_F(WaitingMatchesTest, AStartedMatchDoesNotExpire) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match m, out;
  ASSERT_TRUE(Create(a, &m).ok());
  ASSERT_TRUE(Join(b, m.invite_code(), &out).ok());
  clock_.AdvanceMs(kTtlMs);
  server_->Tick();
  // Both players are absent by now, so CPU stand-ins may already be
  // playing the match out (even to its end): it must not be cancelled.
  v1::Match now = Get(m.name());
  EXPECT_TRUE(now.state() == v1::Match::IN_PROGRESS ||
              now.state() == v1::Match::FINISHED)
      << v1::Match::State_Name(now.state());
  EXPECT_EQ(now.cancel_reason(), v1::Match::CANCEL_REASON_UNSPECIFIED);
}

// The time counts from the stored creation, not from the server's start.
TEST_F(WaitingMatchesTest, AMatchWaitingBeforeARestartStillExpires) {
  TestPlayer a = NewPlayer("A");
  v1::Match m, gone;
  ASSERT_TRUE(Create(a, &gone).ok());
  clock_.AdvanceMs(30'000);
  ASSERT_TRUE(Create(a, &m).ok());
  clock_.AdvanceMs(kTtlMs - 30'000);  // gone's time passes while down.
  StartServer();
  // Expired at start-up, before any tick.
  EXPECT_EQ(Get(gone.name()).cancel_reason(), v1::Match::EXPIRED);
  clock_.AdvanceMs(30'000 - 1);
  server_->Tick();
  EXPECT_EQ(Get(m.name()).state(), v1::Match::WAITING);
  clock_.AdvanceMs(1);
  server_->Tick();
  EXPECT_EQ(Get(m.name()).state(), v1::Match::CANCELLED);
  EXPECT_EQ(Get(m.name()).cancel_reason(), v1::Match::EXPIRED);
}

TEST_F(WaitingMatchesTest, ZeroTimeMeansAWaitingMatchNeverExpires) {
  configure_ = [](services::ServerOptions& o) {
    o.waiting_match_ttl = std::chrono::seconds(0);
  };
  StartServer();
  TestPlayer a = NewPlayer("A");
  v1::Match m;
  ASSERT_TRUE(Create(a, &m).ok());
  clock_.AdvanceMs(int64_t{365} * 86'400'000);
  server_->Tick();
  EXPECT_EQ(Get(m.name()).state(), v1::Match::WAITING);
}

TEST_F(WaitingMatchesTest, ARetriedRequestIdReturnsTheFirstMatch) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match first, again, other;
  ASSERT_TRUE(Create(a, &first, "req-1").ok());
  ASSERT_TRUE(Create(a, &again, "req-1").ok());
  EXPECT_EQ(again.name(), first.name());
  EXPECT_EQ(again.invite_code(), first.invite_code());
  // Only one match was made: a second waiting match still fits the cap.
  ASSERT_TRUE(Create(a, &other).ok());
  EXPECT_NE(other.name(), first.name());
  // The same id with a different request is refused.
  v1::Match out;
  grpc::Status s = Create(a, &out, "req-1", /*open=*/true, v1::OWARE);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ErrorReason(s), "REQUEST_ID_REUSED");
  // Another player's equal id is their own.
  ASSERT_TRUE(Create(b, &out, "req-1").ok());
  EXPECT_NE(out.name(), first.name());
  // A retry finds the match as it is now; the cap does not refuse it.
  ASSERT_TRUE(Join(b, first.invite_code(), &out).ok());
  StartServer();
  ASSERT_TRUE(Create(a, &again, "req-1").ok());
  EXPECT_EQ(again.name(), first.name());
  EXPECT_EQ(again.state(), v1::Match::IN_PROGRESS);
  // And the same for a match that started at once.
  ASSERT_TRUE(Create(a, &first, "req-2", /*open=*/false).ok());
  ASSERT_TRUE(Create(a, &again, "req-2", /*open=*/false).ok());
  EXPECT_EQ(again.name(), first.name());
}

TEST(WaitingExpiryTest, TakesOnlyWhatIsDueEarliestFirst) {
  services::WaitingExpiry expiry;
  expiry.Add("c", 300);
  expiry.Add("a", 100);
  expiry.Add("b", 200);
  expiry.Add("a", 100);  // Once.
  EXPECT_EQ(expiry.size(), 3u);
  EXPECT_TRUE(expiry.TakeDue(99).empty());
  EXPECT_EQ(expiry.TakeDue(200), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(expiry.size(), 1u);
  EXPECT_EQ(expiry.TakeDue(1000), (std::vector<std::string>{"c"}));
  EXPECT_EQ(expiry.size(), 0u);
}

}  // namespace
}  // namespace mancala::testing
