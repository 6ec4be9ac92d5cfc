// Pages of a match's recorded moves: ListMoves and GetMatchHistory share
// one meaning of page_size, page_token and after_ply.
//
// A page holds the moves after the request's position (after_ply, or the
// page_token's), oldest first: at most page_size (default 100, at most
// 1000) and no more than reply_budget.h allows in bytes. next_page_token is
// set when more moves are stored, and always while the match is in
// progress (a client polls with it for later moves); it is bound to the
// match (INVALID_PAGE_TOKEN for any other).
// Thread-safety: as LiveMatches.

#ifndef MANCALA_SERVICES_API_MOVE_PAGES_H_
#define MANCALA_SERVICES_API_MOVE_PAGES_H_

#include <grpcpp/grpcpp.h>

#include <string>
#include <vector>

#include "mancala/v1/match_service.pb.h"
#include "services/match/live_matches.h"

namespace mancala::services {

struct MovePageRequest {
  std::string match_id;
  int page_size = 0;  // As sent: 0 = default, negative = INVALID_ARGUMENT.
  std::string page_token;
  int64_t after_ply = 0;  // Only without page_token (else must be 0).
};

// INVALID_ARGUMENT (page_size or after_ply < 0, after_ply with a token),
// INVALID_PAGE_TOKEN, OUT_OF_RANGE (PLY_AHEAD), MATCH_NOT_FOUND.
grpc::Status ReadMovePage(LiveMatches& matches, const MovePageRequest& request,
                          google::protobuf::RepeatedPtrField<v1::Move>* moves,
                          std::string* next_page_token);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_API_MOVE_PAGES_H_
