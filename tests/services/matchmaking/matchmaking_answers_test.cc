// What MatchmakingService answers, exactly as a client reads it: the
// codes, ErrorInfo reasons and messages of its refusals and of the ends of
// a FindMatch stream, the QueueState numbers, and the GetQueueStats listing
// field by field. The domain/edge split (services/matchmaking/matchmaker.h
// builds no protos) must leave all of it unchanged.

#include <map>
#include <string>

#include "services/wire/errors.h"
#include "tests/services/matchmaking/matchmaking_fixture.h"

namespace mancala::testing {
namespace {

using services::ErrorReason;

class MatchmakingAnswersTest : public MatchmakingTest {};

TEST_F(MatchmakingAnswersTest, RefusalsKeepTheirCodesReasonsAndMessages) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::FindMatchRequest ranked_cpu = Kalah(/*ranked=*/true);
  ranked_cpu.set_accept_cpu_opponent(true);
  FindClient refused(matchmaking_.get(), a, ranked_cpu);
  ASSERT_TRUE(refused.WaitDone());
  EXPECT_EQ(refused.status().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ErrorReason(refused.status()), "INVALID_ARGUMENT");
  EXPECT_EQ(refused.status().error_message(),
            "accept_cpu_opponent is for casual queues only; ranked matches "
            "against the CPU are never rated");
  EXPECT_TRUE(refused.events().empty());

  FindClient no_game(matchmaking_.get(), a, v1::FindMatchRequest());
  ASSERT_TRUE(no_game.WaitDone());
  EXPECT_EQ(no_game.status().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ErrorReason(no_game.status()), "INVALID_ARGUMENT");

  FindClient first(matchmaking_.get(), a, Kalah());
  WaitSearching(1);
  FindClient second(matchmaking_.get(), a, Kalah());
  ASSERT_TRUE(second.WaitDone());
  EXPECT_EQ(second.status().error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ErrorReason(second.status()), "ALREADY_SEARCHING");
  EXPECT_EQ(second.status().error_message(),
            "you are already searching for a match; cancel that search first");
  // The refused second search left the first one in place.
  EXPECT_EQ(Stats().searching(), 1);
  // B was never searching: nothing to cancel, and no error.
  v1::CancelFindResponse resp;
  auto ctx = Ctx(b.token);
  ASSERT_TRUE(
      matchmaking_->CancelFind(ctx.get(), v1::CancelFindRequest(), &resp).ok());
  EXPECT_FALSE(resp.cancelled());
}

// CancelFind ends the stream as gRPC's own cancellations do: CANCELLED
// with a message and no ErrorInfo.
TEST_F(MatchmakingAnswersTest, CancelEndsTheStreamCancelledWithoutReason) {
  TestPlayer a = NewPlayer("A");
  FindClient fa(matchmaking_.get(), a, Kalah());
  WaitSearching(1);
  v1::CancelFindResponse resp;
  auto ctx = Ctx(a.token);
  ASSERT_TRUE(
      matchmaking_->CancelFind(ctx.get(), v1::CancelFindRequest(), &resp).ok());
  EXPECT_TRUE(resp.cancelled());
  ASSERT_TRUE(fa.WaitDone());
  EXPECT_EQ(fa.status().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(fa.status().error_message(), "you left the queue (CancelFind)");
  EXPECT_EQ(fa.status().error_details(), "");
}

TEST_F(MatchmakingAnswersTest, ShutdownEndsSearchesWithShuttingDown) {
  TestPlayer a = NewPlayer("A");
  FindClient fa(matchmaking_.get(), a, Kalah());
  WaitSearching(1);
  server_->Shutdown();
  ASSERT_TRUE(fa.WaitDone());
  EXPECT_EQ(fa.status().error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(ErrorReason(fa.status()), "SHUTTING_DOWN");
  EXPECT_EQ(fa.status().error_message(), "server shutting down; search again");
}

// QueueState: the count, the whole seconds waited and, ranked only, the
// window (100 points + 10 per second waited, the fixture's options).
TEST_F(MatchmakingAnswersTest, QueueStateCountsTheWaitAndTheWindow) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  FindClient ranked(matchmaking_.get(), a, Kalah(/*ranked=*/true));
  ASSERT_TRUE(ranked.WaitUpdates(1));
  ASSERT_TRUE(ranked.events()[0].has_waiting());
  EXPECT_EQ(ranked.events()[0].waiting().searching(), 1);
  EXPECT_EQ(ranked.events()[0].waiting().waited_seconds(), 0);
  EXPECT_DOUBLE_EQ(ranked.events()[0].waiting().rating_window(), 100.0);
  v1::FindMatchRequest oware;
  oware.set_game(v1::OWARE);
  FindClient casual(matchmaking_.get(), b, oware);
  ASSERT_TRUE(casual.WaitUpdates(1));
  clock_.AdvanceMs(5'500);  // The periodic update is due (5 s).
  server_->Tick();
  ASSERT_TRUE(ranked.WaitUpdates(2));
  // A copy: events() returns the updates by value.
  const v1::QueueState later = ranked.events()[1].waiting();
  EXPECT_EQ(later.searching(), 1);  // Only its own queue counts.
  EXPECT_EQ(later.waited_seconds(), 5);
  EXPECT_DOUBLE_EQ(later.rating_window(), 155.0);
  ASSERT_TRUE(casual.WaitUpdates(2));
  EXPECT_EQ(casual.events()[1].waiting().waited_seconds(), 5);
  EXPECT_EQ(casual.events()[1].waiting().rating_window(), 0.0);
}

TEST_F(MatchmakingAnswersTest, QueueStatsListEachQueueWithItsShape) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::FindMatchRequest kalah = Kalah(/*ranked=*/true);
  (*kalah.mutable_options())["seeds"] = "5";
  (*kalah.mutable_options())["rotate_first_player"] = "off";
  kalah.set_turn_time_limit_seconds(30);
  FindClient fa(matchmaking_.get(), a, kalah);
  v1::FindMatchRequest basic;
  basic.set_game(v1::MANCALA_BASIC);
  basic.set_players(3);
  FindClient fb(matchmaking_.get(), b, basic);
  WaitSearching(2);

  const v1::QueueStats all = Stats();
  EXPECT_EQ(all.searching(), 2);
  ASSERT_EQ(all.queues_size(), 2);
  std::map<v1::Game, v1::QueueStats::Queue> by_game;
  for (const auto& q : all.queues()) by_game[q.game()] = q;
  const v1::QueueStats::Queue& k = by_game[v1::KALAH];
  EXPECT_EQ(k.players(), 2);
  EXPECT_TRUE(k.ranked());
  EXPECT_EQ(k.turn_time_limit_seconds(), 30);
  EXPECT_EQ(k.searching(), 1);
  // Every rule option with its effective value, as a match of that shape
  // has them; rotate_first_player is not a rule option.
  v1::Match vs_cpu;
  ASSERT_TRUE(
      NewMatchVsCpu(a, v1::KALAH, &vs_cpu, false, {{"seeds", "5"}}).ok());
  using Options = std::map<std::string, std::string>;
  EXPECT_EQ(Options(k.options().begin(), k.options().end()),
            Options(vs_cpu.options().begin(), vs_cpu.options().end()));
  EXPECT_EQ(k.options().at("seeds"), "5");
  EXPECT_EQ(k.options().count("rotate_first_player"), 0u);
  const v1::QueueStats::Queue& m = by_game[v1::MANCALA_BASIC];
  EXPECT_EQ(m.players(), 3);
  EXPECT_FALSE(m.ranked());
  EXPECT_EQ(m.turn_time_limit_seconds(), 0);
  EXPECT_EQ(m.searching(), 1);

  const v1::QueueStats basic_only = Stats(v1::MANCALA_BASIC);
  EXPECT_EQ(basic_only.searching(), 1);
  ASSERT_EQ(basic_only.queues_size(), 1);
  EXPECT_EQ(basic_only.queues(0).game(), v1::MANCALA_BASIC);
  EXPECT_EQ(Stats(v1::OWARE).queues_size(), 0);
  EXPECT_EQ(Stats(v1::OWARE).searching(), 0);
}

}  // namespace
}  // namespace mancala::testing
