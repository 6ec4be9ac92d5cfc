// Matches as a game site runs them: invites, cancel, the turn clock,
// dropped players and the CPU stand-in, resign, rematch, watching, and
// moves that arrive twice or late. The clock is a ManualClock; Tick() is
// called by hand, so no test waits for a real turn limit.

#include <google/protobuf/util/message_differencer.h>
#include <google/protobuf/util/time_util.h>

#include <numeric>

#include "services/wire/errors.h"
#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

using google::protobuf::util::MessageDifferencer;
using google::protobuf::util::TimeUtil;
using services::ErrorReason;

class LifecycleTest : public ServiceTest {
 protected:
  // A Kalah match between two people, `a` in seat 0 and `b` in seat 1.
  v1::Match GetAs(const TestPlayer& p, const std::string& match) {
    v1::GetMatchRequest req;
    req.set_name(match);
    v1::Match out;
    auto ctx = Ctx(p.token);
    EXPECT_TRUE(matches_->GetMatch(ctx.get(), req, &out).ok());
    return out;
  }
  // Waits until the match reaches `ply` (CPU moves are asynchronous).
  v1::Match WaitForPly(const std::string& match, int64_t ply) {
    v1::Match m;
    WaitUntil([&] {
      m = Get(match);
      return m.ply() >= ply;
    });
    return m;
  }
  std::vector<v1::Move> Moves(const std::string& match) {
    v1::ListMovesRequest req;
    req.set_parent(match);
    req.set_page_size(1000);
    v1::ListMovesResponse resp;
    auto ctx = Ctx();
    EXPECT_TRUE(matches_->ListMoves(ctx.get(), req, &resp).ok());
    return {resp.moves().begin(), resp.moves().end()};
  }
  grpc::Status Resign(const TestPlayer& p, const std::string& match,
                      v1::Match* out) {
    v1::ResignRequest req;
    req.set_name(match);
    auto ctx = Ctx(p.token);
    return matches_->Resign(ctx.get(), req, out);
  }
  int64_t DeadlineMs(const v1::Match& m) {
    return TimeUtil::TimestampToMilliseconds(m.turn_deadline());
  }
};

TEST_F(LifecycleTest, InviteCodeFillsTheOpenSeatAndStartsTheMatch) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B"), c = NewPlayer("C");
  v1::Match m = WithOpenSeat(a);
  EXPECT_EQ(m.state(), v1::Match::WAITING);
  EXPECT_EQ(m.invite_code().size(), 8u);
  EXPECT_EQ(m.to_move(), -1);
  EXPECT_TRUE(m.legal_pits().empty());
  v1::SubmitMoveResponse resp;
  grpc::Status s = Move(a, m.name(), 0, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ErrorReason(s), "MATCH_NOT_STARTED");

  v1::Match joined;
  ASSERT_TRUE(Join(b, m.invite_code(), &joined).ok());
  EXPECT_EQ(joined.state(), v1::Match::IN_PROGRESS);
  EXPECT_EQ(joined.seats(1).kind(), v1::Seat::PLAYER);
  EXPECT_EQ(joined.seats(1).player(), b.name);
  EXPECT_EQ(joined.seats(1).display_name(), "B");
  EXPECT_TRUE(joined.invite_code().empty());
  EXPECT_EQ(joined.to_move(), 0);
  // The last open seat is taken: the code still finds the match, full.
  s = Join(c, m.invite_code(), &joined);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ErrorReason(s), "MATCH_FULL");
  EXPECT_TRUE(Move(a, m.name(), 0, &resp).ok());
}

TEST_F(LifecycleTest, NobodyHoldsTwoSeatsInARankedMatch) {
  TestPlayer a = NewPlayer("A");
  v1::CreateMatchRequest req;
  req.set_game(v1::KALAH);
  req.set_ranked(true);
  for (int i = 0; i < 2; ++i) {
    req.add_seats()->set_kind(v1::Seat::PLAYER);
    req.mutable_seats(i)->set_player(a.name);
  }
  v1::Match m;
  auto c1 = Ctx(a.token);
  grpc::Status s = matches_->CreateMatch(c1.get(), req, &m);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  req.mutable_seats(1)->set_kind(v1::Seat::OPEN);
  auto c2 = Ctx(a.token);
  ASSERT_TRUE(matches_->CreateMatch(c2.get(), req, &m).ok());
  s = Join(a, m.invite_code(), &m);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ErrorReason(s), "ALREADY_SEATED");
  // Casual play allows it (one person playing both sides).
  req.set_ranked(false);
  auto c3 = Ctx(a.token);
  ASSERT_TRUE(matches_->CreateMatch(c3.get(), req, &m).ok());
  EXPECT_TRUE(Join(a, m.invite_code(), &m).ok());
  EXPECT_EQ(m.state(), v1::Match::IN_PROGRESS);
}

TEST_F(LifecycleTest, OnlyTheCreatorCancelsAndOnlyBeforeTheStart) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match m = WithOpenSeat(a, v1::OWARE);
  v1::CancelMatchRequest cancel;
  cancel.set_name(m.name());
  v1::Match out;
  auto c2 = Ctx(b.token);
  grpc::Status s = matches_->CancelMatch(c2.get(), cancel, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  auto c3 = Ctx(a.token);
  ASSERT_TRUE(matches_->CancelMatch(c3.get(), cancel, &out).ok());
  EXPECT_EQ(out.state(), v1::Match::CANCELLED);
  EXPECT_EQ(Join(b, m.invite_code(), &out).error_code(),
            grpc::StatusCode::NOT_FOUND);
  // A started match cannot be cancelled.
  v1::Match started = TwoPlayers(a, b);
  cancel.set_name(started.name());
  auto c4 = Ctx(a.token);
  s = matches_->CancelMatch(c4.get(), cancel, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ErrorReason(s), "MATCH_STARTED");
}

class ClockTest : public LifecycleTest {
 protected:
  void SetUp() override {
    grace_ms_ = 1'000'000;  // Nobody goes absent here.
    LifecycleTest::SetUp();
  }
};

TEST_F(ClockTest, WhenTheTurnLimitPassesTheCpuPlaysThatTurn) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  const int64_t start = clock_.NowMs();
  v1::Match m = TwoPlayers(a, b, /*limit_s=*/30);
  EXPECT_EQ(m.turn_time_limit_seconds(), 30);
  EXPECT_EQ(DeadlineMs(m), start + 30'000);
  clock_.AdvanceMs(29'999);
  server_->Tick();
  EXPECT_EQ(Get(m.name()).ply(), 0);  // Not yet.
  clock_.AdvanceMs(1);
  server_->Tick();
  v1::Match after = WaitForPly(m.name(), 1);
  ASSERT_EQ(after.ply(), 1);
  std::vector<v1::Move> moves = Moves(m.name());
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].seat(), 0);
  EXPECT_TRUE(moves[0].by_cpu());
  EXPECT_EQ(moves[0].cpu_reason(), v1::Move::TURN_TIMEOUT);
  // The next turn has a full limit of its own.
  EXPECT_EQ(DeadlineMs(after), start + 30'000 + 30'000);
}

TEST_F(ClockTest, AnExtraTurnRestartsTheClockForTheSameSeat) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match m = TwoPlayers(a, b, /*limit_s=*/60);
  clock_.AdvanceMs(10'000);
  v1::SubmitMoveResponse resp;
  ASSERT_TRUE(Move(a, m.name(), 2, &resp).ok());  // K.4: moves again.
  EXPECT_EQ(resp.match().to_move(), 0);
  EXPECT_EQ(DeadlineMs(resp.match()), clock_.NowMs() + 60'000);
  clock_.AdvanceMs(59'000);
  server_->Tick();
  EXPECT_EQ(Get(m.name()).ply(), 1);
}

TEST_F(LifecycleTest, AbsentPlayerIsPlayedByTheCpuUntilTheyComeBack) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match m = TwoPlayers(a, b);  // No time limit.
  v1::SubmitMoveResponse resp;
  ASSERT_TRUE(Move(a, m.name(), 0, &resp).ok());  // B to move.
  clock_.AdvanceMs(19'000);
  GetAs(a, m.name());  // A keeps calling; B is silent.
  server_->Tick();
  EXPECT_EQ(Get(m.name()).ply(), 1);  // B is still within the grace period.
  clock_.AdvanceMs(1'001);
  server_->Tick();
  v1::Match after = WaitForTurn(m.name(), 0);
  ASSERT_GE(after.ply(), 2);
  EXPECT_TRUE(after.seats(1).cpu_standing_in());
  EXPECT_FALSE(after.seats(1).present());
  EXPECT_TRUE(after.seats(0).present());
  // Move after move: A plays (extra turns included) until B's turn comes,
  // and the CPU answers for B again.
  auto stand_ins = [&] {
    int n = 0;
    for (const v1::Move& mv : Moves(m.name())) {
      n += mv.cpu_reason() == v1::Move::STAND_IN;
    }
    return n;
  };
  const int before = stand_ins();
  do {
    ASSERT_TRUE(Move(a, m.name(), after.legal_pits(0), &resp).ok());
    after = resp.match();
  } while (after.state() == v1::Match::IN_PROGRESS && after.to_move() == 0);
  if (after.state() == v1::Match::IN_PROGRESS) {
    after = WaitForTurn(m.name(), 0);
    EXPECT_GT(stand_ins(), before);
  }
  // B comes back (any call with B's token) and the CPU stops at once.
  v1::Match back = GetAs(b, m.name());
  EXPECT_FALSE(back.seats(1).cpu_standing_in());
  EXPECT_TRUE(back.seats(1).present());
  if (back.state() == v1::Match::IN_PROGRESS) {
    ASSERT_EQ(back.to_move(), 0);
    ASSERT_TRUE(Move(a, m.name(), back.legal_pits(0), &resp).ok());
    if (resp.match().to_move() == 1) {
      server_->Tick();  // Decides synchronously: B is back, no stand-in.
      const v1::Match now = Get(m.name());
      EXPECT_FALSE(now.seats(1).cpu_standing_in());
      EXPECT_EQ(now.ply(), resp.match().ply());  // Waits for B.
    }
  }
  // Every CPU move for B is marked in the history.
  for (const v1::Move& mv : Moves(m.name())) {
    EXPECT_EQ(mv.by_cpu(),
              mv.seat() == 1 && mv.cpu_reason() == v1::Move::STAND_IN)
        << "ply " << mv.ply();
    EXPECT_NE(mv.cpu_reason(), v1::Move::TURN_TIMEOUT);
  }
}

TEST_F(LifecycleTest, AnOpenWatchStreamKeepsTheSeatPresent) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match m = TwoPlayers(a, b);
  v1::SubmitMoveResponse resp;
  ASSERT_TRUE(Move(a, m.name(), 0, &resp).ok());  // B to move.
  {
    WatchClient b_watch(matches_.get(), m.name(), b.token);
    ASSERT_TRUE(b_watch.WaitFor(
        [](const auto& events, bool) { return !events.empty(); }));
    clock_.AdvanceMs(60'000);
    server_->Tick();  // Decides synchronously: B watches, no stand-in.
    const v1::Match now = Get(m.name());
    EXPECT_EQ(now.ply(), 1);  // B watches: present, no stand-in.
    EXPECT_TRUE(now.seats(1).present());
    EXPECT_FALSE(now.seats(1).cpu_standing_in());
  }
  // The stream closed; the grace period runs from when the server saw it.
  ASSERT_TRUE(WaitUntil([&] { return server_->WatcherCount(m.name()) == 0; }));
  clock_.AdvanceMs(19'000);
  server_->Tick();
  EXPECT_EQ(Get(m.name()).ply(), 1);
  clock_.AdvanceMs(2'000);
  server_->Tick();
  EXPECT_GE(WaitForPly(m.name(), 2).ply(), 2);
}

TEST_F(LifecycleTest, ResignInFourPlayerBasicLeavesTheOthersPlaying) {
  TestPlayer a = NewPlayer("A");
  v1::CreateMatchRequest req;
  req.set_game(v1::MANCALA_BASIC);
  for (int i = 0; i < 4; ++i) {
    v1::Seat* s = req.add_seats();
    s->set_kind(i == 0 ? v1::Seat::PLAYER : v1::Seat::CPU);
    if (i == 0) {
      s->set_player(a.name);
    } else {
      s->set_cpu_level(1);
    }
  }
  v1::Match m;
  auto ctx = Ctx(a.token);
  ASSERT_TRUE(matches_->CreateMatch(ctx.get(), req, &m).ok());
  v1::Match after;
  ASSERT_TRUE(Resign(a, m.name(), &after).ok());  // MB.13, MB.15.
  EXPECT_EQ(std::vector<int>(after.result().ranks().begin(),
                             after.result().ranks().end()),
            (std::vector<int>{4, 0, 0, 0}));
  EXPECT_EQ(after.to_move(), 1);
  v1::Match end = WaitForTurn(m.name(), 0);  // Seat 0 never moves again.
  ASSERT_EQ(end.state(), v1::Match::FINISHED);
  EXPECT_EQ(end.result().ranks(0), 4);
  std::vector<int> others = {end.result().ranks(1), end.result().ranks(2),
                             end.result().ranks(3)};
  std::sort(others.begin(), others.end());
  EXPECT_EQ(others, (std::vector<int>{1, 2, 3}));
  for (const v1::Move& mv : Moves(m.name())) {
    if (mv.ply() > 1) {
      EXPECT_NE(mv.seat(), 0);
    }
  }
}

TEST_F(LifecycleTest, RematchKeepsSeatsAndOptionsAndRotatesTheFirstSeat) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::CreateMatchRequest req;
  req.set_game(v1::KALAH);
  (*req.mutable_options())["seeds"] = "5";
  req.set_turn_time_limit_seconds(60);
  for (const TestPlayer* p : {&a, &b}) {
    req.add_seats()->set_kind(v1::Seat::PLAYER);
    req.mutable_seats(req.seats_size() - 1)->set_player(p->name);
  }
  v1::Match m;
  auto ctx = Ctx(a.token);
  ASSERT_TRUE(matches_->CreateMatch(ctx.get(), req, &m).ok());
  v1::RematchRequest again;
  again.set_name(m.name());
  v1::Match r;
  auto c0 = Ctx(b.token);
  EXPECT_EQ(matches_->Rematch(c0.get(), again, &r).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);  // Not over yet.
  ASSERT_TRUE(Resign(b, m.name(), &m).ok());
  auto c1 = Ctx(b.token);
  ASSERT_TRUE(matches_->Rematch(c1.get(), again, &r).ok());
  EXPECT_NE(r.name(), m.name());
  EXPECT_EQ(r.state(), v1::Match::IN_PROGRESS);
  EXPECT_EQ(r.first_seat(), 1);
  EXPECT_EQ(r.to_move(), 1);
  EXPECT_EQ(r.options().at("seeds"), "5");
  EXPECT_EQ(r.turn_time_limit_seconds(), 60);
  EXPECT_EQ(r.seats(0).player(), a.name);
  EXPECT_EQ(r.seats(1).player(), b.name);
  EXPECT_EQ(r.board().sides(0).pits(0), 5);
  // Asking again (either player) gives the same rematch.
  v1::Match r2;
  auto c2 = Ctx(a.token);
  ASSERT_TRUE(matches_->Rematch(c2.get(), again, &r2).ok());
  EXPECT_EQ(r2.name(), r.name());
  EXPECT_EQ(Get(m.name()).rematch(), r.name());
  // With rotate_first_player off, the first seat stays.
  (*req.mutable_options())["rotate_first_player"] = "off";
  auto c3 = Ctx(a.token);
  ASSERT_TRUE(matches_->CreateMatch(c3.get(), req, &m).ok());
  ASSERT_TRUE(Resign(a, m.name(), &m).ok());
  again.set_name(m.name());
  auto c4 = Ctx(a.token);
  ASSERT_TRUE(matches_->Rematch(c4.get(), again, &r).ok());
  EXPECT_EQ(r.first_seat(), 0);
}

TEST_F(LifecycleTest, SpectatorsSeeEveryMoveOnceInOrderAndCanResume) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match m = TwoPlayers(a, b);
  WatchClient spectator(matches_.get(), m.name());
  ASSERT_TRUE(spectator.WaitFor(
      [](const auto& events, bool) { return !events.empty(); }));
  ASSERT_TRUE(spectator.events()[0].has_match());
  EXPECT_EQ(spectator.events()[0].match().ply(), 0);
  // Play the whole match: each side plays its lowest legal pit.
  const TestPlayer* players[] = {&a, &b};
  v1::Match now = m;
  while (now.state() == v1::Match::IN_PROGRESS) {
    v1::SubmitMoveResponse resp;
    ASSERT_TRUE(
        Move(*players[now.to_move()], m.name(), now.legal_pits(0), &resp).ok());
    now = resp.match();
    if (now.ply() == 3) {
      // A second spectator joins late, having seen plies 1-2.
      WatchClient late(matches_.get(), m.name(), "", /*after_ply=*/2);
      ASSERT_TRUE(late.WaitFor(
          [](const auto& events, bool) { return events.size() >= 2; }));
      EXPECT_EQ(late.MovePlies(), (std::vector<int64_t>{3}));
    }
  }
  ASSERT_TRUE(spectator.WaitDone());
  EXPECT_TRUE(spectator.status().ok()) << spectator.status().error_message();
  std::vector<int64_t> expected(now.ply());
  std::iota(expected.begin(), expected.end(), 1);
  EXPECT_EQ(spectator.MovePlies(), expected);
  ASSERT_TRUE(spectator.events().back().has_finished());
  EXPECT_EQ(spectator.events().back().finished().state(), v1::Match::FINISHED);
  // Watching a finished match: the match, the moves asked for, the end.
  WatchClient after(matches_.get(), m.name(), "", now.ply() - 1);
  ASSERT_TRUE(after.WaitDone());
  EXPECT_EQ(after.MovePlies(), (std::vector<int64_t>{now.ply()}));
}

TEST_F(LifecycleTest, ARepeatedRequestGetsTheFirstAnswerAndAStalePlyIsAborted) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match m = TwoPlayers(a, b);
  v1::SubmitMoveRequest req;
  req.set_name(m.name());
  req.set_pit(2);
  req.set_expected_ply(0);
  req.set_request_id("tap-1");
  v1::SubmitMoveResponse first, again;
  auto c1 = Ctx(a.token);
  ASSERT_TRUE(matches_->SubmitMove(c1.get(), req, &first).ok());
  auto c2 = Ctx(a.token);
  ASSERT_TRUE(matches_->SubmitMove(c2.get(), req, &again).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(again, first));
  EXPECT_EQ(Get(m.name()).ply(), 1);  // Applied once.
  // A new request that still believes the match is at ply 0.
  req.set_request_id("tap-2");
  req.set_pit(3);
  v1::SubmitMoveResponse stale;
  auto c3 = Ctx(a.token);
  grpc::Status s = matches_->SubmitMove(c3.get(), req, &stale);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(ErrorReason(s), "STALE_PLY");
  EXPECT_NE(s.error_message().find("ply 1"), std::string::npos);
  // The first answer survives a restart.
  StartServer();
  req.set_request_id("tap-1");
  req.set_pit(2);
  v1::SubmitMoveResponse replayed;
  auto c4 = Ctx(a.token);
  ASSERT_TRUE(matches_->SubmitMove(c4.get(), req, &replayed).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(replayed, first));
  EXPECT_EQ(Get(m.name()).ply(), 1);
}

TEST_F(LifecycleTest, AfterARestartTheTurnAndTheGracePeriodStartAfresh) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match m = TwoPlayers(a, b, /*limit_s=*/30);
  clock_.AdvanceMs(25'000);  // A has used 25 of 30 s; nobody called.
  StartServer();             // The outage: nobody is charged for it.
  v1::Match after = Get(m.name());
  EXPECT_EQ(DeadlineMs(after), clock_.NowMs() + 30'000);
  EXPECT_TRUE(after.seats(0).present());
  EXPECT_TRUE(after.seats(1).present());
  clock_.AdvanceMs(19'000);
  server_->Tick();
  EXPECT_EQ(Get(m.name()).ply(), 0);
}

// One CPU thread, and level 4 may think for a minute. While it thinks in
// one match, a move in another match is answered; when its match ends (the
// player resigns) the search stops at once, so the thread is free for the
// next match's CPU well within WaitForTurn's 10 seconds.
TEST_F(LifecycleTest,
       ALongCpuSearchDelaysNoOtherMatchAndStopsWhenItsMatchEnds) {
  cpu_budget_ms_ = {50, 100, 300, 60'000};
  StartServer();
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match thinking;
  ASSERT_TRUE(NewMatchVsCpu(a, v1::OWARE, &thinking, /*cpu_first=*/true, {},
                            /*cpu_level=*/4)
                  .ok());
  ASSERT_EQ(thinking.to_move(), 0);  // The CPU's turn: its search starts.

  v1::Match people = TwoPlayers(a, b);
  v1::SubmitMoveResponse resp;
  ASSERT_TRUE(Move(a, people.name(), 0, &resp).ok());
  EXPECT_EQ(resp.match().ply(), 1);
  EXPECT_EQ(Get(thinking.name()).ply(), 0);  // Still thinking meanwhile.

  v1::Match resigned;
  ASSERT_TRUE(Resign(a, thinking.name(), &resigned).ok());
  EXPECT_EQ(resigned.state(), v1::Match::FINISHED);

  v1::Match next;
  ASSERT_TRUE(NewMatchVsCpu(a, v1::KALAH, &next, /*cpu_first=*/true).ok());
  const auto start = std::chrono::steady_clock::now();
  v1::Match answered = WaitForTurn(next.name(), 1);
  EXPECT_GE(answered.ply(), 1);
  EXPECT_EQ(answered.to_move(), 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(Get(thinking.name()).ply(), 1);  // Only the resignation.
}

}  // namespace
}  // namespace mancala::testing
