// One match in memory: the cached stored record, the engine state replayed
// from its moves, its turn clock and its watchers. The registry
// (match_registry.h) owns one per match it has loaded; every part of
// LiveMatches holds `mu` for every read and write, so a match's changes on
// this node are ordered.
// Thread-safety: every field under `mu`.

#ifndef MANCALA_SERVICES_MATCH_CACHED_MATCH_H_
#define MANCALA_SERVICES_MATCH_CACHED_MATCH_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "engine/state.h"
#include "services/base/mutex.h"
#include "services/base/strand_pool.h"
#include "services/match/turn_clock.h"
#include "services/match/watch_sink.h"
#include "services/model/match_views.h"
#include "storage/store.h"

namespace mancala::services {

struct CachedMatch {
  Mutex mu;
  storage::MatchRecord record ABSL_GUARDED_BY(mu);
  engine::State state ABSL_GUARDED_BY(mu);
  // Per seat: whether its player made (or resigned) at least one of the
  // moves up to record.ply, not the CPU for them. A rated end needs it
  // (docs/ratings.md "What is rated"); kept here as each move is applied,
  // so the end does not read the moves back.
  std::vector<bool> moved_self ABSL_GUARDED_BY(mu);
  // Deadlines, presence, CPU take-over (turn_clock.h).
  TurnClock clock ABSL_GUARDED_BY(mu);
  std::vector<std::shared_ptr<WatchSink>> watchers ABSL_GUARDED_BY(mu);
  // The watchers as one immutable list, shared by the events queued while
  // it holds (an event costs the mover no copy of the list); remade when
  // the watchers change. Null while nobody watches.
  std::shared_ptr<const std::vector<std::shared_ptr<WatchSink>>> audience
      ABSL_GUARDED_BY(mu);
  // Orders this match's watch events; made at the first watcher.
  std::shared_ptr<StrandPool::Strand> fanout ABSL_GUARDED_BY(mu);
  // False while a move of the match is being stored without its lock held
  // (MovePath::PlayAsync): the live match is the one before that move, and
  // nothing may write the match or read it back from the store until the
  // store answers (SettledLock).
  bool settled ABSL_GUARDED_BY(mu) = true;

  // `grace_ms`, `partial_view`: the clock's (turn_clock.h).
  CachedMatch(storage::MatchRecord r, engine::State s, int64_t grace_ms,
              bool partial_view = false);
  // Moves the state (and moved_self) on by the stored move `row`, the
  // state's next ply; DATA_LOSS (REPLAY_FAILED) if the engine refuses it.
  // The record's ply and the turn clock are the caller's.
  absl::Status ApplyStored(const storage::MoveRow& row)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
  // Finished, cancelled or aborted: no move will follow.
  bool ended() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
  // Whether `player_id` (empty: nobody) plays `seat`.
  bool HoldsSeat(const std::string& player_id, size_t seat) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
  // Where the match's play stands: its own (progress()), or what a move
  // being stored leaves, so the move's reply is built before the live
  // match moves on (move_path.h: a refused move changes nothing).
  struct Progress {
    const engine::State& state;
    RecordStamp stamp;
    int64_t deadline_ms;  // 0: none.
  };
  Progress progress() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
  // The match (its seats, names, presence at `now_ms`) as it stands.
  void View(int64_t now_ms, MatchView* out) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    View(progress(), now_ms, out);
  }
  // The match at `at`, presence at `now_ms`.
  void View(const Progress& at, int64_t now_ms, MatchView* out) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
  void WatchersChanged() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    audience =
        watchers.empty()
            ? nullptr
            : std::make_shared<const std::vector<std::shared_ptr<WatchSink>>>(
                  watchers);
  }
};

// Holds `live.mu` once the match is settled (no move of it is being
// stored): what its holder reads of the match is what the store has, and
// what it writes comes after every move answered so far. Every holder that
// writes the match, reads it back from the store (Replication::Refresh) or
// plays on it takes this lock; the watchers' bookkeeping, which does
// neither, takes the plain mutex.
class ABSL_SCOPED_LOCKABLE SettledLock {
 public:
  explicit SettledLock(CachedMatch& live) ABSL_EXCLUSIVE_LOCK_FUNCTION(live.mu)
      : mu_(live.mu) {
    live.mu.Lock();
    live.mu.Await(Condition(&live.settled));
  }
  ~SettledLock() ABSL_UNLOCK_FUNCTION() { mu_.Unlock(); }
  SettledLock(const SettledLock&) = delete;
  SettledLock& operator=(const SettledLock&) = delete;

 private:
  Mutex& mu_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_CACHED_MATCH_H_
