// An in-process mancalad on a free port with its own database, and clients
// for it over a real channel. For service tests. The database is SQLite, or
// PostgreSQL with MANCALA_TEST_BACKEND=postgres (tests/support/
// test_database.h; ctest registers both variants).

#ifndef MANCALA_TESTS_SERVICES_TEST_SERVER_H_
#define MANCALA_TESTS_SERVICES_TEST_SERVER_H_

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mancala/v1/admin_service.grpc.pb.h"
#include "mancala/v1/match_service.grpc.pb.h"
#include "mancala/v1/matchmaking_service.grpc.pb.h"
#include "mancala/v1/player_service.grpc.pb.h"
#include "mancala/v1/rating_service.grpc.pb.h"
#include "services/base/clock.h"
#include "services/server.h"
#include "tests/support/test_database.h"

namespace mancala::testing {

struct TestPlayer {
  std::string name;  // "players/{id}"
  std::string token;
};

class ServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MANCALA_SKIP_WITHOUT_POSTGRES(BackendFromEnvironment());
    auto db = TestDatabase::ForCurrentTest();
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
    StartServer();
  }
  void TearDown() override {
    server_.reset();
    db_.reset();
  }

  // Starts (or restarts) the server on the same database.
  void StartServer() {
    server_.reset();
    auto server = services::Server::Start(Options());
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    channel_ =
        grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                            grpc::InsecureChannelCredentials());
    players_ = v1::PlayerService::NewStub(channel_);
    matches_ = v1::MatchService::NewStub(channel_);
    ratings_ = v1::RatingService::NewStub(channel_);
    admin_ = v1::AdminService::NewStub(channel_);
    matchmaking_ = v1::MatchmakingService::NewStub(channel_);
  }

  // The options StartServer() uses (a second node on the same PostgreSQL
  // database takes them too).
  services::ServerOptions Options() {
    services::ServerOptions options;
    options.address = "127.0.0.1:0";
    options.db_path = db_->url();
    options.db_pool_size = 4;
    options.cpu_threads = cpu_threads_;
    options.db_busy_timeout_ms = db_busy_timeout_ms_;
    options.cpu_budget_ms = cpu_budget_ms_;
    options.clock = &clock_;
    options.tick = std::chrono::milliseconds(0);  // Tests call Tick().
    options.grace = std::chrono::milliseconds(grace_ms_);
    options.admin_token = kAdminToken;
    options.rating_window = 100;
    options.rating_window_growth = 10;
    options.cpu_fallback = std::chrono::milliseconds(30'000);
    options.create_burst = 0;  // Tests create players freely.
    if (configure_) configure_(options);
    return options;
  }

  static constexpr char kAdminToken[] = "test-admin-token";

  // Polls `done` until it holds; false after 10 s of real time.
  static bool WaitUntil(const std::function<bool()>& done) {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done()) {
      if (std::chrono::steady_clock::now() > give_up) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  }

  std::unique_ptr<grpc::ClientContext> Ctx(const std::string& token = "") {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->set_deadline(std::chrono::system_clock::now() +
                      std::chrono::seconds(10));
    if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
    return ctx;
  }

  TestPlayer NewPlayer(const std::string& display_name = "") {
    v1::CreatePlayerRequest req;
    req.set_display_name(display_name);
    v1::CreatePlayerResponse resp;
    auto ctx = Ctx();
    grpc::Status s = players_->CreatePlayer(ctx.get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return {resp.player().name(), resp.token()};
  }

  // A match of `game` between `me` (seat 0 unless cpu_first) and the CPU.
  grpc::Status NewMatchVsCpu(const TestPlayer& me, v1::Game game,
                             v1::Match* out, bool cpu_first = false,
                             std::map<std::string, std::string> options = {},
                             int cpu_level = 1) {
    v1::CreateMatchRequest req;
    req.set_game(game);
    req.mutable_options()->insert(options.begin(), options.end());
    v1::Seat* a = req.add_seats();
    v1::Seat* b = req.add_seats();
    v1::Seat* mine = cpu_first ? b : a;
    v1::Seat* cpu = cpu_first ? a : b;
    mine->set_kind(v1::Seat::PLAYER);
    mine->set_player(me.name);
    cpu->set_kind(v1::Seat::CPU);
    cpu->set_cpu_level(cpu_level);
    auto ctx = Ctx(me.token);
    return matches_->CreateMatch(ctx.get(), req, out);
  }

  // A match of `a` (seat 0) and `b`, created by `a`.
  v1::Match TwoPlayers(const TestPlayer& a, const TestPlayer& b,
                       int limit_s = 0, bool ranked = false,
                       v1::Game game = v1::KALAH) {
    v1::CreateMatchRequest req;
    req.set_game(game);
    req.set_ranked(ranked);
    req.set_turn_time_limit_seconds(limit_s);
    for (const TestPlayer* p : {&a, &b}) {
      v1::Seat* s = req.add_seats();
      s->set_kind(v1::Seat::PLAYER);
      s->set_player(p->name);
    }
    v1::Match m;
    auto ctx = Ctx(a.token);
    grpc::Status s = matches_->CreateMatch(ctx.get(), req, &m);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return m;
  }

  // A WAITING match of `creator` (seat 0) with one OPEN seat.
  v1::Match WithOpenSeat(const TestPlayer& creator, v1::Game game = v1::KALAH) {
    v1::CreateMatchRequest req;
    req.set_game(game);
    req.add_seats()->set_kind(v1::Seat::PLAYER);
    req.mutable_seats(0)->set_player(creator.name);
    req.add_seats()->set_kind(v1::Seat::OPEN);
    v1::Match m;
    auto ctx = Ctx(creator.token);
    grpc::Status s = matches_->CreateMatch(ctx.get(), req, &m);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return m;
  }

  grpc::Status Move(const TestPlayer& p, const std::string& match, int pit,
                    v1::SubmitMoveResponse* out) {
    v1::SubmitMoveRequest req;
    req.set_name(match);
    req.set_pit(pit);
    auto ctx = Ctx(p.token);
    return matches_->SubmitMove(ctx.get(), req, out);
  }

  // JoinMatch by invite code.
  grpc::Status Join(const TestPlayer& p, const std::string& code,
                    v1::Match* out) {
    v1::JoinMatchRequest req;
    req.set_invite_code(code);
    auto ctx = Ctx(p.token);
    return matches_->JoinMatch(ctx.get(), req, out);
  }

  v1::Match Get(const std::string& match) {
    v1::GetMatchRequest req;
    req.set_name(match);
    v1::Match out;
    auto ctx = Ctx();
    grpc::Status s = matches_->GetMatch(ctx.get(), req, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return out;
  }

  // Polls until `seat` is to move or the match is over (the CPU worker
  // plays on its own thread); fails after 10 s of real time.
  v1::Match WaitForTurn(const std::string& match, int seat) {
    v1::Match m;
    if (!WaitUntil([&] {
          m = Get(match);
          return m.to_move() == seat || m.state() == v1::Match::FINISHED;
        })) {
      ADD_FAILURE() << "seat " << seat << " never got the turn";
    }
    return m;
  }

  // Changes the options of the next StartServer() (limits tests).
  std::function<void(services::ServerOptions&)> configure_;
  int cpu_threads_ = 1;
  int db_busy_timeout_ms_ = 5000;
  std::array<int, 4> cpu_budget_ms_ = {50, 100, 300, 1000};  // Levels 1-4.
  int64_t grace_ms_ = 20'000;
  services::ManualClock clock_{1'800'000'000'000};
  std::unique_ptr<TestDatabase> db_;
  std::unique_ptr<services::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::PlayerService::Stub> players_;
  std::unique_ptr<v1::MatchService::Stub> matches_;
  std::unique_ptr<v1::RatingService::Stub> ratings_;
  std::unique_ptr<v1::AdminService::Stub> admin_;
  std::unique_ptr<v1::MatchmakingService::Stub> matchmaking_;
};

// A server stream read on its own thread; events are collected.
template <class Event>
class StreamClient {
 public:
  using Start = std::function<std::unique_ptr<grpc::ClientReader<Event>>(
      grpc::ClientContext*)>;

  StreamClient(const Start& start, const std::string& token) {
    if (!token.empty()) ctx_.AddMetadata("authorization", "Bearer " + token);
    reader_ = start(&ctx_);
    thread_ = std::thread([this] {
      Event e;
      while (reader_->Read(&e)) {
        std::lock_guard lock(mu_);
        events_.push_back(e);
        cv_.notify_all();
      }
      grpc::Status s = reader_->Finish();
      std::lock_guard lock(mu_);
      status_ = s;
      done_ = true;
      cv_.notify_all();
    });
  }
  virtual ~StreamClient() {
    Cancel();
    thread_.join();
  }
  void Cancel() { ctx_.TryCancel(); }

  // Waits (10 s at most) until `pred(events, done)` holds.
  bool WaitFor(
      const std::function<bool(const std::vector<Event>&, bool)>& pred) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(10),
                        [&] { return pred(events_, done_); });
  }
  bool WaitDone() {
    return WaitFor([](const auto&, bool done) { return done; });
  }
  std::vector<Event> events() {
    std::lock_guard lock(mu_);
    return events_;
  }
  grpc::Status status() {
    std::lock_guard lock(mu_);
    return status_;
  }

 private:
  grpc::ClientContext ctx_;
  std::unique_ptr<grpc::ClientReader<Event>> reader_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Event> events_;
  grpc::Status status_;
  bool done_ = false;
};

// A WatchMatch stream.
class WatchClient : public StreamClient<v1::WatchEvent> {
 public:
  WatchClient(v1::MatchService::Stub* stub, const std::string& match,
              const std::string& token = "", int64_t after_ply = 0)
      : StreamClient(
            [stub, match, after_ply](grpc::ClientContext* ctx) {
              v1::WatchMatchRequest req;
              req.set_name(match);
              req.set_after_ply(after_ply);
              return stub->WatchMatch(ctx, req);
            },
            token) {}

  // Plies of the move events, in the order received.
  std::vector<int64_t> MovePlies() {
    std::vector<int64_t> plies;
    for (const v1::WatchEvent& e : events()) {
      if (e.has_move()) plies.push_back(e.move().ply());
    }
    return plies;
  }
};

}  // namespace mancala::testing

#endif  // MANCALA_TESTS_SERVICES_TEST_SERVER_H_
