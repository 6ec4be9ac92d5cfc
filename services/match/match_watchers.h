// The watchers of live matches (WatchMatch streams) and the presence of
// seated players. Events are queued on the match's strand (strand_pool.h)
// and a pool thread converts each to the wire once for all the match's
// streams (watch_sink.h WatchFanOut), so the mover never waits on a slow
// stream and a watcher sees each event once, in order.
// Presence: calls and open watch streams keep a seat present (the grace
// period and the CPU's stand-in are turn_clock.h's); its changes are told
// to the watchers, and with a shared database marked in the store
// (replication.h SeatSeen).
// Thread-safety: the public calls from any thread; those taking a
// CachedMatch need its lock, as annotated. A WatchSink's lock is taken
// under a match lock and takes nothing further.

#ifndef MANCALA_SERVICES_MATCH_MATCH_WATCHERS_H_
#define MANCALA_SERVICES_MATCH_MATCH_WATCHERS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "services/base/strand_pool.h"
#include "services/match/cached_match.h"
#include "services/match/match_context.h"
#include "services/match/match_registry.h"
#include "services/match/watch_sink.h"
#include "services/model/match_views.h"

namespace mancala::services {

class MatchWatchers {
 public:
  // `fanout` (the edge's) and `strands` outlive this object.
  MatchWatchers(MatchContext& context, MatchRegistry& registry,
                const WatchFanOut& fanout, StrandPool& strands);

  // Registers `sink` on match `id`: queues the stored moves after
  // `after_ply` (none for 0), the match snapshot, then every live event
  // until the match ends (WatchMatchRequest.after_ply). Seats of
  // `viewer_id` stay present while the sink is registered.
  // OUT_OF_RANGE (PLY_AHEAD) when after_ply is past the match's ply;
  // RESOURCE_EXHAUSTED (TOO_MANY_WATCHERS) past max_watchers; UNAVAILABLE
  // (SHUTTING_DOWN) once Close() was called; DATA_LOSS (BAD_STORED_DATA)
  // for a stored move of the backlog that does not decode; and the
  // registry's (match_registry.h).
  absl::Status Watch(const std::string& id, const std::string& viewer_id,
                     int64_t after_ply, std::shared_ptr<WatchSink> sink);
  // Unregisters `sink` (its stream ended); its seats' grace period starts.
  void Unwatch(const std::string& id, const std::shared_ptr<WatchSink>& sink);
  // Watchers of match `id` (0 if unknown). For tests.
  int Count(const std::string& id);
  // Ends every stream (UNAVAILABLE (SHUTTING_DOWN): watch again) and
  // refuses new ones; for shutdown.
  void Close();
  // Ends with `status` the streams that keep a seat of `player_id` present
  // (each stream's end starts its seats' grace period, as any close does).
  void Dismiss(const std::string& player_id, const absl::Status& status);

  // Queues `event` for every watcher of `live`; `last` ends their streams.
  void Broadcast(CachedMatch& live, WatchEventView event, bool last = false)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // After a move (the live match already past it; `match` its view): the
  // end, the streams' last event, or the new turn's deadline.
  void TellTurn(CachedMatch& live, const MatchView& match)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);

  // Marks `player_id`'s seats (empty: nobody) seen now; a seat the CPU
  // stood in for is taken back.
  void Touch(CachedMatch& live, const std::string& player_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Tells the watchers the presence changes since last told.
  void UpdatePresence(CachedMatch& live) ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Tells the watchers `seat`'s presence and stand-in.
  void BroadcastPresence(CachedMatch& live, int seat, int64_t now_ms)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);
  // Marks seen every seat whose player streams from here.
  void ReportStreams(CachedMatch& live) ABSL_EXCLUSIVE_LOCKS_REQUIRED(live.mu);

 private:
  MatchContext& context_;
  MatchRegistry& registry_;
  const WatchFanOut& fanout_;
  StrandPool& strands_;
  std::atomic<bool> closed_{false};  // Close() was called.
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCH_MATCH_WATCHERS_H_
