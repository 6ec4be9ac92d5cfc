// The matchmaking service tests' client stream and fixture
// (matchmaking_test.cc, matchmaking_answers_test.cc).

#ifndef MANCALA_TESTS_SERVICES_MATCHMAKING_FIXTURE_H_
#define MANCALA_TESTS_SERVICES_MATCHMAKING_FIXTURE_H_

#include <string>

#include "tests/services/test_server.h"

namespace mancala::testing {

// A FindMatch stream.
class FindClient : public StreamClient<v1::FindMatchUpdate> {
 public:
  FindClient(v1::MatchmakingService::Stub* stub, const TestPlayer& p,
             const v1::FindMatchRequest& req)
      : StreamClient(
            [stub, req](grpc::ClientContext* ctx) {
              return stub->FindMatch(ctx, req);
            },
            p.token) {}

  // The match found, or "" if none within 10 s.
  std::string WaitFound(int* seat = nullptr) {
    WaitFor([](const auto& events, bool done) {
      return done || (!events.empty() && events.back().has_found());
    });
    auto all = events();
    if (all.empty() || !all.back().has_found()) return "";
    if (seat != nullptr) *seat = all.back().found().seat();
    return all.back().found().match();
  }
  // Waits until the server has sent `n` updates.
  bool WaitUpdates(size_t n) {
    return WaitFor([n](const auto& events, bool done) {
      return done || events.size() >= n;
    });
  }
};

class MatchmakingTest : public ServiceTest {
 protected:
  static v1::FindMatchRequest Kalah(bool ranked = false) {
    v1::FindMatchRequest req;
    req.set_game(v1::KALAH);
    req.set_ranked(ranked);
    return req;
  }
  // GetQueueStats of `game` (GAME_UNSPECIFIED: every game).
  v1::QueueStats Stats(v1::Game game = v1::GAME_UNSPECIFIED) {
    v1::GetQueueStatsRequest req;
    req.set_game(game);
    v1::QueueStats stats;
    auto ctx = Ctx();
    grpc::Status s = matchmaking_->GetQueueStats(ctx.get(), req, &stats);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return stats;
  }
  int Searching(v1::Game game = v1::GAME_UNSPECIFIED) {
    return Stats(game).searching();
  }
  // Waits until `n` players are queued (streams start asynchronously).
  void WaitSearching(int n) {
    WaitUntil([&] { return Searching() == n; });
    ASSERT_EQ(Searching(), n);
  }
  // A ranked Kalah match won by `w` (the loser resigns after both moved).
  void Beat(const TestPlayer& w, const TestPlayer& l) {
    v1::CreateMatchRequest req;
    req.set_game(v1::KALAH);
    req.set_ranked(true);
    for (const TestPlayer* p : {&w, &l}) {
      req.add_seats()->set_kind(v1::Seat::PLAYER);
      req.mutable_seats(req.seats_size() - 1)->set_player(p->name);
    }
    v1::Match m;
    auto ctx = Ctx(w.token);
    ASSERT_TRUE(matches_->CreateMatch(ctx.get(), req, &m).ok());
    v1::SubmitMoveResponse resp;
    ASSERT_TRUE(Move(w, m.name(), 0, &resp).ok());
    ASSERT_TRUE(Move(l, m.name(), 0, &resp).ok());
    v1::ResignRequest r;
    r.set_name(m.name());
    auto rc = Ctx(l.token);
    ASSERT_TRUE(matches_->Resign(rc.get(), r, &m).ok());
  }
};

}  // namespace mancala::testing

#endif  // MANCALA_TESTS_SERVICES_MATCHMAKING_FIXTURE_H_
