// Ranked play over the API: which matches are rated, exact Glicko-2 numbers
// (checked against the pure update, itself checked against ratings.json),
// 3- and 4-player Mancala Basic with ties and a resignation, voiding and
// recomputing, and the admin queries with their paging.

#include <google/protobuf/util/message_differencer.h>
#include <google/protobuf/util/time_util.h>

#include <cstdio>
#include <cstdlib>
#include <future>
#include <latch>
#include <map>
#include <random>
#include <set>

#include "engine/state.h"
#include "ratings/glicko2.h"
#include "ratings/multiplayer.h"
#include "services/wire/errors.h"
#include "tests/services/test_server.h"

namespace mancala::testing {
namespace {

using services::ErrorReason;

class RatingsTest : public ServiceTest {
 protected:
  void SetUp() override {
    cpu_threads_ = 0;  // Only people move here.
    ServiceTest::SetUp();
  }

  v1::Match Create(const std::vector<const TestPlayer*>& seats, v1::Game game,
                   bool ranked,
                   std::map<std::string, std::string> options = {}) {
    v1::CreateMatchRequest req;
    req.set_game(game);
    req.set_ranked(ranked);
    req.mutable_options()->insert(options.begin(), options.end());
    for (const TestPlayer* p : seats) {
      v1::Seat* s = req.add_seats();
      if (p == nullptr) {
        s->set_kind(v1::Seat::CPU);
      } else {
        s->set_kind(v1::Seat::PLAYER);
        s->set_player(p->name);
      }
    }
    v1::Match m;
    auto ctx = Ctx(seats[0]->token);
    grpc::Status s = matches_->CreateMatch(ctx.get(), req, &m);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return m;
  }
  void MoveOk(const TestPlayer& p, const std::string& match, int pit) {
    v1::SubmitMoveResponse resp;
    grpc::Status s = Move(p, match, pit, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  v1::Match ResignOk(const TestPlayer& p, const std::string& match) {
    v1::ResignRequest req;
    req.set_name(match);
    v1::Match out;
    auto ctx = Ctx(p.token);
    grpc::Status s = matches_->Resign(ctx.get(), req, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out;
  }
  v1::Rating GetRating(const TestPlayer& p, const std::string& game) {
    v1::GetRatingRequest req;
    req.set_name(p.name + "/ratings/" + game);
    v1::Rating r;
    auto ctx = Ctx();
    grpc::Status s = ratings_->GetRating(ctx.get(), req, &r);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return r;
  }
  // A ranked Kalah match won by `winner` (the loser resigns after both
  // moved once).
  v1::Match Beat(const TestPlayer& winner, const TestPlayer& loser) {
    v1::Match m = Create({&winner, &loser}, v1::KALAH, true);
    MoveOk(winner, m.name(), 0);
    MoveOk(loser, m.name(), 0);
    clock_.AdvanceMs(1000);
    return ResignOk(loser, m.name());
  }
  std::unique_ptr<grpc::ClientContext> AdminCtx() { return Ctx(kAdminToken); }

  // The expected ratings of a match between new players, by the pure
  // functions (docs/ratings.md: t = 0 for a first match, tau 0.5).
  static std::vector<ratings::Glicko2Rating> Expected(
      const std::vector<int>& ranks) {
    std::vector<ratings::MatchPlayer> pool;
    for (int r : ranks) pool.push_back({r, ratings::kNewPlayer});
    auto next = ratings::MultiplayerUpdate(pool, ratings::kServiceTau, 0.0);
    for (auto& n : next) n = ratings::ClampForStorage(n);
    return next;
  }
};

TEST_F(RatingsTest, ARankedWinIsRatedWithExactGlicko2Numbers) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match end = Beat(a, b);
  ASSERT_EQ(end.state(), v1::Match::FINISHED);
  auto want = Expected({1, 2});
  v1::Rating ra = GetRating(a, "kalah"), rb = GetRating(b, "kalah");
  EXPECT_NEAR(ra.rating(), want[0].rating, 1e-9);
  EXPECT_NEAR(ra.rating_deviation(), want[0].rd, 1e-9);
  EXPECT_NEAR(ra.volatility(), want[0].volatility, 1e-12);
  EXPECT_NEAR(rb.rating(), want[1].rating, 1e-9);
  // Winner and loser move by the same amount (same start values).
  EXPECT_NEAR(ra.rating() - 1500, 1500 - rb.rating(), 1e-9);
  EXPECT_GT(ra.rating(), 1600);
  EXPECT_EQ(ra.games_played(), 1);
  EXPECT_TRUE(ra.provisional());  // RD about 290, well over 110.
  // Another game's pool is untouched.
  EXPECT_EQ(GetRating(a, "oware").games_played(), 0);
  EXPECT_EQ(GetRating(a, "oware").rating(), 1500);
  // The history explains the rating.
  v1::GetRatingHistoryRequest h;
  h.set_name(a.name + "/ratings/kalah");
  v1::GetRatingHistoryResponse hist;
  auto ctx = Ctx();
  ASSERT_TRUE(ratings_->GetRatingHistory(ctx.get(), h, &hist).ok());
  ASSERT_EQ(hist.changes_size(), 1);
  EXPECT_EQ(hist.changes(0).match(), end.name());
  EXPECT_EQ(hist.changes(0).rating_before(), 1500);
  EXPECT_EQ(hist.changes(0).rating_deviation_before(), 350);
  EXPECT_DOUBLE_EQ(hist.changes(0).rating_after(), ra.rating());
  EXPECT_EQ(hist.changes(0).rank(), 1);
}

TEST_F(RatingsTest, CasualCpuAndNoShowMatchesAreNotRated) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  // Casual, and casual against the CPU.
  v1::Match casual = Create({&a, &b}, v1::KALAH, false);
  MoveOk(a, casual.name(), 0);
  MoveOk(b, casual.name(), 0);
  EXPECT_EQ(ResignOk(b, casual.name()).state(), v1::Match::FINISHED);
  v1::Match cpu = Create({&a, nullptr}, v1::KALAH, false);
  EXPECT_EQ(ResignOk(a, cpu.name()).state(), v1::Match::FINISHED);
  // (Ranked against the CPU is refused at CreateMatch: tests/clients.)
  // Ranked, but B never moves: aborted.
  v1::Match noshow = Create({&a, &b}, v1::KALAH, true);
  MoveOk(a, noshow.name(), 0);
  EXPECT_EQ(ResignOk(a, noshow.name()).state(), v1::Match::ABORTED);
  EXPECT_EQ(GetRating(a, "kalah").games_played(), 0);
  EXPECT_EQ(GetRating(b, "kalah").games_played(), 0);
}

// Finds, with the engine, a Mancala Basic game whose final ranks tie; with
// `resign` one seat resigns on its turn once everyone has moved. Returns
// the actions (seat, pit; pit -1 = resign).
std::vector<std::pair<int, int>> FindTiedGame(int players, bool resign,
                                              std::vector<int>* ranks) {
  engine::OptionMap options = {{"determine_all_ranks", "off"}};
  auto rules = std::get<engine::Rules>(
      engine::ParseRules("mancala_basic", options, players));
  for (uint64_t seed = 1; seed < 100000; ++seed) {
    std::mt19937_64 rng(seed);
    engine::State s(rules, 0);
    std::vector<std::pair<int, int>> actions;
    bool resigned = false;
    while (!s.is_over()) {
      if (resign && !resigned && s.ply() >= 2 * players) {
        actions.push_back({s.to_move(), -1});
        s.Resign(s.to_move());
        resigned = true;
        continue;
      }
      std::vector<int> legal = s.LegalMoves();
      const int pit = legal[rng() % legal.size()];
      actions.push_back({s.to_move(), pit});
      s.Apply(pit);
    }
    std::set<int> distinct(s.outcome().ranks.begin(),
                           s.outcome().ranks.begin() + players);
    if (static_cast<int>(distinct.size()) < players && (!resign || resigned)) {
      ranks->assign(s.outcome().ranks.begin(),
                    s.outcome().ranks.begin() + players);
      return actions;
    }
  }
  return {};
}

class MultiplayerRatingsTest : public RatingsTest,
                               public ::testing::WithParamInterface<int> {};

TEST_P(MultiplayerRatingsTest, BasicWithATieIsRatedByPairs) {
  const int n = GetParam();
  const bool resign = n == 4;  // 4 players: a resignation and a tie.
  std::vector<int> ranks;
  auto actions = FindTiedGame(n, resign, &ranks);
  ASSERT_FALSE(actions.empty());
  std::vector<TestPlayer> people;
  std::vector<const TestPlayer*> seats;
  for (int i = 0; i < n; ++i)
    people.push_back(NewPlayer("P" + std::to_string(i)));
  for (const TestPlayer& p : people) seats.push_back(&p);
  v1::Match m =
      Create(seats, v1::MANCALA_BASIC, true, {{"determine_all_ranks", "off"}});
  for (auto [seat, pit] : actions) {
    if (pit < 0) {
      ResignOk(people[seat], m.name());
    } else {
      MoveOk(people[seat], m.name(), pit);
    }
  }
  v1::Match end = Get(m.name());
  ASSERT_EQ(end.state(), v1::Match::FINISHED);
  std::vector<int> got(end.result().ranks().begin(),
                       end.result().ranks().end());
  EXPECT_EQ(got, ranks);
  auto want = Expected(ranks);
  for (int i = 0; i < n; ++i) {
    v1::Rating r = GetRating(people[i], "mancala_basic");
    EXPECT_NEAR(r.rating(), want[i].rating, 1e-9) << "seat " << i;
    EXPECT_NEAR(r.rating_deviation(), want[i].rd, 1e-9) << "seat " << i;
    EXPECT_EQ(r.games_played(), 1);
    for (int j = 0; j < n; ++j) {
      if (ranks[i] == ranks[j]) {
        // A shared place scores 0.5 both ways: equal ratings.
        EXPECT_DOUBLE_EQ(r.rating(),
                         GetRating(people[j], "mancala_basic").rating());
      }
    }
  }
  if (resign) {
    EXPECT_EQ(*std::max_element(ranks.begin(), ranks.end()), 4);
  }
}

INSTANTIATE_TEST_SUITE_P(ThreeAndFourPlayers, MultiplayerRatingsTest,
                         ::testing::Values(3, 4));

TEST_F(RatingsTest, VoidingAMatchRecomputesTheRatingsWithoutIt) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B"), c = NewPlayer("C");
  v1::Match first = Beat(a, b);
  clock_.AdvanceMs(86'400'000);  // A day later.
  Beat(b, c);
  const double b_before_void = GetRating(b, "kalah").rating();
  v1::VoidMatchRequest req;
  req.set_name(first.name());
  req.set_reason("A used an engine");
  req.set_actor("ops-alice");
  v1::VoidMatchResponse resp;
  // Players cannot; the admin can.
  auto pc = Ctx(a.token);
  EXPECT_EQ(admin_->VoidMatch(pc.get(), req, &resp).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  auto nc = Ctx();
  EXPECT_EQ(admin_->VoidMatch(nc.get(), req, &resp).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  auto ac = AdminCtx();
  ASSERT_TRUE(admin_->VoidMatch(ac.get(), req, &resp).ok());
  EXPECT_TRUE(resp.match().voided());
  EXPECT_GE(resp.recomputed_changes(), 2);
  // A is back to a new player; B's rating is as if B-C were B's first.
  EXPECT_EQ(GetRating(a, "kalah").games_played(), 0);
  EXPECT_EQ(GetRating(a, "kalah").rating(), 1500);
  auto want = Expected({1, 2});
  v1::Rating rb = GetRating(b, "kalah");
  EXPECT_EQ(rb.games_played(), 1);
  EXPECT_NEAR(rb.rating(), want[0].rating, 1e-9);
  EXPECT_NE(rb.rating(), b_before_void);
  EXPECT_NEAR(GetRating(c, "kalah").rating(), want[1].rating, 1e-9);
  // Twice is refused; the audit log says who, when and why.
  auto ac2 = AdminCtx();
  grpc::Status s = admin_->VoidMatch(ac2.get(), req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  v1::ListAuditLogRequest log_req;
  v1::ListAuditLogResponse log;
  auto ac3 = AdminCtx();
  ASSERT_TRUE(admin_->ListAuditLog(ac3.get(), log_req, &log).ok());
  ASSERT_EQ(log.entries_size(), 1);
  EXPECT_EQ(log.entries(0).actor(), "ops-alice");
  EXPECT_EQ(log.entries(0).action(), "void_match");
  EXPECT_EQ(log.entries(0).target(), first.name());
  EXPECT_EQ(log.entries(0).reason(), "A used an engine");
  EXPECT_EQ(log.entries(0).time().seconds(), clock_.NowMs() / 1000);
}

// Lock order (services/match/live_matches.h): a match-ending move takes its
// match lock, then the ratings lock; VoidMatch takes the same two in the
// same order. Run both at once, many times: neither may wait on the other
// forever, and no rating update may be lost (VoidMatch rewrites every
// rating of the game from the history).
TEST_F(RatingsTest, VoidAndAMatchEndingAtOnceNeitherDeadlockNorLoseAnUpdate) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B"), c = NewPlayer("C"),
             d = NewPlayer("D");
  constexpr int kRounds = 20;
  for (int round = 0; round < kRounds; ++round) {
    v1::Match voided = Beat(c, d);
    v1::Match live = Create({&a, &b}, v1::KALAH, true);
    MoveOk(a, live.name(), 0);
    MoveOk(b, live.name(), 0);
    std::latch start(2);
    auto void_call = std::async(std::launch::async, [&] {
      v1::VoidMatchRequest req;
      req.set_name(voided.name());
      req.set_reason("round " + std::to_string(round));
      v1::VoidMatchResponse resp;
      auto ctx = AdminCtx();
      start.arrive_and_wait();
      return admin_->VoidMatch(ctx.get(), req, &resp);
    });
    auto end_call = std::async(std::launch::async, [&] {
      v1::ResignRequest req;
      req.set_name(live.name());
      v1::Match out;
      auto ctx = Ctx(a.token);
      start.arrive_and_wait();
      return matches_->Resign(ctx.get(), req, &out);
    });
    // Each call has a 10 s deadline of its own; a deadlock would also stop
    // the server from shutting down, so it ends the test binary at once.
    const auto deadline = std::chrono::seconds(30);
    if (void_call.wait_for(deadline) != std::future_status::ready ||
        end_call.wait_for(deadline) != std::future_status::ready) {
      std::fprintf(stderr, "round %d: VoidMatch and Resign deadlocked\n",
                   round);
      std::_Exit(1);
    }
    const grpc::Status void_status = void_call.get();
    const grpc::Status end_status = end_call.get();
    if (void_status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ||
        end_status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      std::fprintf(stderr, "round %d: a call hung (lock order?)\n", round);
      std::_Exit(1);
    }
    ASSERT_TRUE(void_status.ok())
        << round << ": " << void_status.error_message();
    ASSERT_TRUE(end_status.ok()) << round << ": " << end_status.error_message();
  }
  // Every A-B match counts, every C-D match was voided.
  EXPECT_EQ(GetRating(a, "kalah").games_played(), kRounds);
  EXPECT_EQ(GetRating(b, "kalah").games_played(), kRounds);
  EXPECT_LT(GetRating(a, "kalah").rating(), 1500);
  EXPECT_GT(GetRating(b, "kalah").rating(), 1500);
  for (const TestPlayer* p : {&c, &d}) {
    EXPECT_EQ(GetRating(*p, "kalah").games_played(), 0);
    EXPECT_EQ(GetRating(*p, "kalah").rating(), 1500);
  }
}

TEST_F(RatingsTest, MatchHistoryAndVerifyShowTheWholeRecord) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  v1::Match end = Beat(a, b);
  v1::GetMatchHistoryRequest req;
  req.set_name(end.name());
  v1::MatchHistory h;
  auto ctx = AdminCtx();
  ASSERT_TRUE(admin_->GetMatchHistory(ctx.get(), req, &h).ok());
  EXPECT_EQ(h.match().options().at("seeds"), "4");
  ASSERT_EQ(h.moves_size(), 3);
  EXPECT_EQ(h.moves(0).seat(), 0);
  EXPECT_EQ(h.moves(1).seat(), 1);
  EXPECT_EQ(h.moves(2).pit(), -1);  // The resignation.
  EXPECT_FALSE(h.moves(0).by_cpu());
  EXPECT_GT(h.moves(0).events_size(), 0);
  ASSERT_EQ(h.rating_changes_size(), 2);
  v1::VerifyMatchRequest v;
  v.set_name(end.name());
  v1::VerifyMatchResponse vr;
  auto ctx2 = AdminCtx();
  ASSERT_TRUE(admin_->VerifyMatch(ctx2.get(), v, &vr).ok());
  EXPECT_TRUE(vr.consistent()) << vr.detail();
  EXPECT_EQ(vr.stored_result().end_reason(), v1::RESIGNATION);
}

TEST_F(RatingsTest, PagingThroughMatchesWhileNewOnesArriveReturnsEachOnce) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  std::set<std::string> created;
  for (int i = 0; i < 25; ++i) {
    clock_.AdvanceMs(i % 3 == 0 ? 0 : 7);  // Some share a creation time.
    created.insert(Create({&a, &b}, v1::OWARE, false).name());
  }
  v1::ListMatchesRequest req;
  req.set_player(a.name);
  req.set_page_size(10);
  std::vector<std::string> seen;
  for (int page = 0;; ++page) {
    v1::ListMatchesResponse resp;
    auto ctx = AdminCtx();
    ASSERT_TRUE(admin_->ListMatches(ctx.get(), req, &resp).ok());
    for (const v1::Match& m : resp.matches()) seen.push_back(m.name());
    if (page == 0) {
      for (int i = 0; i < 5; ++i) {  // New matches arrive meanwhile.
        clock_.AdvanceMs(1);
        Create({&a, &b}, v1::OWARE, false);
      }
    }
    if (resp.next_page_token().empty()) break;
    req.set_page_token(resp.next_page_token());
  }
  std::set<std::string> unique(seen.begin(), seen.end());
  EXPECT_EQ(unique.size(), seen.size());  // Nothing twice.
  EXPECT_EQ(unique, created);             // Every one, none of the new.
  // A token from another filter is refused.
  req.set_game(v1::KALAH);
  v1::ListMatchesResponse resp;
  auto ctx = AdminCtx();
  EXPECT_EQ(admin_->ListMatches(ctx.get(), req, &resp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

// A listed match is its stored record, nothing replayed: no position.
TEST_F(RatingsTest, ListMatchesShowsEachMatchAsStored) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  const v1::Match won = Beat(a, b);
  v1::Match live = Create({&a, &b}, v1::KALAH, false);
  MoveOk(a, live.name(), 0);
  v1::ListMatchesRequest req;
  v1::ListMatchesResponse resp;
  auto ctx = AdminCtx();
  ASSERT_TRUE(admin_->ListMatches(ctx.get(), req, &resp).ok());
  ASSERT_EQ(resp.matches_size(), 2);
  const v1::Match& playing = resp.matches(0);  // Newest first.
  EXPECT_EQ(playing.name(), live.name());
  EXPECT_EQ(playing.state(), v1::Match::IN_PROGRESS);
  EXPECT_EQ(playing.ply(), 1);
  ASSERT_EQ(playing.seats_size(), 2);
  EXPECT_EQ(playing.seats(0).display_name(), "A");
  EXPECT_EQ(playing.seats(1).display_name(), "B");
  EXPECT_EQ(playing.board().sides_size(), 0);
  EXPECT_EQ(playing.to_move(), -1);
  EXPECT_EQ(playing.legal_pits_size(), 0);
  const v1::Match& ended = resp.matches(1);
  EXPECT_EQ(ended.name(), won.name());
  EXPECT_EQ(ended.state(), v1::Match::FINISHED);
  EXPECT_TRUE(ended.ranked());
  EXPECT_EQ(ended.end_time().seconds(), won.end_time().seconds());
  // The stored result is the one the resignation answered.
  ASSERT_GT(won.result().scores_size(), 0);
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
      ended.result(), won.result()));
}

TEST_F(RatingsTest, ListMatchesFiltersByStateRankingAndTime) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B");
  const int64_t t0 = clock_.NowMs();
  Beat(a, b);  // Ranked, finished.
  clock_.AdvanceMs(10'000);
  Create({&a, &b}, v1::KALAH, false);  // Casual, in progress.
  v1::ListMatchesRequest req;
  req.set_state(v1::Match::FINISHED);
  v1::ListMatchesResponse resp;
  auto c1 = AdminCtx();
  ASSERT_TRUE(admin_->ListMatches(c1.get(), req, &resp).ok());
  ASSERT_EQ(resp.matches_size(), 1);
  EXPECT_TRUE(resp.matches(0).ranked());
  req.Clear();
  req.set_ranking(v1::ListMatchesRequest::CASUAL);
  resp.Clear();
  auto c2 = AdminCtx();
  ASSERT_TRUE(admin_->ListMatches(c2.get(), req, &resp).ok());
  ASSERT_EQ(resp.matches_size(), 1);
  EXPECT_EQ(resp.matches(0).state(), v1::Match::IN_PROGRESS);
  req.Clear();
  *req.mutable_create_time_to() =
      google::protobuf::util::TimeUtil::MillisecondsToTimestamp(t0 + 5000);
  resp.Clear();
  auto c3 = AdminCtx();
  ASSERT_TRUE(admin_->ListMatches(c3.get(), req, &resp).ok());
  EXPECT_EQ(resp.matches_size(), 1);
}

TEST_F(RatingsTest, LeaderboardIsBestFirstAndHidesProvisionalByDefault) {
  TestPlayer a = NewPlayer("A"), b = NewPlayer("B"), c = NewPlayer("C");
  Beat(a, b);
  Beat(a, c);
  Beat(b, c);
  v1::ListLeaderboardRequest req;
  req.set_game(v1::KALAH);
  v1::ListLeaderboardResponse resp;
  auto c1 = Ctx();
  ASSERT_TRUE(ratings_->ListLeaderboard(c1.get(), req, &resp).ok());
  EXPECT_EQ(resp.ratings_size(), 0);  // Everyone is still provisional.
  req.set_include_provisional(true);
  req.set_page_size(2);
  std::vector<std::string> order;
  for (;;) {
    v1::ListLeaderboardResponse page;
    auto ctx = Ctx();
    ASSERT_TRUE(ratings_->ListLeaderboard(ctx.get(), req, &page).ok());
    for (const v1::Rating& r : page.ratings()) order.push_back(r.player());
    if (page.next_page_token().empty()) break;
    req.set_page_token(page.next_page_token());
  }
  EXPECT_EQ(order, (std::vector<std::string>{a.name, b.name, c.name}));
}

TEST_F(RatingsTest, AdminCallsNeedTheAdminToken) {
  TestPlayer a = NewPlayer("A");
  v1::ListMatchesRequest req;
  v1::ListMatchesResponse resp;
  auto none = Ctx();
  grpc::Status s = admin_->ListMatches(none.get(), req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  auto player = Ctx(a.token);
  s = admin_->ListMatches(player.get(), req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(ErrorReason(s), "NOT_ADMIN");
  auto admin = AdminCtx();
  EXPECT_TRUE(admin_->ListMatches(admin.get(), req, &resp).ok());
}

}  // namespace
}  // namespace mancala::testing
