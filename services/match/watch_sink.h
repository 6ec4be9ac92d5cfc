// A WatchMatch stream as the match domain sees it: it takes domain events
// (WatchEventView, match_views.h) and domain statuses. The edge implements
// it (api/watch_stream.h), building the mancala.v1 messages there, and
// lends LiveMatches a WatchFanOut that converts each event once whatever
// the number of streams it goes to.
// Thread-safety: every method from any thread (an implementation has its
// own lock and takes nothing further); `seats` is the match's, under its
// lock.

#ifndef MANCALA_SERVICES_MATCH_WATCH_SINK_H_
#define MANCALA_SERVICES_MATCH_WATCH_SINK_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "services/model/match_views.h"

namespace mancala::services {

class WatchSink {
 public:
  virtual ~WatchSink() = default;

  // Queues `event` as part of the backlog (before the first Push()).
  // DATA_LOSS (BAD_STORED_DATA) if a move's stored events do not decode;
  // nothing is queued then.
  virtual absl::Status PushBacklog(const WatchEventView& event) = 0;
  // Queues `event` for this stream alone; `last` ends the stream after it.
  // A move whose stored events do not decode ends the stream with
  // DATA_LOSS (BAD_STORED_DATA) instead.
  virtual void Push(const WatchEventView& event, bool last = false) = 0;
  // Ends the stream with `status`, a domain status.
  virtual void Close(const absl::Status& status) = 0;

  // Seats whose presence this stream keeps (WatchMatch with a token).
  std::vector<int> seats;
};

// Queues one event on every stream of a match's audience, as Push() on
// each would, but converted once and shared by all.
// Thread-safety: Deliver() from any thread, concurrently.
class WatchFanOut {
 public:
  virtual ~WatchFanOut() = default;
  virtual void Deliver(const std::vector<std::shared_ptr<WatchSink>>& audience,
                       const WatchEventView& event, bool last) const = 0;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_WATCH_SINK_H_
