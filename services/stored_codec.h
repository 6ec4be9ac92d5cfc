// The stored encodings of what a move leaves in the store: its events, a
// finished game's result and, for a request with a request id, the reply
// (storage/store.h MoveRow::events, MatchUpdate::result, MoveRow::reply).
// They are serialized mancala.v1 messages (Move, Result,
// SubmitMoveResponse), so that rows written before stay readable; this
// interface keeps the protos out of the match domain, which only hands the
// bytes on. Decoding is the edge's (convert.h ToProto of a MoveView).
// Pure functions; thread-safe.

#ifndef MANCALA_SERVICES_STORED_CODEC_H_
#define MANCALA_SERVICES_STORED_CODEC_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/events.h"
#include "engine/state.h"
#include "services/match_views.h"

namespace mancala::services {

// A move's events (a serialized mancala.v1.Move holding only its events).
std::string EncodeEvents(const std::vector<engine::Event>& events);

// The result of the finished game `state` (a serialized mancala.v1.Result).
std::string EncodeResult(const engine::State& state);

// A move's reply, kept for a retry of its request (a serialized
// mancala.v1.SubmitMoveResponse) in `*out`; DATA_LOSS (BAD_STORED_DATA)
// if the move's events do not decode.
absl::Status EncodeReply(const MoveReply& reply, std::string* out);

// Whether the stored result `stored` (EncodeResult) says what `replayed`
// does; nullopt (not over) matches only an empty result.
bool SameResult(const std::string& stored,
                const std::optional<ResultView>& replayed);

// DATA_LOSS (BAD_STORED_DATA) if the stored move `row` would not decode
// (its events, its CPU reason); what the edge's conversion would refuse.
absl::Status CheckStoredEvents(const storage::MoveRow& row);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_STORED_CODEC_H_
