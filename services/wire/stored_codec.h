// The stored encodings of a move (match/stored_encodings.h has the
// contract): serialized mancala.v1 messages (Move holding only its events,
// Result, SubmitMoveResponse), so that rows written before stay readable.
// Decoding is the edge's (convert.h ToProto of a MoveView). The server
// lends one StoredCodec to LiveMatches.
// Thread-safety: stateless; every method from any thread.

#ifndef MANCALA_SERVICES_WIRE_STORED_CODEC_H_
#define MANCALA_SERVICES_WIRE_STORED_CODEC_H_

#include <optional>
#include <string>
#include <vector>

#include "services/match/stored_encodings.h"

namespace mancala::services {

class StoredCodec final : public StoredEncodings {
 public:
  std::string EncodeEvents(
      const std::vector<engine::Event>& events) const override;
  std::string EncodeResult(const engine::State& state) const override;
  absl::Status EncodeReply(const MoveReply& reply,
                           std::string* out) const override;
  // Compared as messages, not bytes.
  bool SameResult(const std::string& stored,
                  const std::optional<ResultView>& replayed) const override;
  absl::Status DecodeEvents(const storage::MoveRow& row,
                            std::vector<engine::Event>* out) const override;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WIRE_STORED_CODEC_H_
