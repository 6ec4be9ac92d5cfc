// LiveMatches::Live, shared by the files that implement LiveMatches
// (live_matches.cc, match_play.cc, match_view.cc). Not a public header.

#ifndef MANCALA_SERVICES_LIVE_MATCHES_INTERNAL_H_
#define MANCALA_SERVICES_LIVE_MATCHES_INTERNAL_H_

#include <string>
#include <vector>

#include "services/convert.h"
#include "services/errors.h"
#include "services/live_matches.h"
#include "services/resource_names.h"
#include "services/turn_clock.h"

namespace mancala::services {

struct LiveMatches::Live {
  std::mutex mu;
  storage::MatchRecord record;
  engine::State state;
  std::vector<std::string> display_names;  // Per seat.

  TurnClock clock;  // Deadlines, presence, CPU take-over (turn_clock.h).

  std::vector<std::shared_ptr<WatchSink>> watchers;

  Live(storage::MatchRecord r, engine::State s, int64_t grace_ms)
      : record(std::move(r)),
        state(std::move(s)),
        clock(static_cast<int>(record.seats.size()), record.turn_limit_s,
              grace_ms) {}

  bool ended() const {
    return record.status == storage::MatchStatus::kFinished ||
           record.status == storage::MatchStatus::kCancelled ||
           record.status == storage::MatchStatus::kAborted;
  }
  bool HoldsSeat(const std::string& player_id, size_t seat) const {
    const storage::SeatRecord& s = record.seats[seat];
    return !player_id.empty() && s.kind == storage::SeatRecord::Kind::kPlayer &&
           s.player_id == player_id;
  }
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_LIVE_MATCHES_INTERNAL_H_
