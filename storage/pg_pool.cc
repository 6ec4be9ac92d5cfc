#include "storage/pg_pool.h"

#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <pqxx/pqxx>
#include <random>
#include <thread>

#include "storage/call_deadline.h"
#include "storage/record_names.h"
#include "storage/store_metrics.h"

namespace mancala::storage {
namespace {

// libpq waits this long for a connection unless the DSN says otherwise, so a
// host that drops packets fails a reconnect instead of hanging it.
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
    // 53100 disk_full, 53200 out_of_memory: retrying soon will not help.
    if (state == "53100" || state == "53200") {
      return absl::ResourceExhaustedError("database out of space: " + message);
    }
    if (state == "57014") {  // query_canceled: statement_timeout passed.
      return absl::DeadlineExceededError("database too slow: " + message);
    }
    // 08: connection exceptions; 57P0x: the server is shutting down.
    if (StartsWith(state, "08") || StartsWith(state, "57P")) {
      return absl::UnavailableError("database unavailable: " + message);
    }
  }
  return absl::InternalError(message);
}

PgPool::PgPool(std::string dsn, int size, Setup setup, PgPoolOptions options)
    : dsn_(WithConnectTimeout(std::move(dsn))),
      setup_(std::move(setup)),
      options_(options),
      slots_(size),
      watchdog_([this] { Watch(); }),
      connector_([this] { ConnectLoop(); }) {}

PgPool::~PgPool() {
  {
    std::lock_guard lock(mu_);
    closing_ = true;
  }
  watch_.notify_all();
  connect_.notify_all();
  watchdog_.join();
  connector_.join();
}

std::unique_ptr<pqxx::connection> PgPool::Connect() {
  auto conn = std::make_unique<pqxx::connection>(dsn_);
  // A broken connection must surface as an error: libpqxx would otherwise
  // reconnect silently and might repeat a statement that already ran.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  conn->inhibit_reactivation(true);
#pragma GCC diagnostic pop
  if (options_.bound.count() > 0) {
    pqxx::nontransaction tx(*conn);
    tx.exec("SET statement_timeout = " +
            std::to_string(options_.bound.count()));
    tx.commit();
  }
  if (setup_) setup_(*conn);
  return conn;
}

absl::StatusOr<std::unique_ptr<PgPool>> PgPool::Open(const std::string& dsn,
                                                     int size, Setup setup,
                                                     PgPoolOptions options) {
  if (size < 1) return absl::InvalidArgumentError("pool size must be >= 1");
  std::unique_ptr<PgPool> pool(
      new PgPool(dsn, size, std::move(setup), options));
  for (Slot& slot : pool->slots_) {
    try {
      auto conn = pool->Connect();
      std::lock_guard lock(pool->mu_);
      slot.fd = conn->sock();
      slot.conn = std::move(conn);
    } catch (const std::exception& e) {
      bool retry = false;
      absl::Status s = FromPqxx(e, "connect", &retry);
      if (absl::IsUnavailable(s)) return s;
      return absl::UnavailableError(std::string(s.message()));
    }
  }
  return pool;
}

absl::StatusOr<int> PgPool::Acquire(const char* what,
                                    Clock::time_point deadline) {
  std::unique_lock lock(mu_);
  const uint64_t failures_before = connect_failures_;
  for (;;) {
    bool connecting = false;
    int closed = -1;
    for (size_t i = 0; i < slots_.size(); ++i) {
      Slot& s = slots_[i];
      if (s.busy) continue;
      if (s.conn) {
        s.busy = true;
        return static_cast<int>(i);
      }
      connecting |= s.connecting;
      if (!s.connecting && closed < 0) closed = static_cast<int>(i);
    }
    // A reconnect failed while this call waited: the server is not there.
    if (connect_failures_ != failures_before) return last_connect_error_;
    // Closed slots reconnect on the connector's thread, one at a time, so
    // a server that takes long to answer (frozen, or a host dropping
    // packets: libpq's connect_timeout is whole seconds, and overshoots)
    // holds no caller past its deadline.
    if (!connecting && closed >= 0) {
      slots_[closed].connecting = connecting = true;
      connect_.notify_one();
    }
    if (deadline == Clock::time_point::max()) {
      freed_.wait(lock);  // No bound (the migration).
      continue;
    }
    if (Clock::now() >= deadline) {
      // Release() wakes one waiter per freed slot: if that was this one,
      // giving up here would leave the slot free while others sleep.
      freed_.notify_one();
      return absl::DeadlineExceededError(
          std::string(what) +
          (connecting ? ": the database did not take a new connection"
                      : ": no database connection came free (" +
                            std::to_string(slots_.size()) + " busy)") +
          " within the call's deadline; nothing was sent");
    }
    freed_.wait_until(lock, deadline);
  }
}

void PgPool::ConnectLoop() {
  std::unique_lock lock(mu_);
  while (!closing_) {
    Slot* slot = nullptr;
    for (Slot& s : slots_) {
      if (s.connecting) slot = &s;
    }
    if (slot == nullptr) {
      connect_.wait(lock);
      continue;
    }
    lock.unlock();
    std::unique_ptr<pqxx::connection> conn;
    absl::Status error;
    try {
      conn = Connect();
    } catch (const std::exception& e) {
      bool retry = false;
      error = FromPqxx(e, "connect", &retry);
      if (!absl::IsUnavailable(error)) {
        error = absl::UnavailableError(error.message());
      }
    }
    lock.lock();
    slot->connecting = false;
    if (conn) {
      slot->fd = conn->sock();
      slot->conn = std::move(conn);
    } else {
      ++connect_failures_;
      last_connect_error_ = error;
    }
    freed_.notify_all();
  }
}

void PgPool::Release(int slot, bool broken) {
  {
    std::lock_guard lock(mu_);
    if (broken) {
      // The server likely went away for all of them: close every idle
      // connection so none is used stale when it returns.
      slots_[slot].conn.reset();
      for (Slot& s : slots_) {
        if (!s.busy) s.conn.reset();
      }
    }
    slots_[slot].busy = false;
  }
  // One slot came free: one waiter can take it. Waking them all (up to
  // every handler thread at 256 clients on an 8-connection pool) cost more
  // CPU than the moves themselves (issue 28: 677 us per move at 256).
  // Broken: every idle connection was closed, and each waiter may start a
  // reconnect.
  if (broken) {
    freed_.notify_all();
  } else {
    freed_.notify_one();
  }
}

void PgPool::Watch() {
  std::unique_lock lock(mu_);
  while (!closing_) {
    std::optional<Clock::time_point> next;
    const Clock::time_point now = Clock::now();
    for (Slot& s : slots_) {
      if (!s.deadline || s.cut) continue;
      if (*s.deadline <= now) {
        // Not close(): the holder's libpq still owns the descriptor, and a
        // closed number could be reused by another file meanwhile.
        ::shutdown(s.fd, SHUT_RDWR);
        s.cut = true;
      } else if (!next || *s.deadline < *next) {
        next = s.deadline;
      }
    }
    if (next) {
      watch_.wait_until(lock, *next);
    } else {
      watch_.wait(lock);
    }
  }
}

absl::Status PgPool::Run(
    const char* what,
    const std::function<absl::Status(pqxx::connection&)>& body) {
  thread_local std::minstd_rand jitter(std::random_device{}());
  // The caller's deadline, capped by the bound: statement_timeout would end
  // a longer statement anyway, and no handler thread waits longer.
  Clock::time_point deadline =
      CallDeadline::Current().value_or(Clock::time_point::max());
  if (options_.bound.count() > 0) {
    deadline = std::min(deadline, Clock::now() + options_.bound);
  }
  for (int attempt = 0;; ++attempt) {
    if (Clock::now() >= deadline) {
      return ReportFailure(
          metrics_, what,
          absl::DeadlineExceededError(std::string(what) +
                                      ": the call's deadline passed before the "
                                      "database was asked; nothing was sent"));
    }
    absl::StatusOr<int> slot = Acquire(what, deadline);
    if (!slot.ok()) return ReportFailure(metrics_, what, slot.status());
    pqxx::connection* conn = nullptr;
    {
      std::lock_guard lock(mu_);
      conn = slots_[*slot].conn.get();
      if (deadline != Clock::time_point::max()) {
        slots_[*slot].deadline = deadline;
        watch_.notify_one();
      }
    }
    absl::Status status;
    bool retry = false, lost = false, failed = false;
    try {
      status = body(*conn);
    } catch (const UnreadableRow& e) {
      status = absl::DataLossError(std::string(what) +
                                   ": match unreadable: " + e.what());
      failed = true;
    } catch (const std::exception& e) {
      status = FromPqxx(e, what, &retry);
      lost = ConnectionLost(e);
      failed = true;
    }
    bool cut = false;
    {
      std::lock_guard lock(mu_);
      cut = slots_[*slot].cut;
      slots_[*slot].deadline.reset();
      slots_[*slot].cut = false;
    }
    if (cut) {
      // The socket is shut down: the connection is gone, whatever the body
      // made of it. A body that had finished keeps its answer.
      lost = true;
      if (failed) {
        retry = false;
        status = absl::DeadlineExceededError(
            std::string(what) +
            ": the database did not answer within the call's deadline; what "
            "was sent may still be carried out");
      }
    }
    Release(*slot, lost);
    if (!retry || attempt >= kMaxRetries) {
      return failed ? ReportFailure(metrics_, what, status) : status;
    }
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
