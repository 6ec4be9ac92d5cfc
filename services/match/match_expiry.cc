// LiveMatches: a WAITING match nobody fills is cancelled (reason "expired")
// once options.waiting_ttl_ms have passed since its stored creation time.
// The deadline comes from the stored record, so a match that was waiting
// before a restart expires on time after it (LoadActive loads every
// WAITING match, and Load() indexes each).

#include "services/match/live_matches.h"

namespace mancala::services {

using storage::MatchStatus;

void LiveMatches::TrackWaiting(const storage::MatchRecord& record) {
  if (options_.waiting_ttl_ms <= 0) return;
  expiry_.Add(record.id, record.created_at_ms + options_.waiting_ttl_ms);
}

void LiveMatches::ExpireWaiting() {
  if (options_.waiting_ttl_ms <= 0) return;
  const int64_t now = clock_.NowMs();
  for (const std::string& id : expiry_.TakeDue(now)) {
    LivePtr live;
    if (!Find(id, &live).ok()) continue;
    MutexLock lock(&live->mu);
    // Started or cancelled since it was indexed: nothing to do.
    if (live->record.status != MatchStatus::kWaiting) continue;
    MatchView out;
    if (!CancelWaiting(*live, kCancelledExpired, &out).ok()) {
      // The store refused (e.g. locked for longer than its busy timeout):
      // try again at the next tick.
      expiry_.Add(id, now);
    }
  }
}

}  // namespace mancala::services
