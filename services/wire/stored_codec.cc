// The stored encodings of a move (stored_codec.h).

#include "services/wire/stored_codec.h"

#include <google/protobuf/util/message_differencer.h>

#include "services/wire/convert.h"

namespace mancala::services {

std::string StoredCodec::EncodeEvents(
    const std::vector<engine::Event>& events) const {
  v1::Move move;
  for (const engine::Event& e : events) ToProto(e, move.add_events());
  return move.SerializeAsString();
}

std::string StoredCodec::EncodeResult(const engine::State& state) const {
  v1::Result result;
  ResultToProto(state, &result);
  return result.SerializeAsString();
}

absl::Status StoredCodec::EncodeReply(const MoveReply& reply,
                                      std::string* out) const {
  v1::SubmitMoveResponse answer;
  if (absl::Status s = ToProto(reply, &answer); !s.ok()) return s;
  *out = answer.SerializeAsString();
  return absl::OkStatus();
}

bool StoredCodec::SameResult(const std::string& stored,
                             const std::optional<ResultView>& replayed) const {
  // Compared as messages, not bytes: what an older build stored may encode
  // the same result differently.
  v1::Result was, now;
  if (!stored.empty()) (void)was.ParseFromString(stored);
  if (replayed.has_value()) ToProto(*replayed, &now);
  return google::protobuf::util::MessageDifferencer::Equals(was, now);
}

absl::Status StoredCodec::CheckStoredEvents(
    const storage::MoveRow& row) const {
  v1::Move move;
  return ToProto(MoveOf(row), &move);
}

}  // namespace mancala::services
