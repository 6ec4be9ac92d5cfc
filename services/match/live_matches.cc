// LiveMatches: the parts wired, the reads and the ticker (live_matches.h).

#include "services/match/live_matches.h"

#include <utility>

#include "services/model/domain_error.h"
#include "services/model/match_errors.h"

namespace mancala::services {

LiveMatches::LiveMatches(storage::Store& store, const Clock& clock,
                         LiveMatchesOptions options,
                         const StoredEncodings& encodings,
                         const WatchFanOut& watch_fanout)
    : context_(store, clock, options, encodings),
      strands_(options.fanout_threads),
      registry_(context_),
      watchers_(context_, registry_, watch_fanout, strands_),
      catch_up_(context_, registry_, watchers_),
      cpu_turns_(context_, registry_, watchers_, catch_up_),
      move_path_(context_, registry_, watchers_, cpu_turns_, strands_),
      lifecycle_(context_, registry_, watchers_, cpu_turns_),
      admin_(context_, registry_) {}

LiveMatches::~LiveMatches() {
  // No notice arrives from here on (a shared database's only).
  if (notices_) notices_->Stop();
  watchers_.Close();
}

void LiveMatches::ShareDatabase(std::unique_ptr<storage::MoveNotices> notices,
                                ClusterNode* cluster) {
  notices_ = std::move(notices);
  context_.replication = SharedDatabase(
      // Refresh() is called under the match's lock (replication.h).
      [this](CachedMatch& live)
          ABSL_NO_THREAD_SAFETY_ANALYSIS { return catch_up_.Run(live); },
      *notices_, cluster);
  notices_->Listen([this](const std::string& id,
                          int64_t ply) { catch_up_.OnMoveNotice(id, ply); },
                   [this] { catch_up_.Resync(); });
}

absl::Status LiveMatches::LoadActive() {
  if (absl::Status s = registry_.LoadActive(); !s.ok()) return s;
  Tick();  // Announces the CPU turns that were pending at shutdown.
  return absl::OkStatus();
}

absl::Status LiveMatches::Get(const std::string& id,
                              const std::string& viewer_id, MatchView* out) {
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  MutexLock lock(&live->mu);
  if (absl::Status s = context_.replication->RefreshIfSettled(*live);
      !s.ok()) {
    return s;
  }
  watchers_.Touch(*live, viewer_id);
  live->View(context_.clock.NowMs(), out);
  return absl::OkStatus();
}

absl::Status LiveMatches::ListMoves(const std::string& id, int64_t from_ply,
                                    int limit, std::vector<MoveView>* out,
                                    bool* finished) {
  LivePtr live;
  if (absl::Status s = registry_.Find(id, &live); !s.ok()) return s;
  {
    MutexLock lock(&live->mu);
    if (absl::Status s = context_.replication->RefreshIfSettled(*live);
        !s.ok()) {
      return s;
    }
    *finished = live->ended();
    if (from_ply > live->record.ply + 1) {
      return PlyAhead(from_ply - 1, live->record.ply);
    }
  }
  auto rows = context_.store.ListMoves(id, from_ply, limit);
  if (!rows.ok()) return StorageFailure(rows.status());
  out->clear();
  for (const storage::MoveRow& row : *rows) out->push_back(MoveOf(row));
  return absl::OkStatus();
}

void LiveMatches::Tick() {
  lifecycle_.ExpireWaiting();
  std::vector<std::string> evict;
  {
    std::vector<LivePtr> all = registry_.All();
    for (LivePtr& live : all) {
      std::optional<CpuTurn> turn;
      {
        SettledLock lock(*live);
        if (live->ended()) {
          if (live->watchers.empty()) evict.push_back(live->record.id);
          continue;
        }
        watchers_.UpdatePresence(*live);
        watchers_.ReportStreams(*live);
        turn = cpu_turns_.Due(*live);
      }
      cpu_turns_.Announce(std::move(turn));
    }
  }  // The snapshot is gone: an evicted match is held by no one else.
  registry_.Evict(evict);
}

}  // namespace mancala::services
