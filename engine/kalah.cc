// Kalah (docs/rules.md section 4).
//
// Two players, 6 pits each and a store after each player's pits (K.1). The
// mover empties one of their non-empty pits (K.2) and sows its seeds one by
// one forward around the ring: their following pits, their own store, the
// opponent's pits, and on round again, always skipping the opponent's store
// but never the origin pit (K.3).
//
// Where the last seed lands decides what happens next:
//   - in the mover's own store: the mover moves again (K.4);
//   - in one of the mover's own pits that was empty (1.8): if the opposite
//     pit (1.5) is non-empty, that pit's seeds and the last seed go to the
//     mover's store (K.5), else the seed stays (K.6); the turn passes;
//   - anywhere else: the turn passes (K.7).
// The game ends when the player to move has no seeds in their pits
// (`end_rule = mover_empty`, K.8) or, with `any_side_empty`, as soon as
// either row is empty (K.8'). Every seed still in a pit then goes to its
// owner's store (K.9); the larger store wins, equal stores draw (K.10).
//
// Congkak (congkak.cc) shares the capture and the end of the turn: its C.7
// and C.10 are K.5/K.6 and K.8/K.9 with two more options (C-D3).

#include "engine/game_access.h"
#include "engine/sowing.h"

namespace mancala::engine {

void GameAccess::ApplyKalah(State& s, int pit, MoveRecord* rec) {
  Board& b = s.board_;
  const int n = s.rules_.pits;
  const int mover = s.to_move_;

  int hand = b.pits[mover][pit];
  b.pits[mover][pit] = 0;
  if (rec != nullptr) rec->sown = hand;
  Emit(rec, EventType::kPickUp, mover, {mover, pit}, hand);

  // K.3: sow, skipping the opponent's store; the origin pit is sown too.
  bool passed_own_store = false;
  const RingCursor at = SowSkippingOpponentStore(b, n, mover, {mover, pit},
                                                 hand, rec, passed_own_store);

  const bool extra_turn = at.pit == n;  // K.4: only the own store is sown.
  if (!extra_turn && at.player == mover && b.pits[mover][at.pit] == 1) {
    // K.5 / K.6: the last seed fell into an own pit that was empty (1.8).
    CaptureOpposite(s, mover, at.pit, EmptyOpposite::kSeedStays, rec);
  }
  EndTurnWithStores(s, mover, extra_turn, rec);  // K.7, K.8, K.9.
}

int GameAccess::CaptureOpposite(State& s, int mover, int pit,
                                EmptyOpposite if_opposite_empty,
                                MoveRecord* rec) {
  Board& b = s.board_;
  const int opponent = 1 - mover;
  const int opposite = s.rules_.pits - 1 - pit;  // 1.5.
  const int taken = b.pits[opponent][opposite];
  if (taken > 0) {
    // K.5 / C.7a: the opposite seeds and the capturing seed.
    b.pits[opponent][opposite] = 0;
    b.pits[mover][pit] = 0;
    b.stores[mover] += taken + 1;
    Emit(rec, EventType::kCapture, mover, {opponent, opposite}, taken);
    Emit(rec, EventType::kCapture, mover, {mover, pit}, 1);
    if (rec != nullptr) rec->captured += taken + 1;
    return taken + 1;
  }
  if (if_opposite_empty == EmptyOpposite::kSeedToStore) {
    // C.7b `seed_to_store`: the single seed goes to the store.
    b.pits[mover][pit] = 0;
    b.stores[mover] += 1;
    Emit(rec, EventType::kCapture, mover, {mover, pit}, 1);
    if (rec != nullptr) rec->captured += 1;
    return 1;
  }
  return 0;  // K.6 / C.7b `seed_stays`: nothing happens.
}

void GameAccess::EndTurnWithStores(State& s, int mover, bool extra_turn,
                                   MoveRecord* rec) {
  if (extra_turn) {  // K.4 / C.5: the mover plays again.
    if (rec != nullptr) rec->extra_turn = true;
    Emit(rec, EventType::kExtraTurn, mover, {});
  }
  const int next = extra_turn ? mover : 1 - mover;
  s.to_move_ = next;
  const bool over = s.rules_.end_rule == EndRule::kMoverEmpty
                        ? RowEmpty(s, next)  // K.8 / C.10 mover_empty.
                        : RowEmpty(s, 0) || RowEmpty(s, 1);          // K.8'.
  if (over) EndGame(s, EndReason::kSideEmpty, /*sweep=*/true, rec);  // K.9.
}

}  // namespace mancala::engine
