// WatchEventViews (match_views.h) the match domain tells its watchers,
// one builder per kind.
// Thread-safety: pure functions.

#ifndef MANCALA_SERVICES_MODEL_WATCH_EVENTS_H_
#define MANCALA_SERVICES_MODEL_WATCH_EVENTS_H_

#include <cstdint>
#include <utility>

#include "services/model/match_views.h"

namespace mancala::services {

// The match as an event: `finished` (the stream's last event) once the
// match has ended, `match` otherwise.
inline WatchEventView MatchEvent(MatchView match, bool finished) {
  WatchEventView e;
  e.kind =
      finished ? WatchEventView::Kind::kFinished : WatchEventView::Kind::kMatch;
  e.match = std::move(match);
  return e;
}

inline WatchEventView MoveEvent(MoveView move) {
  WatchEventView e;
  e.kind = WatchEventView::Kind::kMove;
  e.move = std::move(move);
  return e;
}

inline WatchEventView PresenceEvent(int seat, bool present,
                                    bool cpu_standing_in) {
  WatchEventView e;
  e.kind = WatchEventView::Kind::kPresence;
  e.seat = seat;
  e.present = present;
  e.cpu_standing_in = cpu_standing_in;
  return e;
}

inline WatchEventView DeadlineEvent(int seat, int64_t deadline_ms) {
  WatchEventView e;
  e.kind = WatchEventView::Kind::kDeadline;
  e.seat = seat;
  e.deadline_ms = deadline_ms;
  return e;
}

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MODEL_WATCH_EVENTS_H_
