#include "tests/bench/service/sessions.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace mancala::bench {
namespace {

void SetToken(grpc::ClientContext* ctx, const std::string& token) {
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
}

std::runtime_error Failed(const std::string& what, const grpc::Status& s) {
  return std::runtime_error(what +
                            " failed: " + std::to_string(s.error_code()) + " " +
                            s.error_message());
}

class HealthSession final : public Session {
 public:
  explicit HealthSession(Clients::Connection& c) : c_(c) {
    grpc::Slice empty("");  // HealthCheckRequest{service: ""}.
    request_ = grpc::ByteBuffer(&empty, 1);
  }
  void Call(std::function<void(CallOutcome)> done) override {
    ctx_ = std::make_unique<grpc::ClientContext>();
    c_.generic->UnaryCall(ctx_.get(), "/grpc.health.v1.Health/Check",
                          grpc::StubOptions(), &request_, &response_,
                          [done](grpc::Status s) {
                            done({true, s.error_code()});
                          });
  }

 private:
  Clients::Connection& c_;
  std::unique_ptr<grpc::ClientContext> ctx_;
  grpc::ByteBuffer request_, response_;
};

class MoverSession final : public Session {
 public:
  MoverSession(Clients::Connection& c, Guest a, Guest b, uint32_t seed,
               MoveAck on_ack)
      : c_(c),
        a_(std::move(a)),
        b_(std::move(b)),
        rng_(seed),
        on_ack_(std::move(on_ack)) {}

  void Call(std::function<void(CallOutcome)> done) override {
    ctx_ = std::make_unique<grpc::ClientContext>();
    if (match_.state() != v1::Match::IN_PROGRESS) {
      // A new match (the last one ended, or none yet): not counted.
      SetToken(ctx_.get(), a_.token);
      create_.Clear();
      create_.set_game(v1::KALAH);
      for (const Guest* g : {&a_, &b_}) {
        v1::Seat* seat = create_.add_seats();
        seat->set_kind(v1::Seat::PLAYER);
        seat->set_player(g->name);
      }
      c_.match->async()->CreateMatch(ctx_.get(), &create_, &match_,
                                     [done](grpc::Status s) {
                                       done({false, s.error_code()});
                                     });
      return;
    }
    if (resync_) {
      SetToken(ctx_.get(), a_.token);
      get_.set_name(match_.name());
      c_.match->async()->GetMatch(ctx_.get(), &get_, &match_,
                                  [this, done](grpc::Status s) {
                                    if (s.ok()) resync_ = false;
                                    done({false, s.error_code()});
                                  });
      return;
    }
    SetToken(ctx_.get(), match_.to_move() == 0 ? a_.token : b_.token);
    move_.set_name(match_.name());
    const auto& legal = match_.legal_pits();
    move_.set_pit(legal.empty() ? 0 : legal[rng_() % legal.size()]);
    c_.match->async()->SubmitMove(
        ctx_.get(), &move_, &reply_, [this, done](grpc::Status s) {
          if (s.ok()) {
            if (on_ack_) on_ack_(reply_);
            match_.Swap(reply_.mutable_match());
          } else if (s.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED) {
            resync_ = true;  // Ask where the match is before moving again.
          }
          done({true, s.error_code()});
        });
  }

 private:
  Clients::Connection& c_;
  const Guest a_, b_;
  std::mt19937 rng_;
  const MoveAck on_ack_;
  bool resync_ = false;
  std::unique_ptr<grpc::ClientContext> ctx_;
  v1::Match match_;
  v1::CreateMatchRequest create_;
  v1::GetMatchRequest get_;
  v1::SubmitMoveRequest move_;
  v1::SubmitMoveResponse reply_;
};

class GetMatchSession final : public Session {
 public:
  GetMatchSession(Clients::Connection& c, std::string match, std::string token)
      : c_(c), token_(std::move(token)) {
    request_.set_name(std::move(match));
  }
  void Call(std::function<void(CallOutcome)> done) override {
    ctx_ = std::make_unique<grpc::ClientContext>();
    SetToken(ctx_.get(), token_);
    c_.match->async()->GetMatch(ctx_.get(), &request_, &response_,
                                [done](grpc::Status s) {
                                  done({true, s.error_code()});
                                });
  }

 private:
  Clients::Connection& c_;
  const std::string token_;
  std::unique_ptr<grpc::ClientContext> ctx_;
  v1::GetMatchRequest request_;
  v1::Match response_;
};

// One anonymous WatchMatch stream that reads every event until the end.
class Watcher final : public grpc::ClientReadReactor<v1::WatchEvent> {
 public:
  // `on_move(index, ...)`, when given, hears of each move event.
  Watcher(v1::MatchService::Stub& stub, const std::string& match,
          MoveArrival on_move = nullptr, int index = 0)
      : on_move_(std::move(on_move)), index_(index) {
    request_.set_name(match);
    stub.async()->WatchMatch(&ctx_, &request_, this);
    StartRead(&event_);
    StartCall();
  }
  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows.
    if (on_move_ && event_.has_move()) {
      on_move_(index_, event_.move().ply(), std::chrono::steady_clock::now());
    }
    {
      std::lock_guard lock(mu_);
      ++events_;
    }
    cv_.notify_all();
    StartRead(&event_);
  }
  void OnDone(const grpc::Status& s) override {
    // Notified under the lock: the waiter may destroy this Watcher as soon
    // as it sees done_, so nothing here may touch it after the unlock.
    std::lock_guard lock(mu_);
    done_ = true;
    status_ = s;
    cv_.notify_all();
  }
  // Waits until the stream has delivered at least `n` events, or ended.
  bool WaitEvents(int n, std::chrono::seconds limit) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, limit, [&] { return events_ >= n || done_; }) &&
           events_ >= n;
  }
  bool WaitDone(std::chrono::seconds limit) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, limit, [&] { return done_; });
  }
  void Cancel() { ctx_.TryCancel(); }
  grpc::Status status() {
    std::lock_guard lock(mu_);
    return status_;
  }

 private:
  const MoveArrival on_move_;
  const int index_;
  grpc::ClientContext ctx_;
  v1::WatchMatchRequest request_;
  v1::WatchEvent event_;
  std::mutex mu_;
  std::condition_variable cv_;
  int events_ = 0;
  bool done_ = false;
  grpc::Status status_;
};

}  // namespace

Clients::Clients(const std::string& address, int connections) {
  for (int i = 0; i < connections; ++i) {
    grpc::ChannelArguments args;
    // Distinct arguments: each channel gets its own TCP connection.
    args.SetInt("grpc.use_local_subchannel_pool", 1);
    args.SetInt("mancala.bench.connection", i);
    Connection c;
    c.channel = grpc::CreateCustomChannel(
        address, grpc::InsecureChannelCredentials(), args);
    c.match = v1::MatchService::NewStub(c.channel);
    c.player = v1::PlayerService::NewStub(c.channel);
    c.generic = std::make_unique<grpc::GenericStub>(c.channel);
    connections_.push_back(std::move(c));
  }
}

std::vector<Guest> CreateGuests(Clients& clients, int n, int threads) {
  std::vector<Guest> guests(n);
  std::atomic<int> next{0};
  std::mutex mu;
  std::string error;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      Clients::Connection& c = clients.Pick(t);
      for (int i = next++; i < n; i = next++) {
        grpc::ClientContext ctx;
        // The first calls on fresh channels: a connect that fails once
        // (seen as UNAVAILABLE in 0.3 s under a loaded ctest -j2) is
        // retried until the deadline instead of failing the run.
        ctx.set_wait_for_ready(true);
        ctx.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
        v1::CreatePlayerRequest req;  // No display name: a guest.
        v1::CreatePlayerResponse resp;
        grpc::Status s = c.player->CreatePlayer(&ctx, req, &resp);
        if (!s.ok()) {
          std::lock_guard lock(mu);
          error = Failed("CreatePlayer", s).what();
          return;
        }
        guests[i] = {resp.player().name(), resp.token()};
      }
    });
  }
  for (std::thread& t : pool) t.join();
  if (!error.empty()) throw std::runtime_error(error);
  return guests;
}

v1::Match CreateMatch(Clients::Connection& c, const Guest& a, const Guest& b) {
  grpc::ClientContext ctx;
  SetToken(&ctx, a.token);
  v1::CreateMatchRequest req;
  req.set_game(v1::KALAH);
  for (const Guest* g : {&a, &b}) {
    v1::Seat* seat = req.add_seats();
    seat->set_kind(v1::Seat::PLAYER);
    seat->set_player(g->name);
  }
  v1::Match match;
  grpc::Status s = c.match->CreateMatch(&ctx, req, &match);
  if (!s.ok()) throw Failed("CreateMatch", s);
  return match;
}

v1::SubmitMoveResponse PlayRandomMove(Clients::Connection& c,
                                      const v1::Match& match, const Guest& a,
                                      const Guest& b, std::mt19937& rng) {
  grpc::ClientContext ctx;
  SetToken(&ctx, match.to_move() == 0 ? a.token : b.token);
  v1::SubmitMoveRequest req;
  req.set_name(match.name());
  req.set_pit(match.legal_pits(rng() % match.legal_pits_size()));
  v1::SubmitMoveResponse reply;
  grpc::Status s = c.match->SubmitMove(&ctx, req, &reply);
  if (!s.ok()) throw Failed("SubmitMove", s);
  return reply;
}

std::unique_ptr<Session> NewHealthSession(Clients::Connection& c) {
  return std::make_unique<HealthSession>(c);
}
std::unique_ptr<Session> NewMoverSession(Clients::Connection& c, Guest a,
                                         Guest b, uint32_t seed,
                                         MoveAck on_ack) {
  return std::make_unique<MoverSession>(c, std::move(a), std::move(b), seed,
                                        std::move(on_ack));
}
std::unique_ptr<Session> NewGetMatchSession(Clients::Connection& c,
                                            std::string match,
                                            std::string token) {
  return std::make_unique<GetMatchSession>(c, std::move(match),
                                           std::move(token));
}

std::vector<double> MoverLatencyWithWatchers(Clients& clients, const Guest& a,
                                             const Guest& b, int watchers,
                                             int matches, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<double> latencies;
  Clients::Connection& mover = clients.Pick(0);
  for (int m = 0; m < matches; ++m) {
    v1::Match match = CreateMatch(mover, a, b);
    std::vector<std::unique_ptr<Watcher>> streams;
    for (int w = 0; w < watchers; ++w) {
      // Watchers use the other connections where there are any, as
      // spectators would.
      streams.push_back(
          std::make_unique<Watcher>(*clients.Pick(1 + w).match, match.name()));
    }
    for (auto& s : streams) {
      if (!s->WaitEvents(1, std::chrono::seconds(30))) {
        // No Watcher may go while gRPC still calls it: end them all first.
        for (auto& t : streams) t->Cancel();
        for (auto& t : streams) t->WaitDone(std::chrono::seconds(10));
        throw std::runtime_error("a watcher got no snapshot within 30 s: " +
                                 s->status().error_message());
      }
    }
    while (match.state() == v1::Match::IN_PROGRESS) {
      const auto start = std::chrono::steady_clock::now();
      v1::SubmitMoveResponse reply = PlayRandomMove(mover, match, a, b, rng);
      const auto end = std::chrono::steady_clock::now();
      latencies.push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
      match.Swap(reply.mutable_match());
    }
    // The streams end with the match; each must see it end.
    for (auto& s : streams) {
      if (!s->WaitDone(std::chrono::seconds(60))) {
        for (auto& t : streams) t->Cancel();
        for (auto& t : streams) t->WaitDone(std::chrono::seconds(10));
        throw std::runtime_error("a watch stream did not end with its match");
      }
    }
  }
  std::sort(latencies.begin(), latencies.end());
  return latencies;
}

namespace {

class NativeFleet final : public WatchFleet {
 public:
  NativeFleet(Clients& clients, const std::string& match, int n,
              MoveArrival on_move) {
    for (int i = 0; i < n; ++i) {
      streams_.push_back(std::make_unique<Watcher>(*clients.Pick(1 + i).match,
                                                   match, on_move, i));
    }
  }
  ~NativeFleet() override {
    for (auto& s : streams_) s->Cancel();
    for (auto& s : streams_) s->WaitDone(std::chrono::seconds(30));
  }
  bool WaitSnapshots(std::chrono::seconds limit) override {
    for (auto& s : streams_) {
      if (!s->WaitEvents(1, limit)) return false;
    }
    return true;
  }

 private:
  std::vector<std::unique_ptr<Watcher>> streams_;
};

}  // namespace

std::unique_ptr<WatchFleet> NativeWatchers(Clients& clients,
                                           const std::string& match, int n,
                                           MoveArrival on_move) {
  return std::make_unique<NativeFleet>(clients, match, n, std::move(on_move));
}

std::vector<double> DeliveryLatencies(Clients& clients, const Guest& a,
                                      const Guest& b, int watchers, int matches,
                                      uint32_t seed, const OpenFleet& open) {
  using Clock = std::chrono::steady_clock;
  std::mt19937 rng(seed);
  std::vector<double> out;
  Clients::Connection& mover = clients.Pick(0);
  for (int m = 0; m < matches; ++m) {
    v1::Match match = CreateMatch(mover, a, b);
    // arrived[stream][ply]: when the stream had that move.
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::map<int64_t, Clock::time_point>> arrived(watchers);
    auto fleet = open(match.name(), watchers,
                      [&](int stream, int64_t ply, Clock::time_point at) {
                        {
                          std::lock_guard lock(mu);
                          arrived[stream][ply] = at;
                        }
                        cv.notify_all();
                      });
    if (!fleet->WaitSnapshots(std::chrono::seconds(30))) {
      throw std::runtime_error("a watcher got no snapshot within 30 s");
    }
    while (match.state() == v1::Match::IN_PROGRESS) {
      const Clock::time_point sent = Clock::now();
      v1::SubmitMoveResponse reply = PlayRandomMove(mover, match, a, b, rng);
      const int64_t ply = reply.move().ply();
      std::unique_lock lock(mu);
      const bool all = cv.wait_for(lock, std::chrono::seconds(30), [&] {
        for (const auto& got : arrived) {
          if (!got.count(ply)) return false;
        }
        return true;
      });
      if (!all) {
        throw std::runtime_error("a watcher missed move " +
                                 std::to_string(ply) + " for 30 s");
      }
      for (const auto& got : arrived) {
        out.push_back(
            std::chrono::duration<double, std::milli>(got.at(ply) - sent)
                .count());
      }
      lock.unlock();
      match.Swap(reply.mutable_match());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace mancala::bench
