// Ordered work off the caller's thread: a few threads run the tasks of
// many strands; the tasks of one strand run one at a time, in the order
// they were posted.
//
// LiveMatches gives each watched match a strand for its watch events: the
// mover only queues an event under the match lock and gets
// its reply at once, while a pool thread copies the event to every
// watcher's stream. One strand per match keeps each stream's events in
// order; many matches spread over the threads, and a busy strand yields
// the thread after each batch so one big audience does not stall the rest.
// Thread-safety: Post() from any thread. The pool runs every task posted
// before its destruction; a task posted after it is gone runs inline.

#ifndef MANCALA_SERVICES_BASE_STRAND_POOL_H_
#define MANCALA_SERVICES_BASE_STRAND_POOL_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mancala::services {

class StrandPool {
 public:
  class Strand;

  explicit StrandPool(int threads);
  ~StrandPool();  // Runs what is queued, then joins the threads.
  StrandPool(const StrandPool&) = delete;
  StrandPool& operator=(const StrandPool&) = delete;

  std::shared_ptr<Strand> NewStrand();

 private:
  struct Core;
  std::shared_ptr<Core> core_;
  std::vector<std::thread> threads_;
};

class StrandPool::Strand : public std::enable_shared_from_this<Strand> {
 public:
  explicit Strand(std::shared_ptr<Core> core) : core_(std::move(core)) {}
  // Queues `task` after the strand's earlier tasks; never blocks on them.
  void Post(std::function<void()> task);

 private:
  friend class StrandPool;
  friend struct StrandPool::Core;
  // Runs the tasks queued now; true if more came meanwhile.
  bool RunBatch();

  std::shared_ptr<Core> core_;
  std::mutex mu_;
  // A vector, not a deque: nothing is allocated for a strand never used.
  std::vector<std::function<void()>> tasks_;
  bool scheduled_ = false;  // In the pool's ready queue or running.
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_STRAND_POOL_H_
