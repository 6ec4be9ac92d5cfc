// A match's life outside its moves: create, join, cancel, rematch, and the
// expiry of WAITING matches nobody fills. Each changes the stored record
// first and the live copy after, so a refused store write leaves the live
// match as it was.
//
// Errors, besides each method's own: UNAVAILABLE (STORAGE) when the store
// fails; DATA_LOSS (BAD_STORED_DATA, REPLAY_FAILED) for what is stored but
// cannot be read; NOT_FOUND (MATCH_NOT_FOUND) for an unknown match id.
// Thread-safety: every method from any thread; each takes the match's lock
// (and, for a creation, its creator's stripe of creating_ alone, before).

#ifndef MANCALA_SERVICES_MATCH_MATCH_LIFECYCLE_H_
#define MANCALA_SERVICES_MATCH_MATCH_LIFECYCLE_H_

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "services/base/mutex.h"
#include "services/match/cached_match.h"
#include "services/match/cpu_turns.h"
#include "services/match/match_context.h"
#include "services/match/match_registry.h"
#include "services/match/match_watchers.h"
#include "services/model/match_shape.h"
#include "services/model/match_views.h"
#include "storage/store.h"

namespace mancala::services {

// A match to create, its shape checked (match_shape.h) by the caller.
struct NewMatch {
  std::string creator_id;
  MatchShape shape;
  std::vector<storage::SeatRecord> seats;  // shape.seats of them.
  int first_seat = 0;
  bool ranked = false;
  std::string rematch_of;  // Id of the match this is a rematch of, if any.
  // CreateMatchRequest.request_id (empty: none) and a fingerprint of the
  // rest of the request: a retry with both equal returns the first match.
  std::string request_id;
  std::string request_hash;
};

class MatchLifecycle {
 public:
  MatchLifecycle(MatchContext& context, MatchRegistry& registry,
                 MatchWatchers& watchers, CpuTurns& cpu_turns);

  // A new match, or, for a request id its creator used before with the
  // same request, the match that request made (as it is now).
  // INVALID_ARGUMENT (REQUEST_ID_REUSED) for the id with another request;
  // RESOURCE_EXHAUSTED (TOO_MANY_WAITING_MATCHES) for a match with OPEN
  // seats past max_waiting_per_player, with metadata "limit".
  absl::Status Create(const NewMatch& request, MatchView* out);
  // Seats `player_id` in `seat` (nullopt: the first OPEN one) of the
  // WAITING match with `invite_code`; the match starts once no seat is
  // OPEN. INVALID_ARGUMENT (INVALID_INVITE_CODE) for a malformed code, or
  // (INVALID_ARGUMENT) for a seat out of range; NOT_FOUND
  // (INVITE_NOT_FOUND) for a code no match has; FAILED_PRECONDITION
  // (MATCH_FULL) once no seat is open, (ALREADY_SEATED) for a second seat
  // in a ranked match, (SEAT_TAKEN) for a seat that is not OPEN.
  absl::Status Join(const std::string& invite_code, std::optional<int> seat,
                    const std::string& player_id, MatchView* out);
  // Cancels a WAITING match (reason "creator"); a cancelled one again is
  // answered unchanged. PERMISSION_DENIED (NOT_CREATOR) for anyone but its
  // creator; FAILED_PRECONDITION (MATCH_STARTED) once it started or ended.
  absl::Status Cancel(const std::string& id, const std::string& player_id,
                      MatchView* out);
  // The rematch of a finished or aborted match (made at the first ask,
  // the same one after). PERMISSION_DENIED (NOT_A_SEAT) for a non-player;
  // FAILED_PRECONDITION (MATCH_NOT_OVER) before its end; INVALID_ARGUMENT
  // (INVALID_OPTION) if its shape is no longer allowed (match_shape.h).
  absl::Status Rematch(const std::string& id, const std::string& player_id,
                       MatchView* out);
  // Cancels (reason "expired") the WAITING matches whose waiting_ttl_ms
  // since their stored creation passed; one the store refuses is tried
  // again at the next call.
  void ExpireWaiting();

 private:
  // Create()'s checks (request id, waiting cap), then Insert(); `*id` is
  // the new match or the one a retried request made (match_intake.cc).
  absl::Status Admit(const NewMatch& request, std::string* id);
  // Stores a new match made from `request`; its id in `*id`.
  // ALREADY_EXISTS from the store for a request id or rematch stored
  // first by another call.
  absl::Status Insert(const NewMatch& request, std::string* id);
  // Cancels a WAITING match for `reason` (kCancelledByCreator or
  // kCancelledExpired): stored first, then the live copy; the watchers get
  // the cancelled match as their last event.
  absl::Status CancelWaiting(CachedMatch& live, const char* reason,
                             MatchView* out)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);

  MatchContext& context_;
  MatchRegistry& registry_;
  MatchWatchers& watchers_;
  CpuTurns& cpu_turns_;
  // Admit() for one creator at a time (striped by creator id), so two
  // concurrent creations cannot both pass the waiting cap or both use one
  // request id; held alone, around store calls only.
  std::array<Mutex, 16> creating_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_MATCH_LIFECYCLE_H_
