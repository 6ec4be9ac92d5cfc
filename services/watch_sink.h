// A WatchMatch stream as the match domain sees it: it takes domain events
// (WatchEventView, match_views.h) and domain statuses; the mancala.v1
// messages are built here, at the edge (watch_sink.cc), once per event
// whatever the number of streams it goes to (Deliver()).
// Thread-safety: every method from any thread (the stream has its own lock,
// event_stream.h); `seats` is the match's, under its lock.

#ifndef MANCALA_SERVICES_WATCH_SINK_H_
#define MANCALA_SERVICES_WATCH_SINK_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "services/match_views.h"

namespace mancala::v1 {
class WatchEvent;
}  // namespace mancala::v1

namespace mancala::services {

template <class Event>
class EventSink;

class WatchSink {
 public:
  // The gRPC stream behind it (event_stream.h), for the reactor.
  using Stream = EventSink<v1::WatchEvent>;

  // `max_queued`: live events queued beyond the backlog (event_stream.h).
  explicit WatchSink(size_t max_queued);
  ~WatchSink();

  // Queues `event` as part of the backlog (before the first Push()).
  // DATA_LOSS (BAD_STORED_DATA) if a move's stored events do not decode;
  // nothing is queued then.
  absl::Status PushBacklog(const WatchEventView& event);
  // Queues `event` for this stream alone; `last` ends the stream after it.
  void Push(const WatchEventView& event, bool last = false);
  // Ends the stream with `status` (a domain status, errors.h ToGrpc).
  void Close(const absl::Status& status);

  const std::shared_ptr<Stream>& stream() const { return stream_; }

  // Seats whose presence this stream keeps (WatchMatch with a token).
  std::vector<int> seats;

 private:
  std::shared_ptr<Stream> stream_;
};

// Queues `event` on every stream of `audience`: converted once, one copy
// shared by all. A move whose stored events do not decode ends the streams
// with DATA_LOSS (BAD_STORED_DATA) instead. `last` ends them after it.
void Deliver(const std::vector<std::shared_ptr<WatchSink>>& audience,
             const WatchEventView& event, bool last);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WATCH_SINK_H_
