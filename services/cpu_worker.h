// Plays the computer's turns off the gRPC threads.
//
// LiveMatches announces a CpuTurn (a copy of the state and its ply); the
// worker searches on its own threads, with no match lock held, then plays the
// move through LiveMatches::PlayCpu, which refuses it (ABORTED) if the match
// moved on meanwhile. Each turn is computed with a seed derived from the
// match id and ply, so a replayed server makes the same choices.
// Thread-safety: Enqueue() may be called from any thread.

#ifndef MANCALA_SERVICES_CPU_WORKER_H_
#define MANCALA_SERVICES_CPU_WORKER_H_

#include <array>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "services/live_matches.h"

namespace mancala::services {

class CpuWorker {
 public:
  // Starts `threads` workers that play turns on `matches`; a move at level
  // L may think for at most budget_ms[L - 1] milliseconds.
  CpuWorker(LiveMatches& matches, int threads, std::array<int, 4> budget_ms);
  // Stop()s.
  ~CpuWorker();

  // Queues `turn`; dropped once Stop() has begun.
  void Enqueue(CpuTurn turn);
  // Stops the workers: a search in progress finishes (at most its budget)
  // and its move is played; queued turns are dropped (announced again from
  // the store at the next start). Idempotent.
  void Stop();

 private:
  void Run();

  LiveMatches& matches_;
  const std::array<int, 4> budget_ms_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<CpuTurn> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_CPU_WORKER_H_
