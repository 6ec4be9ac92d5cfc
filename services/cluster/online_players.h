// Who is online: "N online" in mancala.v1.QueueStats.
//
// A player is online while they hold a stream open on some node (WatchMatch,
// FindMatch, with their token) or made a call with their token within the
// presence grace period (mancalad --grace-seconds, 20 s by default: the
// same period after which an absent player's seat is played by the CPU).
// Anonymous calls and streams (spectators without a token) are nobody.
//
// On one node (SQLite) this node's memory is the whole site. On a cluster
// (PostgreSQL) each node's ClusterNode writes the players it holds into the
// database at every heartbeat (storage/online_players.h) and reads back the
// site-wide count, which Count() then answers; so a count can be a
// heartbeat old (1 s by default), and a player counts up to a quarter of
// the grace period less long than exactly (a player is written again only
// once their last write is that old).
//
// Memory: one entry per player online on this node, dropped once they are
// offline; that is checked at most once a second, so a player may count up
// to a second past the grace period.
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_SERVICES_CLUSTER_ONLINE_PLAYERS_H_
#define MANCALA_SERVICES_CLUSTER_ONLINE_PLAYERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "services/base/clock.h"
#include "services/base/mutex.h"

namespace mancala::services {

class OnlinePlayers {
 public:
  // `grace_ms` > 0: the presence grace period.
  OnlinePlayers(const Clock& clock, int64_t grace_ms);

  int64_t grace_ms() const { return grace_ms_; }

  // A call authenticated as `player_id` (a player id, never empty) now.
  void Seen(const std::string& player_id);
  // A stream of `player_id` opened / ended: online while any is open, and
  // for the grace period after the last ends. Every Hold() is followed by
  // exactly one Release().
  void Hold(const std::string& player_id);
  void Release(const std::string& player_id);

  // Players online on the whole site: this node's own count, or on a
  // cluster the larger of that and the site-wide count read at the last
  // heartbeat (players who arrived here since are not in it yet).
  int Count();

  // For the cluster's heartbeat (cluster_node.h). The players online here
  // who must be written now: never written, or last written a quarter of
  // the grace period before their last call (or before now, while a stream
  // is open). They count as written from now on; Unwritten() takes that
  // back when the write failed, so the next beat tries them again.
  std::vector<std::string> TakeMarks();
  void Unwritten(const std::vector<std::string>& player_ids);
  // The site-wide count the heartbeat read.
  void SetSiteCount(int online);

 private:
  struct Player {
    int64_t seen_ms = 0;      // The last call, or the end of the last stream.
    int streams = 0;          // Open now.
    int64_t written_ms = -1;  // When TakeMarks() last gave them; -1: never.
  };
  // Drops players offline at `now_ms`, at most once a second.
  void PurgeLocked(int64_t now_ms) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const Clock& clock_;
  const int64_t grace_ms_;
  Mutex mu_;
  std::unordered_map<std::string, Player> players_ ABSL_GUARDED_BY(mu_);
  int64_t purged_ms_ ABSL_GUARDED_BY(mu_) = 0;
  std::optional<int> site_count_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_CLUSTER_ONLINE_PLAYERS_H_
