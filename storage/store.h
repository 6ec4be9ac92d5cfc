// Durable records of players, matches and moves.
//
// Store is the storage interface the services use; SqliteStore (sqlite_store.h)
// implements it today. It speaks in plain records, free of SQL, so another
// backend can follow.
//
// Contract:
// - Every method is atomic: it either happens entirely or not at all.
// - A method returns OK, or a status: NOT_FOUND (no such record),
//   ALREADY_EXISTS (duplicate id or token hash), ABORTED (AppendMove found the
//   match at another ply: a stale or duplicate append), INTERNAL (the
//   database failed; the message says how).
// - Once a write method has returned OK, the write survives a crash of the
//   process (SQLite WAL with synchronous=FULL).
// Thread-safety: all methods may be called from any thread.
//
// Times are milliseconds since the Unix epoch (UTC).

#ifndef MANCALA_STORAGE_STORE_H_
#define MANCALA_STORAGE_STORE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mancala::storage {

struct PlayerRecord {
  std::string id;            // Opaque, unique.
  std::string display_name;
  bool guest = false;
  std::string token_hash;    // Hex SHA-256 of the bearer token; unique.
  int64_t created_at_ms = 0;
};

struct SeatRecord {
  enum class Kind { kPlayer, kCpu, kOpen };
  Kind kind = Kind::kPlayer;
  std::string player_id;  // kPlayer only.
  int cpu_level = 0;      // kCpu only.
};

enum class MatchStatus { kWaiting, kInProgress, kFinished, kCancelled };

struct MatchRecord {
  std::string id;
  std::string game;                           // Engine wire name, "kalah".
  std::map<std::string, std::string> options; // Effective options.
  std::vector<SeatRecord> seats;              // Turn order.
  int first_seat = 0;
  MatchStatus status = MatchStatus::kInProgress;
  int64_t ply = 0;            // Moves recorded (AppendMove keeps it).
  std::string created_by;     // Player id.
  int64_t created_at_ms = 0;
  int64_t updated_at_ms = 0;
  int64_t ended_at_ms = 0;    // 0 while in progress.
  std::string result;         // Serialized result, set when finished.
  bool ranked = false;
  int turn_limit_s = 0;       // 0 = no turn time limit.
  std::string invite_code;    // While seats are open; unique.
  bool rotate_first_player = true;
  std::string rematch_of;     // The match this one is a rematch of.
  std::string rematch_id;     // The rematch made from this one.
};

struct MoveRow {
  std::string match_id;
  int64_t ply = 0;       // 1-based; the match's ply after this move.
  int seat = 0;
  int pit = 0;           // -1 for a resignation.
  bool by_cpu = false;
  int64_t played_at_ms = 0;
  std::string events;    // Serialized events (opaque bytes).
  int cpu_reason = 0;    // Why the CPU moved (opaque to storage).
  std::string request_id;  // Client request id; unique per match if set.
  std::string reply;     // Serialized first answer to that request.
};

// What changes in the match row together with an appended move.
struct MatchUpdate {
  MatchStatus status = MatchStatus::kInProgress;
  int64_t ended_at_ms = 0;
  std::string result;
};

class Store {
 public:
  virtual ~Store() = default;

  virtual absl::Status CreatePlayer(const PlayerRecord& player) = 0;
  virtual absl::StatusOr<PlayerRecord> GetPlayer(const std::string& id) = 0;
  virtual absl::StatusOr<PlayerRecord> FindPlayerByTokenHash(
      const std::string& token_hash) = 0;

  // Stores a new match. If match.rematch_of is set, also links it as that
  // match's rematch; ALREADY_EXISTS (nothing written) if one is linked.
  virtual absl::Status CreateMatch(const MatchRecord& match) = 0;
  // Rewrites the match's seats, status, invite code, times and result
  // (joins, start, cancel). NOT_FOUND for an unknown match.
  virtual absl::Status UpdateMatch(const MatchRecord& match) = 0;
  // The id of the match with this invite code; NOT_FOUND if none.
  virtual absl::StatusOr<std::string> FindMatchByInviteCode(
      const std::string& code) = 0;
  virtual absl::StatusOr<MatchRecord> GetMatch(const std::string& id) = 0;
  // Ids of matches with the given status, oldest first.
  virtual absl::StatusOr<std::vector<std::string>> ListMatchIds(
      MatchStatus status) = 0;

  // Appends `move` if the match is at ply move.ply - 1, sets its ply to
  // move.ply and applies `update`, in one transaction. ABORTED if the match
  // is at another ply (nothing written). NOT_FOUND for an unknown match.
  virtual absl::Status AppendMove(const MoveRow& move,
                                  const MatchUpdate& update) = 0;
  // The move recorded for a client request id; NOT_FOUND if none.
  virtual absl::StatusOr<MoveRow> FindMoveByRequestId(
      const std::string& match_id, const std::string& request_id) = 0;
  // Moves with ply in [from_ply, from_ply + limit), oldest first.
  virtual absl::StatusOr<std::vector<MoveRow>> ListMoves(
      const std::string& match_id, int64_t from_ply, int limit) = 0;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_STORE_H_
