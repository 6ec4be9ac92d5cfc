#include "services/admin_service.h"

#include <google/protobuf/util/time_util.h>
#include <openssl/crypto.h>

#include <tuple>

#include "services/convert.h"
#include "services/errors.h"
#include "services/page_token.h"
#include "services/resource_names.h"

namespace mancala::services {
namespace {

using google::protobuf::util::TimeUtil;

// `field` in milliseconds since the epoch; INVALID_ARGUMENT outside the
// range google.protobuf.Timestamp allows (years 1-9999, nanos 0-999999999).
grpc::Status Ms(const google::protobuf::Timestamp& t, const char* field,
                int64_t* ms) {
  if (t.seconds() < TimeUtil::kTimestampMinSeconds ||
      t.seconds() > TimeUtil::kTimestampMaxSeconds || t.nanos() < 0 ||
      t.nanos() > 999'999'999) {
    return Invalid(std::string(field) +
                   " must be a valid timestamp (years 1 to 9999)");
  }
  *ms = TimeUtil::TimestampToMilliseconds(t);
  return grpc::Status::OK;
}

}  // namespace

grpc::Status AdminServiceImpl::CheckAdmin(
    const grpc::ServerContext& context) const {
  const auto& md = context.client_metadata();
  auto it = md.find("authorization");
  if (it == md.end()) {
    return Error(grpc::StatusCode::UNAUTHENTICATED, "MISSING_TOKEN",
                 "admin calls need 'authorization: Bearer <admin token>'");
  }
  const std::string value(it->second.data(), it->second.size());
  const std::string expected = "Bearer " + admin_token_;
  if (admin_token_.empty() || value.size() != expected.size() ||
      CRYPTO_memcmp(value.data(), expected.data(), value.size()) != 0) {
    return Error(grpc::StatusCode::PERMISSION_DENIED, "NOT_ADMIN",
                 admin_token_.empty()
                     ? "the admin API is disabled (start mancalad with "
                       "--admin-token-file)"
                     : "this token does not open the admin API");
  }
  return grpc::Status::OK;
}

grpc::Status AdminServiceImpl::ListMatches(
    grpc::ServerContext* context, const v1::ListMatchesRequest* request,
    v1::ListMatchesResponse* response) {
  if (grpc::Status s = CheckAdmin(*context); !s.ok()) return s;
  storage::MatchFilter f;
  if (!request->player().empty()) {
    f.player_id = PlayerIdFromName(request->player());
    if (f.player_id.empty()) return Invalid("player must be 'players/{id}'");
  }
  if (request->game() != v1::GAME_UNSPECIFIED) {
    std::optional<std::string> game = GameName(request->game());
    if (!game.has_value()) return Invalid("unknown game");
    f.game = *game;
  }
  if (!StatusFromProto(request->state(), &f.status)) {
    return Invalid("unknown state");
  }
  if (request->ranking() == "ranked") {
    f.ranked = true;
  } else if (request->ranking() == "casual") {
    f.ranked = false;
  } else if (!request->ranking().empty()) {
    return Invalid("ranking must be 'ranked', 'casual' or empty");
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
  if (!rows.ok()) return FromStorage(rows.status());
  const bool more = static_cast<int>(rows->size()) > size;
  if (more) rows->resize(size);
  for (const storage::MatchRecord& r : *rows) {
    if (grpc::Status s = matches_.Get(r.id, "", response->add_matches());
        !s.ok()) {
      return s;
    }
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
  if (grpc::Status s = CheckAdmin(*context); !s.ok()) return s;
  std::string id;
  if (grpc::Status s = MatchIdFromName(request->name(), "name", &id); !s.ok())
    return s;
  if (grpc::Status s = matches_.Get(id, "", response->mutable_match());
      !s.ok()) {
    return s;
  }
  for (int64_t from = 1;;) {
    std::vector<v1::Move> moves;
    bool finished = false;
    if (grpc::Status s = matches_.ListMoves(id, from, 1000, &moves, &finished);
        !s.ok()) {
      return s;
    }
    for (v1::Move& m : moves) *response->add_moves() = std::move(m);
    if (moves.size() < 1000) break;
    from += 1000;
  }
  auto changes = store_.ListMatchRatingChanges(id);
  if (!changes.ok()) return FromStorage(changes.status());
  for (const storage::RatingChange& c : *changes) {
    ToProto(c, response->add_rating_changes());
  }
  auto record = store_.GetMatch(id);
  if (!record.ok()) return FromStorage(record.status());
  response->set_void_reason(record->void_reason);
  return grpc::Status::OK;
}

grpc::Status AdminServiceImpl::VoidMatch(grpc::ServerContext* context,
                                         const v1::VoidMatchRequest* request,
                                         v1::VoidMatchResponse* response) {
  if (grpc::Status s = CheckAdmin(*context); !s.ok()) return s;
  std::string id;
  if (grpc::Status s = MatchIdFromName(request->name(), "name", &id); !s.ok())
    return s;
  if (request->reason().empty()) return Invalid("reason is required");
  if (request->reason().size() > 1000 || request->actor().size() > 100) {
    return Invalid("reason (1000) or actor (100) is too long");
  }
  int recomputed = 0;
  if (grpc::Status s =
          matches_.VoidMatch(id, request->reason(), request->actor(),
                             response->mutable_match(), &recomputed);
      !s.ok()) {
    return s;
  }
  response->set_recomputed_changes(recomputed);
  return grpc::Status::OK;
}

grpc::Status AdminServiceImpl::ListAuditLog(
    grpc::ServerContext* context, const v1::ListAuditLogRequest* request,
    v1::ListAuditLogResponse* response) {
  if (grpc::Status s = CheckAdmin(*context); !s.ok()) return s;
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
    if (!TokenInt(f[0], &before)) return InvalidPageToken();
  }
  auto rows = store_.ListAuditLog(before, size + 1);
  if (!rows.ok()) return FromStorage(rows.status());
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
  if (grpc::Status s = CheckAdmin(*context); !s.ok()) return s;
  std::string id;
  if (grpc::Status s = MatchIdFromName(request->name(), "name", &id); !s.ok())
    return s;
  return matches_.Verify(id, response);
}

}  // namespace mancala::services
