// A FindMatch stream as the matchmaker (matchmaker.h) sees it: it takes
// the searcher's updates (SearchUpdate, search_views.h) and domain
// statuses. The edge implements it (api/find_stream.h) and builds the
// mancala.v1 messages there, as it does for WatchMatch (watch_sink.h).
// Thread-safety: every method from any thread (an implementation has its
// own lock and takes nothing further).

#ifndef MANCALA_SERVICES_MATCHMAKING_FIND_SINK_H_
#define MANCALA_SERVICES_MATCHMAKING_FIND_SINK_H_

#include "absl/status/status.h"
#include "services/model/search_views.h"

namespace mancala::services {

class FindSink {
 public:
  virtual ~FindSink() = default;

  // Queues `update`; `last` ends the stream (OK) after it.
  virtual void Push(const SearchUpdate& update, bool last = false) = 0;
  // Ends the stream with `status`, a domain status. The searcher's own
  // cancel, CANCELLED without a reason (SearchCancelled(), matchmaker.h),
  // ends it as gRPC's cancellations do: the code and message, no reason.
  virtual void Close(const absl::Status& status) = 0;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCHMAKING_FIND_SINK_H_
