// Congkak (docs/rules.md section 6), single round, alternating opening.
//
// Two players, `houses` houses each (7 by default; 5 and 9 boards exist)
// with `seeds` seeds in each, and a store after each player's houses: the
// Kalah ring (C.1). The mover empties a non-empty house (C.2) and sows as in
// Kalah: own store sown, opponent's store skipped, origin not skipped (C.3).
//
// The turn goes on where the last seed lands:
//   - in a house (either side) that now holds 2 or more seeds: the mover
//     lifts them all and sows on from the next position, a relay (C.4);
//   - in the mover's own store: the turn ends and the mover moves again
//     (C.5);
//   - in an empty opponent house: the turn ends, the seed stays there, or
//     goes to the opponent's store under `empty_opponent_house =
//     seed_to_opponent_store` (C.6, C-D6);
//   - in an empty own house: the opposite house's seeds and the last seed
//     go to the mover's store (C.7a); with the opposite house empty the
//     seed stays, or goes to the store under `empty_opposite =
//     seed_to_store` (C.7b). With `capture_requires_lap` on, C.7a/C.7b
//     apply only once this turn's sowing has passed the mover's own store
//     (C.7c); otherwise the seed stays. The turn passes.
// The round, and with `rounds = single` the game (C.11), ends under the
// same end rules as Kalah: the player to move has empty houses
// (`mover_empty`) or either row is empty (`any_side_empty`); each side's
// seeds then go to their owner's store (C.10). Higher store wins.
// Every lap passes the mover's store, so a turn always ends (C.8).

#include <cassert>

#include "engine/game_access.h"
#include "engine/sowing.h"

namespace mancala::engine {

void GameAccess::ApplyCongkak(State& s, int pit, MoveRecord* rec) {
  Board& b = s.board_;
  const Rules& rules = s.rules_;
  const int n = rules.pits;
  const int mover = s.to_move_;

  int hand = b.pits[mover][pit];
  b.pits[mover][pit] = 0;
  Emit(rec, EventType::kPickUp, mover, {mover, pit}, hand);
  int sown = hand;
  bool passed_own_store = false;  // For C.7c.
  RingCursor at{mover, pit};
  bool extra_turn = false;
  for (;;) {
    // C.3: the Kalah ring.
    at = SowSkippingOpponentStore(b, n, mover, at, hand, rec, passed_own_store);
    hand = 0;
    if (at.pit == n) {  // C.5: own store, free extra turn.
      extra_turn = true;
      break;
    }
    int& house = b.pits[at.player][at.pit];
    if (house >= 2) {  // C.4: relay from any house holding 2 or more.
      hand = house;
      house = 0;
      sown += hand;
      if (rec != nullptr) ++rec->relays;
      Emit(rec, EventType::kPickUp, mover, {at.player, at.pit}, hand);
      assert(sown < 100000 && "C.8: a Congkak turn always ends");
      continue;
    }
    // The house was empty before the last seed (1.8).
    if (at.player != mover) {
      // C.6 / C-D6: the seed stays, or goes to the opponent's store.
      if (rules.empty_opponent_house ==
          EmptyOpponentHouse::kSeedToOpponentStore) {
        house = 0;
        ++b.stores[at.player];
        Emit(rec, EventType::kCapture, at.player, {at.player, at.pit}, 1);
      }
    } else if (!rules.capture_requires_lap || passed_own_store) {
      // C.7a / C.7b (C.7c when the lap rule is on).
      CaptureOpposite(s, mover, at.pit, rules.empty_opposite, rec);
    }
    break;
  }
  if (rec != nullptr) rec->sown = sown;
  EndTurnWithStores(s, mover, extra_turn, rec);  // C.5, C.10.
}

}  // namespace mancala::engine
