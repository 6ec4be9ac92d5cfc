// WatchEvents built from a match snapshot, shared by the paths that tell
// watchers about a match (join, cancel, a new watch).
// Thread-safety: pure functions.

#ifndef MANCALA_SERVICES_WATCH_EVENTS_H_
#define MANCALA_SERVICES_WATCH_EVENTS_H_

#include "mancala/v1/match_service.pb.h"

namespace mancala::services {

// The match as a WatchEvent: `finished` (the stream's last event) once the
// match has ended, `match` otherwise.
inline v1::WatchEvent MatchEvent(const v1::Match& match, bool finished) {
  v1::WatchEvent e;
  *(finished ? e.mutable_finished() : e.mutable_match()) = match;
  return e;
}

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WATCH_EVENTS_H_
