// LiveMatches::GetStats: what the metrics endpoint shows about live matches.

#include "services/match/live_matches.h"

namespace mancala::services {
namespace {

const char* StateLabel(storage::MatchStatus s) {
  switch (s) {
    case storage::MatchStatus::kWaiting:
      return "waiting";
    case storage::MatchStatus::kInProgress:
      return "in_progress";
    case storage::MatchStatus::kFinished:
      return "finished";
    case storage::MatchStatus::kCancelled:
      return "cancelled";
    case storage::MatchStatus::kAborted:
      return "aborted";
  }
  return "unknown";
}

}  // namespace

LiveMatches::Stats LiveMatches::GetStats() {
  std::vector<LivePtr> all;
  {
    MutexLock lock(&mu_);
    all.reserve(matches_.size());
    for (const auto& [id, live] : matches_) all.push_back(live);
  }
  Stats stats;
  // Every state appears, 0 included, so a series never vanishes.
  for (auto s :
       {storage::MatchStatus::kWaiting, storage::MatchStatus::kInProgress,
        storage::MatchStatus::kFinished, storage::MatchStatus::kCancelled,
        storage::MatchStatus::kAborted}) {
    stats.by_state[StateLabel(s)] = 0;
  }
  for (const LivePtr& live : all) {
    MutexLock lock(&live->mu);
    ++stats.by_state[StateLabel(live->record.status)];
    stats.watchers += static_cast<int>(live->watchers.size());
  }
  return stats;
}

}  // namespace mancala::services
