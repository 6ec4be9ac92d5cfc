// The registry of live matches: the matches in memory, each a cache of its
// stored match (cached_match.h), found by id and loaded from the store on
// demand (a match not in memory is rebuilt by replaying its stored moves;
// the engine is deterministic). Why a registry: every call on a match goes
// through the one CachedMatch for it, whose lock orders the match's
// changes on this node. It also keeps the WAITING matches' expiry index
// (waiting_expiry.h), filled as they are loaded.
//
// Errors of Find() and Load(): NOT_FOUND (MATCH_NOT_FOUND) for an unknown
// id; UNAVAILABLE (STORAGE) when the store fails; DATA_LOSS
// (BAD_STORED_DATA, or REPLAY_FAILED for stored moves the engine refuses).
// Thread-safety: every method from any thread; mu_ guards the map only
// and is held alone, never while taking another lock or calling the store.

#ifndef MANCALA_SERVICES_MATCH_MATCH_REGISTRY_H_
#define MANCALA_SERVICES_MATCH_MATCH_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "services/base/mutex.h"
#include "services/match/cached_match.h"
#include "services/match/match_context.h"
#include "services/match/waiting_expiry.h"

namespace mancala::services {

using LivePtr = std::shared_ptr<CachedMatch>;

// What the metrics endpoint shows about the matches in memory.
struct MatchStats {
  // By state ("waiting", "in_progress", "finished", "cancelled",
  // "aborted"), every state present, 0 included, so a series never
  // vanishes.
  std::map<std::string, int> by_state;
  int watchers = 0;  // Open watch streams.
};

class MatchRegistry {
 public:
  explicit MatchRegistry(MatchContext& context);

  // Loads every match in progress or waiting from the store (start-up).
  // DATA_LOSS naming the match that cannot be restored.
  absl::Status LoadActive() ABSL_LOCKS_EXCLUDED(mu_);
  // The match `id`, from memory or loaded (and kept). Errors above.
  absl::Status Find(const std::string& id, LivePtr* out)
      ABSL_LOCKS_EXCLUDED(mu_);
  // The match `id` if it is in memory, else null; reads nothing.
  LivePtr Cached(const std::string& id) ABSL_LOCKS_EXCLUDED(mu_);
  // A fresh match replayed from the store, not kept: ReadRecord() then
  // Replay(). Errors above.
  absl::Status Load(const std::string& id, LivePtr* out);
  // The stored match `id`. NOT_FOUND (MATCH_NOT_FOUND); UNAVAILABLE
  // (STORAGE).
  absl::Status ReadRecord(const std::string& id, storage::MatchRecord* out);
  // A fresh match made from `record` by replaying its stored moves up to
  // its ply, not kept; `read_at_ms`: when the record's read began (the
  // turn's time left counts from then). UNAVAILABLE (STORAGE); DATA_LOSS
  // (BAD_STORED_DATA, REPLAY_FAILED).
  absl::Status Replay(const storage::MatchRecord& record, int64_t read_at_ms,
                      LivePtr* out);
  // Every match in memory now.
  std::vector<LivePtr> All() ABSL_LOCKS_EXCLUDED(mu_);
  // Forgets the matches `ids` that nobody else holds now (loaded again if
  // anyone asks).
  void Evict(const std::vector<std::string>& ids) ABSL_LOCKS_EXCLUDED(mu_);
  // The WAITING matches whose time (created_at + waiting_ttl_ms) is up at
  // `now_ms`, taken out of the index; ExpireAgain() puts one back.
  std::vector<std::string> TakeExpired(int64_t now_ms);
  void ExpireAgain(const std::string& id, int64_t at_ms);
  MatchStats GetStats() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  MatchContext& context_;
  WaitingExpiry expiry_;
  Mutex mu_;
  std::unordered_map<std::string, LivePtr> matches_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_MATCH_REGISTRY_H_
