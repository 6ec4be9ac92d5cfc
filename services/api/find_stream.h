// FindMatch streams at the edge: the matchmaker's FindSink
// (matchmaking/find_sink.h) over a gRPC stream (event_stream.h), the
// mancala.v1.FindMatchUpdate built here.
// Thread-safety: every method from any thread (the stream has its own lock,
// event_stream.h).

#ifndef MANCALA_SERVICES_API_FIND_STREAM_H_
#define MANCALA_SERVICES_API_FIND_STREAM_H_

#include <memory>

#include "services/matchmaking/find_sink.h"

namespace mancala::v1 {
class FindMatchUpdate;
}  // namespace mancala::v1

namespace mancala::services {

template <class Event>
class EventSink;

class FindStream final : public FindSink {
 public:
  // The gRPC stream behind it (event_stream.h), for the reactor.
  using Stream = EventSink<v1::FindMatchUpdate>;

  FindStream();
  ~FindStream() override;

  void Push(const SearchUpdate& update, bool last = false) override;
  // A domain status as errors.h ToGrpc maps it; the searcher's own cancel
  // (CANCELLED without a reason) as gRPC's cancellations: no ErrorInfo.
  void Close(const absl::Status& status) override;

  const std::shared_ptr<Stream>& stream() const { return stream_; }

 private:
  std::shared_ptr<Stream> stream_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_FIND_STREAM_H_
