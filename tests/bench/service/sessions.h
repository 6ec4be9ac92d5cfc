// The calls the service benchmark makes: one Session class per kind of
// load (closed_loop.h), plus the set-up calls (players, matches) done
// before a phase.
//
// Matches are two-player casual Kalah between two guest players; a mover
// plays a random legal pit for whichever seat is to move, using that
// seat's token, and starts a new match (uncounted) when one ends.
// Thread-safety: Clients may be shared; a session is driven by one loop.

#ifndef MANCALA_TESTS_BENCH_SERVICE_SESSIONS_H_
#define MANCALA_TESTS_BENCH_SERVICE_SESSIONS_H_

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "mancala/v1/match_service.grpc.pb.h"
#include "mancala/v1/player_service.grpc.pb.h"
#include "tests/bench/service/closed_loop.h"

namespace mancala::bench {

struct Guest {
  std::string name;   // "players/{id}"
  std::string token;  // Bearer token.
};

// A few connections to the server (calls spread over them round robin),
// each with the stubs the benchmark uses.
class Clients {
 public:
  Clients(const std::string& address, int connections);
  struct Connection {
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<v1::MatchService::Stub> match;
    std::unique_ptr<v1::PlayerService::Stub> player;
    std::unique_ptr<grpc::GenericStub> generic;
  };
  Connection& Pick(size_t i) { return connections_[i % connections_.size()]; }

 private:
  std::vector<Connection> connections_;
};

// Creates `n` guest players, `threads` calls at a time. Throws on failure.
std::vector<Guest> CreateGuests(Clients& clients, int n, int threads);
// A new casual Kalah match of `a` (seat 0, moves first) and `b`.
v1::Match CreateMatch(Clients::Connection& c, const Guest& a, const Guest& b);

// SubmitMove of a random legal pit of `match` for the seat to move (`a` is
// seat 0, `b` seat 1), with its token. Throws on failure.
v1::SubmitMoveResponse PlayRandomMove(Clients::Connection& c,
                                      const v1::Match& match, const Guest& a,
                                      const Guest& b, std::mt19937& rng);

// grpc.health.v1.Health/Check for the whole server (service ""): the
// same-run baseline, a unary call that touches no state.
std::unique_ptr<Session> NewHealthSession(Clients::Connection& c);
// Called with every SubmitMove answered OK (an acknowledged move), from
// gRPC's callback threads.
using MoveAck = std::function<void(const v1::SubmitMoveResponse&)>;
// SubmitMove with random legal pits in matches of `a` against `b`.
std::unique_ptr<Session> NewMoverSession(Clients::Connection& c, Guest a,
                                         Guest b, uint32_t seed,
                                         MoveAck on_ack = nullptr);
// GetMatch of `match`, with `token` as bearer token unless empty.
std::unique_ptr<Session> NewGetMatchSession(Clients::Connection& c,
                                            std::string match,
                                            std::string token);

// The mover's SubmitMove latencies (ms, sorted) over `matches` whole
// matches, each watched by `watchers` anonymous WatchMatch streams opened
// before the first move and read as fast as they come.
std::vector<double> MoverLatencyWithWatchers(Clients& clients, const Guest& a,
                                             const Guest& b, int watchers,
                                             int matches, uint32_t seed);

// Move delivery to watchers, whatever carries the streams (native gRPC
// here, the web port in web_load.h).
//
// A watch stream's report of a move event: the stream's index, the move's
// ply, when it arrived. Called from the streams' threads.
using MoveArrival = std::function<void(
    int stream, int64_t ply, std::chrono::steady_clock::time_point at)>;
// Streams watching one match; destroying it cancels them and waits until
// none is called any more.
class WatchFleet {
 public:
  virtual ~WatchFleet() = default;
  // True once every stream has had its first event (the snapshot).
  virtual bool WaitSnapshots(std::chrono::seconds limit) = 0;
};
// Opens `n` anonymous WatchMatch streams of `match`.
using OpenFleet = std::function<std::unique_ptr<WatchFleet>(
    const std::string& match, int n, MoveArrival on_move)>;
// Native streams over `clients`' connections (spread round robin).
std::unique_ptr<WatchFleet> NativeWatchers(Clients& clients,
                                           const std::string& match, int n,
                                           MoveArrival on_move);

// Plays `matches` whole matches of `a` against `b` through
// clients.Pick(0), one move at a time, with `watchers` streams opened by
// `open` on each: after each move it waits for every stream to have it.
// Returns each (stream, move)'s delivery time in ms, from just before the
// SubmitMove was sent to the event's arrival, sorted. Throws if a stream
// misses a move for 30 s.
std::vector<double> DeliveryLatencies(Clients& clients, const Guest& a,
                                      const Guest& b, int watchers, int matches,
                                      uint32_t seed, const OpenFleet& open);

}  // namespace mancala::bench

#endif  // MANCALA_TESTS_BENCH_SERVICE_SESSIONS_H_
