// The turn clock's rules (services/match/turn_clock.h), one by one.

#include "services/match/turn_clock.h"

#include <gtest/gtest.h>

namespace mancala::services {
namespace {

constexpr int64_t kStart = 1'000'000;
constexpr int64_t kGrace = 20'000;

TEST(TurnClockTest, DeadlineIsTurnStartPlusLimitAndNoneWithoutLimit) {
  TurnClock limited(2, 30, kGrace);
  limited.StartMatch(kStart);
  EXPECT_EQ(limited.deadline_ms(), kStart + 30'000);
  limited.StartTurn(kStart + 7'000, /*game_over=*/false);
  EXPECT_EQ(limited.deadline_ms(), kStart + 37'000);
  limited.StartTurn(kStart + 8'000, /*game_over=*/true);
  EXPECT_EQ(limited.deadline_ms(), 0);

  TurnClock unlimited(2, 0, kGrace);
  unlimited.StartMatch(kStart);
  EXPECT_EQ(unlimited.deadline_ms(), 0);
}

TEST(TurnClockTest, CpuSeatThenTimeoutThenAbsenceDecideWhoMoves) {
  TurnClock clock(2, 60, kGrace);
  clock.StartMatch(kStart);
  bool began = false;
  EXPECT_EQ(clock.Due(0, /*cpu_seat=*/true, kStart, &began),
            CpuReason::kCpuSeat);
  EXPECT_EQ(clock.Due(0, false, kStart + kGrace - 1, &began), CpuReason::kNone);
  EXPECT_FALSE(began);
  // Absent (grace over) but the deadline not yet passed: the CPU stands in,
  // and says so once.
  EXPECT_EQ(clock.Due(0, false, kStart + kGrace, &began), CpuReason::kStandIn);
  EXPECT_TRUE(began);
  EXPECT_TRUE(clock.StandingIn(0));
  EXPECT_EQ(clock.Due(0, false, kStart + kGrace + 1, &began),
            CpuReason::kStandIn);
  EXPECT_FALSE(began);
  // A passed deadline wins over absence.
  EXPECT_EQ(clock.Due(0, false, kStart + 60'000, &began),
            CpuReason::kTurnTimeout);
}

TEST(TurnClockTest, OpenStreamKeepsPresentAndGraceRunsFromItsClose) {
  TurnClock clock(2, 0, kGrace);
  clock.StartMatch(kStart);
  clock.StreamOpened(1);
  EXPECT_TRUE(clock.Present(1, kStart + 10 * kGrace));
  clock.StreamClosed(1, kStart + 10 * kGrace);
  EXPECT_TRUE(clock.Present(1, kStart + 11 * kGrace - 1));
  EXPECT_FALSE(clock.Present(1, kStart + 11 * kGrace));
  // Announced once per change.
  EXPECT_TRUE(clock.PresenceChanged(1, kStart + 11 * kGrace));
  EXPECT_FALSE(clock.PresenceChanged(1, kStart + 11 * kGrace));
}

TEST(TurnClockTest, ReturningPlayerTakesTheSeatBack) {
  TurnClock clock(2, 0, kGrace);
  clock.StartMatch(kStart);
  bool began = false;
  ASSERT_EQ(clock.Due(0, false, kStart + kGrace, &began), CpuReason::kStandIn);
  EXPECT_TRUE(clock.Seen(0, kStart + kGrace + 5));
  EXPECT_FALSE(clock.StandingIn(0));
  EXPECT_FALSE(clock.Seen(0, kStart + kGrace + 6));  // Not stood in now.
  EXPECT_EQ(clock.Due(0, false, kStart + kGrace + 6, &began), CpuReason::kNone);
}

// Rule 7: a stand-in claimed from the store's sweep begins on a player this
// node still sees as present, once; the player's call ends it.
TEST(TurnClockTest, AStandInFromTheStoreBeginsOnceAndACallEndsIt) {
  TurnClock clock(2, 0, kGrace);
  clock.StartMatch(kStart);
  clock.StreamOpened(1);
  EXPECT_TRUE(clock.Streaming(1));
  EXPECT_FALSE(clock.Streaming(0));
  EXPECT_TRUE(clock.Present(0, kStart + 1));
  EXPECT_TRUE(clock.BeginStandIn(0));
  EXPECT_FALSE(clock.BeginStandIn(0));  // Announced once.
  EXPECT_TRUE(clock.StandingIn(0));
  EXPECT_TRUE(clock.Seen(0, kStart + 2));  // Back: the CPU stops.
  EXPECT_FALSE(clock.StandingIn(0));
  clock.StreamClosed(1, kStart + 3);
  EXPECT_FALSE(clock.Streaming(1));
}

// Rule 7: a cluster node's clock sees only its own streams and calls, so
// a stand-in it asks for is a candidate (the claim decides) and begins
// nothing; it shows a seat absent exactly while the CPU stands in for it,
// begun here once claimed or caught up, ended by the player's own move or
// call.
TEST(TurnClockTest, APartialViewBeginsNoStandInAndShowsOnlyStandIns) {
  TurnClock whole(2, 60, kGrace);
  TurnClock partial(2, 60, kGrace, /*partial_view=*/true);
  whole.StartMatch(kStart);
  partial.StartMatch(kStart);
  const int64_t later = kStart + kGrace + 1;  // No call or stream since.
  bool began = false;
  EXPECT_EQ(whole.Due(0, false, later, &began), CpuReason::kStandIn);
  EXPECT_TRUE(began);
  EXPECT_FALSE(whole.Present(0, later));
  EXPECT_EQ(partial.Due(0, false, later, &began), CpuReason::kStandIn);
  EXPECT_FALSE(began);
  EXPECT_FALSE(partial.StandingIn(0));
  EXPECT_TRUE(partial.Present(0, later));  // The player may be elsewhere.
  EXPECT_FALSE(partial.PresenceChanged(0, later));
  // The deadline still counts: the claim decides whether it may be played.
  EXPECT_EQ(partial.Due(0, false, kStart + 60'000, &began),
            CpuReason::kTurnTimeout);

  EXPECT_TRUE(partial.BeginStandIn(0));  // Claimed, or caught up.
  EXPECT_FALSE(partial.Present(0, later));
  EXPECT_FALSE(partial.PresenceChanged(0, later));  // Announced with it.
  EXPECT_TRUE(partial.Present(1, later));
  EXPECT_TRUE(partial.EndStandIn(0));  // The player moved on another node.
  EXPECT_FALSE(partial.EndStandIn(0));
  EXPECT_TRUE(partial.Present(0, later));
  EXPECT_FALSE(partial.PresenceChanged(0, later));
  EXPECT_TRUE(partial.BeginStandIn(1));
  EXPECT_TRUE(partial.Seen(1, later));  // A call here ends it too.
  EXPECT_TRUE(partial.Present(1, later));
}

TEST(TurnClockTest, OneCpuTurnPerPlyAndCancelStopsIt) {
  TurnClock clock(2, 0, kGrace);
  auto stop = clock.QueueCpuTurn(4);
  ASSERT_NE(stop, nullptr);
  EXPECT_EQ(clock.QueueCpuTurn(4), nullptr);
  clock.CpuTurnReturned(4);
  auto again = clock.QueueCpuTurn(4);
  ASSERT_NE(again, nullptr);
  clock.CancelCpuTurn();
  EXPECT_TRUE(again->load());
  EXPECT_FALSE(stop->load());  // The returned turn's flag is not touched.
  EXPECT_NE(clock.QueueCpuTurn(4), nullptr);
}

}  // namespace
}  // namespace mancala::services
