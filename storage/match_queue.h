// The matchmaking queue: who is searching, in which queue, since when. The
// Matchmaker (services/matchmaking/matchmaker.h) holds the one matchmaking
// logic and the streams of its own searchers; this interface holds the
// searches, so that on PostgreSQL every node sees (and pairs) the searchers of
// every node.
//
// Two implementations: MemoryMatchQueue (storage/memory_match_queue.h), one
// node, in memory, for SQLite (one server per database); PgMatchQueue
// (storage/pg_match_queue.h), rows in the database shared by every node.
//
// A search moves through three states: searching (counted, may be claimed),
// claimed (a node is creating its match; no longer counted, nobody else may
// claim it), assigned (the match exists; the owner node delivers it to the
// stream and removes the search). A search belongs to the node whose stream
// holds it (`node_id`); that node refreshes its searches on every tick
// (Refresh) and a search not refreshed for the queue's expiry time is gone:
// not counted, not claimed, deleted by the next Refresh of any node. A
// claim not followed by Assign or Release within the same time lapses (its
// node died mid-creation) and the search is searching again.
//
// Errors: UNAVAILABLE when the database cannot be reached; INTERNAL for
// anything else the database refuses. Thread-safety: all methods from any
// thread.

#ifndef MANCALA_STORAGE_MATCH_QUEUE_H_
#define MANCALA_STORAGE_MATCH_QUEUE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mancala::storage {

struct QueueEntry {
  std::string search_id;  // Unique per search; a new search, a new id.
  std::string player_id;  // At most one search per player, site-wide.
  std::string node_id;    // The node holding the searcher's stream.
  std::string queue_key;  // Searches pair only within one key.
  // The queue's description for listings, UTF-8 text opaque here (the
  // service stores a mancala.v1.QueueStats.Queue as JSON,
  // services/wire/search_codec.h).
  std::string queue_info;
  double rating = 0;  // Glicko-2 rating in the queue's game.
  bool accept_cpu = false;
  // Set by Add from the queue's clock (PostgreSQL: the database clock), ms
  // since the Unix epoch.
  int64_t enqueued_ms = 0;
};

// One of this node's searches, as Refresh sees it.
struct OwnSearch {
  std::string search_id;
  std::string player_id;
  // Empty while searching or claimed; opaque here (the service stores the
  // match's resource name, services/wire/search_codec.h).
  std::string match_id;
  int seat = -1;  // The searcher's seat in match_id.
};

// Searching (unclaimed, unexpired) searches of one queue key.
struct QueueCount {
  std::string queue_key;
  std::string queue_info;
  int searching = 0;
};

class MatchQueue {
 public:
  // Picks the searches to claim from `searching` (in order of arrival) at
  // the queue's time `now_ms`; returns their indexes.
  using Former = std::function<std::vector<size_t>(
      const std::vector<QueueEntry>& searching, int64_t now_ms)>;

  virtual ~MatchQueue() = default;

  // The node this queue refreshes and polls for (PgMatchQueue::Open).
  virtual const std::string& node_id() const = 0;

  // Adds `entry` (enqueued_ms is set here). ALREADY_EXISTS if the player
  // already has a search on any node that has not expired.
  virtual absl::Status Add(const QueueEntry& entry) = 0;
  // CancelFind: removes the player's search if it is searching (not claimed
  // or assigned), whatever node holds it. True if one was removed.
  virtual absl::StatusOr<bool> Cancel(const std::string& player_id) = 0;
  // Removes the search whatever its state (its stream ended, or its match
  // was delivered). No error if it is gone already.
  virtual absl::Status Remove(const std::string& search_id) = 0;

  // Runs `form` on the searches of `queue_key` no other node is claiming,
  // and claims the ones it returns, atomically: two nodes never claim one
  // search. `form` runs at most once per call (never for an error before
  // it) and must not call back into the queue.
  virtual absl::Status Claim(const std::string& queue_key,
                             const Former& form) = 0;
  // The claimed search's match: seat `seat` of `match_id`.
  virtual absl::Status Assign(const std::string& search_id,
                              const std::string& match_id, int seat) = 0;
  // Puts claimed searches back to searching (their match was not created).
  virtual absl::Status Release(const std::vector<std::string>& search_ids) = 0;

  // Refreshes this node's searches (so they do not expire), deletes every
  // node's expired ones, and returns this node's searches in any state.
  virtual absl::StatusOr<std::vector<OwnSearch>> Refresh() = 0;
  // The searching count of every queue key that has one (site-wide).
  virtual absl::StatusOr<std::vector<QueueCount>> Counts() = 0;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_MATCH_QUEUE_H_
