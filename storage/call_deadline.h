// How long a store call may take: the deadline of the call the current
// thread is serving.
//
// An RPC handler sets its client's deadline for the length of the call
// (services/api/guarded_services.h), so the deadline reaches the store
// without every Store method taking one: PostgreSQL bounds the wait for a
// pooled connection, the connect and every statement by it (pg_pool.h), and
// SQLite's writer drops a queued write whose deadline has passed
// (sqlite_writer.h). A thread that set none (the CPU worker, the ticker, a
// sweep, a stream's callback) gets the store's own bound (PostgreSQL:
// PgPoolOptions::bound, which also caps a client's longer deadline).
//
// A store call that runs out of time answers DEADLINE_EXCEEDED (store.h).
// Thread-safety: each thread has its own deadline; a CallDeadline must be
// destroyed on the thread that made it, in reverse order of construction.

#ifndef MANCALA_STORAGE_CALL_DEADLINE_H_
#define MANCALA_STORAGE_CALL_DEADLINE_H_

#include <chrono>
#include <optional>

namespace mancala::storage {

class CallDeadline {
 public:
  using Clock = std::chrono::steady_clock;

  // The store calls this thread makes until destruction must end by
  // `deadline`, or by the deadline already set if that is earlier (a nested
  // scope never extends its caller's).
  explicit CallDeadline(Clock::time_point deadline);
  ~CallDeadline();
  CallDeadline(const CallDeadline&) = delete;
  CallDeadline& operator=(const CallDeadline&) = delete;

  // This thread's deadline, if one is set.
  static std::optional<Clock::time_point> Current();

 private:
  std::optional<Clock::time_point> previous_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_CALL_DEADLINE_H_
