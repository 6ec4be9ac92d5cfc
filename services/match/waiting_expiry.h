// When waiting matches expire: an index of (expiry time, match id) ordered
// by time, so the ticker looks only at the matches due now instead of
// walking every waiting match each tick (a client once left 25,686 of
// them).
//
// Entries are not removed when a match starts or is cancelled: the taker
// (MatchLifecycle::ExpireWaiting, match_lifecycle.h) checks the
// match's state and skips those. Each entry lives at most the waiting time, and
// creations are bounded by --create-burst and
// --max-waiting-matches-per-player, so the index stays small.
// Times are milliseconds since the Unix epoch (services/base/clock.h).
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_SERVICES_MATCH_WAITING_EXPIRY_H_
#define MANCALA_SERVICES_MATCH_WAITING_EXPIRY_H_

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "services/base/mutex.h"

namespace mancala::services {

class WaitingExpiry {
 public:
  // Match `id` expires at `expires_at_ms`; adding the same pair twice keeps
  // one entry.
  void Add(const std::string& id, int64_t expires_at_ms);
  // Removes and returns the ids due at `now_ms` (expiry <= now), earliest
  // first. O(due * log size).
  std::vector<std::string> TakeDue(int64_t now_ms);

  // For tests: entries held.
  size_t size() const;

 private:
  mutable Mutex mu_;
  std::set<std::pair<int64_t, std::string>> due_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_WAITING_EXPIRY_H_
