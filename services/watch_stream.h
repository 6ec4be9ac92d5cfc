// One WatchMatch stream: a queue of events and the gRPC reactor that writes
// them, one write in flight at a time.
//
// LiveMatches pushes events under the match lock; Push() never blocks and
// never waits for the network, so a slow watcher never slows a move. A
// watcher that falls kMaxQueued events behind is closed with
// RESOURCE_EXHAUSTED and may resume with WatchMatchRequest.after_ply.
// Thread-safety: Push() and Close() from any thread.

#ifndef MANCALA_SERVICES_WATCH_STREAM_H_
#define MANCALA_SERVICES_WATCH_STREAM_H_

#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include <grpcpp/grpcpp.h>

#include "mancala/v1/match_service.pb.h"

namespace mancala::services {

class WatchReactor;

// The match's handle on a stream; outlives the reactor safely.
class WatchSink {
 public:
  static constexpr size_t kMaxQueued = 10000;

  // Queues `event`; `last` closes the stream (OK) after it is written.
  void Push(const v1::WatchEvent& event, bool last = false);
  // Ends the stream with `status` once queued events are written (OK), or
  // at once (an error).
  void Close(const grpc::Status& status);
  // Seats whose presence this stream keeps (the watcher's own seats).
  std::vector<int> seats;

 private:
  friend class WatchReactor;
  std::mutex mu_;
  WatchReactor* reactor_ = nullptr;  // Null once the stream is done.
  std::deque<v1::WatchEvent> queue_;
  bool writing_ = false;
  bool closing_ = false;
  grpc::Status close_status_;
  v1::WatchEvent current_;  // The event being written.

  // Starts the next write or the finish. Requires mu_; returns what to do
  // once mu_ is released.
  std::function<void()> Pump();
};

// The reactor gRPC drives. It deletes itself when the RPC is done and then
// calls `on_done` (to unregister the sink from its match).
class WatchReactor final : public grpc::ServerWriteReactor<v1::WatchEvent> {
 public:
  WatchReactor(std::shared_ptr<WatchSink> sink,
               std::function<void()> on_done);
  // Attaches to the sink and starts writing what is queued.
  void Start();

  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  std::shared_ptr<WatchSink> sink_;
  std::function<void()> on_done_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WATCH_STREAM_H_
