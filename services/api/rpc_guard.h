// The one catch at the gRPC edge: every handler of every service runs
// inside Guard() (services/api/guarded_services.h), which turns an exception
// into INTERNAL (reason INTERNAL) with a log line naming the RPC, instead of
// gRPC's UNKNOWN "Unexpected error in RPC handling".
//
// Each unary handler also runs inside a ClientDeadline.
// Client input never reaches it: every field a client sends is checked
// first and answered with INVALID_ARGUMENT (tests/fuzz/rpc_fuzz.cc sends
// every RPC arbitrary requests and fails on INTERNAL or UNKNOWN). An
// INTERNAL answer is therefore a server bug, and is logged as one.
// Thread-safety: Guard() may run on any number of threads.

#ifndef MANCALA_SERVICES_API_RPC_GUARD_H_
#define MANCALA_SERVICES_API_RPC_GUARD_H_

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <exception>
#include <optional>

#include "storage/call_deadline.h"

namespace mancala::services {

// While it lives, the store calls of the handler on this thread end by the
// client's deadline or `bound` from now, whichever is earlier
// (storage/call_deadline.h; mancalad --db-call-timeout-ms): a client that
// gave up is not served on, nothing it was told failed is written later,
// and a call without a deadline cannot hold a thread on a hung database.
class ClientDeadline {
 public:
  ClientDeadline(const grpc::ServerContextBase& context,
                 std::chrono::milliseconds bound);

 private:
  std::optional<storage::CallDeadline> scope_;
};

// Logs the escaped exception (rate-limited) and returns the INTERNAL status.
grpc::Status InternalError(const char* rpc, const char* what);

template <class Body>
grpc::Status Guard(const char* rpc, Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return InternalError(rpc, e.what());
  } catch (...) {
    return InternalError(rpc, "an exception of unknown type");
  }
}

// A server stream that fails at once (for a stream handler that threw).
template <class Event>
class FailedStream final : public grpc::ServerWriteReactor<Event> {
 public:
  explicit FailedStream(const grpc::Status& status) { this->Finish(status); }
  void OnDone() override { delete this; }
};

// A unary call on the callback API whose `body(done)` answers through
// `done` (a std::function<void(grpc::Status)>), once, now or later from any
// thread: the call is finished then. An exception out of `body` answers
// INTERNAL unless `done` ran. `body` runs inside a ClientDeadline, so a
// store write it starts carries the client's deadline.
template <class Body>
grpc::ServerUnaryReactor* GuardAsync(const char* rpc,
                                     grpc::CallbackServerContext& context,
                                     std::chrono::milliseconds bound,
                                     Body&& body) {
  grpc::ServerUnaryReactor* reactor = context.DefaultReactor();
  auto answered = std::make_shared<std::atomic<bool>>(false);
  std::function<void(grpc::Status)> done = [reactor,
                                            answered](grpc::Status status) {
    if (!answered->exchange(true)) reactor->Finish(std::move(status));
  };
  grpc::Status thrown;
  {
    const ClientDeadline deadline(context, bound);
    thrown = Guard(rpc, [&] {
      body(done);
      return grpc::Status::OK;
    });
  }
  if (!thrown.ok()) done(thrown);
  return reactor;
}

template <class Event, class Body>
grpc::ServerWriteReactor<Event>* GuardStream(const char* rpc, Body&& body) {
  grpc::ServerWriteReactor<Event>* reactor = nullptr;
  grpc::Status s = Guard(rpc, [&] {
    reactor = body();
    return grpc::Status::OK;
  });
  return s.ok() ? reactor : new FailedStream<Event>(s);
}

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_RPC_GUARD_H_
