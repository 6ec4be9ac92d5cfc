// FindMatch streams at the edge (find_sink.h).

#include "services/find_sink.h"

#include "services/errors.h"
#include "services/event_stream.h"
#include "services/search_convert.h"

namespace mancala::services {

FindSink::FindSink() : stream_(std::make_shared<Stream>()) {}

FindSink::~FindSink() = default;

void FindSink::Push(const SearchUpdate& update, bool last) {
  v1::FindMatchUpdate u;
  ToProto(update, &u);
  stream_->Push(u, last);
}

void FindSink::Close(const absl::Status& status) {
  if (absl::IsCancelled(status) && DetailOf(status).reason.empty()) {
    stream_->Close(grpc::Status(grpc::StatusCode::CANCELLED,
                                std::string(status.message())));
    return;
  }
  stream_->Close(ToGrpc(status));
}

absl::Status SearchCancelled() {
  return absl::CancelledError("you left the queue (CancelFind)");
}

}  // namespace mancala::services
