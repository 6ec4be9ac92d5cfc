// Move notices: how the nodes sharing one database tell each other that a
// match moved, so each can catch its cached copy up and feed its watchers
// (docs/design.md "Several nodes").
//
// A notice is a hint, never data: it says "match M changed, at ply P" (a
// move, or a join or cancel at the same ply) and the receiver reads the
// match itself from the store. A lost notice is
// repaired by the next one for the same match or by any read of it; after
// the listener reconnects (notices may have been lost meanwhile) the
// receiver is told to re-read every match it cares about.
//
// Publishing never waits for the database: notices are queued and sent in
// batches on a connection of their own, after the move's transaction has
// committed (a NOTIFY inside it serialises commits; it measured a 64%
// cut in commit throughput).
//
// Only a store shared by several processes has notices (PostgreSQL:
// pg_move_notices.h); with SQLite one process owns the database and there is
// nothing to tell.
// Thread-safety: all methods may be called from any thread.

#ifndef MANCALA_STORAGE_MOVE_NOTICES_H_
#define MANCALA_STORAGE_MOVE_NOTICES_H_

#include <cstdint>
#include <functional>
#include <string>

namespace mancala::storage {

class MoveNotices {
 public:
  // Called on the listener's thread for each notice another node sent
  // (this object's own are not delivered: their changes are this node's
  // own), in the order the database delivers them.
  using OnNotice =
      std::function<void(const std::string& match_id, int64_t ply)>;
  // Called on the listener's thread once it is (re)connected and listening:
  // notices sent while it was not may be lost.
  using OnResync = std::function<void()>;

  virtual ~MoveNotices() = default;

  // Queues "match `match_id` changed, at ply `ply`" for every node; returns at
  // once. Call after the change is committed.
  virtual void Publish(const std::string& match_id, int64_t ply) = 0;

  // Starts the listener thread; call once, before Publish matters.
  virtual void Listen(OnNotice on_notice, OnResync on_resync) = 0;

  // Sends what is queued, stops both threads; no callback runs after it
  // returns. Idempotent.
  virtual void Stop() = 0;
};

}  // namespace mancala::storage

#endif  // MANCALA_STORAGE_MOVE_NOTICES_H_
