#include "services/rating_service.h"

#include <google/protobuf/util/time_util.h>

#include <limits>

#include "ratings/glicko2.h"
#include "services/auth.h"
#include "services/convert.h"
#include "services/errors.h"
#include "services/field_limits.h"
#include "services/page_token.h"

namespace mancala::services {
namespace {

using google::protobuf::util::TimeUtil;

grpc::Status Invalid(const std::string& message) {
  return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT", message);
}

// "players/{player_id}/ratings/{game}" -> player id and game wire name.
grpc::Status ParseRatingName(const std::string& name, std::string* player,
                             std::string* game) {
  static constexpr std::string_view kPlayers = "players/";
  static constexpr std::string_view kRatings = "/ratings/";
  const size_t mid = name.find(kRatings);
  if (name.compare(0, kPlayers.size(), kPlayers) != 0 ||
      mid == std::string::npos || mid <= kPlayers.size()) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_NAME",
                 "name must be 'players/{player_id}/ratings/{game}', got " +
                     Quote(name));
  }
  *player = name.substr(kPlayers.size(), mid - kPlayers.size());
  *game = name.substr(mid + kRatings.size());
  if (GameFromName(*game) == v1::GAME_UNSPECIFIED) {
    return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_NAME",
                 "the game in a rating name must be kalah, oware, congkak or "
                 "mancala_basic, got " +
                     Quote(*game));
  }
  return grpc::Status::OK;
}

// NOT_FOUND (PLAYER_NOT_FOUND) unless the player exists: GetRating and
// GetRatingHistory answer alike for unknown players.
grpc::Status KnownPlayer(storage::Store& store, const std::string& id) {
  auto known = store.GetPlayer(id);
  if (absl::IsNotFound(known.status())) {
    return Error(grpc::StatusCode::NOT_FOUND, "PLAYER_NOT_FOUND",
                 "no player named " + Quote("players/" + id));
  }
  return known.ok() ? grpc::Status::OK : FromStorage(known.status());
}

void RatingToProto(const storage::RatingRecord& r, v1::Rating* out) {
  out->set_name("players/" + r.player_id + "/ratings/" + r.game);
  out->set_player("players/" + r.player_id);
  out->set_game(GameFromName(r.game));
  out->set_rating(r.value.rating);
  out->set_rating_deviation(r.value.rd);
  out->set_volatility(r.value.volatility);
  out->set_games_played(r.games);
  out->set_provisional(
      ratings::IsProvisional({r.value.rating, r.value.rd, r.value.volatility}));
  if (r.last_rated_at_ms > 0) {
    *out->mutable_last_rated_time() =
        TimeUtil::MillisecondsToTimestamp(r.last_rated_at_ms);
  }
}

grpc::Status BadToken() {
  return Error(grpc::StatusCode::INVALID_ARGUMENT, "INVALID_PAGE_TOKEN",
               "page_token does not belong to this listing");
}

}  // namespace

void RatingChangeToProto(const storage::RatingChange& c,
                         v1::RatingChange* out) {
  out->set_match("matches/" + c.match_id);
  out->set_seat(c.seat);
  out->set_rank(c.rank);
  out->set_rating_before(c.before.rating);
  out->set_rating_after(c.after.rating);
  out->set_rating_deviation_before(c.before.rd);
  out->set_rating_deviation_after(c.after.rd);
  out->set_volatility_before(c.before.volatility);
  out->set_volatility_after(c.after.volatility);
  *out->mutable_rate_time() = TimeUtil::MillisecondsToTimestamp(c.rated_at_ms);
}

grpc::Status RatingServiceImpl::GetRating(grpc::ServerContext* context,
                                          const v1::GetRatingRequest* request,
                                          v1::Rating* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          Admit(*context, store_, *request, Caller::kAnyone, &caller);
      !s.ok()) {
    return s;
  }
  std::string player, game;
  if (grpc::Status s = ParseRatingName(request->name(), &player, &game);
      !s.ok()) {
    return s;
  }
  if (grpc::Status s = KnownPlayer(store_, player); !s.ok()) return s;
  auto found = store_.GetRatings(game, {player});
  if (!found.ok()) return FromStorage(found.status());
  storage::RatingRecord r;
  if (found->empty()) {
    r.player_id = player;
    r.game = game;
    r.value = {ratings::kNewPlayer.rating, ratings::kNewPlayer.rd,
               ratings::kNewPlayer.volatility};
  } else {
    r = (*found)[0];
  }
  RatingToProto(r, response);
  return grpc::Status::OK;
}

grpc::Status RatingServiceImpl::ListLeaderboard(
    grpc::ServerContext* context, const v1::ListLeaderboardRequest* request,
    v1::ListLeaderboardResponse* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          Admit(*context, store_, *request, Caller::kAnyone, &caller);
      !s.ok()) {
    return s;
  }
  std::optional<std::string> game = GameName(request->game());
  if (!game.has_value()) {
    return Invalid("game must be KALAH, OWARE, CONGKAK or MANCALA_BASIC");
  }
  std::optional<int> size = PageSize(request->page_size(), 50, 500);
  if (!size.has_value()) return Invalid("page_size must be >= 0");
  const std::string scope =
      *game + (request->include_provisional() ? "+p" : "");
  std::optional<std::pair<double, std::string>> after;
  if (!request->page_token().empty()) {
    auto f = DecodePageToken(request->page_token(), "leaderboard", scope);
    if (!f.has_value() || f->size() != 2) return BadToken();
    try {
      after = std::make_pair(std::stod((*f)[0]), (*f)[1]);
    } catch (const std::exception&) {
      return BadToken();
    }
  }
  const double max_rd = request->include_provisional()
                            ? std::numeric_limits<double>::infinity()
                            : ratings::kProvisionalRd;
  auto rows = store_.ListLeaderboard(*game, max_rd, after, *size + 1);
  if (!rows.ok()) return FromStorage(rows.status());
  const bool more = static_cast<int>(rows->size()) > *size;
  if (more) rows->resize(*size);
  for (const storage::RatingRecord& r : *rows) {
    RatingToProto(r, response->add_ratings());
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
    grpc::ServerContext* context, const v1::GetRatingHistoryRequest* request,
    v1::GetRatingHistoryResponse* response) {
  storage::PlayerRecord caller;
  if (grpc::Status s =
          Admit(*context, store_, *request, Caller::kAnyone, &caller);
      !s.ok()) {
    return s;
  }
  std::string player, game;
  if (grpc::Status s = ParseRatingName(request->name(), &player, &game);
      !s.ok()) {
    return s;
  }
  if (grpc::Status s = KnownPlayer(store_, player); !s.ok()) return s;
  std::optional<int> size = PageSize(request->page_size(), 50, 500);
  if (!size.has_value()) return Invalid("page_size must be >= 0");
  std::optional<storage::Cursor> after;
  if (!request->page_token().empty()) {
    auto f = DecodePageToken(request->page_token(), "rating_history",
                             request->name());
    if (!f.has_value() || f->size() != 2) return BadToken();
    try {
      after = storage::Cursor{std::stoll((*f)[0]), (*f)[1]};
    } catch (const std::exception&) {
      return BadToken();
    }
  }
  auto rows = store_.ListRatingChanges(player, game, after, *size + 1);
  if (!rows.ok()) return FromStorage(rows.status());
  const bool more = static_cast<int>(rows->size()) > *size;
  if (more) rows->resize(*size);
  for (const storage::RatingChange& c : *rows) {
    RatingChangeToProto(c, response->add_changes());
  }
  if (more) {
    response->set_next_page_token(EncodePageToken(
        "rating_history", request->name(),
        {std::to_string(rows->back().rated_at_ms), rows->back().match_id}));
  }
  return grpc::Status::OK;
}

}  // namespace mancala::services
