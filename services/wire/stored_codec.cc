// The stored encodings of a move (stored_codec.h).

#include "services/wire/stored_codec.h"

#include <google/protobuf/util/message_differencer.h>

#include "services/model/domain_error.h"
#include "services/model/names.h"
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

absl::Status StoredCodec::DecodeEvents(const storage::MoveRow& row,
                                       std::vector<engine::Event>* out) const {
  v1::Move move;
  // The checks the edge makes of a stored move (events, CPU reason).
  if (absl::Status s = ToProto(MoveOf(row), &move); !s.ok()) return s;
  out->clear();
  out->reserve(move.events_size());
  for (const v1::MoveEvent& e : move.events()) {
    engine::Event event;
    if (!FromProto(e, &event)) {
      return StoredDataLoss("stored move at ply " + std::to_string(row.ply) +
                            " of " + MatchName(row.match_id) +
                            ": unknown event type " + std::to_string(e.type()));
    }
    out->push_back(event);
  }
  return absl::OkStatus();
}

}  // namespace mancala::services
