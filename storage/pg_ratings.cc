// PgStore: ratings, rating changes, voiding and the audit log.

#include <algorithm>
#include <map>
#include <pqxx/pqxx>

#include "storage/pg_store.h"

namespace mancala::storage {
namespace {

constexpr char kRatingColumns[] =
    "player_id, game, rating, rd, volatility, games, last_rated_at_ms";
constexpr char kChangeColumns[] =
    "match_id, player_id, game, seat, rank, rating_before, rd_before, "
    "vol_before, rating_after, rd_after, vol_after, rated_at_ms";

RatingRecord ReadRating(const pqxx::row& r) {
  RatingRecord out;
  out.player_id = r[0].as<std::string>();
  out.game = r[1].as<std::string>();
  out.value = {r[2].as<double>(), r[3].as<double>(), r[4].as<double>()};
  out.games = r[5].as<int>();
  out.last_rated_at_ms = r[6].as<int64_t>();
  return out;
}

RatingChange ReadChange(const pqxx::row& r) {
  RatingChange c;
  c.match_id = r[0].as<std::string>();
  c.player_id = r[1].as<std::string>();
  c.game = r[2].as<std::string>();
  c.seat = r[3].as<int>();
  c.rank = r[4].as<int>();
  c.before = {r[5].as<double>(), r[6].as<double>(), r[7].as<double>()};
  c.after = {r[8].as<double>(), r[9].as<double>(), r[10].as<double>()};
  c.rated_at_ms = r[11].as<int64_t>();
  return c;
}

// Runs a read-only `sql` with `args` and collects its rows as `T`s.
template <class T, class... Args>
absl::StatusOr<std::vector<T>> Collect(PgPool& pool, const char* what,
                                       T (*read)(const pqxx::row&),
                                       const std::string& sql,
                                       const Args&... args) {
  std::vector<T> out;
  absl::Status s = pool.Run(what, [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    out.clear();
    for (const auto& row : tx.exec_params(sql, args...)) {
      out.push_back(read(row));
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace

void PgStore::WriteRatings(pqxx::transaction_base& tx,
                           const std::vector<RatingChange>& changes,
                           const std::vector<RatingRecord>& ratings) {
  for (const RatingChange& c : changes) {
    tx.exec_params(
        std::string("INSERT INTO rating_changes (") + kChangeColumns +
            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
            "$11, $12)",
        c.match_id, c.player_id, c.game, c.seat, c.rank, c.before.rating,
        c.before.rd, c.before.volatility, c.after.rating, c.after.rd,
        c.after.volatility, c.rated_at_ms);
  }
  // Player-id order, the order AppendMove locks them in.
  std::vector<const RatingRecord*> sorted;
  for (const RatingRecord& r : ratings) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const RatingRecord* a, const RatingRecord* b) {
              return a->player_id < b->player_id;
            });
  for (const RatingRecord* r : sorted) {
    tx.exec_params(std::string("INSERT INTO ratings (") + kRatingColumns +
                       ") VALUES ($1, $2, $3, $4, $5, $6, $7) "
                       "ON CONFLICT (player_id, game) DO UPDATE SET "
                       "rating = EXCLUDED.rating, rd = EXCLUDED.rd, "
                       "volatility = EXCLUDED.volatility, "
                       "games = EXCLUDED.games, "
                       "last_rated_at_ms = EXCLUDED.last_rated_at_ms",
                   r->player_id, r->game, r->value.rating, r->value.rd,
                   r->value.volatility, r->games, r->last_rated_at_ms);
  }
}

absl::Status PgStore::LockRatings(pqxx::transaction_base& tx,
                                  const MatchUpdate& update) {
  std::vector<std::string> players;
  for (const RatingRecord& r : update.new_ratings) {
    players.push_back(r.player_id);
  }
  std::sort(players.begin(), players.end());
  pqxx::result rows = tx.exec_params(
      std::string("SELECT ") + kRatingColumns +
          " FROM ratings WHERE game = $1 AND player_id = ANY($2::text[]) "
          "ORDER BY player_id FOR UPDATE",
      update.new_ratings.front().game, PgTextArray(players));
  if (!update.check_before) return absl::OkStatus();
  std::map<std::string, RatingRecord> stored;
  for (const auto& row : rows) {
    RatingRecord r = ReadRating(row);
    stored.emplace(r.player_id, std::move(r));
  }
  // The values read back are the doubles written (float8 round-trips), so
  // equality is exact, not approximate.
  for (const RatingRecord& next : update.new_ratings) {
    const RatingChange* change = nullptr;
    for (const RatingChange& c : update.rating_changes) {
      if (c.player_id == next.player_id) change = &c;
    }
    auto it = stored.find(next.player_id);
    const bool unchanged =
        it == stored.end()
            ? next.games == 1
            : change != nullptr && it->second.games == next.games - 1 &&
                  it->second.value.rating == change->before.rating &&
                  it->second.value.rd == change->before.rd &&
                  it->second.value.volatility == change->before.volatility;
    if (!unchanged) {
      return absl::FailedPreconditionError("the rating of " + next.player_id +
                                           " in " + next.game +
                                           " changed since it was read");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<RatingRecord>> PgStore::GetRatings(
    const std::string& game, const std::vector<std::string>& player_ids) {
  // In the order asked, as SqliteStore answers.
  return Collect(*pool_, "get ratings", ReadRating,
                 std::string("SELECT ") + kRatingColumns +
                     " FROM ratings WHERE game = $1 AND player_id = "
                     "ANY($2::text[]) ORDER BY array_position($2::text[], "
                     "player_id)",
                 game, PgTextArray(player_ids));
}

absl::StatusOr<std::vector<RatingRecord>> PgStore::ListLeaderboard(
    const std::string& game, double max_rd,
    const std::optional<std::pair<double, std::string>>& after, int limit) {
  return Collect(
      *pool_, "list leaderboard", ReadRating,
      std::string("SELECT ") + kRatingColumns +
          " FROM ratings WHERE game = $1 AND rd < $2 AND ($3 OR rating < $4 "
          "OR (rating = $4 AND player_id > $5)) "
          // Banned players are off the board (few: an index of their own).
          "AND player_id NOT IN (SELECT id FROM players WHERE banned_at_ms "
          "IS NOT NULL) "
          "ORDER BY rating DESC, player_id LIMIT $6",
      game, max_rd, !after.has_value(), after ? after->first : 0.0,
      after ? after->second : std::string(), limit);
}

absl::StatusOr<std::vector<RatingChange>> PgStore::ListRatingChanges(
    const std::string& player_id, const std::string& game,
    const std::optional<Cursor>& after, int limit) {
  return Collect(
      *pool_, "list rating changes", ReadChange,
      std::string("SELECT ") + kChangeColumns +
          " FROM rating_changes WHERE player_id = $1 AND game = $2 AND "
          "($3 OR (rated_at_ms, match_id) < ($4::bigint, $5)) "
          "ORDER BY rated_at_ms DESC, match_id DESC LIMIT $6",
      player_id, game, !after.has_value(), after ? after->time_ms : int64_t{0},
      after ? after->id : std::string(), limit);
}

absl::StatusOr<std::vector<RatingChange>> PgStore::ListGameRatingChanges(
    const std::string& game) {
  return Collect(*pool_, "list game rating changes", ReadChange,
                 std::string("SELECT ") + kChangeColumns +
                     " FROM rating_changes WHERE game = $1 "
                     "ORDER BY rated_at_ms, match_id, seat",
                 game);
}

absl::StatusOr<std::vector<RatingChange>> PgStore::ListMatchRatingChanges(
    const std::string& match_id) {
  return Collect(*pool_, "list match rating changes", ReadChange,
                 std::string("SELECT ") + kChangeColumns +
                     " FROM rating_changes WHERE match_id = $1 ORDER BY seat",
                 match_id);
}

absl::Status PgStore::VoidMatch(const std::string& match_id,
                                const std::string& reason,
                                const std::string& game,
                                const std::vector<RatingChange>& changes,
                                const std::vector<RatingRecord>& ratings,
                                const AuditRecord& audit) {
  return pool_->Run("void match", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    pqxx::result v = tx.exec_params(
        "UPDATE matches SET voided = TRUE, void_reason = $1 WHERE id = $2 "
        "AND NOT voided",
        reason, match_id);
    if (v.affected_rows() == 0) {
      return absl::FailedPreconditionError("match " + match_id +
                                           " is unknown or already void");
    }
    tx.exec_params("DELETE FROM rating_changes WHERE game = $1", game);
    tx.exec_params("DELETE FROM ratings WHERE game = $1", game);
    WriteRatings(tx, changes, ratings);
    InsertAudit(tx, audit);
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<AuditRecord>> PgStore::ListAuditLog(
    int64_t before_id, int limit) {
  return Collect(
      *pool_, "list audit log",
      +[](const pqxx::row& r) -> AuditRecord {
        return {r[0].as<int64_t>(),     r[1].as<int64_t>(),
                r[2].as<std::string>(), r[3].as<std::string>(),
                r[4].as<std::string>(), r[5].as<std::string>()};
      },
      "SELECT id, at_ms, actor, action, target, reason FROM "
      "audit_log WHERE id < $1 ORDER BY id DESC LIMIT $2",
      before_id, limit);
}

}  // namespace mancala::storage
