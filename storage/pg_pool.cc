#include "storage/pg_pool.h"

#include <chrono>
#include <pqxx/pqxx>
#include <random>
#include <thread>

#include "storage/record_names.h"

namespace mancala::storage {
namespace {

// libpq waits this long for a connection unless the DSN says otherwise, so a
// host that drops packets fails a request instead of hanging it.
std::string WithConnectTimeout(const std::string& dsn) {
  if (dsn.find("connect_timeout") != std::string::npos) return dsn;
  if (dsn.rfind("postgres://", 0) == 0 || dsn.rfind("postgresql://", 0) == 0) {
    return dsn + (dsn.find('?') == std::string::npos ? "?" : "&") +
           "connect_timeout=5";
  }
  return dsn + " connect_timeout=5";
}

bool StartsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

bool ConnectionLost(const std::exception& e) {
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr ||
      dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr ||
      dynamic_cast<const pqxx::statement_completion_unknown*>(&e) != nullptr) {
    return true;
  }
  const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e);
  return sql != nullptr && (StartsWith(sql->sqlstate(), "08") ||
                            StartsWith(sql->sqlstate(), "57P"));
}

absl::Status FromPqxx(const std::exception& e, const char* what, bool* retry) {
  *retry = false;
  const std::string message = std::string(what) + ": " + e.what();
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr) {
    return absl::UnavailableError("database unreachable: " + message);
  }
  if (dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr) {
    return absl::UnavailableError("database connection lost at commit: " +
                                  message);
  }
  // SQLSTATE 40001 and 40P01: the transaction was rolled back and may simply
  // run again (libpqxx 6 throws these as transaction_rollback, not
  // sql_error).
  if (dynamic_cast<const pqxx::serialization_failure*>(&e) != nullptr ||
      dynamic_cast<const pqxx::deadlock_detected*>(&e) != nullptr) {
    *retry = true;
    return absl::UnavailableError("database contention: " + message);
  }
  if (dynamic_cast<const pqxx::statement_completion_unknown*>(&e) != nullptr) {
    return absl::UnavailableError("database outcome unknown: " + message);
  }
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e)) {
    const std::string& state = sql->sqlstate();
    if (state == "40001" || state == "40P01") {
      *retry = true;
      return absl::UnavailableError("database contention: " + message);
    }
    if (StartsWith(state, "23")) return absl::AlreadyExistsError(message);
    if (state == "55P03") {  // lock_not_available: lock_timeout passed.
      return absl::UnavailableError("database locked elsewhere: " + message);
    }
    // 08: connection exceptions; 57P0x: the server is shutting down.
    if (StartsWith(state, "08") || StartsWith(state, "57P")) {
      return absl::UnavailableError("database unavailable: " + message);
    }
  }
  return absl::InternalError(message);
}

PgPool::PgPool(std::string dsn, int size, Setup setup)
    : dsn_(WithConnectTimeout(dsn)),
      setup_(std::move(setup)),
      conns_(size),
      busy_(size, false) {}

PgPool::~PgPool() = default;

std::unique_ptr<pqxx::connection> PgPool::Connect() {
  auto conn = std::make_unique<pqxx::connection>(dsn_);
  // A broken connection must surface as an error: libpqxx would otherwise
  // reconnect silently and might repeat a statement that already ran.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  conn->inhibit_reactivation(true);
#pragma GCC diagnostic pop
  if (setup_) setup_(*conn);
  return conn;
}

absl::StatusOr<std::unique_ptr<PgPool>> PgPool::Open(const std::string& dsn,
                                                     int size, Setup setup) {
  if (size < 1) return absl::InvalidArgumentError("pool size must be >= 1");
  std::unique_ptr<PgPool> pool(new PgPool(dsn, size, std::move(setup)));
  for (auto& conn : pool->conns_) {
    try {
      conn = pool->Connect();
    } catch (const std::exception& e) {
      bool retry = false;
      absl::Status s = FromPqxx(e, "connect", &retry);
      if (absl::IsUnavailable(s)) return s;
      return absl::UnavailableError(std::string(s.message()));
    }
  }
  return pool;
}

absl::StatusOr<int> PgPool::Acquire() {
  int slot = -1;
  {
    std::unique_lock lock(mu_);
    for (;;) {
      for (size_t i = 0; i < busy_.size(); ++i) {
        if (!busy_[i]) {
          slot = static_cast<int>(i);
          break;
        }
      }
      if (slot >= 0) break;
      freed_.wait(lock);
    }
    busy_[slot] = true;
    if (conns_[slot]) return slot;
  }
  // A closed slot reconnects outside the lock (other slots stay usable).
  try {
    conns_[slot] = Connect();
  } catch (const std::exception& e) {
    Release(slot, true);
    bool retry = false;
    absl::Status s = FromPqxx(e, "connect", &retry);
    return absl::IsUnavailable(s) ? s : absl::UnavailableError(s.message());
  }
  return slot;
}

void PgPool::Release(int slot, bool broken) {
  {
    std::lock_guard lock(mu_);
    if (broken) {
      // The server likely went away for all of them: close every idle
      // connection so none is used stale when it returns.
      conns_[slot].reset();
      for (size_t i = 0; i < conns_.size(); ++i) {
        if (!busy_[i]) conns_[i].reset();
      }
    }
    busy_[slot] = false;
  }
  freed_.notify_one();
}

absl::Status PgPool::Run(
    const char* what,
    const std::function<absl::Status(pqxx::connection&)>& body) {
  thread_local std::minstd_rand jitter(std::random_device{}());
  for (int attempt = 0;; ++attempt) {
    absl::StatusOr<int> slot = Acquire();
    if (!slot.ok()) return slot.status();
    absl::Status status;
    bool retry = false, lost = false;
    try {
      status = body(*conns_[*slot]);
    } catch (const UnreadableRow& e) {
      status = absl::DataLossError(std::string(what) +
                                   ": match unreadable: " + e.what());
    } catch (const std::exception& e) {
      status = FromPqxx(e, what, &retry);
      lost = ConnectionLost(e);
    }
    Release(*slot, lost);
    if (!retry || attempt >= kMaxRetries) return status;
    // Back off a little, randomly, so the competing transactions part.
    std::this_thread::sleep_for(
        std::chrono::microseconds(500 * (1 << attempt) + jitter() % 1000));
  }
}

absl::Status PgPool::Ping() {
  return Run("ping", [](pqxx::connection& c) {
    pqxx::nontransaction tx(c);
    tx.exec("SELECT 1");
    return absl::OkStatus();
  });
}

}  // namespace mancala::storage
