// LiveMatches::Live, shared by the files that implement LiveMatches
// (live_matches.cc, match_play.cc, match_view.cc). Not a public header.

#ifndef MANCALA_SERVICES_LIVE_MATCHES_INTERNAL_H_
#define MANCALA_SERVICES_LIVE_MATCHES_INTERNAL_H_

#include <string>
#include <vector>

#include "services/errors.h"
#include "services/live_matches.h"
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
  // The watchers as one immutable list, shared by the events queued while
  // it holds (an event costs the mover no copy of the list); remade when
  // the watchers change. Null while nobody watches.
  std::shared_ptr<const std::vector<std::shared_ptr<WatchSink>>> audience;
  // Orders this match's watch events; made at the first watcher.
  std::shared_ptr<StrandPool::Strand> fanout;

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
  void WatchersChanged() {
    audience =
        watchers.empty()
            ? nullptr
            : std::make_shared<const std::vector<std::shared_ptr<WatchSink>>>(
                  watchers);
  }
  // Stops a CPU search in flight and forgets it was queued.
  void CancelCpuTurn() {
    if (cpu_stop) cpu_stop->store(true);
    cpu_stop.reset();
    cpu_queued_ply = -1;
  }
};

inline std::string MatchName(const std::string& id) { return "matches/" + id; }

// A stored move as the mancala.v1.Move resource (match_play.cc).
void MoveToProto(const storage::MoveRow& row, v1::Move* out);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_LIVE_MATCHES_INTERNAL_H_
