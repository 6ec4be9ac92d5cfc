#include "services/cpu_worker.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <functional>

#include "engine/cpu/cpu_player.h"

namespace mancala::services {

CpuWorker::CpuWorker(LiveMatches& matches, int threads,
                     std::array<int, 4> budget_ms)
    : matches_(matches), budget_ms_(budget_ms) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Run(); });
}

CpuWorker::~CpuWorker() { Stop(); }

void CpuWorker::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void CpuWorker::Enqueue(CpuTurn turn) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    queue_.push_back(std::move(turn));
  }
  cv_.notify_one();
}

void CpuWorker::Run() {
  for (;;) {
    std::optional<CpuTurn> turn;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      turn = std::move(queue_.front());
      queue_.pop_front();
    }
    engine::CpuOptions options;
    options.level = turn->level;
    options.seed = std::hash<std::string>{}(turn->match_id) ^
                   static_cast<std::uint64_t>(turn->ply);
    options.budget = std::chrono::milliseconds(
        budget_ms_[std::clamp(turn->level, 1, 4) - 1]);
    options.stop = turn->stop.get();
    if (turn->stop && turn->stop->load()) continue;  // No longer wanted.
    const int pit = engine::ChooseMove(turn->state, options);
    grpc::Status s = matches_.PlayCpu(*turn, pit);
    if (!s.ok() && s.error_code() != grpc::StatusCode::ABORTED) {
      spdlog::warn("CPU move in match {} at ply {} failed: {}", turn->match_id,
                   turn->ply, s.error_message());
    }
  }
}

}  // namespace mancala::services
