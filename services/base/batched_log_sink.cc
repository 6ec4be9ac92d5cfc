#include "services/base/batched_log_sink.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

namespace mancala::services {

BatchedLogSink::BatchedLogSink(int fd) : fd_(fd) {
  // The thread inherits the creator's signal mask: block everything while
  // creating it, so no stop signal is ever delivered to it.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  thread_ = std::thread([this] { Loop(); });
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

BatchedLogSink::~BatchedLogSink() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

int64_t BatchedLogSink::writes() const {
  std::lock_guard lock(mu_);
  return writes_;
}

void BatchedLogSink::sink_it_(const spdlog::details::log_msg& msg) {
  spdlog::memory_buf_t line;
  formatter_->format(msg, line);  // Outside mu_: the writer never waits on it.
  bool wake;
  {
    std::lock_guard lock(mu_);
    const size_t before = pending_.size();
    pending_.append(line.data(), line.size());
    ++appended_;
    // A non-empty buffer means the writer is awake, lingering or about to
    // take it: it needs a wake-up only for the first line, and to end its
    // linger once the buffer is full.
    wake = before == 0 ||
           (before < kFullBytes && pending_.size() >= kFullBytes);
  }
  if (wake) wake_.notify_one();
}

void BatchedLogSink::flush_() {
  std::unique_lock lock(mu_);
  const int64_t target = appended_;
  ++flushing_;
  wake_.notify_one();
  written_.wait(lock, [&] { return done_ >= target; });
  --flushing_;
}

void BatchedLogSink::Loop() {
  std::string batch;
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return !pending_.empty() || stopping_; });
    if (pending_.empty()) return;  // Stopping, and everything is written.
    wake_.wait_for(lock, kLinger, [this] {
      return stopping_ || flushing_ > 0 || pending_.size() >= kFullBytes;
    });
    batch.swap(pending_);
    const int64_t lines = appended_;
    lock.unlock();
    WriteAll(batch);
    batch.clear();
    lock.lock();
    done_ = lines;
    ++writes_;
    written_.notify_all();
  }
}

void BatchedLogSink::WriteAll(const std::string& text) {
  size_t at = 0;
  while (at < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + at, text.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

}  // namespace mancala::services
