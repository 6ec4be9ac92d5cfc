// WatchMatch streams at the edge: the match domain's WatchSink
// (match/watch_sink.h) over a gRPC stream (event_stream.h), the
// mancala.v1.WatchEvent built here; and the fan-out that builds it once for
// a whole audience.
// Thread-safety: every method from any thread (the stream has its own lock,
// event_stream.h).

#ifndef MANCALA_SERVICES_API_WATCH_STREAM_H_
#define MANCALA_SERVICES_API_WATCH_STREAM_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "services/match/watch_sink.h"

namespace mancala::v1 {
class WatchEvent;
}  // namespace mancala::v1

namespace mancala::services {

template <class Event>
class EventSink;

class WatchStream final : public WatchSink {
 public:
  // The gRPC stream behind it (event_stream.h), for the reactor.
  using Stream = EventSink<v1::WatchEvent>;

  // `max_queued`: live events queued beyond the backlog (event_stream.h).
  explicit WatchStream(size_t max_queued);
  ~WatchStream() override;

  absl::Status PushBacklog(const WatchEventView& event) override;
  void Push(const WatchEventView& event, bool last = false) override;
  // `status` goes to the client as errors.h ToGrpc maps it.
  void Close(const absl::Status& status) override;

  const std::shared_ptr<Stream>& stream() const { return stream_; }

 private:
  std::shared_ptr<Stream> stream_;
};

// The fan-out LiveMatches is given: one mancala.v1.WatchEvent per event,
// one copy shared by every WatchStream of the audience (a sink of another
// kind gets its own Push()).
class WatchStreamFanOut final : public WatchFanOut {
 public:
  void Deliver(const std::vector<std::shared_ptr<WatchSink>>& audience,
               const WatchEventView& event, bool last) const override;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_WATCH_STREAM_H_
