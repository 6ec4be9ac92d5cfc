// PgStore: tokens, bans and the audit entries that record them
// (store.h "Credentials"). Changes are marked with the database's clock,
// the one clock every node polling ListCredentialChanges shares.

#include <pqxx/pqxx>

#include "storage/pg_store.h"

namespace mancala::storage {

void PgStore::InsertAudit(pqxx::transaction_base& tx,
                          const AuditRecord& audit) {
  if (audit.action.empty()) return;
  tx.exec_params(
      "INSERT INTO audit_log (at_ms, actor, action, target, reason) "
      "VALUES ($1, $2, $3, $4, $5)",
      audit.at_ms, audit.actor, audit.action, audit.target, audit.reason);
}

absl::Status PgStore::ReplaceTokenHash(const std::string& player_id,
                                       const std::string& token_hash,
                                       const AuditRecord& audit) {
  return pool_->Run("replace token", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    pqxx::result r = tx.exec_params(
        "UPDATE players SET token_hash = $1, credentials_changed_at = "
        "clock_timestamp() WHERE id = $2",
        token_hash, player_id);
    if (r.affected_rows() == 0) {
      return absl::NotFoundError("player " + player_id);
    }
    InsertAudit(tx, audit);
    tx.commit();
    return absl::OkStatus();
  });
}

absl::Status PgStore::SetBan(const std::string& player_id, int64_t banned_at_ms,
                             const AuditRecord& audit) {
  return pool_->Run("set ban", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    // Only a change of state is written: a ban of a banned player (or a
    // lift of a free one) touches no row.
    pqxx::result r = tx.exec_params(
        banned_at_ms > 0
            ? "UPDATE players SET banned_at_ms = $1, credentials_changed_at = "
              "clock_timestamp() WHERE id = $2 AND banned_at_ms IS NULL"
            : "UPDATE players SET banned_at_ms = NULLIF($1, 0), "
              "credentials_changed_at = clock_timestamp() WHERE id = $2 AND "
              "banned_at_ms IS NOT NULL",
        banned_at_ms, player_id);
    if (r.affected_rows() == 0) {
      if (tx.exec_params("SELECT 1 FROM players WHERE id = $1", player_id)
              .empty()) {
        return absl::NotFoundError("player " + player_id);
      }
      return absl::FailedPreconditionError(
          "player " + player_id +
          (banned_at_ms > 0 ? " is banned already" : " is not banned"));
    }
    InsertAudit(tx, audit);
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<CredentialChanges> PgStore::ListCredentialChanges(
    int64_t since_ms) {
  CredentialChanges out;
  absl::Status s =
      pool_->Run("list credential changes", [&](pqxx::connection& c) {
        out = CredentialChanges{};
        pqxx::nontransaction tx(c);
        // One round trip: the clock's row, joined with the changed players
        // (a NULL id when there are none).
        pqxx::result r = tx.exec_params(
            "SELECT n.ms, p.id FROM (SELECT (extract(epoch FROM "
            "clock_timestamp()) * 1000)::bigint AS ms) n LEFT JOIN players p "
            "ON p.credentials_changed_at >= to_timestamp($1::bigint / "
            "1000.0)",
            since_ms);
        for (const pqxx::row& row : r) {
          out.as_of_ms = row[0].as<int64_t>();
          if (!row[1].is_null())
            out.player_ids.push_back(row[1].as<std::string>());
        }
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  return out;
}

}  // namespace mancala::storage
