// FindMatch streams at the edge (find_stream.h).

#include "services/api/find_stream.h"

#include "services/api/event_stream.h"
#include "services/wire/errors.h"
#include "services/wire/search_convert.h"

namespace mancala::services {

FindStream::FindStream() : stream_(std::make_shared<Stream>()) {}

FindStream::~FindStream() = default;

void FindStream::Push(const SearchUpdate& update, bool last) {
  v1::FindMatchUpdate u;
  ToProto(update, &u);
  stream_->Push(u, last);
}

void FindStream::Close(const absl::Status& status) {
  if (absl::IsCancelled(status) && DetailOf(status).reason.empty()) {
    stream_->Close(grpc::Status(grpc::StatusCode::CANCELLED,
                                std::string(status.message())));
    return;
  }
  stream_->Close(ToGrpc(status));
}

}  // namespace mancala::services
