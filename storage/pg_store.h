// Store on PostgreSQL (through libpqxx): the same records and guarantees as
// SqliteStore (store.h), for sites that run mancalad on a database server.
//
// Open() connects a fixed pool of `pool_size` connections (storage/pg_pool.h)
// and applies the schema migrations (storage/pg_schema.h) to the schema the
// DSN's search_path names (default `public`). An unreachable server is
// UNAVAILABLE; another application's or a newer schema FAILED_PRECONDITION.
//
// Writes: AppendMove without ratings is one statement, so one round trip
// (`WITH u AS (UPDATE matches ... WHERE id = $1 AND ply = $n - 1 RETURNING id)
// INSERT INTO moves ... FROM u`); the move row carries the client request id
// and first reply (the idempotency record). A rated end is one transaction:
// the players' rating rows locked in player-id order (one player may finish
// two matches at once), the move, the changes and the new ratings. A commit
// is durable when acknowledged (synchronous_commit as the server sets it).
//
// Errors beyond store.h's: UNAVAILABLE when the server is unreachable or
// went away mid-request (the pool reconnects by itself later), when a lock
// held elsewhere outlasted lock_timeout_ms, and when a
// serialization failure or deadlock persisted through PgPool::kMaxRetries
// retries. An AppendMove whose commit was cut off is checked on a fresh
// connection and reported OK if the move is stored.
// Thread-safety: all methods may be called from any thread; up to pool_size
// run at once.

#ifndef MANCALA_STORAGE_PG_STORE_H_
#define MANCALA_STORAGE_PG_STORE_H_

#include <functional>
#include <memory>
#include <string>

#include "storage/pg_append_batcher.h"
#include "storage/pg_pool.h"
#include "storage/store.h"

namespace pqxx {
class transaction_base;
}  // namespace pqxx

namespace mancala::storage {

class PgStore final : public Store {
 public:
  // `lock_timeout_ms`: how long a statement waits for a lock another
  // session holds (an outside LOCK TABLE, a long transaction) before the
  // call answers UNAVAILABLE; at least 1 ms. `call_bound_ms`: the longest
  // any call may take (pg_pool.h PgPoolOptions::bound), deadline or not.
  static absl::StatusOr<std::unique_ptr<PgStore>> Open(
      const std::string& dsn, int pool_size, int lock_timeout_ms = 5000,
      int call_bound_ms = 10'000);
  ~PgStore() override;

  // Also tells the pool where to report the database's failures.
  void set_metrics(StoreMetrics* metrics) override;

  // OK if the server answers now (health checks).
  absl::Status Ping();
  // The append batcher's statements and moves (tests, benchmarks), and
  // its threads: batches in flight at once (pg_append_batcher.h). Two: one
  // batch fills while the other commits. With 8 every move of 8 clients
  // went alone (a statement and a commit each); measured with 1, 2, 4 and
  // 8 (service_bench --postgres, PostgreSQL on the same 2 cores), 2 gave
  // the most moves at 8, 64 and 256 clients (1.1-1.4x of 8's; 1 left the
  // database idle during each commit).
  PgAppendBatcher::Stats append_stats() const { return batcher_->stats(); }
  static constexpr int kAppendThreads = 2;

  absl::Status CreatePlayer(const PlayerRecord& player) override;
  absl::StatusOr<PlayerRecord> GetPlayer(const std::string& id) override;
  absl::StatusOr<PlayerRecord> FindPlayerByTokenHash(
      const std::string& token_hash) override;
  // Credentials: pg_credentials.cc.
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
  absl::StatusOr<MatchRecord> GetMatch(const std::string& id) override;
  absl::StatusOr<MatchRecord> FindMatchByRequestId(
      const std::string& creator_id, const std::string& request_id) override;
  absl::StatusOr<int> CountWaitingMatches(
      const std::string& creator_id) override;
  absl::StatusOr<std::vector<std::string>> ListMatchIds(
      MatchStatus status) override;

  // Moves that do not end a rated match go through the batcher
  // (pg_append_batcher.h): many matches' moves per statement and commit.
  absl::Status AppendMove(const MoveRow& move,
                          const MatchUpdate& update) override;
  void AppendMoveAsync(MoveRow move, MatchUpdate update,
                       AppendDone done) override;
  absl::StatusOr<MoveRow> FindMoveByRequestId(
      const std::string& match_id, const std::string& request_id) override;
  absl::StatusOr<std::vector<MoveRow>> ListMoves(const std::string& match_id,
                                                 int64_t from_ply,
                                                 int limit) override;
  absl::StatusOr<std::vector<MatchRecord>> ListMatches(
      const MatchFilter& filter, const std::optional<Cursor>& after,
      int limit) override;

  // Ratings and audit: pg_ratings.cc.
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

  // Writes rating changes and upserts ratings in player-id order, inside
  // `tx` (pg_ratings.cc).
  static void WriteRatings(pqxx::transaction_base& tx,
                           const std::vector<RatingChange>& changes,
                           const std::vector<RatingRecord>& ratings);
  // Locks the rating rows of `update`'s players (player-id order, so two
  // ends sharing a player wait instead of deadlocking) and, with
  // update.check_before, FAILED_PRECONDITION if one moved since its change's
  // `before` was read (pg_ratings.cc).
  static absl::Status LockRatings(pqxx::transaction_base& tx,
                                  const MatchUpdate& update);
  // Appends `audit` to the audit log inside `tx` (nothing if its action is
  // empty; pg_credentials.cc).
  static void InsertAudit(pqxx::transaction_base& tx, const AuditRecord& audit);

 private:
  explicit PgStore(std::unique_ptr<PgPool> pool);
  // Why a conditional append changed nothing: NOT_FOUND or ABORTED.
  static absl::Status AppendRefused(pqxx::transaction_base& tx,
                                    const MoveRow& move);
  // After a commit was cut off: OK if exactly this move is stored.
  absl::Status CheckAppended(const MoveRow& move, absl::Status cut_off);
  // One move in its own statement (a rated end: in its own transaction,
  // with the ratings).
  absl::Status AppendOne(const MoveRow& move, const MatchUpdate& update);
  // The first match `query` returns; NOT_FOUND (`missing`) if none.
  absl::StatusOr<MatchRecord> OneMatch(
      const char* what, const std::string& missing,
      const std::function<pqxx::result(pqxx::transaction_base&)>& query);

  std::unique_ptr<PgPool> pool_;
  std::unique_ptr<PgAppendBatcher> batcher_;  // Uses pool_: destroyed first.
};

// A PostgreSQL text[] literal of `values` (for `= ANY($n::text[])`).
std::string PgTextArray(const std::vector<std::string>& values);
// Appends `value` to `out` as one quoted element of an array literal (its
// quotes and backslashes escaped): PgTextArray's elements, and those of
// PgAppendBatcher's typed arrays, which PostgreSQL casts from the text.
void AppendPgArrayElement(std::string* out, const std::string& value);

// Deletes the rows of `table` whose timestamptz `column` is more than
// `silent_ms` milliseconds before the server's now(), and returns how many:
// the cluster tables' Forget (node_registry.h, online_players.h). `table`
// and `column` are names from pg_schema.cc, never input. `what` names the
// operation in errors (PgPool::Run's statuses).
absl::StatusOr<int> PgDeleteOlderThan(PgPool& pool, const char* what,
                                      const char* table, const char* column,
                                      int64_t silent_ms);

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_PG_STORE_H_
