// Conversions between the engine's and the store's values and the
// mancala.v1 messages. Every storage <-> proto conversion lives here.
// Pure functions (no I/O); thread-safe.

#ifndef MANCALA_SERVICES_WIRE_CONVERT_H_
#define MANCALA_SERVICES_WIRE_CONVERT_H_

#include <grpcpp/grpcpp.h>

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "engine/events.h"
#include "engine/state.h"
#include "mancala/v1/admin_service.pb.h"
#include "mancala/v1/game.pb.h"
#include "mancala/v1/match_service.pb.h"
#include "mancala/v1/player_service.pb.h"
#include "mancala/v1/rating_service.pb.h"
#include "services/model/match_views.h"
#include "storage/store.h"

namespace mancala::services {

// Engine wire name ("kalah") of a proto game; nullopt for
// GAME_UNSPECIFIED or unknown values.
std::optional<std::string> GameName(v1::Game game);
// Proto game of an engine wire name; GAME_UNSPECIFIED if unknown.
v1::Game GameFromName(const std::string& name);

// Engine values.
void ToProto(const engine::Board& board, v1::Board* out);
void ToProto(const engine::Event& event, v1::MoveEvent* out);
// The engine's event for a stored `in` (the inverse of the above); false
// for a type this build does not know.
[[nodiscard]] bool FromProto(const v1::MoveEvent& in, engine::Event* out);
// The result of a finished game (state.is_over()).
void ResultToProto(const engine::State& state, v1::Result* out);

// The match domain's views (match_views.h).
void ToProto(const ResultView& result, v1::Result* out);
void ToProto(const MatchView& match, v1::Match* out);
// A watch event; DATA_LOSS as for a MoveView.
[[nodiscard]] absl::Status ToProto(const WatchEventView& event,
                                   v1::WatchEvent* out);
void ToProto(const VerifyReport& report, v1::VerifyMatchResponse* out);
// A domain answer at the gRPC edge: `status` as ToGrpc() (errors.h) and,
// when it is OK, `match` into `*out`.
grpc::Status MatchAnswer(const absl::Status& status, const MatchView& match,
                         v1::Match* out);

// Stored values.
v1::Match::State StateToProto(storage::MatchStatus status);
// The store's status for a proto state filter: false for a value outside
// the enum; `*out` is nullopt for STATE_UNSPECIFIED (no filter).
bool StatusFromProto(v1::Match::State state,
                     std::optional<storage::MatchStatus>* out);
// Kind, CPU level and player name; presence and display name are the live
// match's (LiveMatches::Snapshot).
void ToProto(const storage::SeatRecord& seat, v1::Seat* out);
// A move as the mancala.v1.Move resource (its events are stored as a
// serialized Move, stored_codec.h). DATA_LOSS (StoredDataLoss,
// domain_error.h) if the events do not parse or the CPU reason is not a
// CpuReason value.
[[nodiscard]] absl::Status ToProto(const MoveView& move, v1::Move* out);
// A move's answer; a retried request's stored answer is parsed (DATA_LOSS
// if it does not).
[[nodiscard]] absl::Status ToProto(const MoveReply& reply,
                                   v1::SubmitMoveResponse* out);
void ToProto(const storage::PlayerRecord& player, v1::Player* out);
void ToProto(const storage::RatingRecord& rating, v1::Rating* out);
void ToProto(const storage::RatingChange& change, v1::RatingChange* out);
void ToProto(const storage::AuditRecord& audit, v1::AuditEntry* out);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WIRE_CONVERT_H_
