// The catch-up of a cached match with the store (match_catch_up.h).

#include "services/match/match_catch_up.h"

#include <vector>

#include "services/model/domain_error.h"
#include "services/model/names.h"
#include "services/model/watch_events.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

namespace {

bool SameSeats(const std::vector<SeatRecord>& a,
               const std::vector<SeatRecord>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != b[i].kind || a[i].player_id != b[i].player_id ||
        a[i].cpu_level != b[i].cpu_level) {
      return false;
    }
  }
  return true;
}

}  // namespace

MatchCatchUp::MatchCatchUp(MatchContext& context, MatchRegistry& registry,
                           MatchWatchers& watchers)
    : context_(context), registry_(registry), watchers_(watchers) {}

absl::Status MatchCatchUp::Run(CachedMatch& live) {
  storage::Store& store = context_.store;
  // Taken before the read, whose time left counts from a moment after it.
  const int64_t read_at_ms = context_.clock.NowMs();
  auto stored = store.GetMatch(live.record.id);
  if (!stored.ok()) return StorageFailure(stored.status());
  storage::MatchRecord& rec = live.record;
  // The cheap check: most of the time nothing changed elsewhere.
  if (stored->ply <= rec.ply && stored->status == rec.status &&
      stored->voided == rec.voided && stored->rematch_id == rec.rematch_id &&
      SameSeats(stored->seats, rec.seats)) {
    return absl::OkStatus();
  }
  const bool started = rec.status == MatchStatus::kWaiting &&
                       stored->status != MatchStatus::kWaiting;
  if (started) live.clock.StartMatch(context_.clock.NowMs());
  // The moves after the cached ply, up to the ply of the match read above,
  // applied and told in order. Moves another node appends meanwhile are
  // read too: they wait for the next catch-up (their notice), as the state
  // must stay at the ply of the record it is stored with.
  const int64_t moved_from = rec.ply;
  constexpr int kPage = 1000;
  while (rec.ply < stored->ply) {
    auto rows = store.ListMoves(rec.id, rec.ply + 1, kPage);
    if (!rows.ok()) return StorageFailure(rows.status());
    if (rows->empty() || rows->front().ply != rec.ply + 1) break;  // A gap.
    for (const storage::MoveRow& row : *rows) {
      if (row.ply != rec.ply + 1 || row.ply > stored->ply) break;
      if (absl::Status s = live.ApplyStored(row); !s.ok()) return s;
      rec.ply = row.ply;
      live.clock.StartTurn(row.played_at_ms, live.state.is_over());
      FollowStandIn(live, row);
      if (live.audience) {
        // Decoded here, once: refused as for the mover, rather than at
        // the fan-out, which then converts the engine's events.
        auto played = std::make_shared<std::vector<engine::Event>>();
        if (absl::Status s = context_.encodings.DecodeEvents(row, played.get());
            !s.ok()) {
          return s;
        }
        watchers_.Broadcast(live, MoveEvent(MoveOf(row, std::move(played))));
      }
    }
  }
  if (rec.ply != stored->ply) {
    return DomainError(absl::StatusCode::kDataLoss, "REPLAY_FAILED",
                       MatchName(rec.id) + " is stored at ply " +
                           std::to_string(stored->ply) +
                           " but its moves end at " + std::to_string(rec.ply));
  }
  // Started elsewhere: the turn's deadline is the store's (turn_clock.h
  // rule 7; after a move, its time plus the limit, as on the mover's node).
  if (started && rec.ply == moved_from && stored->turn_time_left_ms >= 0) {
    live.clock.KeepDeadline(read_at_ms + stored->turn_time_left_ms);
  }
  rec = *std::move(stored);
  if (rec.ply != moved_from) live.clock.CancelCpuTurn();  // Moot now.
  if (!live.audience) return absl::OkStatus();
  MatchView snapshot;
  live.View(context_.clock.NowMs(), &snapshot);
  if (live.ended()) {
    watchers_.Broadcast(live, MatchEvent(snapshot, true), /*last=*/true);
  } else if (started) {
    watchers_.Broadcast(live, MatchEvent(snapshot, false));
  } else if (rec.ply != moved_from) {
    watchers_.TellTurn(live, snapshot);
  }
  return absl::OkStatus();
}

void MatchCatchUp::FollowStandIn(CachedMatch& live,
                                 const storage::MoveRow& row) {
  if (!context_.replication->PresenceShared()) return;
  const bool changed =
      row.by_cpu ? row.cpu_reason == static_cast<int>(CpuReason::kStandIn) &&
                       live.clock.BeginStandIn(row.seat)
                 : live.clock.EndStandIn(row.seat);
  if (changed && live.audience) {
    watchers_.BroadcastPresence(live, row.seat, context_.clock.NowMs());
  }
}

void MatchCatchUp::OnMoveNotice(const std::string& id, int64_t ply) {
  LivePtr live = registry_.Cached(id);
  if (!live) return;  // Not cached here: read when asked.
  SettledLock lock(*live);
  // A notice at the cached ply is another node's join or cancel, news only
  // to watchers (this node's own notices are not delivered: move_notices.h).
  if (live->record.ply < ply || (live->record.ply == ply && live->audience)) {
    static_cast<void>(Run(*live));  // A hint: a failed read waits.
  }
}

void MatchCatchUp::Resync() {
  for (LivePtr& live : registry_.All()) {
    SettledLock lock(*live);
    if (!live->ended()) static_cast<void>(Run(*live));  // Reads retry.
  }
}

}  // namespace mancala::services
