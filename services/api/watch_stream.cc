// WatchMatch streams at the edge (watch_stream.h).

#include "services/api/watch_stream.h"

#include "absl/status/statusor.h"
#include "services/api/event_stream.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"

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

WatchStream::WatchStream(size_t max_queued)
    : stream_(std::make_shared<Stream>(max_queued)) {}

WatchStream::~WatchStream() = default;

absl::Status WatchStream::PushBacklog(const WatchEventView& event) {
  v1::WatchEvent e;
  if (absl::Status s = ToProto(event, &e); !s.ok()) return s;
  stream_->PushBacklog(e);
  return absl::OkStatus();
}

void WatchStream::Push(const WatchEventView& event, bool last) {
  auto wire = Wire(event);
  if (!wire.ok()) return Close(wire.status());
  stream_->Push(*std::move(wire), last);
}

void WatchStream::Close(const absl::Status& status) {
  stream_->Close(ToGrpc(status));
}

void WatchStreamFanOut::Deliver(
    const std::vector<std::shared_ptr<WatchSink>>& audience,
    const WatchEventView& event, bool last) const {
  auto wire = Wire(event);
  for (const auto& sink : audience) {
    auto* stream = dynamic_cast<WatchStream*>(sink.get());
    if (stream == nullptr) {
      sink->Push(event, last);
    } else if (wire.ok()) {
      stream->stream()->Push(*wire, last);
    } else {
      stream->Close(wire.status());
    }
  }
}

}  // namespace mancala::services
