// Conversions between matchmaking's plain values (search_views.h) and the
// mancala.v1 matchmaking messages, for the gRPC edge
// (matchmaking_service.cc, find_stream.cc) and the stored queue description
// (search_codec.cc). Pure functions (no I/O); thread-safe.

#ifndef MANCALA_SERVICES_WIRE_SEARCH_CONVERT_H_
#define MANCALA_SERVICES_WIRE_SEARCH_CONVERT_H_

#include <optional>

#include "absl/status/status.h"
#include "mancala/v1/matchmaking_service.pb.h"
#include "services/model/search_views.h"

namespace mancala::services {

// A FindMatch request as a search: `players` 0 means 2, the shape checked
// as CreateMatch's (match_shape.h ShapeFromRequest: INVALID_ARGUMENT with
// reason INVALID_OPTION or INVALID_ARGUMENT). Whether a ranked search may
// take a CPU opponent is the matchmaker's to say.
absl::Status SearchFromProto(const v1::FindMatchRequest& request,
                             SearchRequest* out);

void ToProto(const QueueView& queue, v1::QueueStats::Queue* out);
void ToProto(const QueueStatsView& stats, v1::QueueStats* out);
void ToProto(const SearchUpdate& update, v1::FindMatchUpdate* out);

// A listed queue back as a view (its count included); nullopt for a game
// this build does not know.
std::optional<QueueView> QueueFromProto(const v1::QueueStats::Queue& queue);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WIRE_SEARCH_CONVERT_H_
