// MatchmakingService over a real channel, with the clock injected: casual
// first come first served, ranked windows that widen with the wait,
// fairness to the longest waiting, cancel and drop, one queue per player,
// the CPU fallback, and a hundred players queueing at once.

#include <set>

#include "services/wire/errors.h"
#include "tests/services/matchmaking/matchmaking_fixture.h"

namespace mancala::testing {
namespace {

using services::ErrorReason;

TEST_F(MatchmakingTest, TwoCasualPlayersGetOneMatchWithTheirSeats) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  FindClient fa(matchmaking_.get(), a, Kalah());
  ASSERT_TRUE(fa.WaitUpdates(1));
  ASSERT_TRUE(fa.events()[0].has_waiting());
  EXPECT_EQ(fa.events()[0].waiting().searching(), 1);
  EXPECT_EQ(Searching(v1::KALAH), 1);
  EXPECT_EQ(Searching(v1::OWARE), 0);
  FindClient fb(matchmaking_.get(), b, Kalah());
  int seat_a = -1, seat_b = -1;
  const std::string ma = fa.WaitFound(&seat_a), mb = fb.WaitFound(&seat_b);
  ASSERT_FALSE(ma.empty());
  EXPECT_EQ(ma, mb);
  EXPECT_EQ(seat_a, 0);  // Seats in order of arrival.
  EXPECT_EQ(seat_b, 1);
  v1::Match m = Get(ma);
  EXPECT_EQ(m.state(), v1::Match::IN_PROGRESS);
  EXPECT_EQ(m.seats(0).player(), a.name);
  EXPECT_EQ(m.seats(1).player(), b.name);
  EXPECT_FALSE(m.ranked());
  ASSERT_TRUE(fa.WaitDone());
  EXPECT_TRUE(fa.status().ok());
  EXPECT_EQ(Searching(), 0);
}

TEST_F(MatchmakingTest, OnlyTheSameOptionsAreMatched) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::FindMatchRequest five = Kalah();
  (*five.mutable_options())["seeds"] = "5";
  FindClient fa(matchmaking_.get(), a, Kalah());
  FindClient fb(matchmaking_.get(), b, five);
  WaitSearching(2);
  server_->Tick();
  EXPECT_EQ(Searching(), 2);
  // The default spelled out is the same queue as the default left out.
  TestPlayer c = NewPlayer("C");
  v1::FindMatchRequest four = Kalah();
  (*four.mutable_options())["seeds"] = "4";
  FindClient fc(matchmaking_.get(), c, four);
  EXPECT_EQ(fa.WaitFound(), fc.WaitFound());
}

// FindMatch checks its shape where CreateMatch does (match_shape.h):
// rotate_first_player is a match setting for every game, part of the queue.
TEST_F(MatchmakingTest, RotateFirstPlayerIsPartOfTheQueueShape) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B"), c = NewPlayer("C");
  v1::FindMatchRequest keep = Kalah();
  (*keep.mutable_options())["rotate_first_player"] = "off";
  FindClient fa(matchmaking_.get(), a, keep);
  FindClient fb(matchmaking_.get(), b, Kalah());
  WaitSearching(2);
  server_->Tick();
  EXPECT_EQ(Searching(), 2);
  FindClient fc(matchmaking_.get(), c, keep);
  const std::string found = fa.WaitFound();
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(fc.WaitFound(), found);
  v1::Match m = Get(found);
  EXPECT_FALSE(m.rotate_first_player());
  // A group setting, not a Kalah option: Match.options leaves it out.
  EXPECT_EQ(m.options().count("rotate_first_player"), 0u);
  // A value that is not on/off is refused, as in CreateMatch.
  TestPlayer d = NewPlayer("D");
  v1::FindMatchRequest bad = Kalah();
  (*bad.mutable_options())["rotate_first_player"] = "sometimes";
  FindClient fd(matchmaking_.get(), d, bad);
  ASSERT_TRUE(fd.WaitDone());
  EXPECT_EQ(fd.status().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ErrorReason(fd.status()), "INVALID_OPTION");
}

TEST_F(MatchmakingTest, RankedWindowWidensWithTheWait) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  Beat(a, b);  // About 1662 and 1338: 325 points apart.
  FindClient fa(matchmaking_.get(), a, Kalah(true));
  FindClient fb(matchmaking_.get(), b, Kalah(true));
  WaitSearching(2);
  // 100 + 10/s: 310 after 21 s, not enough; 330 after 23 s.
  clock_.AdvanceMs(21'000);
  server_->Tick();
  EXPECT_EQ(Searching(), 2);
  clock_.AdvanceMs(2'000);
  server_->Tick();
  const std::string m = fa.WaitFound();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(fb.WaitFound(), m);
  EXPECT_TRUE(Get(m).ranked());
}

TEST_F(MatchmakingTest, TheLongestWaitingIsNotSkippedByLaterArrivals) {
  TestPlayer old = NewPlayer("Old"), loser = NewPlayer("L");
  Beat(old, loser);  // Old: about 1662; newcomers: 1500 (162 apart).
  FindClient fo(matchmaking_.get(), old, Kalah(true));
  WaitSearching(1);
  // Two newcomers suit each other, not Old (window 100): they pair.
  TestPlayer x = NewPlayer("X"), y = NewPlayer("Y");
  FindClient fx(matchmaking_.get(), x, Kalah(true));
  WaitSearching(2);
  FindClient fy(matchmaking_.get(), y, Kalah(true));
  EXPECT_EQ(fx.WaitFound(), fy.WaitFound());
  WaitSearching(1);
  // After 7 s Old accepts 170 points. Two more newcomers arrive together:
  // Old, the longest waiting, gets the first of them; they do not pair.
  clock_.AdvanceMs(7'000);
  TestPlayer z = NewPlayer("Z"), w = NewPlayer("W");
  FindClient fz(matchmaking_.get(), z, Kalah(true));
  const std::string m = fo.WaitFound();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(fz.WaitFound(), m);
  FindClient fw(matchmaking_.get(), w, Kalah(true));
  WaitSearching(1);  // W waits for the next arrival.
}

TEST_F(MatchmakingTest, CancelAndDroppingLeaveTheQueue) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  FindClient fa(matchmaking_.get(), a, Kalah());
  WaitSearching(1);
  v1::CancelFindRequest req;
  v1::CancelFindResponse resp;
  auto ctx = Ctx(a.token);
  ASSERT_TRUE(matchmaking_->CancelFind(ctx.get(), req, &resp).ok());
  EXPECT_TRUE(resp.cancelled());
  ASSERT_TRUE(fa.WaitDone());
  EXPECT_EQ(fa.status().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(Searching(), 0);
  auto ctx2 = Ctx(a.token);
  ASSERT_TRUE(matchmaking_->CancelFind(ctx2.get(), req, &resp).ok());
  EXPECT_FALSE(resp.cancelled());
  {
    FindClient fb(matchmaking_.get(), b, Kalah());
    WaitSearching(1);
  }  // B's client closes the stream.
  WaitSearching(0);
}

TEST_F(MatchmakingTest, APlayerIsInOneQueueAtATime) {
  TestPlayer a = NewPlayer("A");
  FindClient first(matchmaking_.get(), a, Kalah());
  WaitSearching(1);
  v1::FindMatchRequest oware;
  oware.set_game(v1::OWARE);
  FindClient second(matchmaking_.get(), a, oware);
  ASSERT_TRUE(second.WaitDone());
  EXPECT_EQ(second.status().error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Searching(), 1);
  // Bad requests are refused with the reason.
  v1::FindMatchRequest bad = Kalah();
  bad.set_players(3);
  TestPlayer b = NewPlayer("B");
  FindClient third(matchmaking_.get(), b, bad);
  ASSERT_TRUE(third.WaitDone());
  EXPECT_EQ(third.status().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(MatchmakingTest, ACasualQueueOffersTheCpuAfterTheWait) {
  TestPlayer a = NewPlayer("A");
  v1::FindMatchRequest req = Kalah();
  req.set_accept_cpu_opponent(true);
  FindClient fa(matchmaking_.get(), a, req);
  WaitSearching(1);
  clock_.AdvanceMs(29'000);
  server_->Tick();
  EXPECT_EQ(Searching(), 1);
  clock_.AdvanceMs(1'000);
  server_->Tick();
  const std::string m = fa.WaitFound();
  ASSERT_FALSE(m.empty());
  v1::Match match = Get(m);
  EXPECT_EQ(match.seats(0).player(), a.name);
  EXPECT_EQ(match.seats(1).kind(), v1::Seat::CPU);
}

TEST_F(MatchmakingTest, FourPlayerBasicFormsAMatchOfFour) {
  std::vector<TestPlayer> p;
  std::vector<std::unique_ptr<FindClient>> finds;
  v1::FindMatchRequest req;
  req.set_game(v1::MANCALA_BASIC);
  req.set_players(4);
  for (int i = 0; i < 4; ++i) {
    p.push_back(NewPlayer("P" + std::to_string(i)));
    finds.push_back(
        std::make_unique<FindClient>(matchmaking_.get(), p[i], req));
    if (i < 3) WaitSearching(i + 1);
  }
  const std::string m = finds[0]->WaitFound();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(Get(m).board().sides_size(), 4);
}

TEST_F(MatchmakingTest, AHundredPlayersQueueAtOnceAndAreEachMatchedOnce) {
  constexpr int kPlayers = 100;
  std::vector<TestPlayer> players;
  for (int i = 0; i < kPlayers; ++i) players.push_back(NewPlayer());
  std::vector<std::unique_ptr<FindClient>> finds;
  std::vector<std::thread> starters;
  std::mutex mu;
  for (int t = 0; t < 4; ++t) {
    starters.emplace_back([&, t] {
      for (int i = t; i < kPlayers; i += 4) {
        auto f = std::make_unique<FindClient>(matchmaking_.get(), players[i],
                                              Kalah());
        std::lock_guard lock(mu);
        finds.push_back(std::move(f));
      }
    });
  }
  for (std::thread& t : starters) t.join();
  std::map<std::string, std::set<int>> seats_by_match;
  for (auto& f : finds) {
    int seat = -1;
    const std::string m = f->WaitFound(&seat);
    ASSERT_FALSE(m.empty());
    EXPECT_TRUE(seats_by_match[m].insert(seat).second) << m << " " << seat;
  }
  EXPECT_EQ(seats_by_match.size(), kPlayers / 2u);
  std::set<std::string> seated;
  for (const auto& [m, seats] : seats_by_match) {
    EXPECT_EQ(seats, (std::set<int>{0, 1}));
    v1::Match match = Get(m);
    for (const v1::Seat& s : match.seats()) {
      EXPECT_TRUE(seated.insert(s.player()).second) << s.player();
    }
  }
  EXPECT_EQ(seated.size(), static_cast<size_t>(kPlayers));
  EXPECT_EQ(Searching(), 0);
}

// Two nodes on one PostgreSQL database share one queue:
// node A is the fixture's server, node B a second one; the tests tick them
// by hand.
class TwoNodeMatchmakingTest : public MatchmakingTest {
 protected:
  void SetUp() override {
    MatchmakingTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (db_->backend() != Backend::kPostgres) {
      GTEST_SKIP() << "nodes share a queue on PostgreSQL only; SQLite is one "
                      "server per database (the postgres. variant runs this)";
    }
    auto b = services::Server::Start(Options());
    ASSERT_TRUE(b.ok()) << b.status();
    node_b_ = *std::move(b);
    matchmaking_b_ = v1::MatchmakingService::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(node_b_->port()),
                            grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    node_b_.reset();
    MatchmakingTest::TearDown();
  }
  static v1::QueueStats Stats(v1::MatchmakingService::Stub* node) {
    v1::QueueStats stats;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(10));
    EXPECT_TRUE(
        node->GetQueueStats(&ctx, v1::GetQueueStatsRequest(), &stats).ok());
    return stats;
  }
  std::unique_ptr<services::Server> node_b_;
  std::unique_ptr<v1::MatchmakingService::Stub> matchmaking_b_;
};

TEST_F(TwoNodeMatchmakingTest, SearchersOnTwoNodesArePairedIntoOneMatch) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  FindClient fa(matchmaking_.get(), a, Kalah());
  WaitSearching(1);
  FindClient fb(matchmaking_b_.get(), b, Kalah());
  // The node that claims the pair tells its own searcher at once and the
  // other node's on that node's next Tick. Mostly that is B, as b arrives;
  // but WaitSearching(1) sees a's row, not A's own claim after it, which a
  // loaded machine can run after b's row is in: then A pairs them.
  auto found = [](FindClient& f) {
    auto events = f.events();
    return !events.empty() && events.back().has_found();
  };
  ASSERT_TRUE(WaitUntil([&] {
    server_->Tick();
    node_b_->Tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return found(fa) && found(fb);
  }));
  int seat_a = -1, seat_b = -1;
  const std::string mb = fb.WaitFound(&seat_b);
  ASSERT_FALSE(mb.empty());
  EXPECT_EQ(seat_b, 1);
  EXPECT_EQ(fa.WaitFound(&seat_a), mb);
  EXPECT_EQ(seat_a, 0);   // Seats in order of arrival, across nodes.
  v1::Match m = Get(mb);  // Through A.
  EXPECT_EQ(m.state(), v1::Match::IN_PROGRESS);
  EXPECT_EQ(m.seats(0).player(), a.name);
  EXPECT_EQ(m.seats(1).player(), b.name);
  ASSERT_TRUE(fa.WaitDone());
  EXPECT_TRUE(fa.status().ok());
  EXPECT_EQ(Searching(), 0);
  EXPECT_EQ(Stats(matchmaking_b_.get()).searching(), 0);
}

TEST_F(TwoNodeMatchmakingTest, CancelFindOnTheOtherNodeEndsTheSearch) {
  TestPlayer a = NewPlayer("A");
  FindClient fa(matchmaking_.get(), a, Kalah());
  WaitSearching(1);
  EXPECT_EQ(Stats(matchmaking_b_.get()).searching(), 1);
  v1::CancelFindRequest req;
  v1::CancelFindResponse resp;
  auto ctx = Ctx(a.token);
  ASSERT_TRUE(matchmaking_b_->CancelFind(ctx.get(), req, &resp).ok());
  EXPECT_TRUE(resp.cancelled());
  EXPECT_EQ(Searching(), 0);
  server_->Tick();  // A sees the search gone and ends the stream.
  ASSERT_TRUE(fa.WaitDone());
  EXPECT_EQ(fa.status().error_code(), grpc::StatusCode::CANCELLED);
  // A search dropped on A leaves the queue for B too.
  {
    FindClient again(matchmaking_.get(), a, Kalah());
    WaitUntil([&] { return Stats(matchmaking_b_.get()).searching() == 1; });
    EXPECT_EQ(Stats(matchmaking_b_.get()).searching(), 1);
  }
  WaitUntil([&] { return Stats(matchmaking_b_.get()).searching() == 0; });
  EXPECT_EQ(Stats(matchmaking_b_.get()).searching(), 0);
}

TEST_F(TwoNodeMatchmakingTest, BothNodesCountTheWholeSite) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B"), c = NewPlayer("C");
  FindClient fa(matchmaking_.get(), a, Kalah());
  v1::FindMatchRequest oware;
  oware.set_game(v1::OWARE);
  FindClient fb(matchmaking_b_.get(), b, oware);
  WaitSearching(2);
  for (auto* node : {matchmaking_.get(), matchmaking_b_.get()}) {
    v1::QueueStats stats = Stats(node);
    EXPECT_EQ(stats.searching(), 2);
    ASSERT_EQ(stats.queues_size(), 2);
    std::map<v1::Game, int> by_game;
    for (const auto& q : stats.queues()) {
      by_game[q.game()] = q.searching();
      EXPECT_EQ(q.players(), 2);
      EXPECT_FALSE(q.ranked());
    }
    EXPECT_EQ(by_game[v1::KALAH], 1);
    EXPECT_EQ(by_game[v1::OWARE], 1);
  }
  // The QueueState a searcher gets counts the other node's searchers too:
  // a four-seat queue with one searcher on each node.
  v1::FindMatchRequest basic;
  basic.set_game(v1::MANCALA_BASIC);
  basic.set_players(4);
  FindClient fc(matchmaking_.get(), c, basic);
  WaitSearching(3);
  FindClient fd(matchmaking_b_.get(), NewPlayer("D"), basic);
  WaitSearching(4);
  clock_.AdvanceMs(1'000);
  server_->Tick();
  EXPECT_TRUE(fc.WaitFor([](const auto& events, bool done) {
    return done || (!events.empty() && events.back().has_waiting() &&
                    events.back().waiting().searching() == 2);
  })) << "node A's searcher was never told 2 were searching";
}

}  // namespace
}  // namespace mancala::testing
