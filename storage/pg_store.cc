#include "storage/pg_store.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <pqxx/pqxx>
#include <utility>

#include "storage/append_refusal.h"
#include "storage/call_deadline.h"
#include "storage/pg_schema.h"
#include "storage/pg_turn_deadline.h"
#include "storage/record_names.h"

namespace mancala::storage {
namespace {

// NULL for an empty string (nullable unique columns).
const char* OrNull(const std::string& s) {
  return s.empty() ? nullptr : s.c_str();
}

pqxx::binarystring Bytes(const std::string& s) {
  return pqxx::binarystring(s.data(), s.size());
}

std::string ReadBytes(const pqxx::field& f) {
  return f.is_null() ? std::string() : pqxx::binarystring(f).str();
}

std::string ReadText(const pqxx::field& f) {
  return f.is_null() ? std::string() : f.as<std::string>();
}

// The match columns, its seats as one JSON array of [kind, player_id,
// cpu_level] in seat order, and the time left to a player's turn in
// progress (pg_turn_deadline.h), in ms: a match is read in one query.
const std::string& MatchSelect() {
  static const std::string* const kSelect = new std::string(
      std::string(
          "SELECT m.id, m.game, m.options, m.first_seat, m.status, m.ply, "
          "m.created_by, m.created_at_ms, m.updated_at_ms, m.ended_at_ms, "
          "m.result, m.ranked, m.turn_limit_s, m.invite_code, "
          "m.rotate_first_player, m.rematch_of, m.rematch_id, m.voided, "
          "m.void_reason, m.request_id, m.request_hash, m.cancel_reason, "
          "(SELECT coalesce(json_agg(json_build_array(s.kind, "
          "coalesce(s.player_id, ''), s.cpu_level, coalesce(p.display_name, "
          "'')) "
          "ORDER BY s.seat), '[]') "
          "FROM seats s LEFT JOIN players p ON p.id = s.player_id "
          "WHERE s.match_id = m.id), "
          "(SELECT greatest(0, least(m.turn_limit_s * 1000, "
          "floor(extract(epoch FROM ") +
      PgTurnDeadlineSql() +
      " - now()) * 1000)))::bigint FROM seats s WHERE s.match_id = m.id "
      "AND s.seat = coalesce(m.to_move, m.first_seat) AND s.kind = 'player' "
      "AND m.status = 'in_progress' AND m.turn_limit_s > 0) ");
  return *kSelect;
}

MatchRecord ReadMatch(const pqxx::row& r) {
  MatchRecord m;
  m.id = r[0].as<std::string>();
  m.game = r[1].as<std::string>();
  m.options = nlohmann::json::parse(r[2].as<std::string>())
                  .get<std::map<std::string, std::string>>();
  m.first_seat = r[3].as<int>();
  m.status = ParseStatus(r[4].as<std::string>());
  m.ply = r[5].as<int64_t>();
  m.created_by = r[6].as<std::string>();
  m.created_at_ms = r[7].as<int64_t>();
  m.updated_at_ms = r[8].as<int64_t>();
  m.ended_at_ms = r[9].as<int64_t>();
  m.result = ReadBytes(r[10]);
  m.ranked = r[11].as<bool>();
  m.turn_limit_s = r[12].as<int>();
  m.invite_code = ReadText(r[13]);
  m.rotate_first_player = r[14].as<bool>();
  m.rematch_of = ReadText(r[15]);
  m.rematch_id = ReadText(r[16]);
  m.voided = r[17].as<bool>();
  m.void_reason = r[18].as<std::string>();
  m.request_id = ReadText(r[19]);
  m.request_hash = r[20].as<std::string>();
  m.cancel_reason = r[21].as<std::string>();
  for (const auto& seat : nlohmann::json::parse(r[22].as<std::string>())) {
    m.seats.push_back({ParseSeatKind(seat[0].get<std::string>()),
                       seat[1].get<std::string>(), seat[2].get<int>(),
                       seat[3].get<std::string>()});
  }
  m.turn_time_left_ms = r[23].is_null() ? -1 : r[23].as<int64_t>();
  return m;
}

constexpr char kMoveColumns[] =
    "ply, seat, pit, by_cpu, played_at_ms, events, cpu_reason, request_id, "
    "reply";

MoveRow ReadMove(const pqxx::row& r, const std::string& match_id) {
  MoveRow m;
  m.match_id = match_id;
  m.ply = r[0].as<int64_t>();
  m.seat = r[1].as<int>();
  m.pit = r[2].as<int>();
  m.by_cpu = r[3].as<bool>();
  m.played_at_ms = r[4].as<int64_t>();
  m.events = ReadBytes(r[5]);
  m.cpu_reason = r[6].as<int>();
  m.request_id = ReadText(r[7]);
  m.reply = ReadBytes(r[8]);
  return m;
}

constexpr char kPlayerSelect[] =
    "SELECT id, display_name, guest, token_hash, created_at_ms, "
    "coalesce(banned_at_ms, 0) FROM players ";

PlayerRecord ReadPlayer(const pqxx::row& r) {
  return {r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<bool>(),
          r[3].as<std::string>(), r[4].as<int64_t>(),     r[5].as<int64_t>()};
}

// The hot statements, prepared on every connection of the pool.
void PrepareStatements(pqxx::connection& c) {
  // The ply check makes the append conditional: a stale or repeated append
  // changes no row (docs/design.md "The path of a move"). One statement, so one
  // round trip and atomic without BEGIN/COMMIT.
  c.prepare("append_move",
            "WITH u AS (UPDATE matches SET ply = $2, status = $3, "
            "updated_at_ms = $4, ended_at_ms = $5, result = $6, "
            // The due time and claim (storage/due_turns.h), on the
            // database's clock, with the move.
            "to_move = $14, due_at = CASE WHEN $15::bigint < 0 THEN NULL "
            "ELSE clock_timestamp() + $15::bigint * interval '1 ms' END, "
            "claim_node = $16, claim_ply = CASE WHEN $16::text IS NULL "
            "THEN NULL ELSE $2::bigint END, claim_until = CASE WHEN "
            "$16::text IS NULL THEN NULL ELSE clock_timestamp() + "
            "$17::bigint * interval '1 ms' END "
            "WHERE id = $1 AND ply = $2::bigint - 1 RETURNING id) "
            "INSERT INTO moves (match_id, ply, seat, pit, by_cpu, "
            "played_at_ms, events, cpu_reason, request_id, reply) "
            "SELECT id, $2, $7, $8, $9, $4, $10, $11, $12, $13 FROM u");
  // append_move for many matches at once (pg_append_batcher.h): one array
  // per column, element i of each the i-th move; returns the match id of
  // every move stored. The same ply check and the same columns.
  c.prepare(
      "append_moves",
      "WITH i AS (SELECT * FROM unnest($1::text[], $2::bigint[], "
      "$3::text[], $4::bigint[], $5::bigint[], $6::bytea[], $7::int[], "
      "$8::int[], $9::bool[], $10::bytea[], $11::int[], $12::text[], "
      "$13::bytea[], $14::int[], $15::bigint[], $16::text[], $17::bigint[]) "
      "AS t(match_id, ply, status, played_at_ms, ended_at_ms, result, seat, "
      "pit, by_cpu, events, cpu_reason, request_id, reply, to_move, "
      "due_after_ms, claim_node, claim_ttl_ms)), "
      "u AS (UPDATE matches m SET ply = i.ply, status = i.status, "
      "updated_at_ms = i.played_at_ms, ended_at_ms = i.ended_at_ms, "
      "result = i.result, to_move = i.to_move, due_at = CASE WHEN "
      "i.due_after_ms < 0 THEN NULL ELSE clock_timestamp() + "
      "i.due_after_ms * interval '1 ms' END, claim_node = i.claim_node, "
      "claim_ply = CASE WHEN i.claim_node IS NULL THEN NULL ELSE i.ply END, "
      "claim_until = CASE WHEN i.claim_node IS NULL THEN NULL ELSE "
      "clock_timestamp() + i.claim_ttl_ms * interval '1 ms' END "
      "FROM i WHERE m.id = i.match_id AND m.ply = i.ply - 1 "
      "RETURNING i.*) "
      "INSERT INTO moves (match_id, ply, seat, pit, by_cpu, played_at_ms, "
      "events, cpu_reason, request_id, reply) "
      "SELECT match_id, ply, seat, pit, by_cpu, played_at_ms, events, "
      "cpu_reason, request_id, reply FROM u RETURNING match_id");
  c.prepare("get_match", MatchSelect() + "FROM matches m WHERE m.id = $1");
  c.prepare("find_move", std::string("SELECT ") + kMoveColumns +
                             " FROM moves WHERE match_id = $1 AND "
                             "request_id = $2");
}

pqxx::result ExecAppend(pqxx::transaction_base& tx, const MoveRow& mv,
                        const MatchUpdate& update) {
  return tx.exec_prepared(
      "append_move", mv.match_id, mv.ply, StatusName(update.status),
      mv.played_at_ms, update.ended_at_ms, Bytes(update.result), mv.seat,
      mv.pit, mv.by_cpu, Bytes(mv.events), mv.cpu_reason, OrNull(mv.request_id),
      Bytes(mv.reply), update.to_move, update.due_after_ms,
      OrNull(update.claim_node), update.claim_ttl_ms);
}

// Replaces the seats rows of `m` and adds its players' history rows.
void WriteSeats(pqxx::transaction_base& tx, const MatchRecord& m) {
  tx.exec_params("DELETE FROM seats WHERE match_id = $1", m.id);
  for (size_t i = 0; i < m.seats.size(); ++i) {
    const SeatRecord& s = m.seats[i];
    tx.exec_params(
        "INSERT INTO seats (match_id, seat, kind, player_id, cpu_level) "
        "VALUES ($1, $2, $3, $4, $5)",
        m.id, static_cast<int>(i), SeatKindName(s.kind), OrNull(s.player_id),
        s.cpu_level);
    if (s.kind == SeatRecord::Kind::kPlayer) {
      tx.exec_params(
          "INSERT INTO match_players (player_id, match_id, created_at_ms) "
          "VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
          s.player_id, m.id, m.created_at_ms);
    }
  }
}

absl::Status OptionsUnreadable(const std::exception& e) {
  return absl::DataLossError(std::string("match options unreadable: ") +
                             e.what());
}

}  // namespace

void AppendPgArrayElement(std::string* out, const std::string& value) {
  *out += '"';
  for (char c : value) {
    if (c == '"' || c == '\\') *out += '\\';
    *out += c;
  }
  *out += '"';
}

std::string PgTextArray(const std::vector<std::string>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    AppendPgArrayElement(&out, values[i]);
  }
  return out + "}";
}

absl::StatusOr<int> PgDeleteOlderThan(PgPool& pool, const char* what,
                                      const char* table, const char* column,
                                      int64_t silent_ms) {
  const std::string sql = std::string("DELETE FROM ") + table + " WHERE " +
                          column + " < now() - $1::bigint * interval '1 ms'";
  int deleted = 0;
  absl::Status s = pool.Run(what, [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    deleted = static_cast<int>(tx.exec_params(sql, silent_ms).affected_rows());
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return deleted;
}

// The most moves one batch statement carries (pg_append_batcher.h).
constexpr int kMaxAppendBatch = 128;

PgStore::PgStore(std::unique_ptr<PgPool> pool) : pool_(std::move(pool)) {
  batcher_ = std::make_unique<PgAppendBatcher>(
      *pool_, kMaxAppendBatch, PgStore::kAppendThreads,
      [this](const MoveRow& mv, const MatchUpdate& update) {
        return AppendOne(mv, update);
      },
      [this](const MoveRow& mv, absl::Status cut_off) {
        return CheckAppended(mv, std::move(cut_off));
      });
}

PgStore::~PgStore() = default;

absl::StatusOr<std::unique_ptr<PgStore>> PgStore::Open(const std::string& dsn,
                                                       int pool_size,
                                                       int lock_timeout_ms,
                                                       int call_bound_ms) {
  // Migrate first, on a connection of its own and without a bound (a
  // migration may take long): the pool's connections prepare statements
  // against the migrated tables.
  auto migrator = PgPool::Open(dsn, 1, nullptr,
                               PgPoolOptions{std::chrono::milliseconds(0)});
  if (!migrator.ok()) return migrator.status();
  absl::Status migrated = (*migrator)->Run(
      "migrate", [](pqxx::connection& c) { return PgMigrate(c); });
  if (!migrated.ok()) return migrated;
  migrator->reset();
  const std::string set_lock_timeout =
      "SET lock_timeout = " + std::to_string(std::max(1, lock_timeout_ms));
  auto pool = PgPool::Open(
      dsn, pool_size,
      [set_lock_timeout](pqxx::connection& c) {
        pqxx::nontransaction tx(c);
        tx.exec(set_lock_timeout);
        tx.commit();
        PrepareStatements(c);
      },
      PgPoolOptions{std::chrono::milliseconds(std::max(1, call_bound_ms))});
  if (!pool.ok()) return pool.status();
  return std::unique_ptr<PgStore>(new PgStore(*std::move(pool)));
}

void PgStore::set_metrics(StoreMetrics* metrics) {
  Store::set_metrics(metrics);
  pool_->set_metrics(metrics);
}

absl::Status PgStore::Ping() { return pool_->Ping(); }

absl::Status PgStore::CreatePlayer(const PlayerRecord& p) {
  return pool_->Run("create player", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    tx.exec_params(
        "INSERT INTO players (id, display_name, guest, token_hash, "
        "created_at_ms) VALUES ($1, $2, $3, $4, $5)",
        p.id, p.display_name, p.guest, p.token_hash, p.created_at_ms);
    return absl::OkStatus();
  });
}

absl::StatusOr<PlayerRecord> PgStore::GetPlayer(const std::string& id) {
  PlayerRecord out;
  absl::Status s = pool_->Run("get player", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    pqxx::result r =
        tx.exec_params(std::string(kPlayerSelect) + "WHERE id = $1", id);
    if (r.empty()) return absl::NotFoundError("player " + id);
    out = ReadPlayer(r[0]);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<PlayerRecord> PgStore::FindPlayerByTokenHash(
    const std::string& token_hash) {
  PlayerRecord out;
  absl::Status s = pool_->Run("find player", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    pqxx::result r = tx.exec_params(
        std::string(kPlayerSelect) + "WHERE token_hash = $1", token_hash);
    if (r.empty()) return absl::NotFoundError("no player has token");
    out = ReadPlayer(r[0]);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::Status PgStore::CreateMatch(const MatchRecord& m) {
  return pool_->Run("create match", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    tx.exec_params(
        "INSERT INTO matches (id, game, options, first_seat, status, ply, "
        "created_by, created_at_ms, updated_at_ms, ended_at_ms, result, "
        "ranked, turn_limit_s, invite_code, rotate_first_player, rematch_of, "
        "rematch_id, request_id, request_hash, cancel_reason) VALUES ($1, "
        "$2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, "
        "$17, $18, $19, $20)",
        m.id, m.game, nlohmann::json(m.options).dump(), m.first_seat,
        StatusName(m.status), m.ply, m.created_by, m.created_at_ms,
        m.updated_at_ms, m.ended_at_ms, Bytes(m.result), m.ranked,
        m.turn_limit_s, OrNull(m.invite_code), m.rotate_first_player,
        OrNull(m.rematch_of), OrNull(m.rematch_id), OrNull(m.request_id),
        m.request_hash, m.cancel_reason);
    WriteSeats(tx, m);
    if (!m.rematch_of.empty()) {
      pqxx::result link = tx.exec_params(
          "UPDATE matches SET rematch_id = $1 WHERE id = $2 AND rematch_id "
          "IS NULL",
          m.id, m.rematch_of);
      if (link.affected_rows() == 0) {
        return absl::AlreadyExistsError("match " + m.rematch_of +
                                        " already has a rematch");
      }
    }
    tx.commit();
    return absl::OkStatus();
  });
}

absl::Status PgStore::UpdateMatch(const MatchRecord& m) {
  return pool_->Run("update match", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    pqxx::result r = tx.exec_params(
        "UPDATE matches SET status = $1, invite_code = $2, updated_at_ms = $3, "
        "ended_at_ms = $4, result = $5, rematch_id = $6, cancel_reason = $7 "
        "WHERE id = $8",
        StatusName(m.status), OrNull(m.invite_code), m.updated_at_ms,
        m.ended_at_ms, Bytes(m.result), OrNull(m.rematch_id), m.cancel_reason,
        m.id);
    if (r.affected_rows() == 0) return absl::NotFoundError("match " + m.id);
    WriteSeats(tx, m);
    tx.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::string> PgStore::FindMatchByInviteCode(
    const std::string& code) {
  std::string id;
  absl::Status s = pool_->Run("find match by code", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    pqxx::result r =
        tx.exec_params("SELECT id FROM matches WHERE invite_code = $1", code);
    if (r.empty()) return absl::NotFoundError("no match has code");
    id = r[0][0].as<std::string>();
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return id;
}

absl::StatusOr<MatchRecord> PgStore::OneMatch(
    const char* what, const std::string& missing,
    const std::function<pqxx::result(pqxx::transaction_base&)>& query) {
  MatchRecord out;
  absl::Status s = pool_->Run(what, [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    pqxx::result r = query(tx);
    if (r.empty()) return absl::NotFoundError(missing);
    try {
      out = ReadMatch(r[0]);
    } catch (const nlohmann::json::exception& e) {
      return OptionsUnreadable(e);
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<MatchRecord> PgStore::GetMatch(const std::string& id) {
  return OneMatch("get match", "match " + id, [&](pqxx::transaction_base& tx) {
    return tx.exec_prepared("get_match", id);
  });
}

absl::StatusOr<MatchRecord> PgStore::FindMatchByRequestId(
    const std::string& creator_id, const std::string& request_id) {
  return OneMatch(
      "find match by request id", "no match has this request id",
      [&](pqxx::transaction_base& tx) {
        return tx.exec_params(
            MatchSelect() +
                "FROM matches m WHERE m.created_by = $1 AND m.request_id = $2",
            creator_id, request_id);
      });
}

absl::StatusOr<int> PgStore::CountWaitingMatches(
    const std::string& creator_id) {
  int count = 0;
  absl::Status s =
      pool_->Run("count waiting matches", [&](pqxx::connection& c) {
        pqxx::nontransaction tx(c);
        count = tx.exec_params1(
                      "SELECT count(*) FROM matches WHERE created_by = $1 AND "
                      "status = 'waiting'",
                      creator_id)[0]
                    .as<int>();
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  return count;
}

absl::StatusOr<std::vector<std::string>> PgStore::ListMatchIds(
    MatchStatus status) {
  std::vector<std::string> ids;
  absl::Status s = pool_->Run("list matches", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    ids.clear();
    for (const auto& row :
         tx.exec_params("SELECT id FROM matches WHERE status = $1 "
                        "ORDER BY created_at_ms, id",
                        StatusName(status))) {
      ids.push_back(row[0].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return ids;
}

absl::Status PgStore::AppendRefused(pqxx::transaction_base& tx,
                                    const MoveRow& mv) {
  pqxx::result r =
      tx.exec_params("SELECT ply FROM matches WHERE id = $1", mv.match_id);
  if (r.empty()) return absl::NotFoundError("match " + mv.match_id);
  return PlyTaken(mv, r[0][0].as<int64_t>());
}

absl::Status PgStore::CheckAppended(const MoveRow& mv, absl::Status cut_off) {
  if (!absl::IsUnavailable(cut_off)) return cut_off;
  auto stored = ListMoves(mv.match_id, mv.ply, 1);
  if (stored.ok() && stored->size() == 1) {
    const MoveRow& got = stored->front();
    if (got.ply == mv.ply && got.seat == mv.seat && got.pit == mv.pit &&
        got.played_at_ms == mv.played_at_ms &&
        got.request_id == mv.request_id && got.events == mv.events) {
      return absl::OkStatus();  // The cut-off commit had gone through.
    }
  }
  return cut_off;
}

namespace {

bool Rated(const MatchUpdate& update) {
  return !update.rating_changes.empty() || !update.new_ratings.empty();
}

}  // namespace

absl::Status PgStore::AppendMove(const MoveRow& mv, const MatchUpdate& update) {
  if (Rated(update)) return AppendOne(mv, update);
  // Nothing queued: on this thread, which waits for the commit anyway.
  if (std::optional<absl::Status> s = batcher_->TryAlone(mv, update)) {
    return *s;
  }
  // The answer comes on the batcher's thread; the waiter may have given up
  // by then, so what they share outlives either.
  struct Answer {
    std::mutex mu;
    std::condition_variable cv;
    std::optional<absl::Status> status;
  };
  auto answer = std::make_shared<Answer>();
  const std::optional<CallDeadline::Clock::time_point> deadline =
      CallDeadline::Current();
  batcher_->Submit(mv, update, deadline, [answer](absl::Status s) {
    std::lock_guard lock(answer->mu);
    answer->status = std::move(s);
    answer->cv.notify_one();
  });
  std::unique_lock lock(answer->mu);
  auto answered = [&] { return answer->status.has_value(); };
  if (deadline && !answer->cv.wait_until(lock, *deadline, answered)) {
    return absl::DeadlineExceededError(
        "append move: the call's deadline passed while the database had "
        "the move; it may still be stored");
  }
  answer->cv.wait(lock, answered);
  return *answer->status;
}

void PgStore::AppendMoveAsync(MoveRow move, MatchUpdate update,
                              AppendDone done) {
  if (Rated(update)) return done(AppendOne(move, update));
  batcher_->Submit(std::move(move), std::move(update), CallDeadline::Current(),
                   std::move(done));
}

absl::Status PgStore::AppendOne(const MoveRow& mv, const MatchUpdate& update) {
  absl::Status s;
  if (update.rating_changes.empty() && update.new_ratings.empty()) {
    s = pool_->Run("append move", [&](pqxx::connection& c) {
      pqxx::nontransaction tx(c);
      if (ExecAppend(tx, mv, update).affected_rows() == 0) {
        return AppendRefused(tx, mv);
      }
      return absl::OkStatus();
    });
  } else {
    s = pool_->Run("append move", [&](pqxx::connection& c) {
      pqxx::work tx(c);
      absl::Status ratings = LockRatings(tx, update);
      // A lost ply race answers first: the caller catches up, not re-rates.
      if (ExecAppend(tx, mv, update).affected_rows() == 0) {
        return AppendRefused(tx, mv);
      }
      if (!ratings.ok()) return ratings;
      WriteRatings(tx, update.rating_changes, update.new_ratings);
      tx.commit();
      return absl::OkStatus();
    });
  }
  return CheckAppended(mv, s);
}

absl::StatusOr<MoveRow> PgStore::FindMoveByRequestId(
    const std::string& match_id, const std::string& request_id) {
  MoveRow out;
  absl::Status s = pool_->Run("find move", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    pqxx::result r = tx.exec_prepared("find_move", match_id, request_id);
    if (r.empty()) return absl::NotFoundError("no move for request");
    out = ReadMove(r[0], match_id);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<std::vector<MoveRow>> PgStore::ListMoves(
    const std::string& match_id, int64_t from_ply, int limit) {
  std::vector<MoveRow> rows;
  absl::Status s = pool_->Run("list moves", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    rows.clear();
    for (const auto& r :
         tx.exec_params(std::string("SELECT ") + kMoveColumns +
                            " FROM moves WHERE match_id = $1 AND ply >= $2 "
                            "ORDER BY ply LIMIT $3",
                        match_id, from_ply, limit)) {
      rows.push_back(ReadMove(r, match_id));
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return rows;
}

absl::StatusOr<std::vector<MatchRecord>> PgStore::ListMatches(
    const MatchFilter& f, const std::optional<Cursor>& after, int limit) {
  // Built from the filter, as SqliteStore does: a player filter walks that
  // player's history index; otherwise the newest-first index of the most
  // selective column serves the order.
  std::vector<std::string> params;
  auto param = [&params](std::string value) {
    params.push_back(std::move(value));
    return "$" + std::to_string(params.size());
  };
  std::string where;
  auto add = [&where](const std::string& clause) {
    where += (where.empty() ? " WHERE " : " AND ") + clause;
  };
  std::string from = " FROM matches m";
  std::string time = "m.created_at_ms", id_col = "m.id";
  if (!f.player_id.empty()) {
    from = " FROM match_players p JOIN matches m ON m.id = p.match_id";
    time = "p.created_at_ms";
    id_col = "p.match_id";
    add("p.player_id = " + param(f.player_id));
  }
  if (!f.game.empty()) add("m.game = " + param(f.game));
  if (f.status.has_value()) add("m.status = " + param(StatusName(*f.status)));
  if (f.ranked.has_value()) {
    add("m.ranked = " + param(*f.ranked ? "true" : "false"));
  }
  // Any value filters, 0 included; an end-time bound passes ended matches
  // only (store.h MatchFilter).
  auto bound = [&](const char* clause, const std::optional<int64_t>& ms) {
    if (ms) add(clause + param(std::to_string(*ms)) + "::bigint");
  };
  bound("m.created_at_ms >= ", f.created_from_ms);
  bound("m.created_at_ms < ", f.created_to_ms);
  bound("m.ended_at_ms >= ", f.ended_from_ms);
  bound("m.ended_at_ms < ", f.ended_to_ms);
  if (f.ended_from_ms || f.ended_to_ms) {
    add("m.status IN ('finished', 'aborted', 'cancelled')");
  }
  if (after.has_value()) {
    add("(" + time + ", " + id_col + ") < (" +
        param(std::to_string(after->time_ms)) + "::bigint, " +
        param(after->id) + ")");
  }
  const std::string sql = MatchSelect() + from + where + " ORDER BY " + time +
                          " DESC, " + id_col + " DESC LIMIT " +
                          param(std::to_string(limit));
  std::vector<MatchRecord> out;
  absl::Status s = pool_->Run("list matches", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    out.clear();
    try {
      for (const auto& r :
           tx.exec_params(sql, pqxx::prepare::make_dynamic_params(params))) {
        out.push_back(ReadMatch(r));
      }
    } catch (const nlohmann::json::exception& e) {
      return OptionsUnreadable(e);
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace mancala::storage
