// Calls through mancalad's web port as a browser makes them: the Connect
// protocol over HTTP/1.1 (unary in application/proto on a kept-alive
// connection, WatchMatch as an application/connect+proto stream on a
// connection of its own), with Boost.Beast on a few client threads, so
// that thousands of open streams need no thread each.
//
// Thread-safety: a WebClient may be shared; a session is driven by one
// closed loop (closed_loop.h); a fleet's MoveArrival is called from the
// client's threads.

#ifndef MANCALA_TESTS_BENCH_SERVICE_WEB_LOAD_H_
#define MANCALA_TESTS_BENCH_SERVICE_WEB_LOAD_H_

#include <memory>
#include <string>

#include "tests/bench/service/closed_loop.h"
#include "tests/bench/service/sessions.h"

namespace mancala::bench {

// The client's event loop and its threads, for one server's web port.
class WebClient {
 public:
  WebClient(int web_port, int threads);
  // Every session and fleet made with it must be gone first.
  ~WebClient();
  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// grpc.health.v1.Health/Check through the web port (the same-run baseline
// of the web rows).
std::unique_ptr<Session> NewWebHealthSession(WebClient& client);
// GetMatch of `match`, anonymous, through the web port.
std::unique_ptr<Session> NewWebGetMatchSession(WebClient& client,
                                               const std::string& match);
// `n` anonymous WatchMatch streams of `match`, each on its own connection.
std::unique_ptr<WatchFleet> WebWatchers(WebClient& client,
                                        const std::string& match, int n,
                                        MoveArrival on_move);

}  // namespace mancala::bench

#endif  // MANCALA_TESTS_BENCH_SERVICE_WEB_LOAD_H_
