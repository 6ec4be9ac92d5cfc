#include "storage/pg_match_queue.h"

#include <pqxx/pqxx>
#include <utility>

#include "storage/pg_store.h"

namespace mancala::storage {
namespace {

// The first key of the advisory locks claims take ("MQUE" in ASCII).
constexpr int kClaimLockClass = 0x4D515545;

// SQL: the row was refreshed within $p milliseconds (its node lives).
std::string Alive(int p) {
  return "seen_at >= clock_timestamp() - $" + std::to_string(p) +
         " * interval '1 millisecond'";
}

// SQL: the row is searching (neither assigned nor under a live claim) and
// alive; `p` is the expiry parameter.
std::string Searching(int p) {
  return "match_id IS NULL AND (claimed_at IS NULL OR claimed_at < "
         "clock_timestamp() - $" +
         std::to_string(p) + " * interval '1 millisecond') AND " + Alive(p);
}

// Runs `query` outside a transaction and reads each row it returns.
template <typename T>
absl::StatusOr<std::vector<T>> Rows(
    PgPool& pool, const char* what,
    const std::function<pqxx::result(pqxx::nontransaction&)>& query,
    T (*read)(const pqxx::row&)) {
  std::vector<T> out;
  absl::Status s = pool.Run(what, [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    pqxx::result r = query(tx);
    out.clear();
    for (const pqxx::row& row : r) out.push_back(read(row));
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace

PgMatchQueue::PgMatchQueue(std::unique_ptr<PgPool> pool, std::string node_id,
                           int expire_ms, std::function<int64_t()> test_now_ms)
    : pool_(std::move(pool)),
      node_id_(std::move(node_id)),
      expire_ms_(expire_ms),
      test_now_ms_(std::move(test_now_ms)) {}

const char* PgMatchQueue::TestNow(std::string* buffer) const {
  if (!test_now_ms_) return nullptr;
  *buffer = std::to_string(test_now_ms_());
  return buffer->c_str();
}

absl::StatusOr<std::unique_ptr<PgMatchQueue>> PgMatchQueue::Open(
    const std::string& dsn, std::string node_id, int expire_ms,
    std::function<int64_t()> test_now_ms) {
  // Two connections: the ticker's claims and refreshes, and searchers
  // arriving meanwhile; more callers wait for one.
  auto pool = PgPool::Open(dsn, 2, nullptr);
  if (!pool.ok()) return pool.status();
  if (node_id.empty()) {
    return absl::InvalidArgumentError("the matchmaking queue needs a node id");
  }
  return std::unique_ptr<PgMatchQueue>(new PgMatchQueue(
      *std::move(pool), std::move(node_id), expire_ms, std::move(test_now_ms)));
}

absl::Status PgMatchQueue::Add(const QueueEntry& e) {
  bool added = false;
  std::string now;
  const char* test_now = TestNow(&now);
  absl::Status s = pool_->Run("join the queue", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    // An expired search of the player (their node died) is no obstacle.
    tx.exec_params("DELETE FROM match_queue WHERE player_id = $1 AND NOT (" +
                       Alive(2) + ")",
                   e.player_id, expire_ms_);
    pqxx::result r = tx.exec_params(
        "INSERT INTO match_queue (search_id, player_id, node_id, queue_key, "
        "queue_info, rating, accept_cpu, enqueued_at) VALUES ($1, $2, $3, $4, "
        "$5, $6, $7, coalesce(to_timestamp($8::bigint / 1000.0), "
        "clock_timestamp())) ON CONFLICT (player_id) DO NOTHING",
        e.search_id, e.player_id, e.node_id, e.queue_key, e.queue_info,
        e.rating, e.accept_cpu, test_now);
    added = r.affected_rows() == 1;
    tx.commit();
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  if (!added) {
    return absl::AlreadyExistsError("player " + e.player_id +
                                    " is already searching");
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> PgMatchQueue::Cancel(const std::string& player_id) {
  bool removed = false;
  absl::Status s = pool_->Run("leave the queue", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    removed = tx.exec_params(
                    "DELETE FROM match_queue WHERE player_id = $1 "
                    "AND " +
                        Searching(2),
                    player_id, expire_ms_)
                  .affected_rows() > 0;
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return removed;
}

absl::Status PgMatchQueue::Remove(const std::string& search_id) {
  return pool_->Run("remove a search", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    tx.exec_params("DELETE FROM match_queue WHERE search_id = $1", search_id);
    return absl::OkStatus();
  });
}

absl::Status PgMatchQueue::Claim(const std::string& queue_key,
                                 const Former& form) {
  bool formed = false;  // The pool retries a body; the former runs once.
  std::string now;
  const char* test_now = TestNow(&now);
  return pool_->Run("claim searches", [&](pqxx::connection& c) {
    // A retry after the former ran: its groups may be stale, drop them.
    if (formed) return absl::UnavailableError("claim interrupted; next tick");
    pqxx::work tx(c);
    // Claims of one key take turns (the transaction is short: the former
    // is pure), so each sees every search the previous one left; rows
    // being cancelled meanwhile are skipped.
    tx.exec_params("SELECT pg_advisory_xact_lock($1, hashtext($2))",
                   kClaimLockClass, queue_key);
    pqxx::result r = tx.exec_params(
        "SELECT search_id, player_id, node_id, queue_info, rating, "
        "accept_cpu, (extract(epoch FROM enqueued_at) * 1000)::bigint, "
        "coalesce($3::bigint, "
        "(extract(epoch FROM clock_timestamp()) * 1000)::bigint) "
        "FROM match_queue WHERE queue_key = $1 AND " +
            Searching(2) + " ORDER BY arrival FOR UPDATE SKIP LOCKED",
        queue_key, expire_ms_, test_now);
    if (r.empty()) return absl::OkStatus();
    std::vector<QueueEntry> searching;
    searching.reserve(r.size());
    for (const pqxx::row& row : r) {
      QueueEntry e;
      e.search_id = row[0].as<std::string>();
      e.player_id = row[1].as<std::string>();
      e.node_id = row[2].as<std::string>();
      e.queue_key = queue_key;
      e.queue_info = row[3].as<std::string>();
      e.rating = row[4].as<double>();
      e.accept_cpu = row[5].as<bool>();
      e.enqueued_ms = row[6].as<int64_t>();
      searching.push_back(std::move(e));
    }
    formed = true;
    std::vector<std::string> claimed;
    for (size_t i : form(searching, r[0][7].as<int64_t>())) {
      claimed.push_back(searching[i].search_id);
    }
    if (!claimed.empty()) {
      tx.exec_params(
          "UPDATE match_queue SET claimed_at = clock_timestamp() "
          "WHERE search_id = ANY($1::text[])",
          PgTextArray(claimed));
    }
    tx.commit();
    return absl::OkStatus();
  });
}

absl::Status PgMatchQueue::Assign(const std::string& search_id,
                                  const std::string& match_id, int seat) {
  return pool_->Run("assign a match", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    tx.exec_params(
        "UPDATE match_queue SET match_id = $2, seat = $3 WHERE search_id = $1",
        search_id, match_id, seat);
    return absl::OkStatus();
  });
}

absl::Status PgMatchQueue::Release(const std::vector<std::string>& search_ids) {
  if (search_ids.empty()) return absl::OkStatus();
  return pool_->Run("release searches", [&](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    tx.exec_params(
        "UPDATE match_queue SET claimed_at = NULL WHERE search_id = "
        "ANY($1::text[]) AND match_id IS NULL",
        PgTextArray(search_ids));
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<OwnSearch>> PgMatchQueue::Refresh() {
  return Rows<OwnSearch>(
      *pool_, "refresh searches",
      [&](pqxx::nontransaction& tx) {
        // Own rows first, so a slow tick never deletes this node's searches.
        pqxx::result r = tx.exec_params(
            "UPDATE match_queue SET seen_at = clock_timestamp() WHERE "
            "node_id = $1 RETURNING search_id, player_id, "
            "coalesce(match_id, ''), seat",
            node_id_);
        tx.exec_params("DELETE FROM match_queue WHERE NOT (" + Alive(1) + ")",
                       expire_ms_);
        return r;
      },
      [](const pqxx::row& row) {
        return OwnSearch{row[0].as<std::string>(), row[1].as<std::string>(),
                         row[2].as<std::string>(), row[3].as<int>()};
      });
}

absl::StatusOr<std::vector<QueueCount>> PgMatchQueue::Counts() {
  return Rows<QueueCount>(
      *pool_, "count searches",
      [&](pqxx::nontransaction& tx) {
        return tx.exec_params(
            "SELECT queue_key, (array_agg(queue_info))[1], count(*) FROM "
            "match_queue WHERE " +
                Searching(1) + " GROUP BY queue_key ORDER BY queue_key",
            expire_ms_);
      },
      [](const pqxx::row& row) {
        return QueueCount{row[0].as<std::string>(), row[1].as<std::string>(),
                          row[2].as<int>()};
      });
}

}  // namespace mancala::storage
