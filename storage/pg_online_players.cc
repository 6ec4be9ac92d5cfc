#include <pqxx/pqxx>

#include "storage/pg_cluster.h"
#include "storage/pg_store.h"

namespace mancala::storage {

absl::StatusOr<int> PgOnlineRoster::MarkAndCount(
    const std::vector<std::string>& player_ids, int64_t grace_ms) {
  int online = 0;
  absl::Status s = pool_.Run("online players", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    // One statement, so the count cannot see the rows its own upsert wrote:
    // the players just marked are counted from the array instead, and the
    // UNION counts a player once whichever way they come.
    pqxx::result r = tx.exec_params(
        "WITH marked AS (INSERT INTO online_players (player_id, seen_at) "
        "SELECT DISTINCT p, now() FROM unnest($1::text[]) AS p "
        "ON CONFLICT (player_id) DO UPDATE SET seen_at = excluded.seen_at "
        "RETURNING 1) "
        "SELECT count(*) FROM (SELECT player_id FROM online_players WHERE "
        "seen_at > now() - $2::bigint * interval '1 ms' UNION "
        "SELECT p FROM unnest($1::text[]) AS p) AS online",
        PgTextArray(player_ids), grace_ms);
    online = r[0][0].as<int>();
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return online;
}

absl::StatusOr<int> PgOnlineRoster::Forget(int64_t silent_ms) {
  return PgDeleteOlderThan(pool_, "forget online players", "online_players",
                           "seen_at", silent_ms);
}

}  // namespace mancala::storage
