#include "services/api/rating_service.h"

#include <limits>

#include "ratings/glicko2.h"
#include "services/api/auth.h"
#include "services/api/page_token.h"
#include "services/base/text.h"
#include "services/wire/convert.h"
#include "services/wire/errors.h"
#include "services/wire/resource_names.h"

namespace mancala::services {
namespace {

// NOT_FOUND (PLAYER_NOT_FOUND) unless the player exists: GetRating and
// GetRatingHistory answer alike for unknown players.
grpc::Status KnownPlayer(storage::Store& store, const std::string& id) {
  auto known = store.GetPlayer(id);
  if (absl::IsNotFound(known.status())) {
    return GrpcError(grpc::StatusCode::NOT_FOUND, "PLAYER_NOT_FOUND",
                     "no player named " + Quote(PlayerName(id)));
  }
  return known.ok() ? grpc::Status::OK : GrpcStorageFailure(known.status());
}

}  // namespace

grpc::Status RatingServiceImpl::GetRating(grpc::ServerContextBase* context,
                                          const v1::GetRatingRequest* request,
                                          v1::Rating* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          Admit(*context, store_, *request, Caller::kAnyone, &caller);
      !s.ok()) {
    return s;
  }
  std::string player, game;
  if (grpc::Status s = RatingFromName(request->name(), &player, &game);
      !s.ok()) {
    return s;
  }
  if (grpc::Status s = KnownPlayer(store_, player); !s.ok()) return s;
  auto found = store_.GetRatings(game, {player});
  if (!found.ok()) return GrpcStorageFailure(found.status());
  storage::RatingRecord r;
  if (found->empty()) {
    r.player_id = player;
    r.game = game;
    r.value = {ratings::kNewPlayer.rating, ratings::kNewPlayer.rd,
               ratings::kNewPlayer.volatility};
  } else {
    r = (*found)[0];
  }
  ToProto(r, response);
  return grpc::Status::OK;
}

grpc::Status RatingServiceImpl::ListLeaderboard(
    grpc::ServerContextBase* context, const v1::ListLeaderboardRequest* request,
    v1::ListLeaderboardResponse* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          Admit(*context, store_, *request, Caller::kAnyone, &caller);
      !s.ok()) {
    return s;
  }
  std::optional<std::string> game = GameName(request->game());
  if (!game.has_value()) {
    return GrpcInvalidField(
        "game must be KALAH, OWARE, CONGKAK or MANCALA_BASIC");
  }
  int size = 0;
  if (grpc::Status s = PageSize(request->page_size(), 50, 500, &size);
      !s.ok()) {
    return s;
  }
  const std::string scope =
      *game + (request->include_provisional() ? "+p" : "");
  std::optional<std::pair<double, std::string>> after;
  if (!request->page_token().empty()) {
    std::vector<std::string> f;
    if (grpc::Status s =
            ReadPageToken(request->page_token(), "leaderboard", scope, 2, &f);
        !s.ok()) {
      return s;
    }
    try {
      after = std::make_pair(std::stod(f[0]), f[1]);
    } catch (const std::exception&) {
      return GrpcInvalidPageToken();
    }
  }
  const double max_rd = request->include_provisional()
                            ? std::numeric_limits<double>::infinity()
                            : ratings::kProvisionalRd;
  auto rows = store_.ListLeaderboard(*game, max_rd, after, size + 1);
  if (!rows.ok()) return GrpcStorageFailure(rows.status());
  const bool more = static_cast<int>(rows->size()) > size;
  if (more) rows->resize(size);
  for (const storage::RatingRecord& r : *rows) {
    ToProto(r, response->add_ratings());
  }
  if (more) {
    char exact[64];
    std::snprintf(exact, sizeof exact, "%.17g", rows->back().value.rating);
    response->set_next_page_token(
        EncodePageToken("leaderboard", scope, {exact, rows->back().player_id}));
  }
  return grpc::Status::OK;
}

grpc::Status RatingServiceImpl::GetRatingHistory(
    grpc::ServerContextBase* context, const v1::GetRatingHistoryRequest* request,
    v1::GetRatingHistoryResponse* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          Admit(*context, store_, *request, Caller::kAnyone, &caller);
      !s.ok()) {
    return s;
  }
  std::string player, game;
  if (grpc::Status s = RatingFromName(request->name(), &player, &game);
      !s.ok()) {
    return s;
  }
  int size = 0;
  if (grpc::Status s = PageSize(request->page_size(), 50, 500, &size);
      !s.ok()) {
    return s;
  }
  if (grpc::Status s = KnownPlayer(store_, player); !s.ok()) return s;
  std::optional<storage::Cursor> after;
  if (!request->page_token().empty()) {
    storage::Cursor cursor;
    if (grpc::Status s =
            ReadCursorToken(request->page_token(), "rating_history",
                            request->name(), &cursor.time_ms, &cursor.id);
        !s.ok()) {
      return s;
    }
    after = cursor;
  }
  auto rows = store_.ListRatingChanges(player, game, after, size + 1);
  if (!rows.ok()) return GrpcStorageFailure(rows.status());
  const bool more = static_cast<int>(rows->size()) > size;
  if (more) rows->resize(size);
  for (const storage::RatingChange& c : *rows) {
    ToProto(c, response->add_changes());
  }
  if (more) {
    response->set_next_page_token(EncodePageToken(
        "rating_history", request->name(),
        {std::to_string(rows->back().rated_at_ms), rows->back().match_id}));
  }
  return grpc::Status::OK;
}

}  // namespace mancala::services
