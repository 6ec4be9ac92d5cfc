// The registry of live matches (match_registry.h).

#include "services/match/match_registry.h"

#include "services/base/text.h"
#include "services/model/domain_error.h"
#include "services/model/match_shape.h"
#include "services/model/names.h"

namespace mancala::services {

using storage::MatchStatus;

namespace {

const char* StateLabel(MatchStatus s) {
  switch (s) {
    case MatchStatus::kWaiting:
      return "waiting";
    case MatchStatus::kInProgress:
      return "in_progress";
    case MatchStatus::kFinished:
      return "finished";
    case MatchStatus::kCancelled:
      return "cancelled";
    case MatchStatus::kAborted:
      return "aborted";
  }
  return "unknown";
}

}  // namespace

MatchRegistry::MatchRegistry(MatchContext& context) : context_(context) {}

absl::Status MatchRegistry::LoadActive() {
  for (MatchStatus status : {MatchStatus::kInProgress, MatchStatus::kWaiting}) {
    auto ids = context_.store.ListMatchIds(status);
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
  return absl::OkStatus();
}

absl::Status MatchRegistry::Find(const std::string& id, LivePtr* out) {
  if (LivePtr cached = Cached(id)) {
    *out = std::move(cached);
    return absl::OkStatus();
  }
  LivePtr live;
  if (absl::Status s = Load(id, &live); !s.ok()) return s;
  int64_t waiting_since_ms = -1;  // Not waiting.
  {
    MutexLock lock(&live->mu);  // Not shared yet; for the analysis.
    if (live->record.status == MatchStatus::kWaiting) {
      waiting_since_ms = live->record.created_at_ms;
    }
  }
  if (waiting_since_ms >= 0 && context_.options.waiting_ttl_ms > 0) {
    expiry_.Add(id, waiting_since_ms + context_.options.waiting_ttl_ms);
  }
  MutexLock lock(&mu_);
  auto [it, inserted] = matches_.emplace(id, live);
  *out = it->second;  // Another thread may have loaded it first.
  return absl::OkStatus();
}

LivePtr MatchRegistry::Cached(const std::string& id) {
  MutexLock lock(&mu_);
  auto it = matches_.find(id);
  return it == matches_.end() ? nullptr : it->second;
}

absl::Status MatchRegistry::Load(const std::string& id, LivePtr* out) {
  // Taken before the read, whose time left counts from a moment after it.
  const int64_t read_at_ms = context_.clock.NowMs();
  storage::MatchRecord record;
  if (absl::Status s = ReadRecord(id, &record); !s.ok()) return s;
  return Replay(record, read_at_ms, out);
}

absl::Status MatchRegistry::ReadRecord(const std::string& id,
                                       storage::MatchRecord* out) {
  auto record = context_.store.GetMatch(id);
  if (absl::IsNotFound(record.status())) {
    return DomainError(absl::StatusCode::kNotFound, "MATCH_NOT_FOUND",
                       "no match named " + Quote(MatchName(id)));
  }
  if (!record.ok()) return StorageFailure(record.status());
  *out = *std::move(record);
  return absl::OkStatus();
}

absl::Status MatchRegistry::Replay(const storage::MatchRecord& record,
                                   int64_t read_at_ms, LivePtr* out) {
  MatchShape shape;
  if (absl::Status s = ShapeFromRecord(record, &shape); !s.ok()) return s;
  auto live = std::make_shared<CachedMatch>(
      record, engine::State(shape.rules, record.first_seat),
      context_.options.grace_ms, context_.replication->PresenceShared());
  MutexLock setup(&live->mu);  // Not shared yet; for the analysis.
  // Only up to the record's ply: with several nodes, moves appended after
  // the record was read are read too, and are the catch-up's to apply
  // (applied here, they would be applied twice).
  constexpr int kPage = 1000;
  for (int64_t from = 1; from <= record.ply; from += kPage) {
    auto rows = context_.store.ListMoves(record.id, from, kPage);
    if (!rows.ok()) return StorageFailure(rows.status());
    for (const storage::MoveRow& row : *rows) {
      if (row.ply > record.ply) break;
      if (absl::Status s = live->ApplyStored(row); !s.ok()) return s;
    }
    if (static_cast<int>(rows->size()) < kPage) break;
  }
  if (record.status == MatchStatus::kInProgress) {
    live->clock.StartMatch(context_.clock.NowMs());
    // A cluster's store keeps the turn's deadline (turn_clock.h rule 7).
    if (context_.replication->DeadlinesShared() &&
        record.turn_time_left_ms >= 0) {
      live->clock.KeepDeadline(read_at_ms + record.turn_time_left_ms);
    }
  }
  *out = std::move(live);
  return absl::OkStatus();
}

std::vector<LivePtr> MatchRegistry::All() {
  std::vector<LivePtr> all;
  MutexLock lock(&mu_);
  all.reserve(matches_.size());
  for (const auto& [id, live] : matches_) all.push_back(live);
  return all;
}

void MatchRegistry::Evict(const std::vector<std::string>& ids) {
  MutexLock lock(&mu_);
  for (const std::string& id : ids) {
    auto it = matches_.find(id);
    // Held only here: no call is using it.
    if (it != matches_.end() && it->second.use_count() == 1) {
      matches_.erase(it);
    }
  }
}

std::vector<std::string> MatchRegistry::TakeExpired(int64_t now_ms) {
  if (context_.options.waiting_ttl_ms <= 0) return {};
  return expiry_.TakeDue(now_ms);
}

void MatchRegistry::ExpireAgain(const std::string& id, int64_t at_ms) {
  expiry_.Add(id, at_ms);
}

MatchStats MatchRegistry::GetStats() {
  MatchStats stats;
  for (auto s :
       {MatchStatus::kWaiting, MatchStatus::kInProgress, MatchStatus::kFinished,
        MatchStatus::kCancelled, MatchStatus::kAborted}) {
    stats.by_state[StateLabel(s)] = 0;
  }
  for (const LivePtr& live : All()) {
    MutexLock lock(&live->mu);
    ++stats.by_state[StateLabel(live->record.status)];
    stats.watchers += static_cast<int>(live->watchers.size());
  }
  return stats;
}

}  // namespace mancala::services
