// WatchMatch streams at the edge (watch_sink.h).

#include "services/watch_sink.h"

#include "absl/status/statusor.h"
#include "services/convert.h"
#include "services/errors.h"
#include "services/event_stream.h"

namespace mancala::services {
namespace {

// `event` as the wire message, one copy for every stream it goes to.
absl::StatusOr<std::shared_ptr<const v1::WatchEvent>> Wire(
    const WatchEventView& event) {
  auto wire = std::make_shared<v1::WatchEvent>();
  if (absl::Status s = ToProto(event, wire.get()); !s.ok()) return s;
  return wire;
}

}  // namespace

WatchSink::WatchSink(size_t max_queued)
    : stream_(std::make_shared<Stream>(max_queued)) {}

WatchSink::~WatchSink() = default;

absl::Status WatchSink::PushBacklog(const WatchEventView& event) {
  v1::WatchEvent e;
  if (absl::Status s = ToProto(event, &e); !s.ok()) return s;
  stream_->PushBacklog(e);
  return absl::OkStatus();
}

void WatchSink::Push(const WatchEventView& event, bool last) {
  auto wire = Wire(event);
  if (!wire.ok()) return Close(wire.status());
  stream_->Push(*std::move(wire), last);
}

void WatchSink::Close(const absl::Status& status) {
  stream_->Close(ToGrpc(status));
}

void Deliver(const std::vector<std::shared_ptr<WatchSink>>& audience,
             const WatchEventView& event, bool last) {
  auto wire = Wire(event);
  for (const auto& sink : audience) {
    if (wire.ok()) {
      sink->stream()->Push(*wire, last);
    } else {
      sink->Close(wire.status());
    }
  }
}

}  // namespace mancala::services
