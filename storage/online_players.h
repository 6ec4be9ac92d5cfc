// Who is online on the whole site, when several mancalad nodes share one
// PostgreSQL database (docs/cluster.md): each node writes the players it
// holds (a call within the presence grace period, or a stream open now) at
// its heartbeat, and reads back how many players any node wrote recently.
// "N online" in mancala.v1.QueueStats. SQLite has one server, whose own
// memory is the whole site (services/cluster/online_players.h): it has no
// table.
//
// A row per player: when a node last wrote them, by the DATABASE's clock.
// Nothing says which node: a player who switches nodes is one player.
//
// Errors: UNAVAILABLE when the database cannot be reached now (a retry may
// succeed), INTERNAL otherwise.
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_STORAGE_ONLINE_PLAYERS_H_
#define MANCALA_STORAGE_ONLINE_PLAYERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mancala::storage {

class OnlineRoster {
 public:
  virtual ~OnlineRoster() = default;

  // Sets each of `player_ids` (player ids, not resource names; any number,
  // none too) as seen now, then returns how many players were seen within
  // the last `grace_ms`, these included. One round trip.
  virtual absl::StatusOr<int> MarkAndCount(
      const std::vector<std::string>& player_ids, int64_t grace_ms) = 0;
  // Deletes the rows of players unseen for longer than `silent_ms` (kept
  // short: they no longer count) and returns how many.
  virtual absl::StatusOr<int> Forget(int64_t silent_ms) = 0;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_ONLINE_PLAYERS_H_
