// Turns the computer must play, stored so that any node of a cluster can
// play them (docs/cluster.md). SQLite has no cluster and no
// DueTurns: its one server keeps every timer in memory (turn_clock.h).
//
// What is stored, all with the DATABASE's clock:
// - On the match row, with every move (MatchUpdate's due fields, written by
//   the ply-checked append in the same statement): the seat to move, and
//   when the next automatic action is due: at once for a CPU seat, at the
//   turn deadline for a player's seat with a time limit, never otherwise.
//   The node that commits a move for which a CPU seat plays next claims
//   that turn in the same statement.
// - On the seat rows, which node last saw the seat's player (a call, or a
//   stream held open) and when (MarkSeen). A player unseen for the grace
//   period is absent, whichever node they used: the CPU stands in.
// - A claim: (node, ply, expiry). A claim counts while it is for the
//   match's current ply, unexpired, and its node is alive
//   (node_registry.h: heartbeat younger than `dead_after_ms`).
//
// - When the service came back after no node was alive (a restart of the
//   only node, a database outage: NodeRegistry::Heartbeat): from then on
//   every seat counts as seen then, and every turn as started then, at the
//   earliest, so nobody pays for the time the service was away.
//
// A due turn is played exactly once: a node plays it only after Claim()
// returned true, and the ply-checked append refuses a second move at one
// ply anyway (store.h AppendMove).
//
// Errors: NOT_FOUND for an unknown match (MarkSeen: or seat), UNAVAILABLE
// when the database cannot be reached now, INTERNAL otherwise.
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_STORAGE_DUE_TURNS_H_
#define MANCALA_STORAGE_DUE_TURNS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mancala::storage {

// Why the computer moves; the values are v1::Move::CpuReason's.
enum class DueReason { kCpuSeat = 1, kTimeout = 2, kStandIn = 3 };

// A turn due now and claimed by nobody alive.
struct DueTurn {
  std::string match_id;
  int64_t ply = 0;  // The match's ply: the move due is ply + 1.
  int seat = 0;     // The seat to move.
  DueReason reason = DueReason::kCpuSeat;
};

// Ages that the cluster agrees on (mancalad --grace-seconds).
struct DueTiming {
  int64_t grace_ms = 20'000;       // A player unseen this long is absent.
  int64_t dead_after_ms = 20'000;  // A node silent this long is dead.
};

class DueTurns {
 public:
  virtual ~DueTurns() = default;

  // In-progress matches whose next automatic action is due now and that no
  // live node has claimed, most overdue first, at most `limit`. The reason
  // is the first that holds: a CPU seat; the turn deadline passed; the
  // seat's player unseen for grace_ms (both counted from the service's
  // return at the earliest). A deadline that passed while the
  // player's node was dead is not listed but moved to now + grace_ms
  // (an outage never times a player out; the player's seat is marked as
  // seen by no node, so the new deadline counts).
  virtual absl::StatusOr<std::vector<DueTurn>> ListDue(const DueTiming& timing,
                                                       int limit) = 0;
  // Claims the turn after `ply` of `match_id` for `node_id` until the
  // database's now + ttl_ms. True if claimed (or renewed: the node held it
  // already); false if the match is no longer at `ply` in progress, another
  // live node holds an unexpired claim on it, or, for a stand-in
  // (`stand_in_grace_ms` > 0), another node saw the seat's player within
  // that long (the player is there, not here) or the service came back
  // less than that long ago; for a timeout (`timeout`), the service came
  // back less than a turn limit ago (the turn started again then). A
  // stand-in or a timeout also needs some node to have beaten within
  // `dead_after_ms`: after the service was away, the first beat records its
  // return (node_registry.h) in the statement that makes a node alive, so
  // a sweep that gets through before any beat cannot charge anyone for the
  // time away.
  virtual absl::StatusOr<bool> Claim(const std::string& match_id, int64_t ply,
                                     const std::string& node_id, int64_t ttl_ms,
                                     int64_t dead_after_ms,
                                     int64_t stand_in_grace_ms = 0,
                                     bool timeout = false) = 0;
  // Records that `node_id` saw `seat`'s player now (database clock).
  virtual absl::Status MarkSeen(const std::string& match_id, int seat,
                                const std::string& node_id) = 0;
  // Whether `seat`'s player was seen by some node within grace_ms.
  virtual absl::StatusOr<bool> SeenWithin(const std::string& match_id, int seat,
                                          int64_t grace_ms) = 0;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_DUE_TURNS_H_
