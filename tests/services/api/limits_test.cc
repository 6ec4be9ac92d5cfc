// Limits against hostile or broken clients (README "Limits"): message
// size, watchers per match, creations per address, rate-limited log lines,
// and where the admin token comes from.

#include <filesystem>
#include <fstream>

#include "services/admin_token.h"
#include "services/api/peer_limiter.h"
#include "services/wire/errors.h"
#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

class LimitsTest : public ServiceTest {};

TEST_F(LimitsTest, ARequestOverTheMessageLimitIsResourceExhausted) {
  configure_ = [](services::ServerOptions& o) { o.max_message_bytes = 1024; };
  StartServer();
  v1::CreatePlayerRequest req;
  req.set_display_name(std::string(2000, 'x'));
  v1::CreatePlayerResponse resp;
  auto ctx = Ctx();
  EXPECT_EQ(players_->CreatePlayer(ctx.get(), req, &resp).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  NewPlayer("Small");  // Under the limit: fine.
}

TEST_F(LimitsTest, WatchersPerMatchAreCapped) {
  configure_ = [](services::ServerOptions& o) { o.max_watchers_per_match = 2; };
  StartServer();
  TestPlayer a = NewPlayer("A");
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(a, v1::KALAH, &m).ok());
  auto first = [](const auto& events, bool) { return !events.empty(); };
  WatchClient w1(matches_.get(), m.name());
  {
    WatchClient w2(matches_.get(), m.name());
    ASSERT_TRUE(w1.WaitFor(first));
    ASSERT_TRUE(w2.WaitFor(first));
    WatchClient w3(matches_.get(), m.name());
    ASSERT_TRUE(w3.WaitDone());
    EXPECT_EQ(w3.status().error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_EQ(services::ErrorReason(w3.status()), "TOO_MANY_WATCHERS");
  }
  // One left: there is room again.
  ASSERT_TRUE(WaitUntil([&] { return server_->WatcherCount(m.name()) == 1; }));
  WatchClient w4(matches_.get(), m.name());
  EXPECT_TRUE(w4.WaitFor(first));
}

TEST_F(LimitsTest, CreationsPerAddressRefillOverTime) {
  configure_ = [](services::ServerOptions& o) {
    o.create_burst = 3;
    o.create_per_minute = 60;  // One a second.
  };
  StartServer();
  TestPlayer a = NewPlayer("A");  // 1
  NewPlayer("B");                 // 2
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(a, v1::KALAH, &m).ok());  // 3: matches count.
  v1::CreatePlayerResponse resp;
  auto ctx = Ctx();
  grpc::Status s = players_->CreatePlayer(ctx.get(), {}, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(services::ErrorReason(s), "RATE_LIMITED");
  EXPECT_EQ(NewMatchVsCpu(a, v1::KALAH, &m).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  clock_.AdvanceMs(1000);  // One token back.
  EXPECT_TRUE(NewMatchVsCpu(a, v1::KALAH, &m).ok());
  EXPECT_EQ(NewMatchVsCpu(a, v1::KALAH, &m).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

// One CPU thread; client A queues four long level-4 turns, then client B
// one level-1 turn: B's is played second (round robin), not fifth (FIFO).
TEST_F(LimitsTest, CpuTurnsAreServedRoundRobinAcrossClients) {
  cpu_threads_ = 1;
  cpu_budget_ms_ = {1, 1, 1, 2000};
  StartServer();
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  std::vector<std::string> a_matches;
  for (int i = 0; i < 4; ++i) {
    v1::Match m;
    ASSERT_TRUE(
        NewMatchVsCpu(a, v1::KALAH, &m, /*cpu_first=*/true, {}, 4).ok());
    a_matches.push_back(m.name());
  }
  v1::Match mine;
  ASSERT_TRUE(
      NewMatchVsCpu(b, v1::KALAH, &mine, /*cpu_first=*/true, {}, 1).ok());
  ASSERT_TRUE(WaitUntil([&] { return Get(mine.name()).ply() >= 1; }));
  int a_done = 0;
  for (const std::string& m : a_matches) a_done += Get(m).ply() >= 1;
  EXPECT_LE(a_done, 2) << "B's CPU move waited for A's queue";
}

TEST(PeerLimiter, HostDropsTheSchemeAndThePort) {
  using services::PeerLimiter;
  EXPECT_EQ(PeerLimiter::Host("ipv4:127.0.0.1:5000"), "127.0.0.1");
  EXPECT_EQ(PeerLimiter::Host("ipv6:[::1]:5000"), "[::1]");
  EXPECT_EQ(PeerLimiter::Host("unix:mancala.sock"), "mancala.sock");
}

TEST(AdminToken, FromAFileOrTheEnvironmentOnceFlagStillWorks) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("mancala_admin_token_" + std::to_string(::getpid()));
  std::ofstream(file) << "s3cret\nsecond line ignored\n";
  EXPECT_EQ(*services::AdminToken(file.string(), nullptr, ""), "s3cret");
  EXPECT_EQ(*services::AdminToken("", "from-env", ""), "from-env");
  EXPECT_EQ(*services::AdminToken("", "", "flag"), "flag");  // Warns.
  EXPECT_EQ(*services::AdminToken("", nullptr, ""), "");     // Admin API off.
  EXPECT_FALSE(services::AdminToken(file.string(), "from-env", "").ok());
  EXPECT_FALSE(services::AdminToken("", "from-env", "flag").ok());
  std::ofstream(file) << "\n";
  EXPECT_FALSE(services::AdminToken(file.string(), nullptr, "").ok());
  std::filesystem::remove(file);
  EXPECT_FALSE(services::AdminToken(file.string(), nullptr, "").ok());
}

}  // namespace
}  // namespace mancala::testing
