// Queues of players looking for opponents, and the matches formed from
// them.
//
// A queue holds players asking for the same game, effective options, number
// of seats, ranking and turn time limit. Casual queues form matches first
// come, first served. Ranked queues consider the longest-waiting player
// first and give them the players whose ratings are closest to theirs,
// within their rating window: `window_start` rating points, widened by
// `window_growth` points per second waited. Because the oldest player's
// window only grows and they are always considered first, nobody waiting is
// skipped forever by later arrivals. Casual players who accept it get CPU
// opponents after `cpu_fallback_ms`.
//
// Matches are created through LiveMatches, so they have everything matches
// have (clock, presence, CPU stand-in, rating). Time comes from the
// injected Clock; Tick() widens windows, forms matches and sends each
// searcher a QueueState at once, whenever the number searching in its queue
// changed (at most every kMinUpdateGapMs) and at least every
// `update_every_ms`.
// Thread-safety: all methods from any thread.

#ifndef MANCALA_SERVICES_MATCHMAKER_H_
#define MANCALA_SERVICES_MATCHMAKER_H_

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "mancala/v1/matchmaking_service.pb.h"
#include "services/clock.h"
#include "services/event_stream.h"
#include "services/live_matches.h"
#include "services/mutex.h"
#include "storage/store.h"

namespace mancala::services {

using FindSink = EventSink<v1::FindMatchUpdate>;

struct MatchmakerOptions {
  double window_start = 100;         // Rating points.
  double window_growth = 10;         // Rating points per second waited.
  int64_t cpu_fallback_ms = 60'000;  // 0 = never offer the CPU.
  int64_t update_every_ms = 5'000;
  // Least time between two updates to one searcher (at most 4 a second).
  static constexpr int64_t kMinUpdateGapMs = 250;
  int cpu_level = 2;  // Level of fallback CPU opponents.
};

class Matchmaker {
 public:
  Matchmaker(LiveMatches& matches, storage::Store& store, const Clock& clock,
             MatchmakerOptions options);

  // Puts `player_id` in the queue the request names; `sink` receives the
  // updates and the match. INVALID_ARGUMENT for a bad request;
  // FAILED_PRECONDITION (ALREADY_SEARCHING) if the player is queued.
  grpc::Status Enqueue(const std::string& player_id,
                       const v1::FindMatchRequest& request,
                       std::shared_ptr<FindSink> sink);
  // The player's stream ended: they leave the queue (if `sink` is theirs).
  void Leave(const std::string& player_id,
             const std::shared_ptr<FindSink>& sink);
  // Leaves the queue and ends the stream (CANCELLED). False if not queued.
  bool Cancel(const std::string& player_id);
  // Searching players per queue of `game` (GAME_UNSPECIFIED: all).
  void Stats(v1::Game game, v1::QueueStats* out);
  // Forms the matches that are due and sends the updates that are due.
  void Tick();
  // Ends every search (UNAVAILABLE: search again), for shutdown; an
  // Enqueue() from then on answers UNAVAILABLE too.
  void CloseAll();

 private:
  struct Entry {
    std::string player_id;
    double rating = 0;
    int64_t enqueued_ms = 0;
    // None sent yet: far in the past, so the first update is due at once.
    int64_t last_update_ms = std::numeric_limits<int64_t>::min() / 2;
    int last_searching = 0;  // `searching` in the last update.
    bool accept_cpu = false;
    std::shared_ptr<FindSink> sink;
  };
  struct Queue {
    MatchShape shape;  // shape.seats players per match.
    bool ranked = false;
    std::vector<Entry> entries;  // Arrival order.
  };
  // A match to create: the members (removed from their queue) and shape.
  struct Formed {
    NewMatch match;
    std::vector<Entry> members;  // members[i] sits in seat i.
  };

  double Window(const Entry& e, int64_t now) const;
  // Takes the groups that can play now out of `q` (one of queues_).
  void FormGroups(Queue& q, int64_t now, std::vector<Formed>* out)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Sends QueueStates that are due (FindSink locks are taken under mu_).
  void SendUpdates(Queue& q, int64_t now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Creates the matches (match locks) and tells the members: without mu_,
  // which is never held while taking a LiveMatches lock.
  void Start(std::vector<Formed> formed) ABSL_LOCKS_EXCLUDED(mu_);

  LiveMatches& matches_;
  storage::Store& store_;
  const Clock& clock_;
  const MatchmakerOptions options_;

  Mutex mu_;
  std::map<std::string, Queue> queues_ ABSL_GUARDED_BY(mu_);  // By key.
  // Player id -> queue key.
  std::map<std::string, std::string> queue_of_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;  // CloseAll() was called.
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCHMAKER_H_
