// Store on an embedded SQLite database (through SQLiteCpp).
//
// Open() takes an exclusive lock beside the file (database_lock.h: one
// server per database), creates the file 0600 if missing, switches it to
// WAL with synchronous=FULL (every acknowledged write survives kill -9 and
// power loss), stamps it with the project's application_id and applies the
// schema migrations in order (schema.h). A database from a newer version of
// the service, or a file that is not ours, is refused with
// FAILED_PRECONDITION.
//
// Writes go through one writer thread with group commit (sqlite_writer.h):
// concurrent writes share one transaction and one fsync, each keeping its
// own result. Reads use a pool of read-only connections
// (sqlite_read_pool.h), so they never wait behind a write. Every statement
// is used through ScopedStatement (sqlite_connection.h), so no connection
// holds a read snapshot between calls: outside writers and WAL checkpoints
// are never blocked for longer than one call.
//
// Another process holding the database locked (sqlite3 shell, a backup) is
// waited for up to SqliteStoreOptions::busy_timeout_ms; past it the call
// answers UNAVAILABLE and writes nothing.
//
// ":memory:" (tests) has a single connection: reads share the writer's.

#ifndef MANCALA_STORAGE_SQLITE_STORE_H_
#define MANCALA_STORAGE_SQLITE_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "storage/database_lock.h"
#include "storage/sqlite_connection.h"
#include "storage/sqlite_read_pool.h"
#include "storage/sqlite_writer.h"
#include "storage/store.h"

namespace mancala::storage {

struct SqliteStoreOptions {
  // How long a statement waits for a lock another process holds before
  // the call answers UNAVAILABLE (milliseconds).
  int busy_timeout_ms = 5000;
  // Read-only connections serving reads concurrently (files only).
  int read_connections = 4;
  // false: each write is its own transaction, committed on the caller's
  // thread (the pre-group-commit path; a benchmark baseline).
  bool group_commit = true;
  // Most write transactions committed together.
  int max_batch = 256;
  // WAL: checkpoint after a commit that leaves this many pages in it
  // (sqlite_writer.h; 0 = never), and truncate the WAL file back to at most
  // this many bytes after a checkpoint resets it (journal_size_limit).
  int wal_autocheckpoint_pages = 1000;
  int64_t journal_size_limit_bytes = 64 << 20;
  // The most the database may grow to (MiB; 0 = as far as the disk goes);
  // a write past it answers RESOURCE_EXHAUSTED, as for a full disk.
  int64_t max_size_mb = 0;
};

class SqliteStore final : public Store {
 public:
  // `path` is a file name, or ":memory:" for a private in-memory database.
  static absl::StatusOr<std::unique_ptr<SqliteStore>> Open(
      const std::string& path, const SqliteStoreOptions& options = {});
  ~SqliteStore() override;  // Close(), then releases the database lock.

  // Stops taking writes (later writes answer UNAVAILABLE), commits and
  // answers every write already queued. Reads keep working.
  void Close();

  // Also hands `metrics` to the writer, which reports each commit.
  void set_metrics(StoreMetrics* metrics) override;
  // Batches committed and transactions run so far (tests, benchmarks).
  SqliteWriter::Stats writer_stats() const { return writer_->stats(); }

  absl::Status CreatePlayer(const PlayerRecord& player) override;
  absl::StatusOr<PlayerRecord> GetPlayer(const std::string& id) override;
  absl::StatusOr<PlayerRecord> FindPlayerByTokenHash(
      const std::string& token_hash) override;
  // Credentials: sqlite_credentials.cc.
  absl::Status ReplaceTokenHash(const std::string& player_id,
                                const std::string& token_hash,
                                const AuditRecord& audit) override;
  absl::Status SetBan(const std::string& player_id, int64_t banned_at_ms,
                      const AuditRecord& audit) override;
  absl::StatusOr<CredentialChanges> ListCredentialChanges(
      int64_t since_ms) override;

  absl::Status CreateMatch(const MatchRecord& match) override;
  absl::Status UpdateMatch(const MatchRecord& match) override;
  absl::StatusOr<std::string> FindMatchByInviteCode(
      const std::string& code) override;
  absl::StatusOr<MoveRow> FindMoveByRequestId(
      const std::string& match_id, const std::string& request_id) override;
  absl::StatusOr<MatchRecord> GetMatch(const std::string& id) override;
  absl::StatusOr<MatchRecord> FindMatchByRequestId(
      const std::string& creator_id, const std::string& request_id) override;
  absl::StatusOr<int> CountWaitingMatches(
      const std::string& creator_id) override;
  absl::StatusOr<std::vector<std::string>> ListMatchIds(
      MatchStatus status) override;

  absl::Status AppendMove(const MoveRow& move,
                          const MatchUpdate& update) override;
  // `done` runs on the writer thread after the batch's commit
  // (SqliteWriter::Submit).
  void AppendMoveAsync(MoveRow move, MatchUpdate update,
                       AppendDone done) override;
  absl::StatusOr<std::vector<MoveRow>> ListMoves(const std::string& match_id,
                                                 int64_t from_ply,
                                                 int limit) override;
  absl::StatusOr<std::vector<MatchRecord>> ListMatches(
      const MatchFilter& filter, const std::optional<Cursor>& after,
      int limit) override;

  // Ratings and audit: sqlite_ratings.cc.
  absl::StatusOr<std::vector<RatingRecord>> GetRatings(
      const std::string& game,
      const std::vector<std::string>& player_ids) override;
  absl::StatusOr<std::vector<RatingRecord>> ListLeaderboard(
      const std::string& game, double max_rd,
      const std::optional<std::pair<double, std::string>>& after,
      int limit) override;
  absl::StatusOr<std::vector<RatingChange>> ListRatingChanges(
      const std::string& player_id, const std::string& game,
      const std::optional<Cursor>& after, int limit) override;
  absl::StatusOr<std::vector<RatingChange>> ListGameRatingChanges(
      const std::string& game) override;
  absl::StatusOr<std::vector<RatingChange>> ListMatchRatingChanges(
      const std::string& match_id) override;
  absl::Status VoidMatch(const std::string& match_id, const std::string& reason,
                         const std::string& game,
                         const std::vector<RatingChange>& changes,
                         const std::vector<RatingRecord>& ratings,
                         const AuditRecord& audit) override;
  absl::StatusOr<std::vector<AuditRecord>> ListAuditLog(int64_t before_id,
                                                        int limit) override;

 private:
  using Body = std::function<absl::Status(Connection&)>;
  SqliteStore() = default;
  // Runs `body` as one write transaction (group commit) or on a pooled read
  // connection; SQLite and JSON exceptions become statuses (`what` names
  // the operation).
  absl::Status Write(const char* what, const Body& body);
  absl::Status Read(const char* what, const Body& body);
  // Read() for a call that produces a value (`body` fills it).
  template <typename T>
  absl::StatusOr<T> ReadAs(
      const char* what,
      const std::function<absl::Status(Connection&, T&)>& body) {
    T out{};
    absl::Status s = Read(what, [&](Connection& c) { return body(c, out); });
    if (!s.ok()) return s;
    return out;
  }
  // Replaces the seats rows of `match` (and its players' history index).
  static void WriteSeats(Connection& c, const MatchRecord& match);
  // AppendMove's rows: the ply-checked UPDATE of the match, the move, and
  // at a rated end the ratings. ABORTED / NOT_FOUND as AppendMove.
  static absl::Status AppendRows(Connection& c, const MoveRow& mv,
                                 const MatchUpdate& update);
  // Writes rating changes and ratings.
  static void WriteRatings(Connection& c,
                           const std::vector<RatingChange>& changes,
                           const std::vector<RatingRecord>& ratings);
  // Appends `audit` to the audit log (nothing if its action is empty).
  static void InsertAudit(Connection& c, const AuditRecord& audit);
  // The whole match with this id (row + seats); false if there is none.
  static bool ReadMatch(Connection& c, const std::string& id, MatchRecord* out);
  // A match from a row of kMatchColumns (its seats included); throws
  // nlohmann::json::exception for unreadable options or seats.
  static MatchRecord MatchFromRow(SQLite::Statement& q);

  // Destroyed bottom-up: the writer finishes, connections close, then the
  // lock is released.
  std::unique_ptr<DatabaseLock> lock_;
  std::unique_ptr<Connection> write_connection_;
  std::vector<std::unique_ptr<Connection>> read_connections_;
  std::unique_ptr<SqliteReadPool> reads_;
  std::unique_ptr<SqliteWriter> writer_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_SQLITE_STORE_H_
