// Plays the computer's turns off the gRPC threads.
//
// LiveMatches announces a CpuTurn (a copy of the state and its ply); the
// worker searches on its own threads, with no match lock held, then plays the
// move through LiveMatches::PlayCpu, which refuses it (ABORTED) if the match
// moved on meanwhile. Each turn is computed with a seed derived from the
// match id and ply, so a replayed server makes the same choices.
//
// Fairness: turns wait in one queue per client (the match's creator,
// CpuTurn::creator_id), and the workers take the clients in turn (round robin),
// so one client's many CPU matches delay another client's CPU move by at most
// one search per worker thread, however many they queue.
// Clusters (several nodes on PostgreSQL, cluster_node.h): before searching,
// the worker claims the turn in the store (`claim`); a turn another live
// node holds is dropped, so one search runs per turn across the nodes, and
// a turn whose node died is swept and claimed again elsewhere.
// Thread-safety: Enqueue() may be called from any thread; Stop() from one.

#ifndef MANCALA_SERVICES_MATCH_CPU_WORKER_H_
#define MANCALA_SERVICES_MATCH_CPU_WORKER_H_

#include <array>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "services/base/metrics.h"
#include "services/base/mutex.h"
#include "services/match/live_matches.h"

namespace mancala::services {

class CpuWorker {
 public:
  // Starts `threads` workers that play turns on `matches`; a move at level
  // L may think for at most budget_ms[L - 1] milliseconds. Each search is
  // reported to `metrics` (may be null). `claim` (empty: none, SQLite) tells
  // whether this node may play a turn.
  CpuWorker(LiveMatches& matches, int threads, std::array<int, 4> budget_ms,
            Metrics* metrics = nullptr,
            std::function<bool(const CpuTurn&)> claim = nullptr);
  // Stop()s.
  ~CpuWorker();

  // Queues `turn`; dropped once Stop() has begun.
  void Enqueue(CpuTurn turn);
  // Stops the workers: a search in progress finishes (at most its budget)
  // and its move is played; queued turns are dropped (announced again from
  // the store at the next start). Idempotent.
  void Stop();
  // Turns waiting for a thread.
  int queued();

 private:
  void Run();
  // The next turn, round robin over clients. Requires mu_, a turn queued.
  CpuTurn Next() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  LiveMatches& matches_;
  const std::array<int, 4> budget_ms_;
  Metrics* const metrics_;
  const std::function<bool(const CpuTurn&)> claim_;
  Mutex mu_;
  CondVar cv_;  // Signalled when a turn is queued or stopping_ is set.
  // Turns by client, and the clients with turns queued, in turn.
  std::map<std::string, std::deque<CpuTurn>> queues_ ABSL_GUARDED_BY(mu_);
  std::deque<std::string> clients_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_CPU_WORKER_H_
