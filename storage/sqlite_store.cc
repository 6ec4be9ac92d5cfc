#include "storage/sqlite_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "storage/append_refusal.h"
#include "storage/call_deadline.h"
#include "storage/record_names.h"
#include "storage/schema.h"
#include "storage/wal_write_vfs.h"

namespace mancala::storage {
namespace {

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
    "m.rematch_id, m.voided, m.void_reason, m.request_id, m.request_hash, "
    "m.cancel_reason, "
    // The seats (and their players' names) in the same statement, so a
    // list of matches is one query; each with its number, as the order
    // inside json_group_array is not guaranteed.
    "(SELECT json_group_array(json_array(s.seat, s.kind, "
    "coalesce(s.player_id, ''), s.cpu_level, coalesce(p.display_name, ''))) "
    "FROM seats s LEFT JOIN players p ON p.id = s.player_id "
    "WHERE s.match_id = m.id)";

constexpr char kMoveColumns[] =
    "ply, seat, pit, by_cpu, played_at_ms, events, cpu_reason, request_id, "
    "reply";

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

constexpr char kPlayerColumns[] =
    "id, display_name, guest, token_hash, created_at_ms";
// What ReadPlayer reads: kPlayerColumns and the ban (schema migration 4).
constexpr char kPlayerReadColumns[] =
    "id, display_name, guest, token_hash, created_at_ms, "
    "coalesce(banned_at_ms, 0)";

PlayerRecord ReadPlayer(SQLite::Statement& q) {
  PlayerRecord p;
  p.id = q.getColumn(0).getString();
  p.display_name = q.getColumn(1).getString();
  p.guest = q.getColumn(2).getInt() != 0;
  p.token_hash = q.getColumn(3).getString();
  p.created_at_ms = q.getColumn(4).getInt64();
  p.banned_at_ms = q.getColumn(5).getInt64();
  return p;
}

// Opens a connection with the settings every connection shares.
// `vfs`: the VFS by name, or "" for SQLite's default.
std::unique_ptr<Connection> OpenConnection(const std::string& path, int flags,
                                           const SqliteStoreOptions& o,
                                           const std::string& vfs = "") {
  return std::make_unique<Connection>(
      std::make_unique<SQLite::Database>(path, flags, o.busy_timeout_ms, vfs));
}

}  // namespace

absl::StatusOr<std::unique_ptr<SqliteStore>> SqliteStore::Open(
    const std::string& path, const SqliteStoreOptions& options) {
  std::unique_ptr<SqliteStore> store(new SqliteStore());
  const bool in_memory = path == ":memory:";
  if (!in_memory) {
    auto lock = DatabaseLock::Acquire(path);
    if (!lock.ok()) return lock.status();
    store->lock_ = *std::move(lock);
    // Created here, 0600, so SQLite (which gives the WAL and shared-memory
    // files the database's mode) never makes a file other users can read.
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) ::close(fd);
  }
  try {
    // The one connection that writes coalesces its WAL writes
    // (wal_write_vfs.h: synchronous=FULL, set below, is what makes that
    // safe); the readers read through the default VFS.
    const char* wal_vfs = in_memory ? nullptr : RegisterWalWriteVfs();
    store->write_connection_ =
        OpenConnection(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE,
                       options, wal_vfs != nullptr ? wal_vfs : "");
    SQLite::Database& db = store->write_connection_->db();
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    db.exec("PRAGMA foreign_keys = ON");
    db.exec("PRAGMA journal_size_limit = " +
            std::to_string(options.journal_size_limit_bytes));
  } catch (const SQLite::Exception& e) {
    return absl::UnavailableError("cannot open database " + path + ": " +
                                  e.what());
  }
  if (absl::Status s = Migrate(store->write_connection_->db()); !s.ok()) {
    return s;
  }
  if (options.max_size_mb > 0) {
    // A quota of the store's own (SQLite: a database that would grow past
    // it answers SQLITE_FULL, as on a full disk). Set on the one connection
    // that writes; SQLite keeps it no lower than the file's current size.
    try {
      SQLite::Database& db = store->write_connection_->db();
      const int64_t page = db.execAndGet("PRAGMA page_size").getInt64();
      db.exec("PRAGMA max_page_count = " +
              std::to_string(options.max_size_mb * (int64_t{1} << 20) / page));
    } catch (const SQLite::Exception& e) {
      return absl::UnavailableError("cannot cap database " + path + ": " +
                                    e.what());
    }
  }
  std::vector<Connection*> readers;
  try {
    for (int i = 0; !in_memory && i < options.read_connections; ++i) {
      store->read_connections_.push_back(
          OpenConnection(path, SQLite::OPEN_READONLY, options));
      readers.push_back(store->read_connections_.back().get());
    }
  } catch (const SQLite::Exception& e) {
    return absl::UnavailableError("cannot open database " + path +
                                  " for reading: " + e.what());
  }
  if (readers.empty()) readers.push_back(store->write_connection_.get());
  store->reads_ = std::make_unique<SqliteReadPool>(std::move(readers));
  store->writer_ = std::make_unique<SqliteWriter>(
      *store->write_connection_, options.group_commit, options.max_batch,
      options.wal_autocheckpoint_pages);
  return store;
}

SqliteStore::~SqliteStore() { Close(); }

void SqliteStore::set_metrics(StoreMetrics* metrics) {
  Store::set_metrics(metrics);
  writer_->set_metrics(metrics);
}

void SqliteStore::Close() {
  if (writer_) writer_->Close();
}

absl::Status SqliteStore::Write(const char* what, const Body& body) {
  return ReportFailure(metrics(), what,
                       writer_->Run([&](Connection& c) -> absl::Status {
                         try {
                           return body(c);
                         } catch (const SQLite::Exception& e) {
                           return FromException(e, what);
                         }
                       }));
}

absl::Status SqliteStore::Read(const char* what, const Body& body) {
  SqliteReadPool::Lease lease = reads_->Acquire();
  try {
    return body(lease.connection());
  } catch (const SQLite::Exception& e) {
    return ReportFailure(metrics(), what, FromException(e, what));
  } catch (const nlohmann::json::exception& e) {
    return ReportFailure(
        metrics(), what,
        absl::DataLossError(std::string(what) +
                            ": stored match options unreadable: " + e.what()));
  } catch (const UnreadableRow& e) {
    return ReportFailure(
        metrics(), what,
        absl::DataLossError(std::string(what) +
                            ": match unreadable: " + e.what()));
  }
}

absl::Status SqliteStore::CreatePlayer(const PlayerRecord& p) {
  return Write("create player", [&](Connection& c) {
    auto q = c.Prepare(std::string("INSERT INTO players (") + kPlayerColumns +
                       ") VALUES (?, ?, ?, ?, ?)");
    q->bind(1, p.id);
    q->bind(2, p.display_name);
    q->bind(3, p.guest ? 1 : 0);
    q->bind(4, p.token_hash);
    q->bind(5, static_cast<int64_t>(p.created_at_ms));
    q->exec();
    return absl::OkStatus();
  });
}

absl::StatusOr<PlayerRecord> SqliteStore::GetPlayer(const std::string& id) {
  return ReadAs<PlayerRecord>(
      "get player", [&](Connection& c, PlayerRecord& out) {
        auto q = c.Prepare(std::string("SELECT ") + kPlayerReadColumns +
                           " FROM players WHERE id = ?");
        q->bind(1, id);
        if (!q->executeStep()) return absl::NotFoundError("player " + id);
        out = ReadPlayer(*q);
        return absl::OkStatus();
      });
}

absl::StatusOr<PlayerRecord> SqliteStore::FindPlayerByTokenHash(
    const std::string& token_hash) {
  return ReadAs<PlayerRecord>(
      "find player", [&](Connection& c, PlayerRecord& out) {
        auto q = c.Prepare(std::string("SELECT ") + kPlayerReadColumns +
                           " FROM players WHERE token_hash = ?");
        q->bind(1, token_hash);
        if (!q->executeStep())
          return absl::NotFoundError("no player has token");
        out = ReadPlayer(*q);
        return absl::OkStatus();
      });
}

void SqliteStore::WriteSeats(Connection& c, const MatchRecord& m) {
  {
    auto del = c.Prepare("DELETE FROM seats WHERE match_id = ?");
    del->bind(1, m.id);
    del->exec();
  }
  for (size_t i = 0; i < m.seats.size(); ++i) {
    const SeatRecord& s = m.seats[i];
    auto q = c.Prepare(
        "INSERT INTO seats (match_id, seat, kind, player_id, cpu_level) "
        "VALUES (?, ?, ?, ?, ?)");
    q->bind(1, m.id);
    q->bind(2, static_cast<int>(i));
    q->bind(3, SeatKindName(s.kind));
    BindOrNull(*q, 4, s.player_id);
    q->bind(5, s.cpu_level);
    q->exec();
    if (s.kind == SeatRecord::Kind::kPlayer) {
      auto p = c.Prepare(
          "INSERT OR IGNORE INTO match_players (player_id, match_id, "
          "created_at_ms) VALUES (?, ?, ?)");
      p->bind(1, s.player_id);
      p->bind(2, m.id);
      p->bind(3, static_cast<int64_t>(m.created_at_ms));
      p->exec();
    }
  }
}

absl::Status SqliteStore::CreateMatch(const MatchRecord& m) {
  return Write("create match", [&](Connection& c) {
    if (!m.request_id.empty()) {
      // Checked here, not left to the unique index: a constraint failure
      // inside a group commit would fail the whole batch.
      auto dup = c.Prepare(
          "SELECT 1 FROM matches WHERE created_by = ? AND request_id = ?");
      dup->bind(1, m.created_by);
      dup->bind(2, m.request_id);
      if (dup->executeStep()) {
        return absl::AlreadyExistsError("request id " + m.request_id +
                                        " already made a match");
      }
    }
    {
      auto q = c.Prepare(
          "INSERT INTO matches (id, game, options, first_seat, status, ply, "
          "created_by, created_at_ms, updated_at_ms, ended_at_ms, result, "
          "ranked, turn_limit_s, invite_code, rotate_first_player, "
          "rematch_of, rematch_id, request_id, request_hash, cancel_reason) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
          "?)");
      q->bind(1, m.id);
      q->bind(2, m.game);
      q->bind(3, nlohmann::json(m.options).dump());
      q->bind(4, m.first_seat);
      q->bind(5, StatusName(m.status));
      q->bind(6, static_cast<int64_t>(m.ply));
      q->bind(7, m.created_by);
      q->bind(8, static_cast<int64_t>(m.created_at_ms));
      q->bind(9, static_cast<int64_t>(m.updated_at_ms));
      q->bind(10, static_cast<int64_t>(m.ended_at_ms));
      q->bind(11, m.result.data(), static_cast<int>(m.result.size()));
      q->bind(12, m.ranked ? 1 : 0);
      q->bind(13, m.turn_limit_s);
      BindOrNull(*q, 14, m.invite_code);
      q->bind(15, m.rotate_first_player ? 1 : 0);
      BindOrNull(*q, 16, m.rematch_of);
      BindOrNull(*q, 17, m.rematch_id);
      BindOrNull(*q, 18, m.request_id);
      q->bind(19, m.request_hash);
      q->bind(20, m.cancel_reason);
      q->exec();
    }
    WriteSeats(c, m);
    if (!m.rematch_of.empty()) {
      auto link = c.Prepare(
          "UPDATE matches SET rematch_id = ? WHERE id = ? AND rematch_id IS "
          "NULL");
      link->bind(1, m.id);
      link->bind(2, m.rematch_of);
      if (link->exec() == 0) {
        return absl::AlreadyExistsError("match " + m.rematch_of +
                                        " already has a rematch");
      }
    }
    return absl::OkStatus();
  });
}

absl::Status SqliteStore::UpdateMatch(const MatchRecord& m) {
  return Write("update match", [&](Connection& c) {
    {
      auto q = c.Prepare(
          "UPDATE matches SET status = ?, invite_code = ?, updated_at_ms = ?, "
          "ended_at_ms = ?, result = ?, rematch_id = ?, cancel_reason = ? "
          "WHERE id = ?");
      q->bind(1, StatusName(m.status));
      BindOrNull(*q, 2, m.invite_code);
      q->bind(3, static_cast<int64_t>(m.updated_at_ms));
      q->bind(4, static_cast<int64_t>(m.ended_at_ms));
      q->bind(5, m.result.data(), static_cast<int>(m.result.size()));
      BindOrNull(*q, 6, m.rematch_id);
      q->bind(7, m.cancel_reason);
      q->bind(8, m.id);
      if (q->exec() == 0) return absl::NotFoundError("match " + m.id);
    }
    WriteSeats(c, m);
    return absl::OkStatus();
  });
}

absl::StatusOr<std::string> SqliteStore::FindMatchByInviteCode(
    const std::string& code) {
  return ReadAs<std::string>(
      "find match by code", [&](Connection& c, std::string& out) {
        auto q = c.Prepare("SELECT id FROM matches WHERE invite_code = ?");
        q->bind(1, code);
        if (!q->executeStep()) return absl::NotFoundError("no match has code");
        out = q->getColumn(0).getString();
        return absl::OkStatus();
      });
}

MatchRecord SqliteStore::MatchFromRow(SQLite::Statement& q) {
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
  m.request_id = q.getColumn(19).getString();
  m.request_hash = q.getColumn(20).getString();
  m.cancel_reason = q.getColumn(21).getString();
  const nlohmann::json seats =
      nlohmann::json::parse(q.getColumn(22).getString());
  m.seats.resize(seats.size());
  for (const nlohmann::json& seat : seats) {
    const size_t i = seat.at(0).get<size_t>();
    if (i >= m.seats.size()) {
      throw nlohmann::json::out_of_range::create(401, "seat number", &seat);
    }
    m.seats[i] = {ParseSeatKind(seat.at(1).get<std::string>()),
                  seat.at(2).get<std::string>(), seat.at(3).get<int>(),
                  seat.at(4).get<std::string>()};
  }
  return m;
}

bool SqliteStore::ReadMatch(Connection& c, const std::string& id,
                            MatchRecord* out) {
  auto q = c.Prepare(std::string("SELECT ") + kMatchColumns +
                     " FROM matches m WHERE m.id = ?");
  q->bind(1, id);
  if (!q->executeStep()) return false;
  *out = MatchFromRow(*q);
  return true;
}

absl::StatusOr<MatchRecord> SqliteStore::GetMatch(const std::string& id) {
  return ReadAs<MatchRecord>("get match", [&](Connection& c, MatchRecord& out) {
    if (!ReadMatch(c, id, &out)) return absl::NotFoundError("match " + id);
    return absl::OkStatus();
  });
}

absl::StatusOr<MatchRecord> SqliteStore::FindMatchByRequestId(
    const std::string& creator_id, const std::string& request_id) {
  return ReadAs<MatchRecord>(
      "find match by request id", [&](Connection& c, MatchRecord& out) {
        std::string id;
        {
          auto q = c.Prepare(
              "SELECT id FROM matches WHERE created_by = ? AND request_id = "
              "?");
          q->bind(1, creator_id);
          q->bind(2, request_id);
          if (!q->executeStep()) {
            return absl::NotFoundError("no match has this request id");
          }
          id = q->getColumn(0).getString();
        }
        if (!ReadMatch(c, id, &out)) return absl::NotFoundError("match " + id);
        return absl::OkStatus();
      });
}

absl::StatusOr<int> SqliteStore::CountWaitingMatches(
    const std::string& creator_id) {
  return ReadAs<int>("count waiting matches", [&](Connection& c, int& out) {
    auto q = c.Prepare(
        "SELECT count(*) FROM matches WHERE created_by = ? AND status = "
        "'waiting'");
    q->bind(1, creator_id);
    q->executeStep();
    out = q->getColumn(0).getInt();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<std::string>> SqliteStore::ListMatchIds(
    MatchStatus status) {
  return ReadAs<std::vector<
      std::string>>("list matches", [&](Connection& c,
                                        std::vector<std::string>& ids) {
    auto q = c.Prepare(
        "SELECT id FROM matches WHERE status = ? ORDER BY created_at_ms, id");
    q->bind(1, StatusName(status));
    while (q->executeStep()) ids.push_back(q->getColumn(0).getString());
    return absl::OkStatus();
  });
}

absl::Status SqliteStore::AppendRows(Connection& c, const MoveRow& mv,
                                     const MatchUpdate& update) {
  // The ply check makes the append conditional: a stale or repeated
  // append changes no row and is refused (docs/design.md "The path of a
  // move"). A move that does not end the match leaves status, end time and
  // result as they are (in progress, 0, empty): setting them anyway would
  // rewrite their index entries (matches_by_status, matches_by_ended) on
  // every move.
  const bool ends = update.status != MatchStatus::kInProgress ||
                    update.ended_at_ms != 0 || !update.result.empty();
  int changed = 0;
  if (ends) {
    auto u = c.Prepare(
        "UPDATE matches SET ply = ?, updated_at_ms = ?, status = ?, "
        "ended_at_ms = ?, result = ? WHERE id = ? AND ply = ?");
    u->bind(1, static_cast<int64_t>(mv.ply));
    u->bind(2, static_cast<int64_t>(mv.played_at_ms));
    u->bind(3, StatusName(update.status));
    u->bind(4, static_cast<int64_t>(update.ended_at_ms));
    u->bind(5, update.result.data(), static_cast<int>(update.result.size()));
    u->bind(6, mv.match_id);
    u->bind(7, static_cast<int64_t>(mv.ply - 1));
    changed = u->exec();
  } else {
    auto u = c.Prepare(
        "UPDATE matches SET ply = ?, updated_at_ms = ? "
        "WHERE id = ? AND ply = ?");
    u->bind(1, static_cast<int64_t>(mv.ply));
    u->bind(2, static_cast<int64_t>(mv.played_at_ms));
    u->bind(3, mv.match_id);
    u->bind(4, static_cast<int64_t>(mv.ply - 1));
    changed = u->exec();
  }
  if (changed == 0) {
    auto q = c.Prepare("SELECT ply FROM matches WHERE id = ?");
    q->bind(1, mv.match_id);
    if (!q->executeStep()) return absl::NotFoundError("match " + mv.match_id);
    return PlyTaken(mv, q->getColumn(0).getInt64());
  }
  {
    auto q =
        c.Prepare(std::string("INSERT INTO moves (match_id, ") + kMoveColumns +
                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q->bind(1, mv.match_id);
    q->bind(2, static_cast<int64_t>(mv.ply));
    q->bind(3, mv.seat);
    q->bind(4, mv.pit);
    q->bind(5, mv.by_cpu ? 1 : 0);
    q->bind(6, static_cast<int64_t>(mv.played_at_ms));
    q->bind(7, mv.events.data(), static_cast<int>(mv.events.size()));
    q->bind(8, mv.cpu_reason);
    BindOrNull(*q, 9, mv.request_id);
    q->bind(10, mv.reply.data(), static_cast<int>(mv.reply.size()));
    q->exec();
  }
  WriteRatings(c, update.rating_changes, update.new_ratings);
  return absl::OkStatus();
}

absl::Status SqliteStore::AppendMove(const MoveRow& mv,
                                     const MatchUpdate& update) {
  const absl::Status status = Write(
      "append move", [&](Connection& c) { return AppendRows(c, mv, update); });
  // Durable now, whichever batch carried it (store_metrics.h).
  if (status.ok() && metrics() != nullptr) metrics()->OnMoveCommitted();
  return status;
}

void SqliteStore::AppendMoveAsync(MoveRow move, MatchUpdate update,
                                  AppendDone done) {
  StoreMetrics* const m = metrics();
  writer_->Submit(
      [move = std::move(move), update = std::move(update)](Connection& c) {
        try {
          return AppendRows(c, move, update);
        } catch (const SQLite::Exception& e) {
          return FromException(e, "append move");
        }
      },
      CallDeadline::Current(),
      [m, done = std::move(done)](absl::Status status) {
        status = ReportFailure(m, "append move", std::move(status));
        if (status.ok() && m != nullptr) m->OnMoveCommitted();
        done(std::move(status));
      });
}

absl::StatusOr<MoveRow> SqliteStore::FindMoveByRequestId(
    const std::string& match_id, const std::string& request_id) {
  return ReadAs<MoveRow>("find move", [&](Connection& c, MoveRow& out) {
    auto q = c.Prepare(std::string("SELECT ") + kMoveColumns +
                       " FROM moves WHERE match_id = ? AND request_id = ?");
    q->bind(1, match_id);
    q->bind(2, request_id);
    if (!q->executeStep()) return absl::NotFoundError("no move for request");
    out = ReadMove(*q, match_id);
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<MoveRow>> SqliteStore::ListMoves(
    const std::string& match_id, int64_t from_ply, int limit) {
  return ReadAs<std::vector<MoveRow>>(
      "list moves", [&](Connection& c, std::vector<MoveRow>& rows) {
        auto q = c.Prepare(std::string("SELECT ") + kMoveColumns +
                           " FROM moves WHERE match_id = ? AND ply >= ? "
                           "ORDER BY ply LIMIT ?");
        q->bind(1, match_id);
        q->bind(2, static_cast<int64_t>(from_ply));
        q->bind(3, limit);
        while (q->executeStep()) rows.push_back(ReadMove(*q, match_id));
        return absl::OkStatus();
      });
}

absl::StatusOr<std::vector<MatchRecord>> SqliteStore::ListMatches(
    const MatchFilter& f, const std::optional<Cursor>& after, int limit) {
  // Built from the filter; each shape is prepared once. A player filter
  // walks that player's history index; otherwise the newest-first index of
  // the most selective column serves the order.
  std::string sql = std::string("SELECT ") + kMatchColumns;
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
  if (f.ended_from_ms || f.ended_to_ms) {
    add("m.status IN ('finished', 'aborted', 'cancelled')");
  }
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
  return ReadAs<std::vector<MatchRecord>>(
      "list matches", [&](Connection& c, std::vector<MatchRecord>& out) {
        // One statement: each row carries its match's seats.
        auto q = c.Prepare(sql);
        if (!f.player_id.empty()) q->bind(":player", f.player_id);
        if (!f.game.empty()) q->bind(":game", f.game);
        if (f.status.has_value()) q->bind(":status", StatusName(*f.status));
        if (f.ranked.has_value()) q->bind(":ranked", *f.ranked ? 1 : 0);
        if (f.created_from_ms) q->bind(":cfrom", *f.created_from_ms);
        if (f.created_to_ms) q->bind(":cto", *f.created_to_ms);
        if (f.ended_from_ms) q->bind(":efrom", *f.ended_from_ms);
        if (f.ended_to_ms) q->bind(":eto", *f.ended_to_ms);
        if (after.has_value()) {
          q->bind(":atime", static_cast<int64_t>(after->time_ms));
          q->bind(":aid", after->id);
        }
        q->bind(":limit", limit);
        while (q->executeStep()) out.push_back(MatchFromRow(*q));
        return absl::OkStatus();
      });
}

}  // namespace mancala::storage
