// SqliteStore: tokens, bans and the audit entries that record them
// (store.h "Credentials").

#include <SQLiteCpp/SQLiteCpp.h>

#include <chrono>

#include "storage/sqlite_store.h"

namespace mancala::storage {
namespace {

// The store's clock: one process owns a SQLite database, so its clock is
// the only one that marks and reads the changes.
int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void SqliteStore::InsertAudit(Connection& c, const AuditRecord& audit) {
  if (audit.action.empty()) return;
  auto a = c.Prepare(
      "INSERT INTO audit_log (at_ms, actor, action, target, reason) "
      "VALUES (?, ?, ?, ?, ?)");
  a->bind(1, static_cast<int64_t>(audit.at_ms));
  a->bind(2, audit.actor);
  a->bind(3, audit.action);
  a->bind(4, audit.target);
  a->bind(5, audit.reason);
  a->exec();
}

absl::Status SqliteStore::ReplaceTokenHash(const std::string& player_id,
                                           const std::string& token_hash,
                                           const AuditRecord& audit) {
  return Write("replace token", [&](Connection& c) {
    auto q = c.Prepare(
        "UPDATE players SET token_hash = ?, credentials_changed_at_ms = ? "
        "WHERE id = ?");
    q->bind(1, token_hash);
    q->bind(2, NowMs());
    q->bind(3, player_id);
    if (q->exec() == 0) return absl::NotFoundError("player " + player_id);
    InsertAudit(c, audit);
    return absl::OkStatus();
  });
}

absl::Status SqliteStore::SetBan(const std::string& player_id,
                                 int64_t banned_at_ms,
                                 const AuditRecord& audit) {
  return Write("set ban", [&](Connection& c) {
    // Only a change of state is written: a ban of a banned player (or a
    // lift of a free one) touches no row.
    auto q = c.Prepare(
        banned_at_ms > 0
            ? "UPDATE players SET banned_at_ms = ?, "
              "credentials_changed_at_ms = ? WHERE id = ? AND banned_at_ms "
              "IS NULL"
            : "UPDATE players SET banned_at_ms = NULLIF(?, 0), "
              "credentials_changed_at_ms = ? WHERE id = ? AND banned_at_ms "
              "IS NOT NULL");
    q->bind(1, static_cast<int64_t>(banned_at_ms));
    q->bind(2, NowMs());
    q->bind(3, player_id);
    if (q->exec() == 0) {
      auto known = c.Prepare("SELECT 1 FROM players WHERE id = ?");
      known->bind(1, player_id);
      if (!known->executeStep()) {
        return absl::NotFoundError("player " + player_id);
      }
      return absl::FailedPreconditionError(
          "player " + player_id +
          (banned_at_ms > 0 ? " is banned already" : " is not banned"));
    }
    InsertAudit(c, audit);
    return absl::OkStatus();
  });
}

absl::StatusOr<CredentialChanges> SqliteStore::ListCredentialChanges(
    int64_t since_ms) {
  return ReadAs<CredentialChanges>(
      "list credential changes", [&](Connection& c, CredentialChanges& out) {
        out.as_of_ms = NowMs();
        auto q = c.Prepare(
            "SELECT id FROM players WHERE credentials_changed_at_ms >= ?");
        q->bind(1, static_cast<int64_t>(since_ms));
        while (q->executeStep()) {
          out.player_ids.push_back(q->getColumn(0).getString());
        }
        return absl::OkStatus();
      });
}

}  // namespace mancala::storage
