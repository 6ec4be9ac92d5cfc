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
// The searches live in a storage::MatchQueue: in memory on one node
// (SQLite), or rows in PostgreSQL shared by every node, so that players
// searching on different nodes pair with each other and "N searching"
// counts the whole site. This class is the one matchmaking logic for both:
// it holds the streams of its own node's searchers, claims groups from the
// queue (a claim is atomic across nodes: nobody is paired twice), creates
// their match and tells its own searchers at once and the other nodes'
// through the queue (they see it on their next Tick).
//
// Matches are created through LiveMatches, so they have everything matches
// have (clock, presence, CPU stand-in, rating). Waiting times come from the
// queue's clock (the injected Clock in memory, the database clock on
// PostgreSQL). Tick() refreshes this node's searches, delivers matches
// formed elsewhere, ends streams whose search was cancelled on another node,
// forms matches and sends each searcher a QueueState at once, whenever the
// number searching in its queue changed (at most every kMinUpdateGapMs) and
// at least every `update_every_ms`.
//
// Like the match domain (live_matches.h), it speaks plain values: it takes
// a checked SearchRequest, answers absl::Status built by the domain's
// helpers (domain_error.h) and QueueStatsView, and tells its searchers
// SearchUpdates through FindSink (find_sink.h); the gRPC edge
// (matchmaking_service.cc) converts each once. What it stores with a
// search goes through the SearchEncodings the server lends it
// (search_encodings.h).
// Thread-safety: all methods from any thread.

#ifndef MANCALA_SERVICES_MATCHMAKING_MATCHMAKER_H_
#define MANCALA_SERVICES_MATCHMAKING_MATCHMAKER_H_

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "services/base/clock.h"
#include "services/base/mutex.h"
#include "services/match/live_matches.h"
#include "services/matchmaking/find_sink.h"
#include "services/matchmaking/search_encodings.h"
#include "services/model/search_views.h"
#include "storage/match_queue.h"
#include "storage/store.h"

namespace mancala::services {

struct MatchmakerOptions {
  double window_start = 100;         // Rating points.
  double window_growth = 10;         // Rating points per second waited.
  int64_t cpu_fallback_ms = 60'000;  // 0 = never offer the CPU.
  int64_t update_every_ms = 5'000;
  // Least time between two updates to one searcher (at most 4 a second).
  static constexpr int64_t kMinUpdateGapMs = 250;
  int cpu_level = 2;  // Level of fallback CPU opponents.
};

// CANCELLED "you left the queue (CancelFind)", without a reason: the end
// of a search its player cancelled (through any node).
absl::Status SearchCancelled();

class Matchmaker {
 public:
  Matchmaker(LiveMatches& matches, storage::Store& store,
             storage::MatchQueue& queue, const Clock& clock,
             const SearchEncodings& encodings, MatchmakerOptions options);

  // Puts `player_id` in the queue `request` names; `sink` receives the
  // updates and the match. INVALID_ARGUMENT (reason INVALID_ARGUMENT) for
  // a ranked search accepting the CPU; FAILED_PRECONDITION
  // (ALREADY_SEARCHING) if the player is queued on any node; UNAVAILABLE
  // (STORAGE) if the queue's database cannot be reached, (SHUTTING_DOWN)
  // after CloseAll().
  absl::Status Enqueue(const std::string& player_id,
                       const SearchRequest& request,
                       std::shared_ptr<FindSink> sink);
  // The player's stream ended: they leave the queue (if `sink` is theirs).
  void Leave(const std::string& player_id,
             const std::shared_ptr<FindSink>& sink);
  // Leaves the queue on whatever node the search is, and ends the stream
  // (SearchCancelled(); on another node at its next Tick). `*cancelled` is
  // false if the player was not searching (or their match is already being
  // formed). UNAVAILABLE (STORAGE) if the queue's database cannot be
  // reached.
  absl::Status Cancel(const std::string& player_id, bool* cancelled);
  // Searching players per queue of `game` (an engine name; nullopt: every
  // game), on every node; queues a newer build wrote in a form this one
  // cannot read are left out. UNAVAILABLE (STORAGE) if the queue's
  // database cannot be reached.
  absl::Status Stats(const std::optional<std::string>& game,
                     QueueStatsView* out);
  // Forms the matches that are due and sends the updates that are due.
  void Tick();
  // Ends every search (UNAVAILABLE: search again), for shutdown; an
  // Enqueue() from then on answers UNAVAILABLE too.
  void CloseAll();

 private:
  // A searcher whose stream is on this node.
  struct Local {
    std::string search_id;
    std::string queue_key;
    bool ranked = false;
    int64_t enqueued_ms = 0;  // This node's clock (waited_seconds).
    // None sent yet: far in the past, so the first update is due at once.
    int64_t last_update_ms = std::numeric_limits<int64_t>::min() / 2;
    int last_searching = 0;  // `searching` in the last update.
    bool added = false;      // The queue holds the search.
    std::shared_ptr<FindSink> sink;
  };
  struct Queue {
    MatchShape shape;  // shape.seats players per match.
    bool ranked = false;
  };
  // A match to create: the claimed members and the shape.
  struct Formed {
    NewMatch match;
    std::vector<storage::QueueEntry> members;  // members[i] sits in seat i.
  };

  double Window(int64_t waited_ms) const;
  // The groups that can play now among `searching` (oldest first), added
  // to `out`; returns the indexes of their members. Pure.
  std::vector<size_t> FormGroups(const Queue& q,
                                 const std::vector<storage::QueueEntry>& s,
                                 int64_t now, std::vector<Formed>* out) const;
  // Claims and starts the matches due in queue `key`.
  void Form(const std::string& key) ABSL_LOCKS_EXCLUDED(mu_);
  // Sends QueueStates that are due, to searchers of `key` (all if empty),
  // with the site-wide counts (FindSink locks are taken under mu_).
  void SendUpdates(const std::string& key) ABSL_LOCKS_EXCLUDED(mu_);
  // Creates the matches (match locks) and tells the members: without mu_,
  // which is never held while taking a LiveMatches lock.
  void Start(std::vector<Formed> formed) ABSL_LOCKS_EXCLUDED(mu_);
  // Sends this node's searcher the match found (its id), ends their stream
  // and removes the search.
  void Deliver(const std::string& player_id, const std::string& search_id,
               const std::string& match_id, int seat) ABSL_LOCKS_EXCLUDED(mu_);
  // Ends this node's search `search_id` of `player_id` with `status`
  // (CloseAll, a failed creation, a cancel) and removes it from the queue.
  void End(const std::string& player_id, const std::string& search_id,
           const absl::Status& status) ABSL_LOCKS_EXCLUDED(mu_);

  LiveMatches& matches_;
  storage::Store& store_;
  storage::MatchQueue& queue_;
  const Clock& clock_;
  const SearchEncodings& encodings_;  // Outlives this object.
  const MatchmakerOptions options_;

  Mutex mu_;
  std::map<std::string, Local> local_ ABSL_GUARDED_BY(mu_);  // By player.
  // The shape of every queue key this node has seen (few: one per game,
  // options, seats, ranking and turn limit).
  std::map<std::string, Queue> queues_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;  // CloseAll() was called.
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_MATCHMAKING_MATCHMAKER_H_
