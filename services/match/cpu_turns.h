// When the computer must move, and handing that turn to the CPU worker
// (cpu_worker.h): a CPU seat's turn, a turn past its deadline, an absent
// player's seat (the rules are turn_clock.h's). A turn is announced with
// no lock held and comes back through the move path (move_path.h
// PlayCpu), refused if the match moved on or the reason no longer holds.
// With a shared database a due turn may also come from the store's sweep
// (cluster_node.h), claimed by this node: PlayDue().
// Thread-safety: every method from any thread; Due() needs the match's
// lock, Announce() none held.

#ifndef MANCALA_SERVICES_MATCH_CPU_TURNS_H_
#define MANCALA_SERVICES_MATCH_CPU_TURNS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "engine/state.h"
#include "services/match/cached_match.h"
#include "services/match/match_catch_up.h"
#include "services/match/match_context.h"
#include "services/match/match_registry.h"
#include "services/match/match_watchers.h"
#include "services/model/match_views.h"
#include "storage/due_turns.h"

namespace mancala::services {

// A turn the computer must play.
struct CpuTurn {
  std::string match_id;
  int64_t ply = 0;      // The match's ply when announced.
  engine::State state;  // A copy to search on, off the match lock.
  int level = 0;
  CpuReason reason = CpuReason::kNone;
  // The match's creator (a player id): the CPU worker queues turns per
  // creator (cpu_worker.h), without reading the match again.
  std::string creator_id;
  // Set when the search is no longer wanted (the player came back, the
  // match moved on or ended).
  std::shared_ptr<std::atomic<bool>> stop;
};

class CpuTurns {
 public:
  CpuTurns(MatchContext& context, MatchRegistry& registry,
           MatchWatchers& watchers, MatchCatchUp& catch_up);

  // Called (outside any match lock) whenever the computer must move. Set
  // before serving.
  void SetListener(std::function<void(CpuTurn)> listener);
  // The CPU turn due now in `live`, if any and not already queued; a
  // stand-in that begins is told to the watchers.
  std::optional<CpuTurn> Due(CachedMatch& live)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Hands `turn` (if any) to the listener; call with no lock held.
  void Announce(std::optional<CpuTurn> turn);
  // A due turn this node claimed from the store's sweep: catches the match
  // up and, if that turn is still the one due, announces its CPU turn.
  // Errors are left to the next sweep.
  void PlayDue(const storage::DueTurn& due);

 private:
  MatchContext& context_;
  MatchRegistry& registry_;
  MatchWatchers& watchers_;
  MatchCatchUp& catch_up_;
  std::function<void(CpuTurn)> listener_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_CPU_TURNS_H_
