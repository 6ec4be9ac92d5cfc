#include "services/watch_stream.h"

namespace mancala::services {

std::function<void()> WatchSink::Pump() {
  if (reactor_ == nullptr || writing_) return nullptr;
  WatchReactor* r = reactor_;
  if (!queue_.empty() && close_status_.ok()) {
    current_ = std::move(queue_.front());
    queue_.pop_front();
    writing_ = true;
    const bool finish_after = closing_ && queue_.empty();
    if (finish_after) {
      // Write-and-finish in one step: the last event of the stream.
      reactor_ = nullptr;
      return [r, this] { r->StartWriteAndFinish(&current_, {}, grpc::Status::OK); };
    }
    return [r, this] { r->StartWrite(&current_); };
  }
  if (closing_) {
    reactor_ = nullptr;
    grpc::Status status = close_status_;
    return [r, status] { r->Finish(status); };
  }
  return nullptr;
}

void WatchSink::Push(const v1::WatchEvent& event, bool last) {
  std::function<void()> action;
  {
    std::lock_guard lock(mu_);
    if (closing_) return;
    if (queue_.size() >= kMaxQueued) {
      queue_.clear();
      closing_ = true;
      close_status_ = grpc::Status(
          grpc::StatusCode::RESOURCE_EXHAUSTED,
          "watcher fell too far behind; watch again with after_ply");
    } else {
      queue_.push_back(event);
      closing_ = last;
    }
    action = Pump();
  }
  if (action) action();
}

void WatchSink::Close(const grpc::Status& status) {
  std::function<void()> action;
  {
    std::lock_guard lock(mu_);
    if (closing_) return;
    closing_ = true;
    close_status_ = status;
    if (!status.ok()) queue_.clear();
    action = Pump();
  }
  if (action) action();
}

WatchReactor::WatchReactor(std::shared_ptr<WatchSink> sink,
                           std::function<void()> on_done)
    : sink_(std::move(sink)), on_done_(std::move(on_done)) {}

void WatchReactor::Start() {
  std::function<void()> action;
  {
    std::lock_guard lock(sink_->mu_);
    sink_->reactor_ = this;
    action = sink_->Pump();
  }
  if (action) action();
}

void WatchReactor::OnWriteDone(bool ok) {
  std::function<void()> action;
  {
    std::lock_guard lock(sink_->mu_);
    sink_->writing_ = false;
    if (!ok) {
      // The client is gone; the RPC ends by itself (OnCancel/OnDone).
      sink_->closing_ = true;
      sink_->queue_.clear();
      if (sink_->reactor_ != nullptr) {
        sink_->reactor_ = nullptr;
        action = [this] {
          Finish(grpc::Status(grpc::StatusCode::CANCELLED, "write failed"));
        };
      }
    } else {
      action = sink_->Pump();
    }
  }
  if (action) action();
}

void WatchReactor::OnCancel() {
  std::function<void()> action;
  {
    std::lock_guard lock(sink_->mu_);
    sink_->closing_ = true;
    sink_->queue_.clear();
    if (sink_->reactor_ != nullptr && !sink_->writing_) {
      sink_->reactor_ = nullptr;
      action = [this] {
        Finish(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
      };
    } else if (sink_->reactor_ != nullptr) {
      // A write is in flight; its OnWriteDone(false) finishes.
    }
  }
  if (action) action();
}

void WatchReactor::OnDone() {
  {
    std::lock_guard lock(sink_->mu_);
    sink_->reactor_ = nullptr;
    sink_->closing_ = true;
  }
  if (on_done_) on_done_();
  delete this;
}

}  // namespace mancala::services
