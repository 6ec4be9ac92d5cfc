// The matchmaking queue on PostgreSQL: one row per search in table
// match_queue (migration in storage/pg_schema.cc), shared by every node on
// the database, so players searching on different nodes pair with each
// other and "N searching" counts the whole site.
//
// A claim takes a transaction-scoped advisory lock on its queue key (claims
// of one key take turns across nodes, each seeing all the searches the
// previous one left), locks the key's searching rows with SELECT ... FOR
// UPDATE SKIP LOCKED (skipping rows being cancelled), runs the former and
// marks the chosen rows claimed in the same transaction: no search is ever
// claimed twice. A Cancel waits for the row lock and then sees the claim.
// Every time (enqueued, refreshed, claimed, expiry) is the database clock
// (clock_timestamp()), never a node's. A node refreshes its rows on every
// matchmaker tick; rows not refreshed for `expire_ms` (a dead node's) are
// neither counted nor claimed and are deleted by the next Refresh.
// Thread-safety: all methods from any thread; a small pool of its own
// connections (storage/pg_pool.h).

#ifndef MANCALA_STORAGE_PG_MATCH_QUEUE_H_
#define MANCALA_STORAGE_PG_MATCH_QUEUE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "storage/match_queue.h"
#include "storage/pg_pool.h"

namespace mancala::storage {

class PgMatchQueue final : public MatchQueue {
 public:
  static constexpr int kDefaultExpireMs = 5'000;

  // Connects to `dsn`, whose schema PgStore::Open has migrated. `node_id`:
  // this node's name (empty: hostname-pid-random hex). `test_now_ms` is
  // for tests that move a manual clock: it replaces the database clock for
  // waiting times (never for expiry or claims); production passes none.
  // UNAVAILABLE if the server cannot be reached.
  static absl::StatusOr<std::unique_ptr<PgMatchQueue>> Open(
      const std::string& dsn, std::string node_id,
      int expire_ms = kDefaultExpireMs,
      std::function<int64_t()> test_now_ms = nullptr);

  const std::string& node_id() const override { return node_id_; }
  absl::Status Add(const QueueEntry& entry) override;
  absl::StatusOr<bool> Cancel(const std::string& player_id) override;
  absl::Status Remove(const std::string& search_id) override;
  absl::Status Claim(const std::string& queue_key, const Former& form) override;
  absl::Status Assign(const std::string& search_id, const std::string& match_id,
                      int seat) override;
  absl::Status Release(const std::vector<std::string>& search_ids) override;
  absl::StatusOr<std::vector<OwnSearch>> Refresh() override;
  absl::StatusOr<std::vector<QueueCount>> Counts() override;

 private:
  PgMatchQueue(std::unique_ptr<PgPool> pool, std::string node_id, int expire_ms,
               std::function<int64_t()> test_now_ms);
  // The test clock's time as an SQL parameter; NULL (the database clock)
  // without one.
  const char* TestNow(std::string* buffer) const;

  std::unique_ptr<PgPool> pool_;
  const std::string node_id_;
  const int expire_ms_;
  const std::function<int64_t()> test_now_ms_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_PG_MATCH_QUEUE_H_
