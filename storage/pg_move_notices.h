// MoveNotices over PostgreSQL LISTEN/NOTIFY on channel "mancala_moves",
// payload "<match id> <ply>" (move_notices.h).
//
// Two threads, each with its own libpqxx connection apart from the store's
// pool, so neither a slow NOTIFY nor a waiting LISTEN ever holds a
// connection a move needs:
// - the sender takes everything queued since its last batch (one notice per
//   match, its highest ply) and sends it with one pg_notify() statement;
// - the listener LISTENs and hands each notice to the callback; when its
//   connection breaks it reconnects (every 500 ms until the server is back)
//   and calls the resync callback, since notices may have been lost.
// A batch that cannot be sent is dropped: notices are hints.
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_STORAGE_PG_MOVE_NOTICES_H_
#define MANCALA_STORAGE_PG_MOVE_NOTICES_H_

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "storage/move_notices.h"

namespace mancala::storage {

class PgMoveNotices final : public MoveNotices {
 public:
  static constexpr char kChannel[] = "mancala_moves";

  // Connects lazily: the database may be down now and back later.
  explicit PgMoveNotices(std::string dsn);
  ~PgMoveNotices() override;

  void Publish(const std::string& match_id, int64_t ply) override;
  void Listen(OnNotice on_notice, OnResync on_resync) override;
  void Stop() override;

 private:
  void SendLoop();
  void ListenLoop(OnNotice on_notice, OnResync on_resync);

  const std::string dsn_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::map<std::string, int64_t> queued_;  // Match id -> highest ply.
  bool stopping_ = false;
  // The sender connection's backend process id (0: not connected): the
  // listener drops the notices it sent.
  std::atomic<int> sender_pid_{0};
  std::thread sender_;
  std::thread listener_;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_PG_MOVE_NOTICES_H_
