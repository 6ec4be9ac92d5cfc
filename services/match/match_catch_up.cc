// LiveMatches: the live match as a cache of the stored one. With several
// nodes on one database (PostgreSQL) another node may have moved, joined or
// ended a match this node holds; CatchUp() is the one path that brings the
// cache level with the store: a stale client's move, a move the store
// refused (another node took the ply), a read, a move notice
// (storage/move_notices.h) and a listener's resync all go through it. It
// also tells this node's watchers each move it finds, in ply order, so a
// watcher sees every ply once whichever node played it.
// With SQLite this process is the only writer and the cache is never behind:
// nothing here runs (replication.h SingleNode never asks for it).

#include "services/match/live_matches.h"
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

absl::Status LiveMatches::CatchUp(Live& live) {
  auto stored = store_.GetMatch(live.record.id);
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
  if (started) live.clock.StartMatch(clock_.NowMs());
  // The moves after the cached ply, up to the ply of the match read above,
  // applied and told in order. Moves another node appends meanwhile are
  // read too: they wait for the next catch-up (their notice), as the state
  // must stay at the ply of the record it is stored with.
  const int64_t moved_from = rec.ply;
  constexpr int kPage = 1000;
  while (rec.ply < stored->ply) {
    auto rows = store_.ListMoves(rec.id, rec.ply + 1, kPage);
    if (!rows.ok()) return StorageFailure(rows.status());
    if (rows->empty() || rows->front().ply != rec.ply + 1) break;  // A gap.
    for (const storage::MoveRow& row : *rows) {
      if (row.ply != rec.ply + 1 || row.ply > stored->ply) break;
      if (absl::Status s = live.ApplyStored(row); !s.ok()) return s;
      rec.ply = row.ply;
      live.clock.StartTurn(row.played_at_ms, live.state.is_over());
      if (live.audience) {
        // Refused here, as for the mover, rather than at the fan-out.
        if (absl::Status s = encodings_.CheckStoredEvents(row); !s.ok()) {
          return s;
        }
        Broadcast(live, MoveEvent(MoveOf(row)));
      }
    }
  }
  if (rec.ply != stored->ply) {
    return DomainError(absl::StatusCode::kDataLoss, "REPLAY_FAILED",
                       MatchName(rec.id) + " is stored at ply " +
                           std::to_string(stored->ply) +
                           " but its moves end at " + std::to_string(rec.ply));
  }
  rec = *std::move(stored);
  if (rec.ply != moved_from) live.clock.CancelCpuTurn();  // Moot now.
  if (!live.audience) return absl::OkStatus();
  MatchView snapshot;
  Snapshot(live, &snapshot);
  if (live.ended()) {
    Broadcast(live, MatchEvent(snapshot, true), /*last=*/true);
  } else if (started) {
    Broadcast(live, MatchEvent(snapshot, false));
  } else if (rec.ply != moved_from) {
    TellTurn(live, snapshot);
  }
  return absl::OkStatus();
}

absl::Status LiveMatches::FindCurrent(const std::string& id, LivePtr* out) {
  if (absl::Status s = Find(id, out); !s.ok()) return s;
  MutexLock lock(&(*out)->mu);
  return replication_->Refresh(**out);
}

void LiveMatches::ShareDatabase(std::unique_ptr<storage::MoveNotices> notices,
                                ClusterNode* cluster) {
  notices_ = std::move(notices);
  replication_ = SharedDatabase(
      // Refresh() is called under the match's lock (replication.h).
      [this](Live& live)
          ABSL_NO_THREAD_SAFETY_ANALYSIS { return CatchUp(live); },
      *notices_, cluster);
  notices_->Listen(
      [this](const std::string& id, int64_t ply) { OnMoveNotice(id, ply); },
      [this] { Resync(); });
}

void LiveMatches::OnMoveNotice(const std::string& id, int64_t ply) {
  LivePtr live;
  {
    MutexLock lock(&mu_);
    auto it = matches_.find(id);
    if (it == matches_.end()) return;  // Not cached here: read when asked.
    live = it->second;
  }
  MutexLock lock(&live->mu);
  // A notice at the cached ply is another node's join or cancel, news only
  // to watchers (this node's own notices are not delivered: move_notices.h).
  if (live->record.ply < ply || (live->record.ply == ply && live->audience)) {
    static_cast<void>(CatchUp(*live));  // A hint: a failed read waits.
  }
}

void LiveMatches::Resync() {
  std::vector<LivePtr> all;
  {
    MutexLock lock(&mu_);
    for (auto& [id, live] : matches_) all.push_back(live);
  }
  for (LivePtr& live : all) {
    MutexLock lock(&live->mu);
    if (!live->ended()) static_cast<void>(CatchUp(*live));  // Reads retry.
  }
}

}  // namespace mancala::services
