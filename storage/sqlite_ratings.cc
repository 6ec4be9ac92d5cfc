// SqliteStore: ratings, rating changes, voiding and the audit log.

#include <SQLiteCpp/SQLiteCpp.h>

#include "storage/sqlite_store.h"

namespace mancala::storage {
namespace {

RatingRecord ReadRating(SQLite::Statement& q) {
  RatingRecord r;
  r.player_id = q.getColumn(0).getString();
  r.game = q.getColumn(1).getString();
  r.value = {q.getColumn(2).getDouble(), q.getColumn(3).getDouble(),
             q.getColumn(4).getDouble()};
  r.games = q.getColumn(5).getInt();
  r.last_rated_at_ms = q.getColumn(6).getInt64();
  return r;
}

constexpr char kRatingColumns[] =
    "player_id, game, rating, rd, volatility, games, last_rated_at_ms";
constexpr char kChangeColumns[] =
    "match_id, player_id, game, seat, rank, rating_before, rd_before, "
    "vol_before, rating_after, rd_after, vol_after, rated_at_ms";

RatingChange ReadChange(SQLite::Statement& q) {
  RatingChange c;
  c.match_id = q.getColumn(0).getString();
  c.player_id = q.getColumn(1).getString();
  c.game = q.getColumn(2).getString();
  c.seat = q.getColumn(3).getInt();
  c.rank = q.getColumn(4).getInt();
  c.before = {q.getColumn(5).getDouble(), q.getColumn(6).getDouble(),
              q.getColumn(7).getDouble()};
  c.after = {q.getColumn(8).getDouble(), q.getColumn(9).getDouble(),
             q.getColumn(10).getDouble()};
  c.rated_at_ms = q.getColumn(11).getInt64();
  return c;
}

}  // namespace

void SqliteStore::WriteRatings(Connection& c,
                               const std::vector<RatingChange>& changes,
                               const std::vector<RatingRecord>& ratings) {
  for (const RatingChange& r : changes) {
    auto q =
        c.Prepare(std::string("INSERT INTO rating_changes (") + kChangeColumns +
                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q->bind(1, r.match_id);
    q->bind(2, r.player_id);
    q->bind(3, r.game);
    q->bind(4, r.seat);
    q->bind(5, r.rank);
    q->bind(6, r.before.rating);
    q->bind(7, r.before.rd);
    q->bind(8, r.before.volatility);
    q->bind(9, r.after.rating);
    q->bind(10, r.after.rd);
    q->bind(11, r.after.volatility);
    q->bind(12, static_cast<int64_t>(r.rated_at_ms));
    q->exec();
  }
  for (const RatingRecord& r : ratings) {
    auto q = c.Prepare(std::string("INSERT OR REPLACE INTO ratings (") +
                       kRatingColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?)");
    q->bind(1, r.player_id);
    q->bind(2, r.game);
    q->bind(3, r.value.rating);
    q->bind(4, r.value.rd);
    q->bind(5, r.value.volatility);
    q->bind(6, r.games);
    q->bind(7, static_cast<int64_t>(r.last_rated_at_ms));
    q->exec();
  }
}

absl::StatusOr<std::vector<RatingRecord>> SqliteStore::GetRatings(
    const std::string& game, const std::vector<std::string>& player_ids) {
  return ReadAs<std::vector<RatingRecord>>(
      "get ratings", [&](Connection& c, std::vector<RatingRecord>& out) {
        for (const std::string& id : player_ids) {
          auto q = c.Prepare(std::string("SELECT ") + kRatingColumns +
                             " FROM ratings WHERE player_id = ? AND game = ?");
          q->bind(1, id);
          q->bind(2, game);
          if (q->executeStep()) out.push_back(ReadRating(*q));
        }
        return absl::OkStatus();
      });
}

absl::StatusOr<std::vector<RatingRecord>> SqliteStore::ListLeaderboard(
    const std::string& game, double max_rd,
    const std::optional<std::pair<double, std::string>>& after, int limit) {
  return ReadAs<std::vector<
      RatingRecord>>("list leaderboard", [&](Connection& c,
                                             std::vector<RatingRecord>& out) {
    auto q = c.Prepare(
        std::string("SELECT ") + kRatingColumns +
        " FROM ratings WHERE game = :game AND rd < :max_rd AND "
        // Banned players are off the board (few: an index of their own).
        "player_id NOT IN (SELECT id FROM players WHERE banned_at_ms IS NOT "
        "NULL) AND (:first OR rating < :arating OR (rating = :arating AND "
        "player_id > :aid)) ORDER BY rating DESC, player_id LIMIT :limit");
    q->bind(":game", game);
    q->bind(":max_rd", max_rd);
    q->bind(":first", after.has_value() ? 0 : 1);
    q->bind(":arating", after.has_value() ? after->first : 0.0);
    q->bind(":aid", after.has_value() ? after->second : std::string());
    q->bind(":limit", limit);
    while (q->executeStep()) out.push_back(ReadRating(*q));
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<RatingChange>> SqliteStore::ListRatingChanges(
    const std::string& player_id, const std::string& game,
    const std::optional<Cursor>& after, int limit) {
  return ReadAs<std::vector<
      RatingChange>>("list rating changes", [&](Connection& c,
                                                std::vector<RatingChange>&
                                                    out) {
    auto q = c.Prepare(
        std::string("SELECT ") + kChangeColumns +
        " FROM rating_changes WHERE player_id = :player AND game = :game AND "
        "(:first OR rated_at_ms < :atime OR (rated_at_ms = :atime AND "
        "match_id < :aid)) ORDER BY rated_at_ms DESC, match_id DESC "
        "LIMIT :limit");
    q->bind(":player", player_id);
    q->bind(":game", game);
    q->bind(":first", after.has_value() ? 0 : 1);
    q->bind(":atime", static_cast<int64_t>(after ? after->time_ms : 0));
    q->bind(":aid", after ? after->id : std::string());
    q->bind(":limit", limit);
    while (q->executeStep()) out.push_back(ReadChange(*q));
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<RatingChange>> SqliteStore::ListGameRatingChanges(
    const std::string& game) {
  return ReadAs<std::vector<RatingChange>>(
      "list game rating changes",
      [&](Connection& c, std::vector<RatingChange>& out) {
        auto q = c.Prepare(std::string("SELECT ") + kChangeColumns +
                           " FROM rating_changes WHERE game = ? "
                           "ORDER BY rated_at_ms, match_id, seat");
        q->bind(1, game);
        while (q->executeStep()) out.push_back(ReadChange(*q));
        return absl::OkStatus();
      });
}

absl::StatusOr<std::vector<RatingChange>> SqliteStore::ListMatchRatingChanges(
    const std::string& match_id) {
  return ReadAs<std::vector<RatingChange>>(
      "list match rating changes",
      [&](Connection& c, std::vector<RatingChange>& out) {
        auto q =
            c.Prepare(std::string("SELECT ") + kChangeColumns +
                      " FROM rating_changes WHERE match_id = ? ORDER BY seat");
        q->bind(1, match_id);
        while (q->executeStep()) out.push_back(ReadChange(*q));
        return absl::OkStatus();
      });
}

absl::Status SqliteStore::VoidMatch(const std::string& match_id,
                                    const std::string& reason,
                                    const std::string& game,
                                    const std::vector<RatingChange>& changes,
                                    const std::vector<RatingRecord>& ratings,
                                    const AuditRecord& audit) {
  return Write("void match", [&](Connection& c) {
    {
      auto v = c.Prepare(
          "UPDATE matches SET voided = 1, void_reason = ? WHERE id = ? AND "
          "voided = 0");
      v->bind(1, reason);
      v->bind(2, match_id);
      if (v->exec() == 0) {
        return absl::FailedPreconditionError("match " + match_id +
                                             " is unknown or already void");
      }
    }
    for (const char* sql : {"DELETE FROM rating_changes WHERE game = ?",
                            "DELETE FROM ratings WHERE game = ?"}) {
      auto d = c.Prepare(sql);
      d->bind(1, game);
      d->exec();
    }
    WriteRatings(c, changes, ratings);
    InsertAudit(c, audit);
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<AuditRecord>> SqliteStore::ListAuditLog(
    int64_t before_id, int limit) {
  return ReadAs<std::vector<AuditRecord>>(
      "list audit log", [&](Connection& c, std::vector<AuditRecord>& out) {
        auto q = c.Prepare(
            "SELECT id, at_ms, actor, action, target, reason FROM audit_log "
            "WHERE id < ? ORDER BY id DESC LIMIT ?");
        q->bind(1, static_cast<int64_t>(before_id));
        q->bind(2, limit);
        while (q->executeStep()) {
          out.push_back(
              {q->getColumn(0).getInt64(), q->getColumn(1).getInt64(),
               q->getColumn(2).getString(), q->getColumn(3).getString(),
               q->getColumn(4).getString(), q->getColumn(5).getString()});
        }
        return absl::OkStatus();
      });
}

}  // namespace mancala::storage
