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
#include "services/turn_policy.h"

namespace mancala::services {

struct LiveMatches::Live {
  std::mutex mu;
  storage::MatchRecord record;
  engine::State state;
  std::vector<std::string> display_names;  // Per seat.

  // Turn clock and presence: memory only, restarted at load (see header).
  int64_t deadline_ms = 0;              // 0 = no limit or not running.
  std::vector<SeatPresence> presence;   // Per seat.
  std::vector<bool> announced_present;  // Last presence broadcast.
  std::vector<bool> standing_in;        // The CPU plays for this seat.
  int64_t cpu_queued_ply = -1;          // A CpuTurn for this ply is out.
  std::shared_ptr<std::atomic<bool>> cpu_stop;

  std::vector<std::shared_ptr<WatchSink>> watchers;

  Live(storage::MatchRecord r, engine::State s)
      : record(std::move(r)), state(std::move(s)) {
    const size_t n = record.seats.size();
    presence.resize(n);
    announced_present.assign(n, true);
    standing_in.assign(n, false);
  }

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
  // Stops a CPU search in flight and forgets it was queued.
  void CancelCpuTurn() {
    if (cpu_stop) cpu_stop->store(true);
    cpu_stop.reset();
    cpu_queued_ply = -1;
  }
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_LIVE_MATCHES_INTERNAL_H_
