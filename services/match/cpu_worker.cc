#include "services/match/cpu_worker.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <functional>

#include "engine/cpu/cpu_player.h"

namespace mancala::services {

CpuWorker::CpuWorker(LiveMatches& matches, int threads,
                     std::array<int, 4> budget_ms, Metrics* metrics,
                     std::function<bool(const CpuTurn&)> claim)
    : matches_(matches),
      budget_ms_(budget_ms),
      metrics_(metrics),
      claim_(std::move(claim)) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Run(); });
}

CpuWorker::~CpuWorker() { Stop(); }

void CpuWorker::Stop() {
  {
    MutexLock lock(&mu_);
    stopping_ = true;
    queues_.clear();
    clients_.clear();
  }
  cv_.SignalAll();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void CpuWorker::Enqueue(CpuTurn turn) {
  std::string client = turn.creator_id;
  {
    MutexLock lock(&mu_);
    if (stopping_) return;
    std::deque<CpuTurn>& q = queues_[client];
    if (q.empty()) clients_.push_back(client);
    q.push_back(std::move(turn));
  }
  cv_.Signal();
}

int CpuWorker::queued() {
  MutexLock lock(&mu_);
  int n = 0;
  for (const auto& [client, turns] : queues_)
    n += static_cast<int>(turns.size());
  return n;
}

CpuTurn CpuWorker::Next() {
  const std::string client = std::move(clients_.front());
  clients_.pop_front();
  auto it = queues_.find(client);
  CpuTurn turn = std::move(it->second.front());
  it->second.pop_front();
  if (it->second.empty()) {
    queues_.erase(it);
  } else {
    clients_.push_back(client);  // Its next turn waits for the others.
  }
  return turn;
}

void CpuWorker::Run() {
  for (;;) {
    std::optional<CpuTurn> turn;
    {
      MutexLock lock(&mu_);
      while (!stopping_ && clients_.empty()) cv_.Wait(&mu_);
      if (stopping_) return;
      turn = Next();
    }
    engine::CpuOptions options;
    options.level = turn->level;
    options.seed = std::hash<std::string>{}(turn->match_id) ^
                   static_cast<std::uint64_t>(turn->ply);
    options.budget = std::chrono::milliseconds(
        budget_ms_[std::clamp(turn->level, 1, 4) - 1]);
    options.stop = turn->stop.get();
    if (turn->stop && turn->stop->load()) continue;  // No longer wanted.
    if (claim_ && !claim_(*turn)) continue;          // Another node plays it.
    const auto search_start = std::chrono::steady_clock::now();
    const int pit = engine::ChooseMove(turn->state, options);
    if (metrics_ != nullptr) {
      metrics_->RecordCpuSearch(
          turn->level, std::chrono::steady_clock::now() - search_start);
    }
    absl::Status s = matches_.PlayCpu(*turn, pit);
    if (!s.ok() && !absl::IsAborted(s)) {
      spdlog::warn("CPU move in match {} at ply {} failed: {}", turn->match_id,
                   turn->ply, std::string(s.message()));
    }
  }
}

}  // namespace mancala::services
