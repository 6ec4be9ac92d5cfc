// The stored encodings of a move (stored_codec.h).

#include "services/stored_codec.h"

#include <google/protobuf/util/message_differencer.h>

#include "services/convert.h"

namespace mancala::services {

std::string EncodeEvents(const std::vector<engine::Event>& events) {
  v1::Move move;
  for (const engine::Event& e : events) ToProto(e, move.add_events());
  return move.SerializeAsString();
}

std::string EncodeResult(const engine::State& state) {
  v1::Result result;
  ResultToProto(state, &result);
  return result.SerializeAsString();
}

absl::Status EncodeReply(const MoveReply& reply, std::string* out) {
  v1::SubmitMoveResponse answer;
  if (absl::Status s = ToProto(reply, &answer); !s.ok()) return s;
  *out = answer.SerializeAsString();
  return absl::OkStatus();
}

bool SameResult(const std::string& stored,
                const std::optional<ResultView>& replayed) {
  // Compared as messages, not bytes: what an older build stored may encode
  // the same result differently.
  v1::Result was, now;
  if (!stored.empty()) (void)was.ParseFromString(stored);
  if (replayed.has_value()) ToProto(*replayed, &now);
  return google::protobuf::util::MessageDifferencer::Equals(was, now);
}

absl::Status CheckStoredEvents(const storage::MoveRow& row) {
  v1::Move move;
  return ToProto(MoveOf(row), &move);
}

}  // namespace mancala::services
