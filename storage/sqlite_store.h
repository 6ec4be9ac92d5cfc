// Store on an embedded SQLite database (through SQLiteCpp).
//
// Open() creates the file if missing, switches it to WAL with
// synchronous=FULL (every acknowledged write survives kill -9 and power
// loss), stamps it with the project's application_id and applies the schema
// migrations in order (schema.h). A database from a newer version of the
// service, or a file that is not ours, is refused with FAILED_PRECONDITION.
//
// One connection serves all threads behind a mutex: SQLite has a single
// writer anyway, and statements are prepared once.

#ifndef MANCALA_STORAGE_SQLITE_STORE_H_
#define MANCALA_STORAGE_SQLITE_STORE_H_

#include <memory>
#include <string>
#include <unordered_map>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "storage/store.h"

namespace SQLite {
class Database;
class Statement;
}  // namespace SQLite

namespace mancala::storage {

class SqliteStore final : public Store {
 public:
  // `path` is a file name, or ":memory:" for a private in-memory database.
  static absl::StatusOr<std::unique_ptr<SqliteStore>> Open(
      const std::string& path);
  ~SqliteStore() override;

  absl::Status CreatePlayer(const PlayerRecord& player) override;
  absl::StatusOr<PlayerRecord> GetPlayer(const std::string& id) override;
  absl::StatusOr<PlayerRecord> FindPlayerByTokenHash(
      const std::string& token_hash) override;

  absl::Status CreateMatch(const MatchRecord& match) override;
  absl::Status UpdateMatch(const MatchRecord& match) override;
  absl::StatusOr<std::string> FindMatchByInviteCode(
      const std::string& code) override;
  absl::StatusOr<MoveRow> FindMoveByRequestId(
      const std::string& match_id, const std::string& request_id) override;
  absl::StatusOr<MatchRecord> GetMatch(const std::string& id) override;
  absl::StatusOr<std::vector<std::string>> ListMatchIds(
      MatchStatus status) override;

  absl::Status AppendMove(const MoveRow& move,
                          const MatchUpdate& update) override;
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
  explicit SqliteStore(std::unique_ptr<SQLite::Database> db);
  // The statement for `sql`, prepared on first use and reset for reuse.
  SQLite::Statement& Prepare(const std::string& sql)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Replaces the seats rows of `match` (and its players' history index).
  // Requires a transaction.
  void WriteSeats(const MatchRecord& match) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Writes rating changes and ratings. Requires a transaction.
  void WriteRatings(const std::vector<RatingChange>& changes,
                    const std::vector<RatingRecord>& ratings)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Reads a whole match row + seats at the current statement row.
  MatchRecord ReadMatchRow(SQLite::Statement& q)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // The last lock of the order in services/live_matches.h: held only
  // inside a Store call, which takes no other lock.
  absl::Mutex mu_;
  std::unique_ptr<SQLite::Database> db_ ABSL_GUARDED_BY(mu_);
  std::unordered_map<std::string, std::unique_ptr<SQLite::Statement>>
      statements_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_SQLITE_STORE_H_
