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
#include <mutex>
#include <string>
#include <unordered_map>

#include "storage/store.h"

namespace SQLite {
class Database;
class Statement;
}

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

 private:
  explicit SqliteStore(std::unique_ptr<SQLite::Database> db);
  // The statement for `sql` (a string literal), prepared on first use and
  // reset for reuse. Requires mu_.
  SQLite::Statement& Prepare(const char* sql);
  // Replaces the seats rows of `match`. Requires mu_ and a transaction.
  void WriteSeats(const MatchRecord& match);

  std::mutex mu_;
  std::unique_ptr<SQLite::Database> db_;
  std::unordered_map<const char*, std::unique_ptr<SQLite::Statement>>
      statements_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_SQLITE_STORE_H_
