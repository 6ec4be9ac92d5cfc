// MatchService over a real channel: moves, the CPU's replies, every status
// code of the API, and all four games.

#include <algorithm>
#include <numeric>

#include "services/wire/errors.h"
#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

using services::ErrorReason;
using MatchServiceTest = ServiceTest;

std::vector<int> Pits(const v1::Side& side) {
  return {side.pits().begin(), side.pits().end()};
}

class MatchTest : public MatchServiceTest {
 public:
  v1::Match PlayToEnd(const TestPlayer& me, const std::string& id, int seat) {
    for (int guard = 0; guard < 2000; ++guard) {
      v1::Match m = WaitForTurn(id, seat);
      if (m.state() == v1::Match::FINISHED) return m;
      v1::SubmitMoveResponse resp;
      grpc::Status s = Move(me, id, m.legal_pits(0), &resp);
      EXPECT_TRUE(s.ok()) << s.error_message();
    }
    ADD_FAILURE() << "match did not end";
    return Get(id);
  }
};

TEST_F(MatchTest, KalahMoveIsAppliedRecordedAndAnimated) {
  TestPlayer me = NewPlayer("Ada");
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::KALAH, &m).ok());
  EXPECT_EQ(m.options().at("seeds"), "4");
  EXPECT_EQ(m.options().at("end_rule"), "mover_empty");
  EXPECT_EQ(m.legal_pits_size(), 6);
  v1::SubmitMoveResponse resp;
  // K.4: 4 seeds from pit 2 end in the store, so seat 0 moves again.
  ASSERT_TRUE(Move(me, m.name(), 2, &resp).ok());
  const v1::Match& after = resp.match();
  EXPECT_EQ(Pits(after.board().sides(0)), (std::vector<int>{4, 4, 0, 5, 5, 5}));
  EXPECT_EQ(after.board().sides(0).store(), 1);
  EXPECT_EQ(Pits(after.board().sides(1)), (std::vector<int>{4, 4, 4, 4, 4, 4}));
  EXPECT_EQ(after.to_move(), 0);
  EXPECT_EQ(after.ply(), 1);
  EXPECT_EQ(resp.move().ply(), 1);
  EXPECT_FALSE(resp.move().by_cpu());
  std::vector<std::pair<int, int>> drops;
  bool extra_turn = false;
  for (const v1::MoveEvent& e : resp.move().events()) {
    if (e.type() == v1::MoveEvent::DROP) {
      drops.emplace_back(e.place().seat(), e.place().pit());
    }
    extra_turn |= e.type() == v1::MoveEvent::EXTRA_TURN;
  }
  EXPECT_EQ(drops, (std::vector<std::pair<int, int>>{
                       {0, 3}, {0, 4}, {0, 5}, {0, -1}}));
  EXPECT_TRUE(extra_turn);
  // The move is on record with the same events.
  v1::ListMovesRequest list;
  list.set_parent(m.name());
  v1::ListMovesResponse moves;
  auto ctx = Ctx();
  ASSERT_TRUE(matches_->ListMoves(ctx.get(), list, &moves).ok());
  ASSERT_EQ(moves.moves_size(), 1);
  EXPECT_EQ(moves.moves(0).pit(), 2);
  EXPECT_EQ(moves.moves(0).events_size(), resp.move().events_size());
  // The match goes on, so there is a token; it leads past the one move,
  // and a token ListMoves did not hand out is refused.
  ASSERT_FALSE(moves.next_page_token().empty());
  list.set_page_token(moves.next_page_token());
  v1::ListMovesResponse later;
  auto ctx2 = Ctx();
  ASSERT_TRUE(matches_->ListMoves(ctx2.get(), list, &later).ok());
  EXPECT_EQ(later.moves_size(), 0);
  EXPECT_EQ(later.next_page_token(), moves.next_page_token());
  for (const std::string& bad :
       {std::string("2"), std::string("bm90IGEgdG9rZW4=")}) {
    list.set_page_token(bad);
    auto ctx3 = Ctx();
    grpc::Status s = matches_->ListMoves(ctx3.get(), list, &later);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad;
    EXPECT_EQ(ErrorReason(s), "INVALID_PAGE_TOKEN") << bad;
  }
}

TEST_F(MatchTest, CpuRepliesAndAWholeKalahMatchEnds) {
  TestPlayer me = NewPlayer();
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::KALAH, &m).ok());
  v1::Match end = PlayToEnd(me, m.name(), 0);
  ASSERT_EQ(end.state(), v1::Match::FINISHED);
  EXPECT_EQ(end.result().end_reason(), v1::SIDE_EMPTY);
  EXPECT_EQ(end.result().scores(0) + end.result().scores(1), 48);
  EXPECT_EQ(end.to_move(), -1);
  EXPECT_TRUE(end.legal_pits().empty());
  // Every recorded move is there once, in order, CPU moves marked.
  v1::ListMovesRequest list;
  list.set_parent(m.name());
  list.set_page_size(1000);
  v1::ListMovesResponse moves;
  auto ctx = Ctx();
  ASSERT_TRUE(matches_->ListMoves(ctx.get(), list, &moves).ok());
  ASSERT_EQ(moves.moves_size(), end.ply());
  int cpu_moves = 0;
  for (int i = 0; i < moves.moves_size(); ++i) {
    EXPECT_EQ(moves.moves(i).ply(), i + 1);
    EXPECT_EQ(moves.moves(i).by_cpu(), moves.moves(i).seat() == 1);
    cpu_moves += moves.moves(i).by_cpu();
  }
  EXPECT_GT(cpu_moves, 0);
  EXPECT_TRUE(moves.next_page_token().empty());
}

TEST_F(MatchTest, MissingMalformedOrUnknownTokenIsUnauthenticated) {
  TestPlayer me = NewPlayer();
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::KALAH, &m).ok());
  v1::SubmitMoveRequest req;
  req.set_name(m.name());
  req.set_pit(0);
  v1::SubmitMoveResponse resp;
  auto none = Ctx();
  grpc::Status s = matches_->SubmitMove(none.get(), req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ErrorReason(s), "MISSING_TOKEN");
  auto malformed = Ctx();
  malformed->AddMetadata("authorization", "Token abc");
  s = matches_->SubmitMove(malformed.get(), req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ErrorReason(s), "MALFORMED_TOKEN");
  auto unknown = Ctx(std::string(64, 'a'));
  s = matches_->SubmitMove(unknown.get(), req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ErrorReason(s), "UNKNOWN_TOKEN");
}

TEST_F(MatchTest, OptionTheRulesDoNotAllowIsInvalidArgument) {
  TestPlayer me = NewPlayer();
  v1::Match m;
  grpc::Status s = NewMatchVsCpu(me, v1::KALAH, &m, false, {{"seeds", "7"}});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ErrorReason(s), "INVALID_OPTION");
  EXPECT_NE(s.error_message().find("4, 5, 6"), std::string::npos)
      << s.error_message();
  s = NewMatchVsCpu(me, v1::OWARE, &m, false, {{"colour", "red"}});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  s = NewMatchVsCpu(me, v1::GAME_UNSPECIFIED, &m);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(MatchTest, BadSeatsAreRefused) {
  TestPlayer me = NewPlayer();
  TestPlayer other = NewPlayer();
  v1::CreateMatchRequest req;
  req.set_game(v1::KALAH);
  for (int i = 0; i < 3; ++i) {
    v1::Seat* s = req.add_seats();
    s->set_kind(i == 0 ? v1::Seat::PLAYER : v1::Seat::CPU);
    s->set_player(me.name);
  }
  v1::Match m;
  auto c1 = Ctx(me.token);
  EXPECT_EQ(matches_->CreateMatch(c1.get(), req, &m).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);  // Kalah takes 2 seats.
  req.mutable_seats()->RemoveLast();
  req.mutable_seats(1)->set_cpu_level(9);
  auto c2 = Ctx(me.token);
  EXPECT_EQ(matches_->CreateMatch(c2.get(), req, &m).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);  // Levels are 1-4.
  req.mutable_seats(1)->set_cpu_level(1);
  req.mutable_seats(0)->set_player("players/nobody");
  auto c3 = Ctx(me.token);
  grpc::Status s = matches_->CreateMatch(c3.get(), req, &m);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ErrorReason(s), "PLAYER_NOT_FOUND");
  // Seating only someone else: the creator must play.
  req.mutable_seats(0)->set_player(other.name);
  auto c4 = Ctx(me.token);
  s = matches_->CreateMatch(c4.get(), req, &m);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  // A time limit the site does not offer.
  req.mutable_seats(1)->set_kind(v1::Seat::PLAYER);
  req.mutable_seats(1)->set_player(me.name);
  req.set_turn_time_limit_seconds(45);
  auto c5 = Ctx(me.token);
  s = matches_->CreateMatch(c5.get(), req, &m);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("0 (none), 30 or 60"), std::string::npos);
}

TEST_F(MatchTest, PitOutOfRangeIsInvalidArgument) {
  TestPlayer me = NewPlayer();
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::KALAH, &m).ok());
  v1::SubmitMoveResponse resp;
  for (int pit : {-1, 6, 1000}) {
    grpc::Status s = Move(me, m.name(), pit, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << pit;
    EXPECT_EQ(ErrorReason(s), "PIT_OUT_OF_RANGE");
    EXPECT_NE(s.error_message().find("0..5"), std::string::npos);
  }
  EXPECT_EQ(Get(m.name()).ply(), 0);
}

TEST_F(MatchTest, EmptyPitIsFailedPreconditionAndChangesNothing) {
  TestPlayer me = NewPlayer();
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::KALAH, &m).ok());
  v1::SubmitMoveResponse resp;
  ASSERT_TRUE(Move(me, m.name(), 2, &resp).ok());  // Extra turn (K.4).
  grpc::Status s = Move(me, m.name(), 2, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ErrorReason(s), "PIT_EMPTY");
  EXPECT_NE(s.error_message().find("0, 1, 3, 4, 5"), std::string::npos)
      << s.error_message();
  EXPECT_EQ(Get(m.name()).ply(), 1);
}

class NoCpuMatchTest : public MatchTest {
 protected:
  void SetUp() override {
    cpu_threads_ = 0;  // The CPU never moves: its turns stay pending.
    MatchTest::SetUp();
  }
};

TEST_F(NoCpuMatchTest, MovingOutOfTurnIsFailedPrecondition) {
  TestPlayer me = NewPlayer();
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::KALAH, &m, /*cpu_first=*/true).ok());
  EXPECT_EQ(m.to_move(), 0);
  v1::SubmitMoveResponse resp;
  grpc::Status s = Move(me, m.name(), 0, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ErrorReason(s), "NOT_YOUR_TURN");
}

TEST_F(MatchTest, MovingInSomeoneElsesMatchIsPermissionDenied) {
  TestPlayer me = NewPlayer();
  TestPlayer intruder = NewPlayer();
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::KALAH, &m).ok());
  v1::SubmitMoveResponse resp;
  grpc::Status s = Move(intruder, m.name(), 0, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(ErrorReason(s), "NOT_A_SEAT");
}

TEST_F(MatchTest, ResignLosesAndAFinishedMatchTakesNoMoves) {
  TestPlayer me = NewPlayer();
  v1::Match m;
  ASSERT_TRUE(NewMatchVsCpu(me, v1::OWARE, &m).ok());
  v1::ResignRequest req;
  req.set_name(m.name());
  v1::Match after;
  auto ctx = Ctx(me.token);
  ASSERT_TRUE(matches_->Resign(ctx.get(), req, &after).ok());
  EXPECT_EQ(after.state(), v1::Match::FINISHED);
  EXPECT_EQ(after.result().end_reason(), v1::RESIGNATION);
  EXPECT_EQ(std::vector<int>(after.result().ranks().begin(),
                             after.result().ranks().end()),
            (std::vector<int>{2, 1}));
  EXPECT_EQ(after.result().winner(), 1);
  v1::SubmitMoveResponse resp;
  grpc::Status s = Move(me, m.name(), 0, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ErrorReason(s), "MATCH_OVER");
}

TEST_F(MatchTest, UnknownMatchIsNotFoundAndBadNameInvalid) {
  TestPlayer me = NewPlayer();
  v1::SubmitMoveResponse resp;
  grpc::Status s = Move(me, "matches/does-not-exist", 0, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ErrorReason(s), "MATCH_NOT_FOUND");
  s = Move(me, "games/x", 0, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::GetMatchRequest req;
  req.set_name("matches/nope");
  v1::Match out;
  auto ctx = Ctx();
  EXPECT_EQ(matches_->GetMatch(ctx.get(), req, &out).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(MatchTest, EveryGameStartsWithItsBoard) {
  TestPlayer me = NewPlayer();
  struct Case {
    v1::Game game;
    std::map<std::string, std::string> options;
    int pits, seeds;
  };
  for (const Case& c : std::vector<Case>{
           {v1::KALAH, {{"seeds", "6"}}, 6, 6},
           {v1::OWARE, {{"grand_slam", "illegal"}}, 6, 4},
           {v1::CONGKAK, {}, 7, 7},
           {v1::CONGKAK, {{"houses", "5"}, {"seeds", "5"}}, 5, 5},
           {v1::MANCALA_BASIC, {{"pits", "7"}, {"stones", "3"}}, 7, 3}}) {
    v1::Match m;
    grpc::Status s = NewMatchVsCpu(me, c.game, &m, false, c.options);
    ASSERT_TRUE(s.ok()) << s.error_message();
    ASSERT_EQ(m.board().sides_size(), 2);
    EXPECT_EQ(Pits(m.board().sides(1)), std::vector<int>(c.pits, c.seeds))
        << v1::Game_Name(c.game);
  }
}

TEST_F(MatchTest, FourSeatMancalaBasicPlaysThroughToAllRanks) {
  TestPlayer me = NewPlayer();
  v1::CreateMatchRequest req;
  req.set_game(v1::MANCALA_BASIC);
  for (int i = 0; i < 4; ++i) {
    v1::Seat* s = req.add_seats();
    s->set_kind(i == 0 ? v1::Seat::PLAYER : v1::Seat::CPU);
    if (i == 0)
      s->set_player(me.name);
    else
      s->set_cpu_level(1);
  }
  v1::Match m;
  auto ctx = Ctx(me.token);
  ASSERT_TRUE(matches_->CreateMatch(ctx.get(), req, &m).ok());
  EXPECT_EQ(m.board().sides_size(), 4);
  v1::Match end = PlayToEnd(me, m.name(), 0);
  ASSERT_EQ(end.state(), v1::Match::FINISHED);
  EXPECT_EQ(end.result().end_reason(), v1::ALL_RANKS_DETERMINED);
  std::vector<int> ranks(end.result().ranks().begin(),
                         end.result().ranks().end());
  std::sort(ranks.begin(), ranks.end());
  EXPECT_EQ(ranks, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(end.result().finish_order_size(), 3);
  int seeds = 0;
  for (const v1::Side& side : end.board().sides()) {
    seeds += side.store() +
             std::accumulate(side.pits().begin(), side.pits().end(), 0);
  }
  EXPECT_EQ(seeds, 4 * 6 * 4);  // MB.I4.
}

}  // namespace
}  // namespace mancala::testing
