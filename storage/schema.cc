#include "storage/schema.h"

#include <SQLiteCpp/SQLiteCpp.h>

#include <string>
#include <vector>

namespace mancala::storage {
namespace {

// Migration i (1-based) takes user_version i-1 to i. Never edit a shipped
// migration: add a new one.
const std::vector<std::string>& Migrations() {
  static const std::vector<std::string> kMigrations = {
      // 1: players, matches with seats, moves.
      R"sql(
CREATE TABLE players (
  id            TEXT PRIMARY KEY,
  display_name  TEXT NOT NULL,
  guest         INTEGER NOT NULL,
  token_hash    TEXT NOT NULL UNIQUE,
  created_at_ms INTEGER NOT NULL
);
CREATE TABLE matches (
  id            TEXT PRIMARY KEY,
  game          TEXT NOT NULL,
  options       TEXT NOT NULL,
  first_seat    INTEGER NOT NULL,
  status        TEXT NOT NULL,
  ply           INTEGER NOT NULL,
  created_by    TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  ended_at_ms   INTEGER NOT NULL,
  result        BLOB NOT NULL,
  ranked        INTEGER NOT NULL,
  turn_limit_s  INTEGER NOT NULL,
  invite_code   TEXT,
  rotate_first_player INTEGER NOT NULL,
  rematch_of    TEXT,
  rematch_id    TEXT
);
CREATE INDEX matches_by_status ON matches (status, created_at_ms, id);
CREATE UNIQUE INDEX matches_by_invite ON matches (invite_code)
  WHERE invite_code IS NOT NULL;
CREATE TABLE seats (
  match_id   TEXT NOT NULL REFERENCES matches (id),
  seat       INTEGER NOT NULL,
  kind       TEXT NOT NULL,
  player_id  TEXT,
  cpu_level  INTEGER NOT NULL,
  PRIMARY KEY (match_id, seat)
);
CREATE INDEX seats_by_player ON seats (player_id);
CREATE TABLE moves (
  match_id      TEXT NOT NULL REFERENCES matches (id),
  ply           INTEGER NOT NULL,
  seat          INTEGER NOT NULL,
  pit           INTEGER NOT NULL,
  by_cpu        INTEGER NOT NULL,
  played_at_ms  INTEGER NOT NULL,
  events        BLOB NOT NULL,
  cpu_reason    INTEGER NOT NULL,
  request_id    TEXT,
  reply         BLOB,
  PRIMARY KEY (match_id, ply)
) WITHOUT ROWID;
CREATE UNIQUE INDEX moves_by_request ON moves (match_id, request_id)
  WHERE request_id IS NOT NULL;
)sql",
      // 2: ratings, the audit log, voided matches, and the indexes that
      // serve match history (newest first, by player, game or status).
      R"sql(
ALTER TABLE matches ADD COLUMN voided INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN void_reason TEXT NOT NULL DEFAULT '';
CREATE INDEX matches_by_created ON matches (created_at_ms DESC, id DESC);
CREATE INDEX matches_by_game ON matches (game, created_at_ms DESC, id DESC);
DROP INDEX matches_by_status;
CREATE INDEX matches_by_status ON matches (status, created_at_ms DESC, id DESC);
CREATE INDEX matches_by_ended ON matches (ended_at_ms DESC, id DESC);
CREATE TABLE match_players (
  player_id     TEXT NOT NULL,
  match_id      TEXT NOT NULL REFERENCES matches (id),
  created_at_ms INTEGER NOT NULL,
  PRIMARY KEY (player_id, match_id)
) WITHOUT ROWID;
CREATE INDEX match_players_by_time
  ON match_players (player_id, created_at_ms DESC, match_id DESC);
INSERT OR IGNORE INTO match_players
  SELECT s.player_id, s.match_id, m.created_at_ms
  FROM seats s JOIN matches m ON m.id = s.match_id
  WHERE s.player_id IS NOT NULL;
CREATE TABLE ratings (
  player_id        TEXT NOT NULL,
  game             TEXT NOT NULL,
  rating           REAL NOT NULL,
  rd               REAL NOT NULL,
  volatility       REAL NOT NULL,
  games            INTEGER NOT NULL,
  last_rated_at_ms INTEGER NOT NULL,
  PRIMARY KEY (player_id, game)
) WITHOUT ROWID;
CREATE INDEX ratings_leaderboard ON ratings (game, rating DESC, player_id);
CREATE TABLE rating_changes (
  match_id       TEXT NOT NULL REFERENCES matches (id),
  player_id      TEXT NOT NULL,
  game           TEXT NOT NULL,
  seat           INTEGER NOT NULL,
  rank           INTEGER NOT NULL,
  rating_before  REAL NOT NULL,
  rd_before      REAL NOT NULL,
  vol_before     REAL NOT NULL,
  rating_after   REAL NOT NULL,
  rd_after       REAL NOT NULL,
  vol_after      REAL NOT NULL,
  rated_at_ms    INTEGER NOT NULL,
  PRIMARY KEY (match_id, player_id)
) WITHOUT ROWID;
CREATE INDEX rating_changes_by_player
  ON rating_changes (player_id, game, rated_at_ms DESC, match_id DESC);
CREATE INDEX rating_changes_by_game
  ON rating_changes (game, rated_at_ms, match_id);
CREATE TABLE audit_log (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  at_ms   INTEGER NOT NULL,
  actor   TEXT NOT NULL,
  action  TEXT NOT NULL,
  target  TEXT NOT NULL,
  reason  TEXT NOT NULL
);
)sql",
      // 3: CreateMatch request ids (unique per creator), the reason a
      // match was cancelled, and the waiting matches of each creator
      // (--max-waiting-matches-per-player counts them).
      R"sql(
ALTER TABLE matches ADD COLUMN request_id TEXT;
ALTER TABLE matches ADD COLUMN request_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN cancel_reason TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX matches_by_request ON matches (created_by, request_id)
  WHERE request_id IS NOT NULL;
CREATE INDEX matches_waiting_by_creator ON matches (created_by)
  WHERE status = 'waiting';
)sql",
      // 4: bans, and when a player's credentials (token or ban) last
      // changed, for the token caches (Store::ListCredentialChanges; only
      // changed players are in the index).
      R"sql(
ALTER TABLE players ADD COLUMN banned_at_ms INTEGER;
ALTER TABLE players ADD COLUMN credentials_changed_at_ms INTEGER;
CREATE INDEX players_banned ON players (id) WHERE banned_at_ms IS NOT NULL;
CREATE INDEX players_credentials_changed
  ON players (credentials_changed_at_ms)
  WHERE credentials_changed_at_ms IS NOT NULL;
)sql",
  };
  return kMigrations;
}

}  // namespace

int SchemaVersion() { return static_cast<int>(Migrations().size()); }

absl::Status Migrate(SQLite::Database& db) {
  try {
    int app_id = db.execAndGet("PRAGMA application_id").getInt();
    int version = db.execAndGet("PRAGMA user_version").getInt();
    if (app_id != 0 && app_id != kApplicationId) {
      return absl::FailedPreconditionError(
          "database file belongs to another application (application_id " +
          std::to_string(app_id) + ")");
    }
    if (app_id == 0 && version != 0) {
      return absl::FailedPreconditionError(
          "database file has a schema but is not a mancala-server database");
    }
    if (version > SchemaVersion()) {
      return absl::FailedPreconditionError(
          "database schema version " + std::to_string(version) +
          " is newer than this build supports (" +
          std::to_string(SchemaVersion()) + "); upgrade mancalad");
    }
    for (int v = version; v < SchemaVersion(); ++v) {
      SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
      db.exec(Migrations()[v]);
      db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
      db.exec("PRAGMA user_version = " + std::to_string(v + 1));
      tx.commit();
    }
  } catch (const SQLite::Exception& e) {
    return absl::InternalError(std::string("schema migration failed: ") +
                               e.what());
  }
  return absl::OkStatus();
}

}  // namespace mancala::storage
