// A FindMatch stream as the matchmaker (matchmaker.h) sees it: it takes
// the searcher's updates (SearchUpdate, search_views.h) and domain
// statuses; the mancala.v1 messages are built here, at the edge
// (find_sink.cc), as watch_sink.h does for WatchMatch.
// Thread-safety: every method from any thread (the stream has its own lock,
// event_stream.h).

#ifndef MANCALA_SERVICES_FIND_SINK_H_
#define MANCALA_SERVICES_FIND_SINK_H_

#include <memory>

#include "absl/status/status.h"
#include "services/search_views.h"

namespace mancala::v1 {
class FindMatchUpdate;
}  // namespace mancala::v1

namespace mancala::services {

template <class Event>
class EventSink;

class FindSink {
 public:
  // The gRPC stream behind it (event_stream.h), for the reactor.
  using Stream = EventSink<v1::FindMatchUpdate>;

  FindSink();
  ~FindSink();

  // Queues `update`; `last` ends the stream (OK) after it.
  void Push(const SearchUpdate& update, bool last = false);
  // Ends the stream with `status`, a domain status (errors.h ToGrpc). The
  // searcher's own cancel, CANCELLED without a reason (SearchCancelled()),
  // ends it as gRPC's cancellations do: the code and message, no ErrorInfo.
  void Close(const absl::Status& status);

  const std::shared_ptr<Stream>& stream() const { return stream_; }

 private:
  std::shared_ptr<Stream> stream_;
};

// CANCELLED "you left the queue (CancelFind)": the end of a search its
// player cancelled (through any node).
absl::Status SearchCancelled();

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_FIND_SINK_H_
