// Who is online on one node (services/cluster/online_players.h), on a
// manual clock: calls count for the grace period, streams while open and
// for the grace period after, the marks a heartbeat writes, and the
// site-wide count a cluster reads.

#include "services/cluster/online_players.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace mancala::services {
namespace {

constexpr int64_t kGraceMs = 20'000;

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(OnlinePlayersTest, ACallCountsForTheGracePeriod) {
  ManualClock clock(1'000'000);
  OnlinePlayers online(clock, kGraceMs);
  EXPECT_EQ(online.Count(), 0);
  online.Seen("p1");
  online.Seen("p1");
  online.Seen("p2");
  EXPECT_EQ(online.Count(), 2);
  clock.AdvanceMs(15'000);
  online.Seen("p2");  // p2 again: their period starts again.
  clock.AdvanceMs(5'000);
  EXPECT_EQ(online.Count(), 2);  // p1's last call exactly 20 s ago
  // Offline players are dropped at most once a second: a player counts
  // for the grace period and up to a second more.
  clock.AdvanceMs(1'000);
  EXPECT_EQ(online.Count(), 1);  // p1 gone, p2 called 6 s ago
  clock.AdvanceMs(15'000);
  EXPECT_EQ(online.Count(), 0);
}

TEST(OnlinePlayersTest, AStreamCountsWhileOpenAndForTheGracePeriodAfter) {
  ManualClock clock(1'000'000);
  OnlinePlayers online(clock, kGraceMs);
  online.Hold("p1");
  online.Hold("p1");  // Two tabs.
  clock.AdvanceMs(10 * kGraceMs);
  EXPECT_EQ(online.Count(), 1);
  online.Release("p1");
  clock.AdvanceMs(10 * kGraceMs);
  EXPECT_EQ(online.Count(), 1);  // The second tab is still open.
  online.Release("p1");
  clock.AdvanceMs(kGraceMs);
  EXPECT_EQ(online.Count(), 1);
  clock.AdvanceMs(1'000);
  EXPECT_EQ(online.Count(), 0);
}

TEST(OnlinePlayersTest, MarksAreWrittenAgainAfterAQuarterOfTheGracePeriod) {
  ManualClock clock(1'000'000);
  OnlinePlayers online(clock, kGraceMs);
  online.Seen("p1");
  online.Hold("p2");
  EXPECT_EQ(Sorted(online.TakeMarks()), (std::vector<std::string>{"p1", "p2"}));
  EXPECT_TRUE(online.TakeMarks().empty());  // Written just now.
  // p1 calls again 4 s later: their row is recent enough.
  clock.AdvanceMs(4'000);
  online.Seen("p1");
  EXPECT_TRUE(online.TakeMarks().empty());
  // 5.001 s after the write: p2's stream is still open, p1's last call is
  // 4 s after the write: only p2.
  clock.AdvanceMs(1'001);
  EXPECT_EQ(online.TakeMarks(), (std::vector<std::string>{"p2"}));
  // p1 calls 10 s after their write: written again.
  clock.AdvanceMs(5'000);
  online.Seen("p1");
  EXPECT_EQ(online.TakeMarks(), (std::vector<std::string>{"p1"}));
  // A failed write is tried again at the next beat.
  online.Seen("p3");
  std::vector<std::string> marks = online.TakeMarks();
  ASSERT_EQ(marks, (std::vector<std::string>{"p3"}));
  online.Unwritten(marks);
  EXPECT_EQ(online.TakeMarks(), (std::vector<std::string>{"p3"}));
  // Offline players are never written.
  online.Release("p2");
  clock.AdvanceMs(kGraceMs + 1);
  EXPECT_TRUE(online.TakeMarks().empty());
}

TEST(OnlinePlayersTest, TheSiteCountIsTheLargerOfTheSitesAndThisNodes) {
  ManualClock clock(1'000'000);
  OnlinePlayers online(clock, kGraceMs);
  online.Seen("p1");
  online.SetSiteCount(5);  // Players on other nodes too.
  EXPECT_EQ(online.Count(), 5);
  // Two arrive here before the next heartbeat: at least three now.
  online.SetSiteCount(0);
  online.Seen("p2");
  online.Seen("p3");
  EXPECT_EQ(online.Count(), 3);
}

}  // namespace
}  // namespace mancala::services
