// Group commit on PostgreSQL: the moves of many matches appended by one
// statement, one round trip and one commit for the whole batch (issue 28:
// PostgreSQL at SQLite's pace).
//
// Why: appended one by one, a move cost the database about as much CPU as
// it cost mancalad (about 260 us per move on the 2-core test machine: a
// statement's executor start, its commit, the wake-ups of its round trip),
// and at most `pool_size` moves were in flight. Each of the batcher's
// `threads` takes whatever is queued, at most one move per match and none
// of a match whose move is in another thread's batch (the next move of a
// match must see the ply its predecessor wrote; it waits for a later
// batch), and runs one statement (pg_store.cc, "append_moves"): the
// ply-checked UPDATE
// of every match and the INSERT of every move whose match was at the
// expected ply, as the single append does, so each move of the batch
// stands or is refused on its own.
//
// Each Submit() is answered once, on the batcher's thread, right after the
// statement's commit: OK (stored); ABORTED or NOT_FOUND (refused: read
// after the batch, as the single append tells them apart); or the batch's
// failure. When the batch fails for a reason one of its moves may have
// caused (a unique violation, e.g. a request id already stored) each move
// is appended again on its own (`single`), so one bad move fails alone.
// When the connection was cut off mid-commit, `check` tells for each move
// whether it is stored (the single append's CheckAppended).
//
// Batching only where moves queue: TryAlone() sends a move on its
// caller's own thread, with the single append's statement, when nothing is
// queued, a slot is free and its match has no move in flight (a synchronous
// caller blocks for its commit anyway; handing the move to a batcher thread
// and the answer back cost two thread hops, measured slower at 8 clients).
// At most `threads` statements are in flight at once, alone or batched, so
// once the slots are taken, moves queue and go out together.
//
// A batch of one move is sent with the single append's statement. Moves
// that end a rated match (rating rows to lock) are not batched: the store
// appends them on their own.
//
// Deadlines: a move whose deadline (the caller's, call_deadline.h) has
// passed when its batch is taken is answered DEADLINE_EXCEEDED and not
// sent. Close() answers what is queued (sent as usual) and refuses later
// Submit()s with UNAVAILABLE.
// Thread-safety: Submit() and Close() from any thread; `done`, `single` and
// `check` run on the batcher's thread and must not Submit().

#ifndef MANCALA_STORAGE_PG_APPEND_BATCHER_H_
#define MANCALA_STORAGE_PG_APPEND_BATCHER_H_

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "storage/pg_pool.h"
#include "storage/store.h"

namespace mancala::storage {

class PgAppendBatcher {
 public:
  using Single =
      std::function<absl::Status(const MoveRow&, const MatchUpdate&)>;
  using Check = std::function<absl::Status(const MoveRow&, absl::Status)>;

  // `pool` must outlive the batcher; its connections have the statement
  // "append_moves" prepared. `max_batch`: the most moves per statement;
  // `threads`: batches in flight at once (one alone would leave the
  // database idle while each batch's commit reaches the disk).
  PgAppendBatcher(PgPool& pool, int max_batch, int threads, Single single,
                  Check check);
  ~PgAppendBatcher();  // Close().

  void Submit(MoveRow move, MatchUpdate update,
              std::optional<std::chrono::steady_clock::time_point> deadline,
              Store::AppendDone done);
  // `single` on the calling thread if nothing is queued, a slot is free
  // and no move of the match is in flight: its status. nullopt otherwise
  // (nothing sent; Submit() it). The caller's deadline scope applies.
  std::optional<absl::Status> TryAlone(const MoveRow& move,
                                       const MatchUpdate& update);
  void Close();

  // Statements sent and moves they carried (tests, benchmarks).
  struct Stats {
    int64_t batches = 0;
    int64_t moves = 0;
  };
  Stats stats() const;

 private:
  struct Job {
    MoveRow move;
    MatchUpdate update;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    Store::AppendDone done;
    absl::Status result;
  };
  void Loop();
  // Sends `batch` and sets every job's result.
  void RunBatch(std::vector<std::unique_ptr<Job>>& batch);

  PgPool& pool_;
  const size_t max_batch_;
  const int slots_;  // Statements in flight at most: `threads`.
  const Single single_;
  const Check check_;

  mutable std::mutex mu_;
  std::condition_variable work_;  // Jobs queued, a batch done, or closing.
  std::deque<std::unique_ptr<Job>> queue_;  // GUARDED_BY(mu_)
  std::set<std::string> in_flight_;  // Matches in a batch.  GUARDED_BY(mu_)
  int running_ = 0;  // Statements in flight, alone or batched.  GUARDED_BY(mu_)
  bool closing_ = false;  // GUARDED_BY(mu_)
  Stats stats_;           // GUARDED_BY(mu_)
  std::vector<std::thread> threads_;
};

// The batch statement's parameters: one PostgreSQL array literal per
// column, element i from moves[i] and updates[i] (NULL where the single
// append sends NULL). For pg_store.cc's "append_moves".
std::vector<std::string> AppendBatchParams(
    const std::vector<const MoveRow*>& moves,
    const std::vector<const MatchUpdate*>& updates);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_PG_APPEND_BATCHER_H_
