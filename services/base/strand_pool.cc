#include "services/base/strand_pool.h"

namespace mancala::services {

struct StrandPool::Core {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::shared_ptr<Strand>> ready;
  bool stopping = false;

  // False once the pool is gone: the caller runs the strand itself.
  bool Schedule(std::shared_ptr<Strand> strand) {
    {
      std::lock_guard lock(mu);
      if (stopping) return false;
      ready.push_back(std::move(strand));
    }
    cv.notify_one();
    return true;
  }

  void Work() {
    for (;;) {
      std::shared_ptr<Strand> strand;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return stopping || !ready.empty(); });
        if (ready.empty()) return;  // Stopping, nothing left.
        strand = std::move(ready.front());
        ready.pop_front();
      }
      // More tasks go to the back of the line, behind other strands.
      if (strand->RunBatch()) {
        std::lock_guard lock(mu);
        ready.push_back(std::move(strand));
      }
    }
  }
};

StrandPool::StrandPool(int threads) : core_(std::make_shared<Core>()) {
  for (int i = 0; i < threads; ++i) {
    threads_.emplace_back([core = core_] { core->Work(); });
  }
}

StrandPool::~StrandPool() {
  {
    std::lock_guard lock(core_->mu);
    core_->stopping = true;
  }
  core_->cv.notify_all();
  for (std::thread& t : threads_) t.join();
  // Strands still queued (no threads at all) run here.
  while (!core_->ready.empty()) {
    auto strand = std::move(core_->ready.front());
    core_->ready.pop_front();
    while (strand->RunBatch()) {
    }
  }
}

std::shared_ptr<StrandPool::Strand> StrandPool::NewStrand() {
  return std::make_shared<Strand>(core_);
}

void StrandPool::Strand::Post(std::function<void()> task) {
  {
    std::lock_guard lock(mu_);
    tasks_.push_back(std::move(task));
    if (scheduled_) return;
    scheduled_ = true;
  }
  if (!core_->Schedule(shared_from_this())) {
    while (RunBatch()) {
    }
  }
}

bool StrandPool::Strand::RunBatch() {
  std::vector<std::function<void()>> batch;
  {
    std::lock_guard lock(mu_);
    batch.swap(tasks_);
  }
  for (auto& task : batch) task();
  std::lock_guard lock(mu_);
  if (tasks_.empty()) scheduled_ = false;
  return scheduled_;
}

}  // namespace mancala::services
