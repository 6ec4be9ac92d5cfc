// Mancala Basic (docs/rules.md section 3; Japan Recreation Association rules).
//
// 2-4 players, each with `pits` pits (6; 7 only with 2 players, 4 only with
// 3-4; MB.1) of `stones` stones (MB.2) and a store after them. The ring is
// P0's pits, S0, P1's pits, S1, ... back to P0's pit 0; turns follow it
// (MB.3, MB.4). There are no captures (MB.8) and a stone in a store never
// leaves it (MB.7).
//
// A move empties one of the mover's non-empty pits (MB.5) and drops one
// stone on every position of the ring of active players after it: every
// pit, the origin included on a lap, and every store (MB.6). Then:
//   - if the mover's pits are all empty, the mover finishes, before anything
//     else (MB.9, MB-D1);
//   - else, if the last stone fell into any store, the mover moves again;
//     otherwise the next active player moves (MB.10).
// A finisher gets the best rank not yet given (MB.11). With 2 players the
// game ends there, the other player second (MB.11a). With 3-4 players and
// `determine_all_ranks` on, the finisher's pits and store leave the ring,
// the next active player moves, and when one player is left it takes the
// last rank (MB.11b). With it off, the first finisher ends the game and the
// others are ranked by the stones left in their pits, fewer first, ties
// sharing a rank (competition ranking, MB.11c, MB-D2). Resignation is in
// state.cc (MB.13-MB.15).

#include "engine/game_access.h"
#include "engine/sowing.h"

namespace mancala::engine {
namespace {

// MB.11c: ranks every still-active player by stones left in their pits,
// fewer = better, from rank `first`, ties sharing (1, 2, 2, 4).
void RankByStonesLeft(const State& s, int first,
                      std::array<int, kMaxPlayers>& ranks,
                      const std::array<bool, kMaxPlayers>& active,
                      const Board& b) {
  const int players = s.rules().players;
  const int n = s.rules().pits;
  std::array<int, kMaxPlayers> left{};
  for (int p = 0; p < players; ++p) {
    for (int i = 0; i < n; ++i) left[p] += b.pits[p][i];
  }
  for (int p = 0; p < players; ++p) {
    if (!active[p]) continue;
    int better = 0;
    for (int q = 0; q < players; ++q) {
      if (active[q] && left[q] < left[p]) ++better;
    }
    ranks[p] = first + better;
  }
}

}  // namespace

void GameAccess::ApplyBasic(State& s, int pit, MoveRecord* rec) {
  Board& b = s.board_;
  const Rules& rules = s.rules_;
  const int n = rules.pits;
  const int mover = s.to_move_;

  int hand = b.pits[mover][pit];
  b.pits[mover][pit] = 0;
  if (rec != nullptr) rec->sown = hand;
  Emit(rec, EventType::kPickUp, mover, {mover, pit}, hand);
  // MB.6: nothing on the active ring is skipped.
  const RingCursor at = SowThroughAllStores(b, n, rules.players, s.active_,
                                            {mover, pit}, hand, rec);

  if (!RowEmpty(s, mover)) {
    if (at.pit == n) {  // MB.10: the last stone in any store.
      if (rec != nullptr) rec->extra_turn = true;
      Emit(rec, EventType::kExtraTurn, mover, {});
    } else {
      s.to_move_ = NextActive(s, mover);
    }
    return;
  }

  // MB.9 / MB.11: the mover finishes with the best rank not yet given.
  Outcome& o = s.outcome_;
  const int rank = BestFreeRank(s);
  o.ranks[mover] = rank;
  o.finish_order.push_back(mover);
  s.active_[mover] = false;
  if (rec != nullptr) rec->finished = true;
  Emit(rec, EventType::kFinish, mover, {}, 0, rank);

  if (rules.players == 2) {  // MB.11a: the other player is second.
    o.ranks[1 - mover] = BestFreeRank(s);
    EndGame(s, EndReason::kEmptiedSide, /*sweep=*/false, rec);
    return;
  }
  if (!rules.determine_all_ranks) {
    // MB.11c (and MB.15: resigners keep their ranks).
    RankByStonesLeft(s, BestFreeRank(s), o.ranks, s.active_, b);
    EndGame(s, EndReason::kFirstFinisher, /*sweep=*/false, rec);
    return;
  }
  // MB.11b: the finisher leaves the ring; the last player left is last.
  const int next = NextActive(s, mover);
  if (ActiveCount(s) == 1) {
    o.ranks[next] = BestFreeRank(s);
    EndGame(s, EndReason::kAllRanksDetermined, /*sweep=*/false, rec);
    return;
  }
  s.to_move_ = next;
}

}  // namespace mancala::engine
