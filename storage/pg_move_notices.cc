// PgMoveNotices: NOTIFY in batches, LISTEN on its own connection
// (pg_move_notices.h).

#include "storage/pg_move_notices.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <pqxx/pqxx>
#include <vector>

#include "storage/pg_store.h"

namespace mancala::storage {
namespace {

// How long a thread waits before reconnecting to a database that refused.
constexpr auto kReconnectDelay = std::chrono::milliseconds(500);

// Parses "<match id> <ply>"; false for anything else (another program on
// the channel).
bool ParseNotice(const std::string& payload, std::string* match_id,
                 int64_t* ply) {
  const size_t space = payload.rfind(' ');
  if (space == std::string::npos || space == 0) return false;
  try {
    size_t used = 0;
    *ply = std::stoll(payload.substr(space + 1), &used);
    if (used != payload.size() - space - 1) return false;
  } catch (const std::exception&) {
    return false;
  }
  *match_id = payload.substr(0, space);
  return true;
}

class Receiver final : public pqxx::notification_receiver {
 public:
  Receiver(pqxx::connection_base& c, MoveNotices::OnNotice& on_notice,
           const std::atomic<int>& own_pid)
      : pqxx::notification_receiver(c, PgMoveNotices::kChannel),
        on_notice_(on_notice),
        own_pid_(own_pid) {}
  void operator()(const std::string& payload, int backend_pid) override {
    // Sent by this node's own sender connection: the node made the change
    // and its cache holds it already.
    if (backend_pid == own_pid_.load()) return;
    std::string id;
    int64_t ply = 0;
    if (ParseNotice(payload, &id, &ply)) on_notice_(id, ply);
  }

 private:
  MoveNotices::OnNotice& on_notice_;
  const std::atomic<int>& own_pid_;
};

}  // namespace

PgMoveNotices::PgMoveNotices(std::string dsn)
    : dsn_(std::move(dsn)), sender_([this] { SendLoop(); }) {}

PgMoveNotices::~PgMoveNotices() { Stop(); }

void PgMoveNotices::Publish(const std::string& match_id, int64_t ply) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, added] = queued_.emplace(match_id, ply);
    if (!added) {
      if (it->second >= ply) return;
      it->second = ply;
    }
  }
  wake_.notify_all();
}

void PgMoveNotices::Listen(OnNotice on_notice, OnResync on_resync) {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_ || listener_.joinable()) return;
  listener_ = std::thread(
      [this, on_notice = std::move(on_notice),
       on_resync = std::move(on_resync)] { ListenLoop(on_notice, on_resync); });
}

void PgMoveNotices::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (sender_.joinable()) sender_.join();
  if (listener_.joinable()) listener_.join();
}

void PgMoveNotices::SendLoop() {
  std::unique_ptr<pqxx::connection> conn;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queued_.empty(); });
    if (queued_.empty()) return;  // Stopping, and everything sent.
    std::vector<std::string> payloads;
    for (const auto& [id, ply] : queued_) {
      payloads.push_back(id + " " + std::to_string(ply));
    }
    queued_.clear();
    lock.unlock();
    bool failed = false;
    try {
      if (!conn) {
        conn = std::make_unique<pqxx::connection>(dsn_);
        sender_pid_ = conn->backendpid();
      }
      pqxx::nontransaction tx(*conn);
      // One statement for the whole batch: one round trip.
      tx.exec_params("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p",
                     std::string(kChannel), PgTextArray(payloads));
    } catch (const std::exception&) {
      conn.reset();  // Reconnects for the next batch; this one is dropped.
      sender_pid_ = 0;
      failed = true;
    }
    lock.lock();
    if (failed && !stopping_) {
      wake_.wait_for(lock, kReconnectDelay, [this] { return stopping_; });
    }
  }
}

void PgMoveNotices::ListenLoop(OnNotice on_notice, OnResync on_resync) {
  auto stopping = [this] {
    std::lock_guard<std::mutex> lock(mu_);
    return stopping_;
  };
  while (!stopping()) {
    try {
      pqxx::connection conn(dsn_);
      Receiver receiver(conn, on_notice, sender_pid_);  // LISTENs from here on.
      on_resync();
      while (!stopping()) {
        // Wakes at least every 200 ms to see Stop().
        conn.await_notification(0, 200'000);
      }
      return;
    } catch (const std::exception&) {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait_for(lock, kReconnectDelay, [this] { return stopping_; });
    }
  }
}

}  // namespace mancala::storage
