// LiveMatches: the watchers of a match (WatchMatch streams). Events are
// queued on the match's strand (strand_pool.h) so the mover never waits on
// a slow stream, and a watcher sees each event once, in order.

#include <algorithm>

#include "services/match/live_matches.h"
#include "services/model/domain_error.h"
#include "services/model/match_errors.h"
#include "services/model/watch_events.h"

namespace mancala::services {

absl::Status LiveMatches::Watch(const std::string& id,
                                const std::string& viewer_id, int64_t after_ply,
                                std::shared_ptr<WatchSink> sink) {
  LivePtr live;
  if (absl::Status s = FindCurrent(id, &live); !s.ok()) return s;
  MutexLock lock(&live->mu);
  if (closed_) return ShuttingDown("watch again");
  if (static_cast<int>(live->watchers.size()) >= options_.max_watchers) {
    return DomainError(
        absl::StatusCode::kResourceExhausted, "TOO_MANY_WATCHERS",
        "this match has " + std::to_string(options_.max_watchers) +
            " watchers already; try again later");
  }
  const int64_t ply = live->record.ply;
  if (after_ply > ply) return PlyAhead(after_ply, ply);
  // The order WatchMatchRequest.after_ply documents: the moves the client
  // lacks (none for 0: it has nothing to apply them to), then the match at
  // `ply`, then live events; each Move follows the state before it. All
  // under the match lock, so no move slips between stored and live ones.
  if (after_ply > 0 && after_ply < ply) {
    auto rows = store_.ListMoves(id, after_ply + 1, ply - after_ply);
    if (!rows.ok()) return StorageFailure(rows.status());
    for (const storage::MoveRow& row : *rows) {
      if (absl::Status s = sink->PushBacklog(MoveEvent(MoveOf(row))); !s.ok()) {
        return s;
      }
    }
  }
  MatchView snapshot;
  Touch(*live, viewer_id);
  Snapshot(*live, &snapshot);
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
  if (!live->fanout) live->fanout = fanout_.NewStrand();
  return absl::OkStatus();
}

int LiveMatches::WatcherCount(const std::string& id) {
  LivePtr live;
  if (!Find(id, &live).ok()) return 0;
  MutexLock lock(&live->mu);
  return static_cast<int>(live->watchers.size());
}

void LiveMatches::Unwatch(const std::string& id,
                          const std::shared_ptr<WatchSink>& sink) {
  LivePtr live;
  {
    MutexLock lock(&mu_);
    auto it = matches_.find(id);
    if (it == matches_.end()) return;
    live = it->second;
  }
  MutexLock lock(&live->mu);
  auto& w = live->watchers;
  auto it = std::find(w.begin(), w.end(), sink);
  if (it == w.end()) return;
  w.erase(it);
  live->WatchersChanged();
  // The grace period runs from the moment the stream dropped.
  const int64_t now = clock_.NowMs();
  for (int seat : sink->seats) live->clock.StreamClosed(seat, now);
}

void LiveMatches::Broadcast(Live& live, WatchEventView event, bool last) {
  if (!live.audience) return;
  // Converted to the wire once, on the fan-out thread, off the mover's
  // path (watch_sink.h WatchFanOut).
  live.fanout->Post(
      [fanout = &watch_fanout_, audience = live.audience,
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

void LiveMatches::CloseWatchers() {
  closed_ = true;  // Before the snapshot: a later Watch() sees it.
  std::vector<LivePtr> all;
  {
    MutexLock lock(&mu_);
    for (auto& [id, live] : matches_) all.push_back(live);
  }
  for (LivePtr& live : all) {
    std::vector<std::shared_ptr<WatchSink>> sinks;
    {
      MutexLock lock(&live->mu);
      live->clock.CancelCpuTurn();
      sinks = live->watchers;
    }
    for (auto& sink : sinks) {
      sink->Close(ShuttingDown("watch again"));
    }
  }
}

}  // namespace mancala::services
