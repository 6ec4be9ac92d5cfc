#include "services/api/admin_service.h"

#include <google/protobuf/util/time_util.h>
#include <openssl/crypto.h>

#include <optional>
#include <tuple>

#include "services/api/auth.h"
#include "services/api/field_limits.h"
#include "services/api/move_pages.h"
#include "services/api/page_token.h"
#include "services/base/text.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"
#include "services/wire/resource_names.h"

namespace mancala::services {
namespace {

using google::protobuf::util::TimeUtil;

// `field` in milliseconds since the epoch; INVALID_ARGUMENT outside the
// range google.protobuf.Timestamp allows (years 1-9999, nanos 0-999999999).
grpc::Status Ms(const google::protobuf::Timestamp& t, const char* field,
                std::optional<int64_t>* ms) {
  if (t.seconds() < TimeUtil::kTimestampMinSeconds ||
      t.seconds() > TimeUtil::kTimestampMaxSeconds || t.nanos() < 0 ||
      t.nanos() > 999'999'999) {
    return GrpcInvalidField(std::string(field) +
                            " must be a valid timestamp (years 1 to 9999)");
  }
  *ms = TimeUtil::TimestampToMilliseconds(t);
  return grpc::Status::OK;
}

}  // namespace

grpc::Status AdminServiceImpl::CheckAdmin(
    const grpc::ServerContext& context,
    const google::protobuf::Message& request) const {
  if (grpc::Status s = CheckFieldLimits(request); !s.ok()) return s;
  std::string token;
  if (grpc::Status s = BearerToken(context, &token); !s.ok()) return s;
  if (admin_token_.empty()) {
    return GrpcError(grpc::StatusCode::PERMISSION_DENIED, "ADMIN_DISABLED",
                     "the admin API is disabled (start mancalad with "
                     "--admin-token-file or MANCALAD_ADMIN_TOKEN)");
  }
  if (token.size() == admin_token_.size() &&
      CRYPTO_memcmp(token.data(), admin_token_.data(), token.size()) == 0) {
    return grpc::Status::OK;
  }
  // Not the admin token: a player's is authenticated but not allowed;
  // anything else is an invalid token, as on every other RPC.
  storage::PlayerRecord player;
  if (grpc::Status s = Authenticate(context, store_, &player); !s.ok()) {
    return s;
  }
  return GrpcError(grpc::StatusCode::PERMISSION_DENIED, "NOT_ADMIN",
                   "a player's token does not open the admin API");
}

grpc::Status AdminServiceImpl::ListMatches(
    grpc::ServerContext* context, const v1::ListMatchesRequest* request,
    v1::ListMatchesResponse* response) {
  if (grpc::Status s = CheckAdmin(*context, *request); !s.ok()) return s;
  storage::MatchFilter f;
  if (!request->player().empty()) {
    f.player_id = PlayerIdFromName(request->player());
    if (f.player_id.empty()) {
      return InvalidName("player must be 'players/{player_id}'",
                         request->player());
    }
  }
  if (request->game() != v1::GAME_UNSPECIFIED) {
    std::optional<std::string> game = GameName(request->game());
    if (!game.has_value()) return GrpcInvalidField("unknown game");
    f.game = *game;
  }
  if (!StatusFromProto(request->state(), &f.status)) {
    return GrpcInvalidField("unknown state");
  }
  switch (request->ranking()) {
    case v1::ListMatchesRequest::RANKING_UNSPECIFIED:
      break;
    case v1::ListMatchesRequest::RANKED:
      f.ranked = true;
      break;
    case v1::ListMatchesRequest::CASUAL:
      f.ranked = false;
      break;
    default:
      return GrpcInvalidField(
          "ranking must be RANKED, CASUAL or unspecified (both)");
  }
  for (auto [has, time, field, ms] :
       {std::tuple{request->has_create_time_from(),
                   &request->create_time_from(), "create_time_from",
                   &f.created_from_ms},
        std::tuple{request->has_create_time_to(), &request->create_time_to(),
                   "create_time_to", &f.created_to_ms},
        std::tuple{request->has_end_time_from(), &request->end_time_from(),
                   "end_time_from", &f.ended_from_ms},
        std::tuple{request->has_end_time_to(), &request->end_time_to(),
                   "end_time_to", &f.ended_to_ms}}) {
    if (!has) continue;
    if (grpc::Status s = Ms(*time, field, ms); !s.ok()) return s;
  }
  int size = 0;
  if (grpc::Status s = PageSize(request->page_size(), 50, 500, &size);
      !s.ok()) {
    return s;
  }
  // The token is bound to the filters it was made for.
  v1::ListMatchesRequest scope_msg = *request;
  scope_msg.clear_page_size();
  scope_msg.clear_page_token();
  const std::string scope = scope_msg.SerializeAsString();
  std::optional<storage::Cursor> after;
  if (!request->page_token().empty()) {
    storage::Cursor cursor;
    if (grpc::Status s = ReadCursorToken(request->page_token(), "matches",
                                         scope, &cursor.time_ms, &cursor.id);
        !s.ok()) {
      return s;
    }
    after = cursor;
  }
  auto rows = store_.ListMatches(f, after, size + 1);
  if (!rows.ok()) return GrpcStorageFailure(rows.status());
  const bool more = static_cast<int>(rows->size()) > size;
  if (more) rows->resize(size);
  // As stored, nothing replayed (ListedMatch): the seats and their names
  // came in the same query.
  for (const storage::MatchRecord& r : *rows) {
    ToProto(ListedMatch(r), response->add_matches());
  }
  if (more) {
    response->set_next_page_token(EncodePageToken(
        "matches", scope,
        {std::to_string(rows->back().created_at_ms), rows->back().id}));
  }
  return grpc::Status::OK;
}

grpc::Status AdminServiceImpl::GetMatchHistory(
    grpc::ServerContext* context, const v1::GetMatchHistoryRequest* request,
    v1::MatchHistory* response) {
  if (grpc::Status s = CheckAdmin(*context, *request); !s.ok()) return s;
  std::string id;
  if (grpc::Status s = MatchIdFromName(request->name(), "name", &id); !s.ok())
    return s;
  MatchView view;
  if (grpc::Status s = MatchAnswer(matches_.Get(id, "", &view), view,
                                   response->mutable_match());
      !s.ok()) {
    return s;
  }
  if (grpc::Status s = ReadMovePage(
          matches_, {id, request->page_size(), request->page_token(), 0},
          response->mutable_moves(), response->mutable_next_page_token());
      !s.ok()) {
    return s;
  }
  auto changes = store_.ListMatchRatingChanges(id);
  if (!changes.ok()) return GrpcStorageFailure(changes.status());
  for (const storage::RatingChange& c : *changes) {
    ToProto(c, response->add_rating_changes());
  }
  auto record = store_.GetMatch(id);
  if (!record.ok()) return GrpcStorageFailure(record.status());
  response->set_void_reason(record->void_reason);
  return grpc::Status::OK;
}

grpc::Status AdminServiceImpl::VoidMatch(grpc::ServerContext* context,
                                         const v1::VoidMatchRequest* request,
                                         v1::VoidMatchResponse* response) {
  if (grpc::Status s = CheckAdmin(*context, *request); !s.ok()) return s;
  std::string id;
  if (grpc::Status s = MatchIdFromName(request->name(), "name", &id); !s.ok())
    return s;
  // The lengths were checked by CheckAdmin (field limits).
  const std::string reason = Trim(request->reason());
  if (reason.empty()) return GrpcInvalidField("reason is required (not blank)");
  int recomputed = 0;
  MatchView voided;
  if (grpc::Status s =
          MatchAnswer(matches_.VoidMatch(id, reason, Trim(request->actor()),
                                         &voided, &recomputed),
                      voided, response->mutable_match());
      !s.ok()) {
    return s;
  }
  response->set_recomputed_changes(recomputed);
  return grpc::Status::OK;
}

grpc::Status AdminServiceImpl::ListAuditLog(
    grpc::ServerContext* context, const v1::ListAuditLogRequest* request,
    v1::ListAuditLogResponse* response) {
  if (grpc::Status s = CheckAdmin(*context, *request); !s.ok()) return s;
  int size = 0;
  if (grpc::Status s = PageSize(request->page_size(), 50, 500, &size);
      !s.ok()) {
    return s;
  }
  int64_t before = std::numeric_limits<int64_t>::max();
  if (!request->page_token().empty()) {
    std::vector<std::string> f;
    if (grpc::Status s =
            ReadPageToken(request->page_token(), "audit", "", 1, &f);
        !s.ok()) {
      return s;
    }
    if (!TokenInt(f[0], &before)) return GrpcInvalidPageToken();
  }
  auto rows = store_.ListAuditLog(before, size + 1);
  if (!rows.ok()) return GrpcStorageFailure(rows.status());
  const bool more = static_cast<int>(rows->size()) > size;
  if (more) rows->resize(size);
  for (const storage::AuditRecord& a : *rows) {
    ToProto(a, response->add_entries());
  }
  if (more) {
    response->set_next_page_token(
        EncodePageToken("audit", "", {std::to_string(rows->back().id)}));
  }
  return grpc::Status::OK;
}

grpc::Status AdminServiceImpl::VerifyMatch(
    grpc::ServerContext* context, const v1::VerifyMatchRequest* request,
    v1::VerifyMatchResponse* response) {
  if (grpc::Status s = CheckAdmin(*context, *request); !s.ok()) return s;
  std::string id;
  if (grpc::Status s = MatchIdFromName(request->name(), "name", &id); !s.ok())
    return s;
  VerifyReport report;
  absl::Status s = matches_.Verify(id, &report);
  if (s.ok()) ToProto(report, response);
  return ToGrpc(s);
}

}  // namespace mancala::services
