#include "services/matchmaker.h"

#include <algorithm>
#include <cmath>

#include "engine/rules.h"
#include "ratings/glicko2.h"
#include "services/convert.h"
#include "services/errors.h"

namespace mancala::services {
namespace {

std::string QueueKey(const MatchShape& shape, bool ranked) {
  std::string key = shape.game + "|" + std::to_string(shape.seats) + "|" +
                    (ranked ? "ranked" : "casual") + "|" +
                    std::to_string(shape.turn_limit_s) + "|" +
                    (shape.rotate_first_player ? "rotate" : "keep");
  for (const auto& [k, v] : shape.options) key += "|" + k + "=" + v;
  return key;
}

}  // namespace

Matchmaker::Matchmaker(LiveMatches& matches, storage::Store& store,
                       const Clock& clock, MatchmakerOptions options)
    : matches_(matches), store_(store), clock_(clock), options_(options) {}

double Matchmaker::Window(const Entry& e, int64_t now) const {
  return options_.window_start +
         options_.window_growth * (now - e.enqueued_ms) / 1000.0;
}

grpc::Status Matchmaker::Enqueue(const std::string& player_id,
                                 const v1::FindMatchRequest& request,
                                 std::shared_ptr<FindSink> sink) {
  MatchShape shape;
  if (grpc::Status s = ShapeFromRequest(
          request.game(), request.players() == 0 ? 2 : request.players(),
          "players", {request.options().begin(), request.options().end()},
          request.turn_time_limit_seconds(), &shape);
      !s.ok()) {
    return s;
  }
  const bool ranked = request.ranked();
  if (request.accept_cpu_opponent() && ranked) {
    return Invalid(
        "accept_cpu_opponent is for casual queues only; ranked "
        "matches against the CPU are never rated");
  }
  Entry entry;
  entry.player_id = player_id;
  entry.rating = ratings::kNewPlayer.rating;
  if (ranked) {
    auto rated = store_.GetRatings(shape.game, {player_id});
    if (!rated.ok()) return FromStorage(rated.status());
    if (!rated->empty()) entry.rating = (*rated)[0].value.rating;
  }
  entry.accept_cpu = request.accept_cpu_opponent();
  entry.sink = std::move(sink);
  std::vector<Formed> formed;
  {
    MutexLock lock(&mu_);
    if (closed_) return ShuttingDown("search again");
    if (queue_of_.count(player_id) > 0) {
      return Error(grpc::StatusCode::FAILED_PRECONDITION, "ALREADY_SEARCHING",
                   "you are already searching for a match; cancel that "
                   "search first");
    }
    const int64_t now = clock_.NowMs();
    entry.enqueued_ms = now;
    const std::string key = QueueKey(shape, ranked);
    Queue& q = queues_[key];
    q.shape = shape;
    q.ranked = ranked;
    q.entries.push_back(std::move(entry));
    queue_of_[player_id] = key;
    FormGroups(q, now, &formed);
    SendUpdates(q, now);
  }
  Start(std::move(formed));
  return grpc::Status::OK;
}

void Matchmaker::Leave(const std::string& player_id,
                       const std::shared_ptr<FindSink>& sink) {
  MutexLock lock(&mu_);
  auto it = queue_of_.find(player_id);
  if (it == queue_of_.end()) return;
  Queue& q = queues_[it->second];
  auto e = std::find_if(q.entries.begin(), q.entries.end(),
                        [&](const Entry& x) { return x.sink == sink; });
  if (e == q.entries.end()) return;  // A newer search of the same player.
  q.entries.erase(e);
  queue_of_.erase(it);
}

bool Matchmaker::Cancel(const std::string& player_id) {
  std::shared_ptr<FindSink> sink;
  {
    MutexLock lock(&mu_);
    auto it = queue_of_.find(player_id);
    if (it == queue_of_.end()) return false;
    Queue& q = queues_[it->second];
    auto e =
        std::find_if(q.entries.begin(), q.entries.end(),
                     [&](const Entry& x) { return x.player_id == player_id; });
    if (e != q.entries.end()) {
      sink = e->sink;
      q.entries.erase(e);
    }
    queue_of_.erase(it);
  }
  if (sink) {
    sink->Close(grpc::Status(grpc::StatusCode::CANCELLED,
                             "you left the queue (CancelFind)"));
  }
  return true;
}

void Matchmaker::Stats(v1::Game game, v1::QueueStats* out) {
  MutexLock lock(&mu_);
  int total = 0;
  for (const auto& [key, q] : queues_) {
    if (q.entries.empty()) continue;
    if (game != v1::GAME_UNSPECIFIED && GameFromName(q.shape.game) != game) {
      continue;
    }
    v1::QueueStats::Queue* s = out->add_queues();
    s->set_game(GameFromName(q.shape.game));
    s->mutable_options()->insert(q.shape.options.begin(),
                                 q.shape.options.end());
    s->set_players(q.shape.seats);
    s->set_ranked(q.ranked);
    s->set_turn_time_limit_seconds(q.shape.turn_limit_s);
    s->set_searching(q.entries.size());
    total += q.entries.size();
  }
  out->set_searching(total);
}

void Matchmaker::Tick() {
  std::vector<Formed> formed;
  {
    MutexLock lock(&mu_);
    const int64_t now = clock_.NowMs();
    for (auto& [key, q] : queues_) {
      FormGroups(q, now, &formed);
      SendUpdates(q, now);
    }
  }
  Start(std::move(formed));
}

void Matchmaker::CloseAll() {
  std::vector<std::shared_ptr<FindSink>> sinks;
  {
    MutexLock lock(&mu_);
    closed_ = true;
    for (auto& [key, q] : queues_) {
      for (Entry& e : q.entries) sinks.push_back(e.sink);
      q.entries.clear();
    }
    queue_of_.clear();
  }
  for (auto& sink : sinks) {
    sink->Close(ShuttingDown("search again"));
  }
}

void Matchmaker::FormGroups(Queue& q, int64_t now, std::vector<Formed>* out) {
  std::vector<bool> taken(q.entries.size(), false);
  auto form = [&](std::vector<size_t> members) {
    Formed f;
    f.match.shape = q.shape;
    f.match.ranked = q.ranked;
    for (size_t m : members) {
      taken[m] = true;
      f.members.push_back(q.entries[m]);
      f.match.seats.push_back(
          {storage::SeatRecord::Kind::kPlayer, q.entries[m].player_id, 0});
    }
    f.match.creator_id = f.members[0].player_id;
    out->push_back(std::move(f));
  };
  // Oldest first: the longest wait is served before anyone who came later.
  for (size_t i = 0; i < q.entries.size(); ++i) {
    if (taken[i]) continue;
    const Entry& oldest = q.entries[i];
    std::vector<std::pair<double, size_t>> near;  // (distance, index).
    for (size_t j = i + 1; j < q.entries.size(); ++j) {
      if (taken[j]) continue;
      const double d =
          q.ranked ? std::abs(q.entries[j].rating - oldest.rating) : 0.0;
      // The oldest has the widest window; casual queues take anyone.
      if (!q.ranked || d <= Window(oldest, now)) near.push_back({d, j});
    }
    if (static_cast<int>(near.size()) >= q.shape.seats - 1) {
      // Closest ratings first; equal distances by arrival (stable sort).
      std::stable_sort(
          near.begin(), near.end(),
          [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<size_t> members = {i};
      for (int k = 0; k < q.shape.seats - 1; ++k)
        members.push_back(near[k].second);
      std::sort(members.begin(), members.end());  // Seats by arrival.
      form(members);
      continue;
    }
    if (!q.ranked && oldest.accept_cpu && options_.cpu_fallback_ms > 0 &&
        now - oldest.enqueued_ms >= options_.cpu_fallback_ms) {
      form({i});  // CPU seats are added below.
      Formed& f = out->back();
      while (static_cast<int>(f.match.seats.size()) < q.shape.seats) {
        f.match.seats.push_back(
            {storage::SeatRecord::Kind::kCpu, "", options_.cpu_level});
      }
    }
  }
  std::vector<Entry> left;
  for (size_t i = 0; i < q.entries.size(); ++i) {
    if (taken[i]) {
      queue_of_.erase(q.entries[i].player_id);
    } else {
      left.push_back(std::move(q.entries[i]));
    }
  }
  q.entries = std::move(left);
}

void Matchmaker::SendUpdates(Queue& q, int64_t now) {
  const int searching = static_cast<int>(q.entries.size());
  for (Entry& e : q.entries) {
    const int64_t since = now - e.last_update_ms;
    // Due every update_every_ms, and soon after the count changed (a seed
    // page shows "N searching" live), but at most every kMinUpdateGapMs.
    const bool due = since >= options_.update_every_ms ||
                     (searching != e.last_searching &&
                      since >= MatchmakerOptions::kMinUpdateGapMs);
    if (!due) continue;
    e.last_update_ms = now;
    e.last_searching = searching;
    v1::FindMatchUpdate u;
    u.mutable_waiting()->set_searching(q.entries.size());
    u.mutable_waiting()->set_waited_seconds((now - e.enqueued_ms) / 1000);
    if (q.ranked) u.mutable_waiting()->set_rating_window(Window(e, now));
    e.sink->Push(u);
  }
}

void Matchmaker::Start(std::vector<Formed> formed) {
  for (Formed& f : formed) {
    v1::Match match;
    grpc::Status s = matches_.Create(f.match, &match);
    for (size_t seat = 0; seat < f.members.size(); ++seat) {
      if (!s.ok()) {
        f.members[seat].sink->Close(s);
        continue;
      }
      v1::FindMatchUpdate u;
      u.mutable_found()->set_match(match.name());
      u.mutable_found()->set_seat(seat);
      f.members[seat].sink->Push(u, /*last=*/true);
    }
  }
}

}  // namespace mancala::services
