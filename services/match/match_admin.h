// The admin operations on stored matches: void a rated match (and
// recompute its game's ratings without it) and verify a match by
// replaying its stored moves.
//
// Errors, besides each method's own: UNAVAILABLE (STORAGE) when the store
// fails; DATA_LOSS (BAD_STORED_DATA, REPLAY_FAILED) for what is stored but
// cannot be read (VoidMatch); NOT_FOUND (MATCH_NOT_FOUND) for an unknown
// match id.
// Thread-safety: every method from any thread; VoidMatch takes the match's
// lock, then MatchContext::ratings_mu (the lock order of live_matches.h).

#ifndef MANCALA_SERVICES_MATCH_MATCH_ADMIN_H_
#define MANCALA_SERVICES_MATCH_MATCH_ADMIN_H_

#include <string>

#include "absl/status/status.h"
#include "services/match/match_context.h"
#include "services/match/match_registry.h"
#include "services/model/match_views.h"

namespace mancala::services {

class MatchAdmin {
 public:
  MatchAdmin(MatchContext& context, MatchRegistry& registry);

  // Marks a finished rated match void and recomputes its game's ratings
  // from the stored history without it, with an audit entry by `actor`
  // (empty: "admin"); `*recomputed` counts the rating changes that moved.
  // FAILED_PRECONDITION (NOT_RATED) if the match was not rated,
  // (ALREADY_VOID) if it is void already.
  absl::Status VoidMatch(const std::string& id, const std::string& reason,
                         const std::string& actor, MatchView* out,
                         int* recomputed);
  // Replays the stored moves through the engine and compares the result
  // with the stored one; what does not replay is in the report, not an
  // error.
  absl::Status Verify(const std::string& id, VerifyReport* out);

 private:
  MatchContext& context_;
  MatchRegistry& registry_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_MATCH_ADMIN_H_
