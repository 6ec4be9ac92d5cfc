#include "services/api/move_pages.h"

#include "services/api/page_token.h"
#include "services/api/reply_budget.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"

namespace mancala::services {

grpc::Status ReadMovePage(LiveMatches& matches, const MovePageRequest& request,
                          google::protobuf::RepeatedPtrField<v1::Move>* moves,
                          std::string* next_page_token) {
  if (request.after_ply < 0) {
    return GrpcInvalidField("after_ply must be >= 0, got " +
                            std::to_string(request.after_ply));
  }
  if (request.after_ply != 0 && !request.page_token.empty()) {
    return GrpcInvalidField("after_ply must be 0 with a page_token");
  }
  int limit = 0;
  if (grpc::Status s = PageSize(request.page_size, 100, 1000, &limit);
      !s.ok()) {
    return s;
  }
  // The token holds the next ply, bound to this match.
  int64_t from_ply = request.after_ply + 1;
  if (!request.page_token.empty()) {
    std::vector<std::string> f;
    if (grpc::Status s =
            ReadPageToken(request.page_token, "moves", request.match_id, 1, &f);
        !s.ok()) {
      return s;
    }
    if (!TokenInt(f[0], &from_ply) || from_ply < 1)
      return GrpcInvalidPageToken();
  }
  std::vector<MoveView> views;
  bool finished = false;
  if (grpc::Status s = ToGrpc(matches.ListMoves(request.match_id, from_ply,
                                                limit, &views, &finished));
      !s.ok()) {
    return s;
  }
  std::vector<v1::Move> page(views.size());
  for (size_t i = 0; i < views.size(); ++i) {
    if (absl::Status s = ToProto(views[i], &page[i]); !s.ok()) {
      return ToGrpc(s);
    }
  }
  const size_t taken = ItemsWithinBudget(page);
  const bool cut = taken < page.size();
  page.resize(taken);
  const int64_t next = page.empty() ? from_ply : page.back().ply() + 1;
  const bool page_full = static_cast<int>(page.size()) == limit;
  for (v1::Move& m : page) *moves->Add() = std::move(m);
  // A match in progress always gets a token, so a client can poll with it
  // for moves recorded later; a finished match's last page gets none.
  if (cut || page_full || !finished) {
    *next_page_token =
        EncodePageToken("moves", request.match_id, {std::to_string(next)});
  }
  return grpc::Status::OK;
}

}  // namespace mancala::services
