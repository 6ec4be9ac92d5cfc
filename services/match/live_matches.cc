// LiveMatches, the registry: the matches in memory, each a cache of its
// stored match, found by id and loaded from the store on demand (a match
// not in memory is rebuilt by replaying its stored moves). Why a registry:
// every RPC on a match goes through the one Live for it, whose lock orders
// the match's changes on this node.

#include "services/match/live_matches.h"

#include "services/base/ids.h"
#include "services/base/text.h"
#include "services/model/domain_error.h"
#include "services/model/names.h"

namespace mancala::services {

using storage::MatchStatus;
using storage::SeatRecord;

LiveMatches::LiveMatches(storage::Store& store, const Clock& clock,
                         LiveMatchesOptions options,
                         const StoredEncodings& encodings,
                         const WatchFanOut& watch_fanout)
    : store_(store),
      clock_(clock),
      options_(options),
      encodings_(encodings),
      watch_fanout_(watch_fanout),
      fanout_(options.fanout_threads),
      replication_(SingleNode()) {}

LiveMatches::~LiveMatches() {
  // No notice arrives from here on (a shared database's only).
  if (notices_) notices_->Stop();
  CloseWatchers();
}

void LiveMatches::SetCpuTurnListener(std::function<void(CpuTurn)> listener) {
  on_cpu_turn_ = std::move(listener);
}

absl::Status LiveMatches::LoadActive() {
  for (MatchStatus status : {MatchStatus::kInProgress, MatchStatus::kWaiting}) {
    auto ids = store_.ListMatchIds(status);
    if (!ids.ok()) return ids.status();
    for (const std::string& id : *ids) {
      LivePtr live;
      absl::Status s = Find(id, &live);
      if (!s.ok()) {
        return absl::DataLossError("cannot restore match " + id + ": " +
                                   std::string(s.message()));
      }
    }
  }
  Tick();  // Announces the CPU turns that were pending at shutdown.
  return absl::OkStatus();
}

absl::Status LiveMatches::Find(const std::string& id, LivePtr* out) {
  {
    MutexLock lock(&mu_);
    auto it = matches_.find(id);
    if (it != matches_.end()) {
      *out = it->second;
      return absl::OkStatus();
    }
  }
  LivePtr live;
  if (absl::Status s = Load(id, &live); !s.ok()) return s;
  MutexLock lock(&mu_);
  auto [it, inserted] = matches_.emplace(id, live);
  *out = it->second;  // Another thread may have loaded it first.
  return absl::OkStatus();
}

absl::Status LiveMatches::Load(const std::string& id, LivePtr* out) {
  auto record = store_.GetMatch(id);
  if (absl::IsNotFound(record.status())) {
    return DomainError(absl::StatusCode::kNotFound, "MATCH_NOT_FOUND",
                       "no match named " + Quote(MatchName(id)));
  }
  if (!record.ok()) return StorageFailure(record.status());
  MatchShape shape;
  if (absl::Status s = ShapeFromRecord(*record, &shape); !s.ok()) return s;
  const engine::Rules& rules = shape.rules;
  auto live = std::make_shared<Live>(
      *record, engine::State(rules, record->first_seat), options_.grace_ms);
  MutexLock setup(&live->mu);  // Not shared yet; for the analysis.
  // The engine is deterministic: replaying the stored moves rebuilds exactly
  // the state every client saw. Only up to the record's ply: with several
  // nodes, moves appended after the record was read are read too, and are
  // CatchUp()'s to apply (applied here, they would be applied twice).
  constexpr int kPage = 1000;
  for (int64_t from = 1; from <= record->ply; from += kPage) {
    auto rows = store_.ListMoves(id, from, kPage);
    if (!rows.ok()) return StorageFailure(rows.status());
    for (const storage::MoveRow& row : *rows) {
      if (row.ply > record->ply) break;
      if (absl::Status s = live->ApplyStored(row); !s.ok()) return s;
    }
    if (static_cast<int>(rows->size()) < kPage) break;
  }
  if (live->record.status == MatchStatus::kInProgress) {
    live->clock.StartMatch(clock_.NowMs());
  }
  if (live->record.status == MatchStatus::kWaiting) TrackWaiting(*record);
  *out = std::move(live);
  return absl::OkStatus();
}

absl::Status LiveMatches::Insert(const NewMatch& request, std::string* id) {
  storage::MatchRecord record;
  record.id = NewId();
  record.game = request.shape.game;
  record.options = request.shape.options;
  record.seats = request.seats;
  record.first_seat = request.first_seat;
  record.created_by = request.creator_id;
  record.created_at_ms = record.updated_at_ms = clock_.NowMs();
  record.ranked = request.ranked;
  record.turn_limit_s = request.shape.turn_limit_s;
  record.rotate_first_player = request.shape.rotate_first_player;
  record.rematch_of = request.rematch_of;
  record.request_id = request.request_id;
  record.request_hash = request.request_hash;
  bool open = false;
  for (const SeatRecord& s : record.seats)
    open |= s.kind == SeatRecord::Kind::kOpen;
  record.status = open ? MatchStatus::kWaiting : MatchStatus::kInProgress;
  if (open) record.invite_code = NewInviteCode();
  *id = record.id;
  return store_.CreateMatch(record);
}

}  // namespace mancala::services
