#include "storage/pg_schema.h"

#include <pqxx/pqxx>
#include <string>
#include <vector>

namespace mancala::storage {
namespace {

// Taken for the whole of each migration transaction ("MNCL" in ASCII).
constexpr int64_t kMigrationLock = 0x4D4E434C;

// Migration i (1-based) takes the schema from version i-1 to i. Never edit a
// shipped migration: add a new one. Columns mean what they mean in
// storage/schema.cc. Ids compare bytewise (COLLATE "C"), as in SQLite, so
// listings page in the same order whatever the database's locale.
const std::vector<std::string>& Migrations() {
  static const std::vector<std::string> kMigrations = {
      // 1: players, matches, seats, moves, ratings, audit log, and the
      // indexes that serve match history and leaderboards.
      R"sql(
CREATE TABLE players (
  id            TEXT COLLATE "C" PRIMARY KEY,
  display_name  TEXT NOT NULL,
  guest         BOOLEAN NOT NULL,
  token_hash    TEXT NOT NULL UNIQUE,
  created_at_ms BIGINT NOT NULL
);
CREATE TABLE matches (
  id            TEXT COLLATE "C" PRIMARY KEY,
  game          TEXT NOT NULL,
  options       TEXT NOT NULL,
  first_seat    INTEGER NOT NULL,
  status        TEXT NOT NULL,
  ply           BIGINT NOT NULL,
  created_by    TEXT COLLATE "C" NOT NULL,
  created_at_ms BIGINT NOT NULL,
  updated_at_ms BIGINT NOT NULL,
  ended_at_ms   BIGINT NOT NULL,
  result        BYTEA NOT NULL,
  ranked        BOOLEAN NOT NULL,
  turn_limit_s  INTEGER NOT NULL,
  invite_code   TEXT UNIQUE,
  rotate_first_player BOOLEAN NOT NULL,
  rematch_of    TEXT COLLATE "C",
  rematch_id    TEXT COLLATE "C",
  voided        BOOLEAN NOT NULL DEFAULT FALSE,
  void_reason   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX matches_by_created ON matches (created_at_ms DESC, id DESC);
CREATE INDEX matches_by_game ON matches (game, created_at_ms DESC, id DESC);
CREATE INDEX matches_by_status ON matches (status, created_at_ms DESC, id DESC);
CREATE INDEX matches_by_ended ON matches (ended_at_ms DESC, id DESC);
CREATE TABLE seats (
  match_id   TEXT COLLATE "C" NOT NULL REFERENCES matches (id),
  seat       INTEGER NOT NULL,
  kind       TEXT NOT NULL,
  player_id  TEXT COLLATE "C",
  cpu_level  INTEGER NOT NULL,
  PRIMARY KEY (match_id, seat)
);
CREATE INDEX seats_by_player ON seats (player_id);
CREATE TABLE match_players (
  player_id     TEXT COLLATE "C" NOT NULL,
  match_id      TEXT COLLATE "C" NOT NULL REFERENCES matches (id),
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (player_id, match_id)
);
CREATE INDEX match_players_by_time
  ON match_players (player_id, created_at_ms DESC, match_id DESC);
CREATE TABLE moves (
  match_id      TEXT COLLATE "C" NOT NULL REFERENCES matches (id),
  ply           BIGINT NOT NULL,
  seat          INTEGER NOT NULL,
  pit           INTEGER NOT NULL,
  by_cpu        BOOLEAN NOT NULL,
  played_at_ms  BIGINT NOT NULL,
  events        BYTEA NOT NULL,
  cpu_reason    INTEGER NOT NULL,
  request_id    TEXT,
  reply         BYTEA,
  PRIMARY KEY (match_id, ply),
  UNIQUE (match_id, request_id)
);
CREATE TABLE ratings (
  player_id        TEXT COLLATE "C" NOT NULL,
  game             TEXT NOT NULL,
  rating           DOUBLE PRECISION NOT NULL,
  rd               DOUBLE PRECISION NOT NULL,
  volatility       DOUBLE PRECISION NOT NULL,
  games            INTEGER NOT NULL,
  last_rated_at_ms BIGINT NOT NULL,
  PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_leaderboard ON ratings (game, rating DESC, player_id);
CREATE TABLE rating_changes (
  match_id       TEXT COLLATE "C" NOT NULL REFERENCES matches (id),
  player_id      TEXT COLLATE "C" NOT NULL,
  game           TEXT NOT NULL,
  seat           INTEGER NOT NULL,
  rank           INTEGER NOT NULL,
  rating_before  DOUBLE PRECISION NOT NULL,
  rd_before      DOUBLE PRECISION NOT NULL,
  vol_before     DOUBLE PRECISION NOT NULL,
  rating_after   DOUBLE PRECISION NOT NULL,
  rd_after       DOUBLE PRECISION NOT NULL,
  vol_after      DOUBLE PRECISION NOT NULL,
  rated_at_ms    BIGINT NOT NULL,
  PRIMARY KEY (match_id, player_id)
);
CREATE INDEX rating_changes_by_player
  ON rating_changes (player_id, game, rated_at_ms DESC, match_id DESC);
CREATE INDEX rating_changes_by_game
  ON rating_changes (game, rated_at_ms, match_id);
CREATE TABLE audit_log (
  id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at_ms   BIGINT NOT NULL,
  actor   TEXT NOT NULL,
  action  TEXT NOT NULL,
  target  TEXT NOT NULL,
  reason  TEXT NOT NULL
);
)sql",
      // 2: CreateMatch request ids (unique per creator), the reason a
      // match was cancelled, and the waiting matches of each creator
      // (--max-waiting-matches-per-player counts them).
      R"sql(
ALTER TABLE matches ADD COLUMN request_id TEXT COLLATE "C";
ALTER TABLE matches ADD COLUMN request_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE matches ADD COLUMN cancel_reason TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX matches_by_request ON matches (created_by, request_id)
  WHERE request_id IS NOT NULL;
CREATE INDEX matches_waiting_by_creator ON matches (created_by)
  WHERE status = 'waiting';
)sql",
      // 3: the matchmaking queue shared by every node (PostgreSQL only; a
      // SQLite server keeps it in memory): storage/pg_match_queue.h. One
      // row per search; times are the database's.
      R"sql(
CREATE TABLE match_queue (
  search_id   TEXT COLLATE "C" PRIMARY KEY,
  arrival     BIGINT GENERATED ALWAYS AS IDENTITY,
  player_id   TEXT COLLATE "C" NOT NULL UNIQUE,
  node_id     TEXT NOT NULL,
  queue_key   TEXT COLLATE "C" NOT NULL,
  queue_info  TEXT NOT NULL,
  rating      DOUBLE PRECISION NOT NULL,
  accept_cpu  BOOLEAN NOT NULL,
  enqueued_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
  seen_at     TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
  claimed_at  TIMESTAMPTZ,
  match_id    TEXT COLLATE "C",
  seat        INTEGER NOT NULL DEFAULT -1
);
CREATE INDEX match_queue_by_key ON match_queue (queue_key, arrival);
CREATE INDEX match_queue_by_node ON match_queue (node_id);
)sql",
      // 4: clusters (storage/node_registry.h, storage/due_turns.h):
      // the nodes' heartbeats; on each match the seat to move, when its
      // next automatic action is due and who claimed it; on each seat who
      // last saw its player. Times on the database's clock.
      R"sql(
CREATE TABLE nodes (
  id           TEXT COLLATE "C" PRIMARY KEY,
  started_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  heartbeat_at TIMESTAMPTZ NOT NULL
);
ALTER TABLE matches
  ADD COLUMN to_move     INTEGER,
  ADD COLUMN due_at      TIMESTAMPTZ,
  ADD COLUMN claim_node  TEXT COLLATE "C",
  ADD COLUMN claim_ply   BIGINT,
  ADD COLUMN claim_until TIMESTAMPTZ;
ALTER TABLE seats
  ADD COLUMN seen_node TEXT COLLATE "C",
  ADD COLUMN seen_at   TIMESTAMPTZ;
CREATE INDEX matches_in_progress ON matches (id)
  WHERE status = 'in_progress';
)sql",
      // 5: when the service last came back after no node was alive (a
      // restart of the only node, a database outage): every seat's grace
      // period and the turn to move count from then (docs/cluster.md "The
      // service was away"). One row at most.
      R"sql(
CREATE TABLE service_resumed (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  at TIMESTAMPTZ NOT NULL
);
)sql",
      // 6: who is online on the whole site (storage/online_players.h): a
      // row per player a node held lately, when it last wrote them. No
      // foreign key: a write per player per heartbeat stays cheap, and the
      // rows go soon after their players (OnlineRoster::Forget).
      R"sql(
CREATE TABLE online_players (
  player_id TEXT COLLATE "C" PRIMARY KEY,
  seen_at   TIMESTAMPTZ NOT NULL
);
)sql",
      // 7: bans, and when a player's credentials (token or ban) last
      // changed by the database's clock, which every node's token cache
      // polls (Store::ListCredentialChanges; only changed players are in
      // the index).
      R"sql(
ALTER TABLE players
  ADD COLUMN banned_at_ms BIGINT,
  ADD COLUMN credentials_changed_at TIMESTAMPTZ;
CREATE INDEX players_banned ON players (id) WHERE banned_at_ms IS NOT NULL;
CREATE INDEX players_credentials_changed ON players (credentials_changed_at)
  WHERE credentials_changed_at IS NOT NULL;
)sql",
  };
  return kMigrations;
}

// The applied version, or -1 if the schema has no migrations table.
int AppliedVersion(pqxx::transaction_base& tx) {
  pqxx::row has = tx.exec1(
      "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = "
      "current_schema() AND tablename = 'mancala_schema_migrations')");
  if (!has[0].as<bool>()) return -1;
  return tx
      .exec1(
          "SELECT coalesce(max(version), 0) FROM "
          "mancala_schema_migrations")[0]
      .as<int>();
}

}  // namespace

int PgSchemaVersion() { return static_cast<int>(Migrations().size()); }

absl::Status PgMigrate(pqxx::connection_base& conn) {
  try {
    for (;;) {
      pqxx::work tx(conn);
      tx.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock);
      int version = AppliedVersion(tx);
      if (version < 0) {
        int tables = tx.exec1(
                           "SELECT count(*) FROM pg_tables "
                           "WHERE schemaname = current_schema()")[0]
                         .as<int>();
        if (tables > 0) {
          return absl::FailedPreconditionError(
              "schema " +
              tx.exec1("SELECT current_schema()")[0].as<std::string>() +
              " holds " + std::to_string(tables) +
              " tables but is not a mancala-server database (no "
              "mancala_schema_migrations table)");
        }
        tx.exec(
            "CREATE TABLE mancala_schema_migrations ("
            "version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL "
            "DEFAULT now())");
        version = 0;
      }
      if (version > PgSchemaVersion()) {
        return absl::FailedPreconditionError(
            "database schema version " + std::to_string(version) +
            " is newer than this build supports (" +
            std::to_string(PgSchemaVersion()) + "); upgrade mancalad");
      }
      if (version == PgSchemaVersion()) {
        tx.commit();
        return absl::OkStatus();
      }
      tx.exec(Migrations()[version]);
      tx.exec_params(
          "INSERT INTO mancala_schema_migrations (version) VALUES ($1)",
          version + 1);
      tx.commit();
    }
  } catch (const pqxx::broken_connection& e) {
    return absl::UnavailableError(std::string("database connection lost: ") +
                                  e.what());
  } catch (const std::exception& e) {
    return absl::InternalError(std::string("schema migration failed: ") +
                               e.what());
  }
}

}  // namespace mancala::storage
