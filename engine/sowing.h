// Internal to the engine: walking the ring of a game with stores (1.3, 1.7).
//
// Kalah, Congkak and Mancala Basic share one ring shape (1.4): each player's
// pits 0..n-1 followed by that player's store. A RingCursor names one
// position of that ring; `pit == n` stands for the player's store. The sow
// functions drop seeds a run at a time (a player's pits, then their store)
// instead of seed by seed, and emit one kDrop event per seed in ring order.

#ifndef MANCALA_ENGINE_SOWING_H_
#define MANCALA_ENGINE_SOWING_H_

#include <array>

#include "engine/events.h"
#include "engine/game_access.h"
#include "engine/state.h"

namespace mancala::engine {

struct RingCursor {
  int player = 0;
  int pit = 0;  // 0..n-1, n for the player's store; -1 before pit 0.
};

// Drops one seed on each of `row`'s positions from+1 .. to (`to == n` is
// the store), recording each drop.
inline void DropRun(Board& b, int n, int player, int from, int to, int mover,
                    MoveRecord* rec) {
  auto& row = b.pits[player];
  const int last_pit = to < n ? to : n - 1;
  if (rec == nullptr) {  // The playout path: a plain loop.
    for (int i = from + 1; i <= last_pit; ++i) ++row[i];
    if (to == n) ++b.stores[player];
    return;
  }
  for (int i = from + 1; i <= last_pit; ++i) {
    ++row[i];
    Emit(rec, EventType::kDrop, mover, {player, i}, 1);
  }
  if (to == n) {
    ++b.stores[player];
    Emit(rec, EventType::kDrop, mover, {player, Place::kStore}, 1);
  }
}

// Kalah K.3 / Congkak C.3 (two players): sows `hand` seeds from the
// position after `at`: the mover's own store is sown, the opponent's store
// is skipped, nothing else is (the origin pit included). Returns the
// position of the last seed; sets `passed_own_store` if a seed went into
// the mover's store (Congkak C.7c). Seeds are dropped a side at a time.
inline RingCursor SowSkippingOpponentStore(Board& b, int n, int mover,
                                           RingCursor at, int hand,
                                           MoveRecord* rec,
                                           bool& passed_own_store) {
  while (hand > 0) {
    // The mover's side ends with its store (n), the opponent's at pit n-1.
    const int end = at.player == mover ? n : n - 1;
    if (at.pit >= end) {
      at.player ^= 1;
      at.pit = -1;
      continue;
    }
    const int stop = at.pit + (hand < end - at.pit ? hand : end - at.pit);
    DropRun(b, n, at.player, at.pit, stop, mover, rec);
    hand -= stop - at.pit;
    at.pit = stop;
    if (stop == n) passed_own_store = true;
  }
  return at;
}

// Mancala Basic MB.6/MB.11b: sows `hand` stones from the position after
// `at` on every pit and every store of the active players, in ring order;
// removed players' pits and stores are not on the ring. Returns the
// position of the last stone.
inline RingCursor SowThroughAllStores(
    Board& b, int n, int players, const std::array<bool, kMaxPlayers>& active,
    RingCursor at, int hand, MoveRecord* rec) {
  const int mover = at.player;
  while (hand > 0) {
    if (at.pit >= n) {  // Past a store: the next active player's pit 0.
      do {
        at.player = at.player + 1 == players ? 0 : at.player + 1;
      } while (!active[at.player]);
      at.pit = -1;
      continue;
    }
    const int stop = at.pit + (hand < n - at.pit ? hand : n - at.pit);
    DropRun(b, n, at.player, at.pit, stop, mover, rec);
    hand -= stop - at.pit;
    at.pit = stop;
  }
  return at;
}

}  // namespace mancala::engine

#endif  // MANCALA_ENGINE_SOWING_H_
