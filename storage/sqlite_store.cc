#include "storage/sqlite_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "storage/schema.h"
#include "storage/sqlite_errors.h"

namespace mancala::storage {
namespace {

constexpr std::pair<MatchStatus, const char*> kStatusNames[] = {
    {MatchStatus::kWaiting, "waiting"},
    {MatchStatus::kInProgress, "in_progress"},
    {MatchStatus::kFinished, "finished"},
    {MatchStatus::kCancelled, "cancelled"},
    {MatchStatus::kAborted, "aborted"},
};
const char* StatusName(MatchStatus s) {
  for (const auto& [status, name] : kStatusNames) {
    if (status == s) return name;
  }
  return "in_progress";
}
// A stored value outside its enum: the row is unreadable (DATA_LOSS), never
// read as some default.
struct UnreadableRow : std::runtime_error {
  using std::runtime_error::runtime_error;
};

MatchStatus ParseStatus(const std::string& s) {
  for (const auto& [status, name] : kStatusNames) {
    if (s == name) return status;
  }
  throw UnreadableRow("unknown match status \"" + s + "\"");
}

constexpr std::pair<SeatRecord::Kind, const char*> kSeatKinds[] = {
    {SeatRecord::Kind::kPlayer, "player"},
    {SeatRecord::Kind::kCpu, "cpu"},
    {SeatRecord::Kind::kOpen, "open"},
};
const char* SeatKindName(SeatRecord::Kind k) {
  for (const auto& [kind, name] : kSeatKinds) {
    if (kind == k) return name;
  }
  return "open";
}
SeatRecord::Kind ParseSeatKind(const std::string& s) {
  for (const auto& [kind, name] : kSeatKinds) {
    if (s == name) return kind;
  }
  throw UnreadableRow("unknown seat kind \"" + s + "\"");
}

// Binds a string, or NULL when it is empty (nullable unique columns).
void BindOrNull(SQLite::Statement& q, int index, const std::string& value) {
  if (value.empty()) {
    q.bind(index);
  } else {
    q.bind(index, value);
  }
}

constexpr char kMatchColumns[] =
    "m.id, m.game, m.options, m.first_seat, m.status, m.ply, m.created_by, "
    "m.created_at_ms, m.updated_at_ms, m.ended_at_ms, m.result, m.ranked, "
    "m.turn_limit_s, m.invite_code, m.rotate_first_player, m.rematch_of, "
    "m.rematch_id, m.voided, m.void_reason";

MoveRow ReadMove(SQLite::Statement& q, const std::string& match_id) {
  MoveRow r;
  r.match_id = match_id;
  r.ply = q.getColumn(0).getInt64();
  r.seat = q.getColumn(1).getInt();
  r.pit = q.getColumn(2).getInt();
  r.by_cpu = q.getColumn(3).getInt() != 0;
  r.played_at_ms = q.getColumn(4).getInt64();
  r.events = q.getColumn(5).getString();
  r.cpu_reason = q.getColumn(6).getInt();
  r.request_id = q.getColumn(7).getString();
  r.reply = q.getColumn(8).getString();
  return r;
}

PlayerRecord ReadPlayer(SQLite::Statement& q) {
  PlayerRecord p;
  p.id = q.getColumn(0).getString();
  p.display_name = q.getColumn(1).getString();
  p.guest = q.getColumn(2).getInt() != 0;
  p.token_hash = q.getColumn(3).getString();
  p.created_at_ms = q.getColumn(4).getInt64();
  return p;
}

}  // namespace

absl::Status FromException(const SQLite::Exception& e, const char* what) {
  if ((e.getErrorCode() & 0xff) == SQLITE_CONSTRAINT) {
    return absl::AlreadyExistsError(std::string(what) + ": " + e.what());
  }
  return absl::InternalError(std::string(what) + " failed: " + e.what());
}

SqliteStore::SqliteStore(std::unique_ptr<SQLite::Database> db)
    : db_(std::move(db)) {}

SqliteStore::~SqliteStore() {
  statements_.clear();  // Finalize statements before closing the database.
}

SQLite::Statement& SqliteStore::Prepare(const std::string& sql) {
  auto& slot = statements_[sql];
  if (!slot) slot = std::make_unique<SQLite::Statement>(*db_, sql.c_str());
  // tryReset: reset() would rethrow the error of the statement's last
  // failed run, which was already reported.
  slot->tryReset();
  slot->clearBindings();
  return *slot;
}

absl::StatusOr<std::unique_ptr<SqliteStore>> SqliteStore::Open(
    const std::string& path) {
  std::unique_ptr<SQLite::Database> db;
  try {
    db = std::make_unique<SQLite::Database>(
        path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, 5000);
    db->exec("PRAGMA journal_mode = WAL");
    db->exec("PRAGMA synchronous = FULL");
    db->exec("PRAGMA foreign_keys = ON");
  } catch (const SQLite::Exception& e) {
    return absl::UnavailableError("cannot open database " + path + ": " +
                                  e.what());
  }
  if (absl::Status s = Migrate(*db); !s.ok()) return s;
  return std::unique_ptr<SqliteStore>(new SqliteStore(std::move(db)));
}

absl::Status SqliteStore::CreatePlayer(const PlayerRecord& p) {
  absl::MutexLock lock(&mu_);
  try {
    auto& q = Prepare(
        "INSERT INTO players (id, display_name, guest, token_hash, "
        "created_at_ms) VALUES (?, ?, ?, ?, ?)");
    q.bind(1, p.id);
    q.bind(2, p.display_name);
    q.bind(3, p.guest ? 1 : 0);
    q.bind(4, p.token_hash);
    q.bind(5, static_cast<int64_t>(p.created_at_ms));
    q.exec();
  } catch (const SQLite::Exception& e) {
    return FromException(e, "create player");
  }
  return absl::OkStatus();
}

absl::StatusOr<PlayerRecord> SqliteStore::GetPlayer(const std::string& id) {
  absl::MutexLock lock(&mu_);
  try {
    auto& q = Prepare(
        "SELECT id, display_name, guest, token_hash, created_at_ms "
        "FROM players WHERE id = ?");
    q.bind(1, id);
    if (!q.executeStep()) return absl::NotFoundError("player " + id);
    return ReadPlayer(q);
  } catch (const SQLite::Exception& e) {
    return FromException(e, "get player");
  }
}

absl::StatusOr<PlayerRecord> SqliteStore::FindPlayerByTokenHash(
    const std::string& token_hash) {
  absl::MutexLock lock(&mu_);
  try {
    auto& q = Prepare(
        "SELECT id, display_name, guest, token_hash, created_at_ms "
        "FROM players WHERE token_hash = ?");
    q.bind(1, token_hash);
    if (!q.executeStep()) return absl::NotFoundError("no player has token");
    return ReadPlayer(q);
  } catch (const SQLite::Exception& e) {
    return FromException(e, "find player");
  }
}

void SqliteStore::WriteSeats(const MatchRecord& m) {
  auto& del = Prepare("DELETE FROM seats WHERE match_id = ?");
  del.bind(1, m.id);
  del.exec();
  for (size_t i = 0; i < m.seats.size(); ++i) {
    const SeatRecord& s = m.seats[i];
    auto& q = Prepare(
        "INSERT INTO seats (match_id, seat, kind, player_id, cpu_level) "
        "VALUES (?, ?, ?, ?, ?)");
    q.bind(1, m.id);
    q.bind(2, static_cast<int>(i));
    q.bind(3, SeatKindName(s.kind));
    BindOrNull(q, 4, s.player_id);
    q.bind(5, s.cpu_level);
    q.exec();
    if (s.kind == SeatRecord::Kind::kPlayer) {
      auto& p = Prepare(
          "INSERT OR IGNORE INTO match_players (player_id, match_id, "
          "created_at_ms) VALUES (?, ?, ?)");
      p.bind(1, s.player_id);
      p.bind(2, m.id);
      p.bind(3, static_cast<int64_t>(m.created_at_ms));
      p.exec();
    }
  }
}

absl::Status SqliteStore::CreateMatch(const MatchRecord& m) {
  absl::MutexLock lock(&mu_);
  try {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    auto& q = Prepare(
        "INSERT INTO matches (id, game, options, first_seat, status, ply, "
        "created_by, created_at_ms, updated_at_ms, ended_at_ms, result, "
        "ranked, turn_limit_s, invite_code, rotate_first_player, rematch_of, "
        "rematch_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?)");
    q.bind(1, m.id);
    q.bind(2, m.game);
    q.bind(3, nlohmann::json(m.options).dump());
    q.bind(4, m.first_seat);
    q.bind(5, StatusName(m.status));
    q.bind(6, static_cast<int64_t>(m.ply));
    q.bind(7, m.created_by);
    q.bind(8, static_cast<int64_t>(m.created_at_ms));
    q.bind(9, static_cast<int64_t>(m.updated_at_ms));
    q.bind(10, static_cast<int64_t>(m.ended_at_ms));
    q.bind(11, m.result.data(), static_cast<int>(m.result.size()));
    q.bind(12, m.ranked ? 1 : 0);
    q.bind(13, m.turn_limit_s);
    BindOrNull(q, 14, m.invite_code);
    q.bind(15, m.rotate_first_player ? 1 : 0);
    BindOrNull(q, 16, m.rematch_of);
    BindOrNull(q, 17, m.rematch_id);
    q.exec();
    WriteSeats(m);
    if (!m.rematch_of.empty()) {
      auto& link = Prepare(
          "UPDATE matches SET rematch_id = ? WHERE id = ? AND rematch_id IS "
          "NULL");
      link.bind(1, m.id);
      link.bind(2, m.rematch_of);
      if (link.exec() == 0) {
        return absl::AlreadyExistsError("match " + m.rematch_of +
                                        " already has a rematch");
      }
    }
    tx.commit();
  } catch (const SQLite::Exception& e) {
    return FromException(e, "create match");
  }
  return absl::OkStatus();
}

absl::Status SqliteStore::UpdateMatch(const MatchRecord& m) {
  absl::MutexLock lock(&mu_);
  try {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    auto& q = Prepare(
        "UPDATE matches SET status = ?, invite_code = ?, updated_at_ms = ?, "
        "ended_at_ms = ?, result = ?, rematch_id = ? WHERE id = ?");
    q.bind(1, StatusName(m.status));
    BindOrNull(q, 2, m.invite_code);
    q.bind(3, static_cast<int64_t>(m.updated_at_ms));
    q.bind(4, static_cast<int64_t>(m.ended_at_ms));
    q.bind(5, m.result.data(), static_cast<int>(m.result.size()));
    BindOrNull(q, 6, m.rematch_id);
    q.bind(7, m.id);
    if (q.exec() == 0) return absl::NotFoundError("match " + m.id);
    WriteSeats(m);
    tx.commit();
  } catch (const SQLite::Exception& e) {
    return FromException(e, "update match");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> SqliteStore::FindMatchByInviteCode(
    const std::string& code) {
  absl::MutexLock lock(&mu_);
  try {
    auto& q = Prepare("SELECT id FROM matches WHERE invite_code = ?");
    q.bind(1, code);
    if (!q.executeStep()) return absl::NotFoundError("no match has code");
    return q.getColumn(0).getString();
  } catch (const SQLite::Exception& e) {
    return FromException(e, "find match by code");
  }
}

MatchRecord SqliteStore::ReadMatchRow(SQLite::Statement& q) {
  MatchRecord m;
  m.id = q.getColumn(0).getString();
  m.game = q.getColumn(1).getString();
  m.options = nlohmann::json::parse(q.getColumn(2).getString())
                  .get<std::map<std::string, std::string>>();
  m.first_seat = q.getColumn(3).getInt();
  m.status = ParseStatus(q.getColumn(4).getString());
  m.ply = q.getColumn(5).getInt64();
  m.created_by = q.getColumn(6).getString();
  m.created_at_ms = q.getColumn(7).getInt64();
  m.updated_at_ms = q.getColumn(8).getInt64();
  m.ended_at_ms = q.getColumn(9).getInt64();
  m.result = q.getColumn(10).getString();
  m.ranked = q.getColumn(11).getInt() != 0;
  m.turn_limit_s = q.getColumn(12).getInt();
  m.invite_code = q.getColumn(13).getString();
  m.rotate_first_player = q.getColumn(14).getInt() != 0;
  m.rematch_of = q.getColumn(15).getString();
  m.rematch_id = q.getColumn(16).getString();
  m.voided = q.getColumn(17).getInt() != 0;
  m.void_reason = q.getColumn(18).getString();
  auto& qs = Prepare(
      "SELECT kind, player_id, cpu_level FROM seats WHERE match_id = ? "
      "ORDER BY seat");
  qs.bind(1, m.id);
  while (qs.executeStep()) {
    SeatRecord seat;
    seat.kind = ParseSeatKind(qs.getColumn(0).getString());
    seat.player_id = qs.getColumn(1).getString();
    seat.cpu_level = qs.getColumn(2).getInt();
    m.seats.push_back(std::move(seat));
  }
  return m;
}

absl::StatusOr<MatchRecord> SqliteStore::GetMatch(const std::string& id) {
  absl::MutexLock lock(&mu_);
  try {
    auto& q = Prepare(std::string("SELECT ") + kMatchColumns +
                      " FROM matches m WHERE m.id = ?");
    q.bind(1, id);
    if (!q.executeStep()) return absl::NotFoundError("match " + id);
    return ReadMatchRow(q);
  } catch (const SQLite::Exception& e) {
    return FromException(e, "get match");
  } catch (const nlohmann::json::exception& e) {
    return absl::DataLossError(std::string("match options unreadable: ") +
                               e.what());
  } catch (const UnreadableRow& e) {
    return absl::DataLossError(std::string("match unreadable: ") + e.what());
  }
}

absl::StatusOr<std::vector<std::string>> SqliteStore::ListMatchIds(
    MatchStatus status) {
  absl::MutexLock lock(&mu_);
  try {
    auto& q = Prepare(
        "SELECT id FROM matches WHERE status = ? ORDER BY created_at_ms, id");
    q.bind(1, StatusName(status));
    std::vector<std::string> ids;
    while (q.executeStep()) ids.push_back(q.getColumn(0).getString());
    return ids;
  } catch (const SQLite::Exception& e) {
    return FromException(e, "list matches");
  }
}

absl::Status SqliteStore::AppendMove(const MoveRow& mv,
                                     const MatchUpdate& update) {
  absl::MutexLock lock(&mu_);
  try {
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    // The ply check makes the append conditional: a stale or repeated
    // append changes no row and is refused (docs/design.md "Storage").
    auto& u = Prepare(
        "UPDATE matches SET ply = ?, status = ?, updated_at_ms = ?, "
        "ended_at_ms = ?, result = ? WHERE id = ? AND ply = ?");
    u.bind(1, static_cast<int64_t>(mv.ply));
    u.bind(2, StatusName(update.status));
    u.bind(3, static_cast<int64_t>(mv.played_at_ms));
    u.bind(4, static_cast<int64_t>(update.ended_at_ms));
    u.bind(5, update.result.data(), static_cast<int>(update.result.size()));
    u.bind(6, mv.match_id);
    u.bind(7, static_cast<int64_t>(mv.ply - 1));
    if (u.exec() == 0) {
      auto& c = Prepare("SELECT ply FROM matches WHERE id = ?");
      c.bind(1, mv.match_id);
      if (!c.executeStep()) return absl::NotFoundError("match " + mv.match_id);
      return absl::AbortedError("match " + mv.match_id + " is at ply " +
                                std::to_string(c.getColumn(0).getInt64()) +
                                ", not " + std::to_string(mv.ply - 1));
    }
    auto& q = Prepare(
        "INSERT INTO moves (match_id, ply, seat, pit, by_cpu, played_at_ms, "
        "events, cpu_reason, request_id, reply) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q.bind(1, mv.match_id);
    q.bind(2, static_cast<int64_t>(mv.ply));
    q.bind(3, mv.seat);
    q.bind(4, mv.pit);
    q.bind(5, mv.by_cpu ? 1 : 0);
    q.bind(6, static_cast<int64_t>(mv.played_at_ms));
    q.bind(7, mv.events.data(), static_cast<int>(mv.events.size()));
    q.bind(8, mv.cpu_reason);
    BindOrNull(q, 9, mv.request_id);
    q.bind(10, mv.reply.data(), static_cast<int>(mv.reply.size()));
    q.exec();
    WriteRatings(update.rating_changes, update.new_ratings);
    tx.commit();
  } catch (const SQLite::Exception& e) {
    return FromException(e, "append move");
  }
  return absl::OkStatus();
}

absl::StatusOr<MoveRow> SqliteStore::FindMoveByRequestId(
    const std::string& match_id, const std::string& request_id) {
  absl::MutexLock lock(&mu_);
  try {
    auto& q = Prepare(
        "SELECT ply, seat, pit, by_cpu, played_at_ms, events, cpu_reason, "
        "request_id, reply FROM moves WHERE match_id = ? AND request_id = ?");
    q.bind(1, match_id);
    q.bind(2, request_id);
    if (!q.executeStep()) return absl::NotFoundError("no move for request");
    return ReadMove(q, match_id);
  } catch (const SQLite::Exception& e) {
    return FromException(e, "find move");
  }
}

absl::StatusOr<std::vector<MoveRow>> SqliteStore::ListMoves(
    const std::string& match_id, int64_t from_ply, int limit) {
  absl::MutexLock lock(&mu_);
  try {
    auto& q = Prepare(
        "SELECT ply, seat, pit, by_cpu, played_at_ms, events, cpu_reason, "
        "request_id, reply FROM moves WHERE match_id = ? AND ply >= ? "
        "ORDER BY ply LIMIT ?");
    q.bind(1, match_id);
    q.bind(2, static_cast<int64_t>(from_ply));
    q.bind(3, limit);
    std::vector<MoveRow> rows;
    while (q.executeStep()) rows.push_back(ReadMove(q, match_id));
    return rows;
  } catch (const SQLite::Exception& e) {
    return FromException(e, "list moves");
  }
}

absl::StatusOr<std::vector<MatchRecord>> SqliteStore::ListMatches(
    const MatchFilter& f, const std::optional<Cursor>& after, int limit) {
  // Built from the filter; each shape is prepared once. A player filter
  // walks that player's history index; otherwise the newest-first index of
  // the most selective column serves the order.
  std::string sql = "SELECT m.id";
  std::string where;
  auto add = [&where](const char* clause) {
    where += where.empty() ? " WHERE " : " AND ";
    where += clause;
  };
  const char* time = "m.created_at_ms";
  if (!f.player_id.empty()) {
    sql += " FROM match_players p JOIN matches m ON m.id = p.match_id";
    add("p.player_id = :player");
    time = "p.created_at_ms";
  } else {
    sql += " FROM matches m";
  }
  if (!f.game.empty()) add("m.game = :game");
  if (f.status.has_value()) add("m.status = :status");
  if (f.ranked.has_value()) add("m.ranked = :ranked");
  if (f.created_from_ms) add("m.created_at_ms >= :cfrom");
  if (f.created_to_ms) add("m.created_at_ms < :cto");
  if (f.ended_from_ms) add("m.ended_at_ms >= :efrom");
  if (f.ended_to_ms) add("m.ended_at_ms < :eto");
  const std::string id_col = f.player_id.empty() ? "m.id" : "p.match_id";
  if (after.has_value()) {
    where += where.empty() ? " WHERE " : " AND ";
    where += "(" + std::string(time) + " < :atime OR (" + time +
             " = :atime AND " + id_col + " < :aid))";
  }
  sql +=
      where + " ORDER BY " + time + " DESC, " + id_col + " DESC LIMIT :limit";
  absl::MutexLock lock(&mu_);
  try {
    auto& q = Prepare(sql);
    if (!f.player_id.empty()) q.bind(":player", f.player_id);
    if (!f.game.empty()) q.bind(":game", f.game);
    if (f.status.has_value()) q.bind(":status", StatusName(*f.status));
    if (f.ranked.has_value()) q.bind(":ranked", *f.ranked ? 1 : 0);
    if (f.created_from_ms)
      q.bind(":cfrom", static_cast<int64_t>(f.created_from_ms));
    if (f.created_to_ms) q.bind(":cto", static_cast<int64_t>(f.created_to_ms));
    if (f.ended_from_ms)
      q.bind(":efrom", static_cast<int64_t>(f.ended_from_ms));
    if (f.ended_to_ms) q.bind(":eto", static_cast<int64_t>(f.ended_to_ms));
    if (after.has_value()) {
      q.bind(":atime", static_cast<int64_t>(after->time_ms));
      q.bind(":aid", after->id);
    }
    q.bind(":limit", limit);
    // Ids first, then each row: ReadMatchRow runs statements of its own.
    std::vector<std::string> ids;
    std::vector<MatchRecord> out;
    while (q.executeStep()) ids.push_back(q.getColumn(0).getString());
    q.reset();
    for (const std::string& id : ids) {
      auto& one = Prepare(std::string("SELECT ") + kMatchColumns +
                          " FROM matches m WHERE m.id = ?");
      one.bind(1, id);
      if (one.executeStep()) out.push_back(ReadMatchRow(one));
    }
    return out;
  } catch (const SQLite::Exception& e) {
    return FromException(e, "list matches");
  } catch (const nlohmann::json::exception& e) {
    return absl::DataLossError(std::string("match options unreadable: ") +
                               e.what());
  } catch (const UnreadableRow& e) {
    return absl::DataLossError(std::string("match unreadable: ") + e.what());
  }
}

}  // namespace mancala::storage
