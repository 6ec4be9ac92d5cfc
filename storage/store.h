// Durable records of players, matches and moves.
//
// Store is the storage interface the services use; SqliteStore
// (sqlite_store.h) and PgStore (pg_store.h) implement it, and
// tests/storage/store_contract_test.cc holds both to this contract. It speaks
// in plain records, free of SQL.
//
// Contract:
// - Every method is atomic: it either happens entirely or not at all.
// - A method returns OK, or a status: NOT_FOUND (no such record),
//   ALREADY_EXISTS (duplicate id or token hash), ABORTED (AppendMove found the
//   match at another ply: a stale or duplicate append), UNAVAILABLE (the
//   database stayed locked by another process past the store's busy timeout,
//   the store is closing, or the database server cannot be reached now:
//   nothing was written, a retry may succeed), DATA_LOSS (a stored value is
//   unreadable, e.g. a match status or seat kind outside its enum: never read
//   as a default), DEADLINE_EXCEEDED (the call's deadline, call_deadline.h,
//   or the store's own bound passed: a write may or may not have happened,
//   and a read of it tells which), RESOURCE_EXHAUSTED (the database's disk
//   or memory is full: nothing was written, and a retry soon will fail
//   too), INTERNAL (the database failed; the message says how).
// - Once a write method has returned OK, the write survives a crash of the
//   process (SQLite WAL with synchronous=FULL; a PostgreSQL commit).
// Thread-safety: all methods may be called from any thread.
// Interface changes are additive only (another backend implements it); the
// UNAVAILABLE case above was added for busy timeouts and closing,
// FindMatchByRequestId and CountWaitingMatches for CreateMatch's limits,
// DEADLINE_EXCEEDED and RESOURCE_EXHAUSTED for a hung or full database.
//
// Times are milliseconds since the Unix epoch (UTC).

#ifndef MANCALA_STORAGE_STORE_H_
#define MANCALA_STORAGE_STORE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "storage/store_metrics.h"

namespace mancala::storage {

struct PlayerRecord {
  std::string id;  // Opaque, unique.
  std::string display_name;
  bool guest = false;
  std::string token_hash;  // Hex SHA-256 of the bearer token; unique.
  int64_t created_at_ms = 0;
  // When an operator banned the player (SetBan); 0 while not banned.
  int64_t banned_at_ms = 0;
};

// Players whose credentials (token or ban) changed lately, for the nodes'
// token caches (ListCredentialChanges).
struct CredentialChanges {
  std::vector<std::string> player_ids;
  // The store's clock when read (the database's, for PostgreSQL), in ms
  // since the epoch: the next read's `since_ms`, less an overlap.
  int64_t as_of_ms = 0;
};

struct SeatRecord {
  enum class Kind { kPlayer, kCpu, kOpen };
  Kind kind = Kind::kPlayer;
  std::string player_id;  // kPlayer only.
  int cpu_level = 0;      // kCpu only.
  // kPlayer only, and only as read: the player's display name when the
  // match was read (one query with the seats). Writes ignore it. (Braced:
  // initializers that stop at cpu_level stay complete.)
  std::string display_name{};
};

// kAborted: a ranked match that ended with a seat that never moved itself
// (docs/ratings.md "What is rated"); it is not rated.
enum class MatchStatus {
  kWaiting,
  kInProgress,
  kFinished,
  kCancelled,
  kAborted
};

struct MatchRecord {
  std::string id;
  std::string game;                            // Engine wire name, "kalah".
  std::map<std::string, std::string> options;  // Effective options.
  std::vector<SeatRecord> seats;               // Turn order.
  int first_seat = 0;
  MatchStatus status = MatchStatus::kInProgress;
  int64_t ply = 0;         // Moves recorded (AppendMove keeps it).
  std::string created_by;  // Player id.
  int64_t created_at_ms = 0;
  int64_t updated_at_ms = 0;
  int64_t ended_at_ms = 0;  // 0 while in progress.
  std::string result;       // Serialized result, set when finished.
  bool ranked = false;
  int turn_limit_s = 0;     // 0 = no turn time limit.
  std::string invite_code;  // While seats are open; unique.
  bool rotate_first_player = true;
  std::string rematch_of;  // The match this one is a rematch of.
  std::string rematch_id;  // The rematch made from this one.
  bool voided = false;     // Voided by an admin (VoidMatch).
  std::string void_reason;
  // CreateMatch's request id (AIP-155), unique per creator when set, and a
  // fingerprint of that request (opaque to storage): a retry is recognised
  // by both, a reused id by the fingerprint alone.
  std::string request_id;
  std::string request_hash;
  // Why a cancelled match was cancelled (opaque to storage; the service
  // writes "creator" or "expired"; rows older than the column read "").
  std::string cancel_reason;
  // How long the turn to move had left when the store read the match, as
  // a store shared by a cluster keeps it (due_turns.h; PostgreSQL): a node
  // that loads the match counts the turn down from there, so every node
  // shows the deadline the cluster's sweep times the turn out at. In ms,
  // 0 to the turn limit (a duration: the nodes' and the database's clocks
  // meet only in it). -1 when the store keeps none: SQLite (its one server
  // keeps turns in memory, turn_clock.h), no turn time limit, a CPU seat
  // to move, or no match in progress. Read only: writes ignore it.
  int64_t turn_time_left_ms = -1;
};

// A Glicko-2 rating (rating points, RD points, volatility).
struct RatingValue {
  double rating = 0;
  double rd = 0;
  double volatility = 0;
};

// A player's current rating in one game's pool.
struct RatingRecord {
  std::string player_id;
  std::string game;
  RatingValue value;
  int games = 0;  // Rated matches played.
  int64_t last_rated_at_ms = 0;
};

// One player's rating change from one rated match.
struct RatingChange {
  std::string match_id;
  std::string player_id;
  std::string game;
  int seat = 0;
  int rank = 0;        // Final rank in the match (1 = best).
  RatingValue before;  // As stored before the match.
  RatingValue after;   // As stored after it.
  int64_t rated_at_ms = 0;
};

struct AuditRecord {
  int64_t id = 0;  // Assigned by the store; increasing.
  int64_t at_ms = 0;
  std::string actor;   // Who did it.
  std::string action;  // e.g. "void_match".
  std::string target;  // e.g. "matches/{id}".
  std::string reason;
};

// Filter for ListMatches; empty / unset fields do not filter. Times are
// [from, to) and any value, 0 included, filters. An end-time bound passes
// only matches that have ended (finished, aborted or cancelled), never one
// waiting or in progress.
struct MatchFilter {
  std::string player_id;
  std::string game;
  std::optional<MatchStatus> status;
  std::optional<bool> ranked;
  std::optional<int64_t> created_from_ms, created_to_ms;
  std::optional<int64_t> ended_from_ms, ended_to_ms;
};

// Keyset position for newest-first listings: rows strictly older than
// (time_ms, id) come next.
struct Cursor {
  int64_t time_ms = 0;
  std::string id;
};

struct MoveRow {
  std::string match_id;
  int64_t ply = 0;  // 1-based; the match's ply after this move.
  int seat = 0;
  int pit = 0;  // -1 for a resignation.
  bool by_cpu = false;
  int64_t played_at_ms = 0;
  std::string events;      // Serialized events (opaque bytes).
  int cpu_reason = 0;      // Why the CPU moved (opaque to storage).
  std::string request_id;  // Client request id; unique per match if set.
  std::string reply;       // Serialized first answer to that request.
};

// What changes in the match row together with an appended move.
struct MatchUpdate {
  MatchStatus status = MatchStatus::kInProgress;
  int64_t ended_at_ms = 0;
  std::string result;
  // A rated end: the changes and the new ratings, written in the same
  // transaction as the move.
  std::vector<RatingChange> rating_changes;
  std::vector<RatingRecord> new_ratings;
  // Several processes rating on one database (PostgreSQL): write only if
  // each player's stored rating is still the `before` of their change
  // (games one less than the new record's; no row for a first rating),
  // checked with the rating rows locked. Otherwise nothing is written and
  // AppendMove answers FAILED_PRECONDITION: recompute from the stored
  // ratings and append again. Backends owned by one process (SQLite) may
  // ignore it: their caller orders rating updates itself.
  bool check_before = false;
  // Clusters on PostgreSQL (storage/due_turns.h); SQLite ignores them.
  // The seat to move next (-1: the match is over); when the next automatic
  // action is due, this long after the commit by the database's clock (0:
  // at once, -1: never); and, if `claim_node` is set, that node's claim on
  // the next turn (a CPU seat it plays itself) for claim_ttl_ms.
  int to_move = -1;
  int64_t due_after_ms = -1;
  std::string claim_node;
  int64_t claim_ttl_ms = 0;
};

class Store {
 public:
  virtual ~Store() = default;

  virtual absl::Status CreatePlayer(const PlayerRecord& player) = 0;
  virtual absl::StatusOr<PlayerRecord> GetPlayer(const std::string& id) = 0;
  virtual absl::StatusOr<PlayerRecord> FindPlayerByTokenHash(
      const std::string& token_hash) = 0;
  // Credentials (PlayerService.ReplaceToken, AdminService.RevokeTokens,
  // BanPlayer, UnbanPlayer). Each write also marks the player's
  // credentials changed, at the store's clock, for ListCredentialChanges,
  // and appends `audit` unless its action is empty, in one transaction.
  //
  // Replaces the player's token hash: from the commit on the old token
  // finds nobody. NOT_FOUND for an unknown player.
  virtual absl::Status ReplaceTokenHash(const std::string& player_id,
                                        const std::string& token_hash,
                                        const AuditRecord& audit) = 0;
  // Bans the player from `banned_at_ms` (> 0), or lifts the ban (0).
  // NOT_FOUND for an unknown player; FAILED_PRECONDITION (nothing written)
  // if they are banned already (a ban) or not banned (a lift).
  virtual absl::Status SetBan(const std::string& player_id,
                              int64_t banned_at_ms,
                              const AuditRecord& audit) = 0;
  // The players whose credentials changed at or after `since_ms` by the
  // store's clock (any order, each once), and that clock now. Served by an
  // index of the changed players (schema.cc migration 4, pg_schema.cc 7).
  virtual absl::StatusOr<CredentialChanges> ListCredentialChanges(
      int64_t since_ms) = 0;

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
  // The match `creator_id` created with CreateMatch request id
  // `request_id`; NOT_FOUND if none. CreateMatch of a second match with the
  // same (created_by, request_id) is ALREADY_EXISTS, nothing written.
  virtual absl::StatusOr<MatchRecord> FindMatchByRequestId(
      const std::string& creator_id, const std::string& request_id) = 0;
  // How many matches `creator_id` created are WAITING (served by an index
  // of waiting matches; storage/schema.cc migration 3).
  virtual absl::StatusOr<int> CountWaitingMatches(
      const std::string& creator_id) = 0;
  // Ids of matches with the given status, oldest first.
  virtual absl::StatusOr<std::vector<std::string>> ListMatchIds(
      MatchStatus status) = 0;

  // Appends `move` if the match is at ply move.ply - 1, sets its ply to
  // move.ply and applies `update`, in one transaction. ABORTED if the match
  // is at another ply (nothing written). NOT_FOUND for an unknown match.
  virtual absl::Status AppendMove(const MoveRow& move,
                                  const MatchUpdate& update) = 0;
  // AppendMove without holding the calling thread while the move becomes
  // durable (gRPC's callback API, issue 28): `done` gets what AppendMove
  // would return, once. It may run before this returns, or on a thread of
  // the store's own (SQLite: the writer, right after the commit), so it
  // must return quickly and must not write to the store itself (reads are
  // fine). The calling thread's deadline (call_deadline.h) applies as for
  // AppendMove. The default runs AppendMove on the calling thread.
  using AppendDone = std::function<void(absl::Status)>;
  virtual void AppendMoveAsync(MoveRow move, MatchUpdate update,
                               AppendDone done) {
    done(AppendMove(move, update));
  }
  // The move recorded for a client request id; NOT_FOUND if none.
  virtual absl::StatusOr<MoveRow> FindMoveByRequestId(
      const std::string& match_id, const std::string& request_id) = 0;
  // Moves with ply in [from_ply, from_ply + limit), oldest first.
  virtual absl::StatusOr<std::vector<MoveRow>> ListMoves(
      const std::string& match_id, int64_t from_ply, int limit) = 0;

  // Matches passing `filter`, newest (created) first, after `after` if
  // given, at most `limit`. Served by indexes (storage/schema.cc).
  virtual absl::StatusOr<std::vector<MatchRecord>> ListMatches(
      const MatchFilter& filter, const std::optional<Cursor>& after,
      int limit) = 0;

  // Current ratings of `player_ids` in `game`; players never rated are
  // missing from the result.
  virtual absl::StatusOr<std::vector<RatingRecord>> GetRatings(
      const std::string& game, const std::vector<std::string>& player_ids) = 0;
  // Best first (rating, then player id); RD below `max_rd` only (pass a
  // large value for all). `after` = (rating, player id) of the last row.
  virtual absl::StatusOr<std::vector<RatingRecord>> ListLeaderboard(
      const std::string& game, double max_rd,
      const std::optional<std::pair<double, std::string>>& after,
      int limit) = 0;
  // A player's rating changes in `game`, newest first (rated_at, match id).
  virtual absl::StatusOr<std::vector<RatingChange>> ListRatingChanges(
      const std::string& player_id, const std::string& game,
      const std::optional<Cursor>& after, int limit) = 0;
  // Every rating change of `game` in rating order, oldest first (for
  // recomputing), and the changes of one match.
  virtual absl::StatusOr<std::vector<RatingChange>> ListGameRatingChanges(
      const std::string& game) = 0;
  virtual absl::StatusOr<std::vector<RatingChange>> ListMatchRatingChanges(
      const std::string& match_id) = 0;
  // Marks a match void and replaces the game's whole rating record (the
  // changes and current ratings recomputed without it), with an audit
  // entry, in one transaction.
  virtual absl::Status VoidMatch(const std::string& match_id,
                                 const std::string& reason,
                                 const std::string& game,
                                 const std::vector<RatingChange>& changes,
                                 const std::vector<RatingRecord>& ratings,
                                 const AuditRecord& audit) = 0;
  virtual absl::StatusOr<std::vector<AuditRecord>> ListAuditLog(
      int64_t before_id, int limit) = 0;

  // Where the store reports its commits (store_metrics.h); null (the
  // default) reports nowhere. Set before the store is shared by threads.
  virtual void set_metrics(StoreMetrics* metrics) { metrics_ = metrics; }

 protected:
  StoreMetrics* metrics() const { return metrics_; }

 private:
  StoreMetrics* metrics_ = nullptr;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_STORE_H_
