// Matchmaking's values and messages (search_convert.h).

#include "services/wire/search_convert.h"

#include "services/wire/convert.h"
#include "services/wire/resource_names.h"

namespace mancala::services {

absl::Status SearchFromProto(const v1::FindMatchRequest& request,
                             SearchRequest* out) {
  out->ranked = request.ranked();
  out->accept_cpu = request.accept_cpu_opponent();
  return ShapeFromRequest(
      GameName(request.game()), request.players() == 0 ? 2 : request.players(),
      "players", {request.options().begin(), request.options().end()},
      request.turn_time_limit_seconds(), &out->shape);
}

void ToProto(const QueueView& queue, v1::QueueStats::Queue* out) {
  out->set_game(GameFromName(queue.game));
  out->mutable_options()->insert(queue.options.begin(), queue.options.end());
  out->set_players(queue.seats);
  out->set_ranked(queue.ranked);
  out->set_turn_time_limit_seconds(queue.turn_limit_s);
  out->set_searching(queue.searching);
}

void ToProto(const QueueStatsView& stats, v1::QueueStats* out) {
  for (const QueueView& q : stats.queues) ToProto(q, out->add_queues());
  out->set_searching(stats.searching);
  out->set_online(stats.online);
}

void ToProto(const SearchUpdate& update, v1::FindMatchUpdate* out) {
  switch (update.kind) {
    case SearchUpdate::Kind::kWaiting: {
      v1::QueueState* w = out->mutable_waiting();
      w->set_searching(update.searching);
      w->set_waited_seconds(update.waited_s);
      if (update.rating_window) w->set_rating_window(*update.rating_window);
      return;
    }
    case SearchUpdate::Kind::kFound:
      out->mutable_found()->set_match(MatchName(update.match_id));
      out->mutable_found()->set_seat(update.seat);
      return;
  }
}

std::optional<QueueView> QueueFromProto(const v1::QueueStats::Queue& queue) {
  std::optional<std::string> game = GameName(queue.game());
  if (!game) return std::nullopt;
  QueueView q;
  q.game = *std::move(game);
  q.options = {queue.options().begin(), queue.options().end()};
  q.seats = queue.players();
  q.ranked = queue.ranked();
  q.turn_limit_s = queue.turn_time_limit_seconds();
  q.searching = queue.searching();
  return q;
}

}  // namespace mancala::services
