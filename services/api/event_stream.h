// A server stream of events: a queue and the gRPC reactor that writes it,
// one write in flight at a time (docs/design.md "Concurrency").
//
// Producers Push() events under their own locks; Push() never blocks and
// never waits for the network, so a slow reader never slows a producer. A
// reader that falls max_queued live events behind (mancalad
// --max-queued-events for WatchMatch; kDefaultMaxQueued otherwise) is
// closed with RESOURCE_EXHAUSTED. The backlog a stream starts with
// (PushBacklog: WatchMatch's catch-up moves, bounded by the match's length)
// does not count, so a dropped watcher can always resume from its ply. Used for
// WatchMatch (WatchSink, watch_sink.h) and FindMatch (FindSink,
// find_sink.h). Thread-safety: Push() and Close() from any thread.

#ifndef MANCALA_SERVICES_API_EVENT_STREAM_H_
#define MANCALA_SERVICES_API_EVENT_STREAM_H_

#include <grpcpp/grpcpp.h>

#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "services/base/mutex.h"

namespace mancala::services {

template <class Event>
class EventReactor;

// The producers' handle on a stream; outlives the reactor safely.
template <class Event>
class EventSink {
 public:
  static constexpr size_t kDefaultMaxQueued = 10000;

  // `max_queued` >= 1: live events queued beyond the backlog.
  explicit EventSink(size_t max_queued = kDefaultMaxQueued)
      : max_queued_(max_queued) {}

  // Queues `event`; `last` closes the stream (OK) after it is written.
  void Push(const Event& event, bool last = false) {
    Push(std::make_shared<const Event>(event), last);
  }
  // Queues `event` as part of the backlog, outside the cap. Only before
  // the first Push().
  void PushBacklog(const Event& event) {
    MutexLock lock(&mu_);
    if (closing_) return;
    queue_.push_back(std::make_shared<const Event>(event));
    ++backlog_;
  }
  // The same, sharing one copy of the event among many streams.
  void Push(std::shared_ptr<const Event> event, bool last = false) {
    std::function<void()> action;
    {
      MutexLock lock(&mu_);
      if (closing_) return;
      if (queue_.size() - backlog_ >= max_queued_) {
        queue_.clear();
        backlog_ = 0;
        closing_ = true;
        close_status_ = grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                     "reader fell too far behind");
      } else {
        queue_.push_back(std::move(event));
        closing_ = last;
      }
      action = Pump();
    }
    if (action) action();
  }

  // Ends the stream with `status`: after the queued events for OK, at once
  // for an error.
  void Close(const grpc::Status& status) {
    std::function<void()> action;
    {
      MutexLock lock(&mu_);
      if (closing_) return;
      closing_ = true;
      close_status_ = status;
      if (!status.ok()) {
        queue_.clear();
        backlog_ = 0;
      }
      action = Pump();
    }
    if (action) action();
  }

  // Seats whose presence this stream keeps (WatchMatch with a token).
  std::vector<int> seats;

 private:
  friend class EventReactor<Event>;

  // Starts the next write or the finish. Requires mu_; returns the action
  // to run once mu_ is released (the reactor must not be called under it).
  std::function<void()> Pump() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (reactor_ == nullptr || writing_) return nullptr;
    EventReactor<Event>* r = reactor_;
    if (!queue_.empty() && close_status_.ok()) {
      current_ = std::move(queue_.front());
      queue_.pop_front();
      if (backlog_ > 0) --backlog_;  // The backlog is at the front.
      writing_ = true;
      // The last event too is written alone and the stream finished once it
      // is done: with StartWriteAndFinish, gRPC's in-process transport (the
      // web port's, services/web/web_port.h) can hand the reader the status
      // before the message, which is then lost and its write never done.
      return [r, this] { r->StartWrite(current_.get()); };
    }
    if (closing_) {
      reactor_ = nullptr;
      grpc::Status status = close_status_;
      return [r, status] { r->Finish(status); };
    }
    return nullptr;
  }

  const size_t max_queued_;
  Mutex mu_;
  // Events of the backlog still at the front of queue_.
  size_t backlog_ ABSL_GUARDED_BY(mu_) = 0;
  // Null once finishing or done.
  EventReactor<Event>* reactor_ ABSL_GUARDED_BY(mu_) = nullptr;
  std::deque<std::shared_ptr<const Event>> queue_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool closing_ ABSL_GUARDED_BY(mu_) = false;
  grpc::Status close_status_ ABSL_GUARDED_BY(mu_);
  // The event being written: set under mu_ by Pump(), then read by gRPC
  // alone until OnWriteDone (writing_ keeps Pump() off it meanwhile).
  std::shared_ptr<const Event> current_;
};

// The reactor gRPC drives. It deletes itself when the RPC is done, after
// calling `on_done` (to unregister the sink from its producer).
template <class Event>
class EventReactor final : public grpc::ServerWriteReactor<Event> {
 public:
  EventReactor(std::shared_ptr<EventSink<Event>> sink,
               std::function<void()> on_done)
      : sink_(std::move(sink)), on_done_(std::move(on_done)) {}

  // Attaches to the sink and starts writing what is queued.
  void Start() {
    std::function<void()> action;
    {
      MutexLock lock(&sink_->mu_);
      sink_->reactor_ = this;
      action = sink_->Pump();
    }
    if (action) action();
  }

  void OnWriteDone(bool ok) override {
    std::function<void()> action;
    {
      MutexLock lock(&sink_->mu_);
      sink_->writing_ = false;
      if (!ok) Abandon();  // The client is gone.
      action = sink_->Pump();
    }
    if (action) action();
  }
  void OnCancel() override {
    std::function<void()> action;
    {
      MutexLock lock(&sink_->mu_);
      // Even with a write in flight: it may still end with ok (the client
      // read it, then cancelled), and nothing else would then end the
      // stream. Pump() finishes once that write is done.
      Abandon();
      action = sink_->Pump();
    }
    if (action) action();
  }
  void OnDone() override {
    {
      MutexLock lock(&sink_->mu_);
      sink_->reactor_ = nullptr;
      sink_->closing_ = true;
    }
    if (on_done_) on_done_();
    delete this;
  }

 private:
  // Drops what is queued and finishes as cancelled.
  void Abandon() ABSL_EXCLUSIVE_LOCKS_REQUIRED(sink_->mu_) {
    sink_->queue_.clear();
    sink_->backlog_ = 0;
    sink_->closing_ = true;
    sink_->close_status_ =
        grpc::Status(grpc::StatusCode::CANCELLED, "the client went away");
  }

  std::shared_ptr<EventSink<Event>> sink_;
  std::function<void()> on_done_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_EVENT_STREAM_H_
