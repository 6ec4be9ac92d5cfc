// WatchEvents built from a match snapshot, shared by the paths that tell
// watchers about a match (join, cancel, a new watch).
// Thread-safety: pure functions.

#ifndef MANCALA_SERVICES_WATCH_EVENTS_H_
#define MANCALA_SERVICES_WATCH_EVENTS_H_

#include "mancala/v1/match_service.pb.h"
#include "services/convert.h"
#include "services/match_views.h"

namespace mancala::services {

// The match as a WatchEvent: `finished` (the stream's last event) once the
// match has ended, `match` otherwise.
inline v1::WatchEvent MatchEvent(const MatchView& match, bool finished) {
  v1::WatchEvent e;
  ToProto(match, finished ? e.mutable_finished() : e.mutable_match());
  return e;
}

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_WATCH_EVENTS_H_
