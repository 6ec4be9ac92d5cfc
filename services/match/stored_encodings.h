// The stored encodings of what a move leaves in the store, as the match
// domain reaches them: its events, a finished game's result and, for a
// request with a request id, the reply (storage/store.h MoveRow::events,
// MatchUpdate::result, MoveRow::reply). They are the wire's (serialized
// mancala.v1 messages, so that rows written before stay readable):
// wire/stored_codec.h implements this interface and the server lends it to
// LiveMatches, which keeps the protos out of the match domain; the domain
// only hands the bytes on.
// Thread-safety: an implementation is stateless; every method from any
// thread.

#ifndef MANCALA_SERVICES_MATCH_STORED_ENCODINGS_H_
#define MANCALA_SERVICES_MATCH_STORED_ENCODINGS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/events.h"
#include "engine/state.h"
#include "services/model/match_views.h"
#include "storage/store.h"

namespace mancala::services {

class StoredEncodings {
 public:
  virtual ~StoredEncodings() = default;

  // A move's events.
  virtual std::string EncodeEvents(
      const std::vector<engine::Event>& events) const = 0;
  // The result of the finished game `state`.
  virtual std::string EncodeResult(const engine::State& state) const = 0;
  // A move's reply, kept for a retry of its request, in `*out`; DATA_LOSS
  // (BAD_STORED_DATA) if the move's events do not decode.
  virtual absl::Status EncodeReply(const MoveReply& reply,
                                   std::string* out) const = 0;
  // Whether the stored result `stored` (EncodeResult) says what `replayed`
  // does; nullopt (not over) matches only an empty result.
  virtual bool SameResult(const std::string& stored,
                          const std::optional<ResultView>& replayed) const = 0;
  // The events of the stored move `row`, decoded once (for watchers:
  // MoveOf(row, events) is then converted without decoding again).
  // DATA_LOSS (BAD_STORED_DATA) if the move would not decode (its events,
  // its CPU reason): what the edge's conversion would refuse.
  virtual absl::Status DecodeEvents(const storage::MoveRow& row,
                                    std::vector<engine::Event>* out) const = 0;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_STORED_ENCODINGS_H_
