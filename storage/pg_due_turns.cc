#include <pqxx/pqxx>

#include "storage/pg_cluster.h"
#include "storage/pg_turn_deadline.h"

namespace mancala::storage {
namespace {

// A node counts as alive while its heartbeat is younger than $1 ms.
constexpr char kLiveNode[] =
    "SELECT id FROM nodes WHERE heartbeat_at > now() - $1::bigint * "
    "interval '1 ms'";

// When the service last came back after no node was alive (NULL: never;
// migration 5): a turn and a grace period count from then at the earliest.
constexpr char kResumed[] = "(SELECT at FROM service_resumed)";

// The turn to move of every in-progress match that no live node has
// claimed, with its deadline (pg_turn_deadline.h) and when its player was
// last seen, as if seen when the service came back, if that is later
// (greatest() skips a NULL). $1: dead_after_ms.
std::string Candidates() {
  return std::string("WITH live AS (") + kLiveNode +
         "), c AS (SELECT m.id, m.ply, t.seat, s.kind, s.seen_node, " +
         PgTurnDeadlineSql() +
         " AS deadline, "
         "greatest(coalesce(s.seen_at, to_timestamp(m.updated_at_ms / "
         "1000.0)), " +
         kResumed +
         ") AS seen "
         "FROM matches m "
         "CROSS JOIN LATERAL (SELECT coalesce(m.to_move, m.first_seat) AS "
         "seat) t "
         "JOIN seats s ON s.match_id = m.id AND s.seat = t.seat "
         "WHERE m.status = 'in_progress' AND NOT (m.claim_ply IS NOT "
         "DISTINCT FROM m.ply AND m.claim_until > now() AND m.claim_node IN "
         "(SELECT id FROM live))) ";
}

}  // namespace

std::string PgTurnDeadlineSql() {
  return std::string(
             "CASE WHEN m.turn_limit_s > 0 THEN greatest(coalesce(m.due_at, "
             "to_timestamp(m.updated_at_ms / 1000.0) + m.turn_limit_s * "
             "interval '1 s'), ") +
         kResumed + " + m.turn_limit_s * interval '1 s') END";
}

namespace {

absl::Status NoSuchSeat(const std::string& match_id, int seat) {
  return absl::NotFoundError("seat " + std::to_string(seat) + " of match " +
                             match_id);
}

}  // namespace

absl::StatusOr<std::vector<DueTurn>> PgDueTurns::ListDue(
    const DueTiming& timing, int limit) {
  std::vector<DueTurn> out;
  absl::Status s = pool_.Run("list due turns", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    out.clear();
    // An outage never times a player out: a deadline that passed while the
    // node that last saw the player was dead moves to now + grace, and the
    // seat counts as seen by no node ('') so that deadline then holds.
    tx.exec_params(
        Candidates() +
            ", late AS (SELECT id, seat FROM c WHERE kind = 'player' AND "
            "deadline <= now() AND seen_node <> '' AND seen_node NOT IN "
            "(SELECT id FROM live)), "
            "moved AS (UPDATE matches m SET due_at = now() + $2::bigint * "
            "interval '1 ms' FROM late WHERE m.id = late.id RETURNING m.id) "
            "UPDATE seats s SET seen_node = '' FROM late "
            "WHERE s.match_id = late.id AND s.seat = late.seat",
        timing.dead_after_ms, timing.grace_ms);
    tx.commit();
    pqxx::work read(c);
    for (const auto& row : read.exec_params(
             Candidates() +
                 "SELECT id, ply, seat, CASE WHEN kind = 'cpu' THEN 1 "
                 "WHEN deadline <= now() THEN 2 ELSE 3 END FROM c "
                 "WHERE kind = 'cpu' OR deadline <= now() OR "
                 "(kind = 'player' AND seen + $2::bigint * interval '1 ms' "
                 "<= now()) "
                 "ORDER BY least(deadline, seen + $2::bigint * interval "
                 "'1 ms'), id LIMIT $3",
             timing.dead_after_ms, timing.grace_ms, limit)) {
      out.push_back({row[0].as<std::string>(), row[1].as<int64_t>(),
                     row[2].as<int>(),
                     static_cast<DueReason>(row[3].as<int>())});
    }
    read.commit();
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<bool> PgDueTurns::Claim(const std::string& match_id, int64_t ply,
                                       const std::string& node_id,
                                       int64_t ttl_ms, int64_t dead_after_ms,
                                       int64_t stand_in_grace_ms,
                                       bool timeout) {
  bool claimed = false;
  absl::Status s = pool_.Run("claim turn", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    // Two claimers of one row: the second waits for the first's commit,
    // then re-checks this condition on the claimed row and changes nothing.
    pqxx::result r = tx.exec_params(
        "UPDATE matches m SET claim_node = $3, claim_ply = $2, "
        "claim_until = clock_timestamp() + $4::bigint * interval '1 ms' "
        "WHERE m.id = $1 AND m.ply = $2 AND m.status = 'in_progress' AND "
        "(m.claim_node IS NULL OR m.claim_node = $3 OR m.claim_ply IS "
        "DISTINCT FROM m.ply OR m.claim_until <= now() OR m.claim_node NOT "
        "IN (SELECT id FROM nodes WHERE heartbeat_at > now() - $5::bigint * "
        "interval '1 ms')) AND ($6::bigint <= 0 OR NOT EXISTS (SELECT 1 "
        "FROM seats s WHERE s.match_id = m.id AND s.seat = "
        "coalesce(m.to_move, m.first_seat) AND s.seen_node <> $3 AND "
        "s.seen_node <> '' AND s.seen_at > now() - $6::bigint * "
        "interval '1 ms')) "
        // Nobody is absent, and no turn is over, sooner than a grace
        // period or a full turn after the service came back.
        "AND ($6::bigint <= 0 OR NOT EXISTS (SELECT 1 FROM service_resumed "
        "WHERE at > now() - $6::bigint * interval '1 ms')) "
        "AND (NOT $7::boolean OR m.turn_limit_s <= 0 OR NOT EXISTS (SELECT 1 "
        "FROM service_resumed WHERE at + m.turn_limit_s * interval '1 s' > "
        "now())) "
        // And the service is known to be back: a live node's beat recorded
        // any return (the sweep's thread may get through first).
        "AND (($6::bigint <= 0 AND NOT $7::boolean) OR EXISTS (SELECT 1 "
        "FROM nodes WHERE heartbeat_at > now() - $5::bigint * "
        "interval '1 ms'))",
        match_id, ply, node_id, ttl_ms, dead_after_ms, stand_in_grace_ms,
        timeout);
    claimed = r.affected_rows() == 1;
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return claimed;
}

absl::Status PgDueTurns::MarkSeen(const std::string& match_id, int seat,
                                  const std::string& node_id) {
  return pool_.Run("mark seat seen", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    pqxx::result r = tx.exec_params(
        "UPDATE seats SET seen_node = $3, seen_at = now() "
        "WHERE match_id = $1 AND seat = $2",
        match_id, seat, node_id);
    if (r.affected_rows() == 0) {
      return NoSuchSeat(match_id, seat);
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<bool> PgDueTurns::SeenWithin(const std::string& match_id,
                                            int seat, int64_t grace_ms) {
  bool seen = false;
  absl::Status s = pool_.Run("seat seen", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    pqxx::result r = tx.exec_params(
        "SELECT coalesce(seen_at > now() - $3::bigint * interval '1 ms', "
        "false) FROM seats WHERE match_id = $1 AND seat = $2",
        match_id, seat, grace_ms);
    if (r.empty()) {
      return NoSuchSeat(match_id, seat);
    }
    seen = r[0][0].as<bool>();
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return seen;
}

}  // namespace mancala::storage
