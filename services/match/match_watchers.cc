// The watchers of live matches and presence (match_watchers.h).

#include "services/match/match_watchers.h"

#include <algorithm>
#include <vector>

#include "services/model/domain_error.h"
#include "services/model/match_errors.h"
#include "services/model/watch_events.h"

namespace mancala::services {

using storage::SeatRecord;

MatchWatchers::MatchWatchers(MatchContext& context, MatchRegistry& registry,
                             const WatchFanOut& fanout, StrandPool& strands)
    : context_(context),
      registry_(registry),
      fanout_(fanout),
      strands_(strands) {}

absl::Status MatchWatchers::Watch(const std::string& id,
                                  const std::string& viewer_id,
                                  int64_t after_ply,
                                  std::shared_ptr<WatchSink> sink) {
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  MutexLock lock(&live->mu);
  if (closed_) return ShuttingDown("watch again");
  if (absl::Status s = context_.replication->RefreshIfSettled(*live);
      !s.ok()) {
    return s;
  }
  const int max = context_.options.max_watchers;
  if (static_cast<int>(live->watchers.size()) >= max) {
    return DomainError(absl::StatusCode::kResourceExhausted,
                       "TOO_MANY_WATCHERS",
                       "this match has " + std::to_string(max) +
                           " watchers already; try again later");
  }
  const int64_t ply = live->record.ply;
  if (after_ply > ply) return PlyAhead(after_ply, ply);
  // The order WatchMatchRequest.after_ply documents: the moves the client
  // lacks (none for 0: it has nothing to apply them to), then the match at
  // `ply`, then live events; each Move follows the state before it. All
  // under the match lock, so no move slips between stored and live ones.
  if (after_ply > 0 && after_ply < ply) {
    auto rows = context_.store.ListMoves(id, after_ply + 1, ply - after_ply);
    if (!rows.ok()) return StorageFailure(rows.status());
    for (const storage::MoveRow& row : *rows) {
      if (absl::Status s = sink->PushBacklog(MoveEvent(MoveOf(row))); !s.ok()) {
        return s;
      }
    }
  }
  MatchView snapshot;
  Touch(*live, viewer_id);
  live->View(context_.clock.NowMs(), &snapshot);
  // The catch-up and the snapshot are the stream's backlog, outside the
  // queue cap (event_stream.h): resuming from any ply works.
  if (absl::Status s = sink->PushBacklog(MatchEvent(snapshot, false));
      !s.ok()) {
    return s;
  }
  if (live->ended()) {
    sink->Push(MatchEvent(snapshot, true), /*last=*/true);
    return absl::OkStatus();
  }
  for (size_t i = 0; i < live->record.seats.size(); ++i) {
    if (live->HoldsSeat(viewer_id, i)) {
      sink->seats.push_back(i);
      live->clock.StreamOpened(i);
    }
  }
  live->watchers.push_back(std::move(sink));
  live->WatchersChanged();
  if (!live->fanout) live->fanout = strands_.NewStrand();
  return absl::OkStatus();
}

int MatchWatchers::Count(const std::string& id) {
  LivePtr live = registry_.Cached(id);
  if (!live) return 0;
  MutexLock lock(&live->mu);
  return static_cast<int>(live->watchers.size());
}

void MatchWatchers::Unwatch(const std::string& id,
                            const std::shared_ptr<WatchSink>& sink) {
  LivePtr live = registry_.Cached(id);
  if (!live) return;
  MutexLock lock(&live->mu);
  auto& w = live->watchers;
  auto it = std::find(w.begin(), w.end(), sink);
  if (it == w.end()) return;
  w.erase(it);
  live->WatchersChanged();
  // The grace period runs from the moment the stream dropped.
  const int64_t now = context_.clock.NowMs();
  for (int seat : sink->seats) live->clock.StreamClosed(seat, now);
}

void MatchWatchers::Broadcast(CachedMatch& live, WatchEventView event,
                              bool last) {
  if (!live.audience) return;
  // Converted to the wire once, on the fan-out thread, off the mover's
  // path (watch_sink.h WatchFanOut).
  live.fanout->Post(
      [fanout = &fanout_, audience = live.audience,
       shared = std::make_shared<const WatchEventView>(std::move(event)),
       last] { fanout->Deliver(*audience, *shared, last); });
  if (last) {
    for (auto& sink : live.watchers) {
      for (int seat : sink->seats) live.clock.StreamClosed(seat, std::nullopt);
    }
    live.watchers.clear();
    live.WatchersChanged();
  }
}

void MatchWatchers::TellTurn(CachedMatch& live, const MatchView& match) {
  if (live.state.is_over()) {
    Broadcast(live, MatchEvent(match, true), /*last=*/true);
  } else if (live.clock.deadline_ms() > 0) {
    Broadcast(live,
              DeadlineEvent(live.state.to_move(), live.clock.deadline_ms()));
  }
}

void MatchWatchers::Close() {
  closed_ = true;  // Before the snapshot: a later Watch() sees it.
  for (LivePtr& live : registry_.All()) {
    std::vector<std::shared_ptr<WatchSink>> sinks;
    {
      MutexLock lock(&live->mu);
      live->clock.CancelCpuTurn();
      sinks = live->watchers;
    }
    for (auto& sink : sinks) sink->Close(ShuttingDown("watch again"));
  }
}

void MatchWatchers::Dismiss(const std::string& player_id,
                            const absl::Status& status) {
  for (LivePtr& live : registry_.All()) {
    std::vector<std::shared_ptr<WatchSink>> sinks;
    {
      MutexLock lock(&live->mu);
      for (const auto& sink : live->watchers) {
        for (int seat : sink->seats) {
          if (live->HoldsSeat(player_id, seat)) {
            sinks.push_back(sink);
            break;
          }
        }
      }
    }
    // Outside the match lock, as Close(): the stream's end unwatches.
    for (auto& sink : sinks) sink->Close(status);
  }
}

void MatchWatchers::Touch(CachedMatch& live, const std::string& player_id) {
  if (player_id.empty()) return;
  const int64_t now = context_.clock.NowMs();
  for (size_t i = 0; i < live.record.seats.size(); ++i) {
    if (!live.HoldsSeat(player_id, i)) continue;
    context_.replication->SeatSeen(live, static_cast<int>(i));
    // Back from a stand-in: the CPU stops playing for them at once.
    if (live.clock.Seen(i, now) && !live.state.is_over() &&
        live.state.to_move() == static_cast<int>(i)) {
      live.clock.CancelCpuTurn();
    }
  }
  UpdatePresence(live);
}

void MatchWatchers::UpdatePresence(CachedMatch& live) {
  const int64_t now = context_.clock.NowMs();
  for (size_t i = 0; i < live.record.seats.size(); ++i) {
    if (live.record.seats[i].kind != SeatRecord::Kind::kPlayer) continue;
    if (live.clock.PresenceChanged(i, now)) BroadcastPresence(live, i, now);
  }
}

void MatchWatchers::BroadcastPresence(CachedMatch& live, int seat,
                                      int64_t now_ms) {
  Broadcast(live, PresenceEvent(seat, live.clock.Present(seat, now_ms),
                                live.clock.StandingIn(seat)));
}

void MatchWatchers::ReportStreams(CachedMatch& live) {
  for (size_t i = 0; i < live.record.seats.size(); ++i) {
    if (live.clock.Streaming(static_cast<int>(i))) {
      context_.replication->SeatSeen(live, static_cast<int>(i));
    }
  }
}

}  // namespace mancala::services
