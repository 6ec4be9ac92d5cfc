#include "client/records.h"

#include <algorithm>
#include <map>

#include "client/rpc.h"
#include "client/table.h"
#include "mancala/v1/player_service.grpc.pb.h"
#include "mancala/v1/rating_service.grpc.pb.h"

namespace mancala::cli {
namespace {

// Display names of players, fetched once each.
class Names {
 public:
  explicit Names(std::shared_ptr<grpc::Channel> channel)
      : stub_(v1::PlayerService::NewStub(channel)) {}
  std::string Of(const std::string& player) {
    auto [it, fresh] = names_.try_emplace(player, player);
    if (fresh) {
      v1::GetPlayerRequest req;
      req.set_name(player);
      v1::Player p;
      auto ctx = CallContext("");
      if (stub_->GetPlayer(ctx.get(), req, &p).ok()) {
        it->second = p.display_name();
      }
    }
    return it->second;
  }

 private:
  std::unique_ptr<v1::PlayerService::Stub> stub_;
  std::map<std::string, std::string> names_;
};

// The games to show: the one asked for, or all four.
grpc::Status Games(const std::string& name, std::vector<v1::Game>* out) {
  if (name.empty()) {
    *out = {v1::KALAH, v1::OWARE, v1::CONGKAK, v1::MANCALA_BASIC};
    return grpc::Status::OK;
  }
  std::optional<v1::Game> game = ParseGame(name);
  if (!game) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        "unknown game '" + name + "' (kalah, oware, congkak, mancala_basic)");
  }
  *out = {*game};
  return grpc::Status::OK;
}

std::string Signed(double delta) {
  return (delta >= 0 ? "+" : "") + Fixed(delta);
}

}  // namespace

int Leaderboard(const QueryOptions& o, bool provisional, std::ostream& out,
                std::ostream& err) {
  std::optional<v1::Game> game = ParseGame(o.game);
  if (!game) {
    return ShowError(err, "leaderboard",
                     grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                  "--game must be kalah, oware, congkak or "
                                  "mancala_basic"));
  }
  auto channel = Dial(o.server);
  auto ratings = v1::RatingService::NewStub(channel);
  v1::ListLeaderboardRequest req;
  req.set_game(*game);
  req.set_include_provisional(provisional);
  v1::ListLeaderboardResponse all;
  if (grpc::Status s = FetchPages(
          "", o.limit, req,
          [&](grpc::ClientContext* c, const auto& q, auto* r) {
            return ratings->ListLeaderboard(c, q, r);
          },
          [](auto& r) -> auto& { return *r.mutable_ratings(); }, &all);
      !s.ok()) {
    return ShowError(err, "leaderboard", s);
  }
  if (o.json) {
    out << ToJson(all);
    return 0;
  }
  if (all.ratings().empty()) {
    out << "No " << (provisional ? "" : "established ") << "ratings in "
        << GameLabel(*game)
        << (provisional ? "" : " yet (--provisional shows new players)")
        << ".\n";
    return 0;
  }
  Names names(channel);
  Table table({"#", "PLAYER", "NAME", "RATING", "RD", "GAMES"});
  int rank = 0;
  for (const v1::Rating& r : all.ratings()) {
    table.Add({std::to_string(++rank), r.player(), names.Of(r.player()),
               Fixed(r.rating()), Fixed(r.rating_deviation()),
               std::to_string(r.games_played())});
  }
  out << "Leaderboard: " << GameLabel(*game) << "\n";
  table.Print(out);
  return 0;
}

int Rating(const QueryOptions& o, bool history, std::ostream& out,
           std::ostream& err) {
  std::vector<v1::Game> games;
  if (grpc::Status s = Games(o.game, &games); !s.ok()) {
    return ShowError(err, "rating", s);
  }
  auto channel = Dial(o.server);
  std::string player;
  if (grpc::Status s = ResolvePlayer(channel, o.player, o.token, &player);
      !s.ok()) {
    return ShowError(err, "rating", s);
  }
  auto ratings = v1::RatingService::NewStub(channel);
  if (!history) {
    v1::ListLeaderboardResponse shown;  // A list of ratings, for --json.
    for (v1::Game game : games) {
      v1::GetRatingRequest req;
      req.set_name(player + "/ratings/" + GameLabel(game));
      auto ctx = CallContext("");
      if (grpc::Status s =
              ratings->GetRating(ctx.get(), req, shown.add_ratings());
          !s.ok()) {
        return ShowError(err, "rating", s);
      }
    }
    if (o.json) {
      out << ToJson(shown);
      return 0;
    }
    Table table({"GAME", "RATING", "RD", "VOLATILITY", "GAMES", "STATUS",
                 "LAST RATED"});
    for (const v1::Rating& r : shown.ratings()) {
      table.Add({GameLabel(r.game()), Fixed(r.rating()),
                 Fixed(r.rating_deviation()), Fixed(r.volatility(), 4),
                 std::to_string(r.games_played()),
                 r.provisional() ? "provisional" : "established",
                 ShortTime(r.last_rated_time())});
    }
    out << "Ratings of " << player << "\n";
    table.Print(out);
    return 0;
  }
  // History: each game's changes, newest first, up to the limit.
  v1::GetRatingHistoryResponse shown;
  std::vector<std::pair<v1::Game, v1::RatingChange>> rows;
  for (v1::Game game : games) {
    v1::GetRatingHistoryRequest req;
    req.set_name(player + "/ratings/" + GameLabel(game));
    v1::GetRatingHistoryResponse changes;
    if (grpc::Status s = FetchPages(
            "", o.limit, req,
            [&](grpc::ClientContext* c, const auto& q, auto* r) {
              return ratings->GetRatingHistory(c, q, r);
            },
            [](auto& r) -> auto& { return *r.mutable_changes(); }, &changes);
        !s.ok()) {
      return ShowError(err, "rating history", s);
    }
    for (const v1::RatingChange& c : changes.changes()) {
      rows.emplace_back(game, c);
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.rate_time().seconds() > b.second.rate_time().seconds();
  });
  if (static_cast<int>(rows.size()) > o.limit) rows.resize(o.limit);
  if (o.json) {
    for (const auto& [game, c] : rows) *shown.add_changes() = c;
    out << ToJson(shown);
    return 0;
  }
  if (rows.empty()) {
    out << player << " has no rated matches"
        << (o.game.empty() ? "" : " in " + o.game) << ".\n";
    return 0;
  }
  Table table(
      {"RATED AT", "GAME", "MATCH", "RANK", "BEFORE", "AFTER", "CHANGE", "RD"});
  for (const auto& [game, c] : rows) {
    table.Add({ShortTime(c.rate_time()), GameLabel(game), c.match(),
               std::to_string(c.rank()), Fixed(c.rating_before()),
               Fixed(c.rating_after()),
               Signed(c.rating_after() - c.rating_before()),
               Fixed(c.rating_deviation_after())});
  }
  out << "Rating history of " << player << " (newest first)\n";
  table.Print(out);
  return 0;
}

}  // namespace mancala::cli
