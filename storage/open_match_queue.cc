#include "storage/open_match_queue.h"

#include "storage/memory_match_queue.h"
#include "storage/open_store.h"
#ifdef MANCALA_HAVE_POSTGRES
#include "storage/pg_match_queue.h"
#endif

namespace mancala::storage {

absl::StatusOr<std::unique_ptr<MatchQueue>> OpenMatchQueue(
    const std::string& db, const std::string& node_id,
    std::function<int64_t()> now_ms, bool test_clock) {
#ifdef MANCALA_HAVE_POSTGRES
  if (IsPostgresUrl(db)) {
    auto pg = PgMatchQueue::Open(db, node_id, PgMatchQueue::kDefaultExpireMs,
                                 test_clock ? std::move(now_ms) : nullptr);
    if (!pg.ok()) return pg.status();
    return std::unique_ptr<MatchQueue>(*std::move(pg));
  }
#endif
  // OpenStore has refused a PostgreSQL URL in a build without libpqxx.
  return std::unique_ptr<MatchQueue>(std::make_unique<MemoryMatchQueue>(
      node_id.empty() ? "local" : node_id, std::move(now_ms)));
}

}  // namespace mancala::storage
