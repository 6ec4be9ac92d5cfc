// What the parts of LiveMatches (live_matches.h) share: the store, the
// clock, the options, the stored encodings, the kind of node this is and
// the ratings lock. LiveMatches owns one and lends it to each part.
// Thread-safety: the fields are set before serving and only read after,
// except ratings_mu, a lock (order in live_matches.h).

#ifndef MANCALA_SERVICES_MATCH_MATCH_CONTEXT_H_
#define MANCALA_SERVICES_MATCH_MATCH_CONTEXT_H_

#include <cstdint>
#include <memory>

#include "services/base/clock.h"
#include "services/base/mutex.h"
#include "services/match/replication.h"
#include "services/match/stored_encodings.h"
#include "storage/store.h"

namespace mancala::services {

struct LiveMatchesOptions {
  int64_t grace_ms = 20'000;  // Presence grace period after the last call.
  int standin_level = 2;      // CPU level that plays for absent players.
  int fanout_threads = 2;     // Threads that feed watch streams.
  int max_watchers = 64;      // Watch streams per match.
  // WAITING matches one player may have created; CreateMatch with OPEN
  // seats beyond it is RESOURCE_EXHAUSTED (TOO_MANY_WAITING_MATCHES).
  // 0 = no limit.
  int max_waiting_per_player = 10;
  // A WAITING match is cancelled (reason "expired") this long after its
  // creation time, as stored (so also across a restart); 0 = never.
  int64_t waiting_ttl_ms = 3'600'000;
};

struct MatchContext {
  MatchContext(storage::Store& store_in, const Clock& clock_in,
               LiveMatchesOptions options_in,
               const StoredEncodings& encodings_in)
      : store(store_in),
        clock(clock_in),
        options(options_in),
        encodings(encodings_in),
        replication(SingleNode()) {}

  storage::Store& store;
  const Clock& clock;
  const LiveMatchesOptions options;
  const StoredEncodings& encodings;  // The edge's; outlives this.
  // SingleNode() until LiveMatches::ShareDatabase(), called before serving.
  std::unique_ptr<Replication> replication;
  // Makes rating updates (a rated match's end, VoidMatch's recomputation)
  // one at a time: each reads the ratings and writes them back within it.
  Mutex ratings_mu;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_MATCH_CONTEXT_H_
