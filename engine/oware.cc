// Oware (docs/rules.md section 5).
//
// Two players, 6 houses each, `seeds` per house (O.1); no stores on the
// ring: store[p] only counts the seeds p captured. The 12 houses form one
// ring, player 0's houses 0..5 then player 1's.
//
// A move empties one of the mover's houses and sows its seeds forward, one
// per house, skipping the origin house every time it comes round (O.2).
// When the opponent's row is empty the mover must feed it: only houses whose
// seeds reach the opponent's row are legal (O.3, O.4).
// If the last seed lands in an opponent house that now holds 2 or 3, that
// house is captured, then the house before it, and so on backwards while
// the houses are the opponent's and hold 2 or 3 (O.5). A capture that would
// take every opponent seed is a grand slam (O.6): with `grand_slam =
// no_capture` the move is played but captures nothing; with `illegal` it
// may not be played. The turn always passes (O.7).
// The game ends, checked in this order after each move (O.12):
//   - a store holds more than half the seeds, or both exactly half (O.9,
//     O.10): the seeds left on the board are not scored (O-D3);
//   - `cycle_rule = repetition_ends`: the position (player to move, stores,
//     houses) already occurred since the last capture; with `move_cap:<k>`,
//     k plies were played; each player then takes their own row (O.11);
//   - the player to move has no legal move: each player takes their own row
//     (O.8; the mover's opponent's row is empty when O.4 is the cause).
// The larger store wins; equal stores draw (O.13).

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "engine/game_access.h"

namespace mancala::engine {
namespace {

// A house of the 12-house ring: `player`'s house `house`.
struct House {
  int player = 0;
  int house = 0;
};

// O.2: sows `mover`'s house `origin`, skipping it on every lap; returns the
// house of the last seed.
House Sow(Board& b, int n, int mover, int origin, MoveRecord* rec) {
  int hand = b.pits[mover][origin];
  b.pits[mover][origin] = 0;
  House at{mover, origin};
  while (hand > 0) {
    if (++at.house == n) {
      at.player ^= 1;
      at.house = 0;
    }
    if (at.player == mover && at.house == origin) continue;  // O.2.
    ++b.pits[at.player][at.house];
    --hand;
    Emit(rec, EventType::kDrop, mover, {at.player, at.house}, 1);
  }
  return at;
}

// O.5: the opponent houses first..last (last = where the last seed fell)
// that hold 2 or 3 in a row; empty (seeds == 0) if the last seed fell in
// the mover's row or the last house holds another count.
struct Chain {
  int first = 0;
  int last = -1;
  int seeds = 0;
};

Chain CaptureChain(const Board& b, House last, int mover) {
  Chain c;
  if (last.player == mover) return c;  // A seed in the own row never captures.
  const auto& row = b.pits[last.player];
  int j = last.house;
  while (j >= 0 && (row[j] == 2 || row[j] == 3)) {
    c.seeds += row[j];
    --j;
  }
  if (c.seeds > 0) {
    c.first = j + 1;
    c.last = last.house;
  }
  return c;
}

// O.6: the capture would leave every opponent house empty.
bool IsGrandSlam(const Board& b, int n, const Chain& c, int mover) {
  if (c.seeds == 0) return false;
  const auto& row = b.pits[1 - mover];
  for (int i = 0; i < n; ++i) {
    if (row[i] != 0 && (i < c.first || i > c.last)) return false;
  }
  return true;
}

// O.6 without playing the move: the seeds each opponent house would hold
// after sowing `player`'s house `pit` follow from the laps (O.2: 2n - 1
// houses per lap, the origin skipped), then the chain is walked back from
// the last house.
bool WouldGrandSlam(const Board& b, int n, int player, int pit) {
  const int seeds = b.pits[player][pit];
  const int lap = 2 * n - 1;
  int laps = 0;
  int rem = seeds;
  if (seeds >= lap) {
    laps = seeds / lap;
    rem = seeds % lap;
  }
  // Opponent house i is n - pit + i houses after the origin.
  const int last_house = (rem > 0 ? rem : lap) - (n - pit);
  if (last_house < 0 || last_house >= n) return false;  // Own row.
  const auto& row = b.pits[1 - player];
  // The opponent houses after the last one get `laps` seeds and must end
  // empty: cheap tests first, as most moves fail them.
  for (int i = last_house + 1; i < n; ++i) {
    if (row[i] + laps != 0) return false;
  }
  auto after = [&](int i) {
    return row[i] + laps + (n - pit + i <= rem ? 1 : 0);
  };
  int j = last_house;
  while (j >= 0 && (after(j) == 2 || after(j) == 3)) --j;
  if (j == last_house) return false;  // No capture.
  for (int i = 0; i <= j; ++i) {
    if (after(i) != 0) return false;  // Left to the opponent.
  }
  return true;
}

// O.11: a position is (player to move, both stores, all houses).
using PositionKey = std::array<std::uint8_t, 16>;

PositionKey KeyOf(const Board& b, int n, int to_move) {
  PositionKey key{};
  for (int i = 0; i < n; ++i) {
    key[i] = static_cast<std::uint8_t>(b.pits[0][i]);
    key[n + i] = static_cast<std::uint8_t>(b.pits[1][i]);
  }
  key[2 * n] = static_cast<std::uint8_t>(b.stores[0]);
  key[2 * n + 1] = static_cast<std::uint8_t>(b.stores[1]);
  key[2 * n + 2] = static_cast<std::uint8_t>(to_move);
  return key;
}

bool SameKey(const PositionKey& a, const PositionKey& b) {
  std::uint64_t a0, a1, b0, b1;
  std::memcpy(&a0, a.data(), 8);
  std::memcpy(&a1, a.data() + 8, 8);
  std::memcpy(&b0, b.data(), 8);
  std::memcpy(&b1, b.data() + 8, 8);
  return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

}  // namespace

std::uint32_t GameAccess::OwareLegalMask(const State& s, int player) {
  const Board& b = s.board_;
  const int n = s.rules_.pits;
  const bool must_feed = RowEmpty(s, 1 - player);  // O.4.
  const auto& row = b.pits[player];
  std::uint32_t mask = 0;
  for (int i = 0; i < n; ++i) {
    if (row[i] > 0 && (!must_feed || row[i] >= n - i)) mask |= 1u << i;
  }
  if (s.rules_.grand_slam == GrandSlam::kIllegal) {
    // O.6 `illegal`: no move whose capture would be a grand slam.
    for (std::uint32_t m = mask; m != 0; m &= m - 1) {
      const int i = std::countr_zero(m);
      if (WouldGrandSlam(b, n, player, i)) mask &= ~(1u << i);
    }
  }
  return mask;
}

bool GameAccess::OwareHasLegalMove(const State& s, int player) {
  const Board& b = s.board_;
  const int n = s.rules_.pits;
  const bool must_feed = RowEmpty(s, 1 - player);  // O.4.
  const bool slam_illegal = s.rules_.grand_slam == GrandSlam::kIllegal;
  for (int i = 0; i < n; ++i) {
    const int seeds = b.pits[player][i];
    if (seeds == 0 || (must_feed && seeds < n - i)) continue;
    if (!slam_illegal || !WouldGrandSlam(b, n, player, i)) return true;
  }
  return false;
}

bool GameAccess::OwareMoveLegal(const State& s, int pit) {
  const Board& b = s.board_;
  const int n = s.rules_.pits;
  const int player = s.to_move_;
  const int seeds = b.pits[player][pit];
  if (seeds == 0) return false;
  if (seeds < n - pit && RowEmpty(s, 1 - player)) return false;  // O.4.
  return s.rules_.grand_slam != GrandSlam::kIllegal ||
         !WouldGrandSlam(b, n, player, pit);  // O.6.
}

void GameAccess::OwareResetRepetition(State& s) {
  s.seen_.clear();
  if (s.rules_.move_cap == 0) {
    s.seen_.push_back(KeyOf(s.board_, s.rules_.pits, s.to_move_));
  }
}

void GameAccess::ApplyOware(State& s, int pit, MoveRecord* rec) {
  Board& b = s.board_;
  const Rules& rules = s.rules_;
  const int n = rules.pits;
  const int mover = s.to_move_;
  const int opponent = 1 - mover;

  if (rec != nullptr) {
    rec->must_feed = RowEmpty(s, opponent);  // O.4 applied to this move.
    rec->sown = b.pits[mover][pit];
  }
  Emit(rec, EventType::kPickUp, mover, {mover, pit}, b.pits[mover][pit]);
  const House last = Sow(b, n, mover, pit, rec);  // O.2.

  Chain chain = CaptureChain(b, last, mover);  // O.5.
  if (IsGrandSlam(b, n, chain, mover)) {
    // O.6 `no_capture` (under `illegal` the move was not legal).
    if (rec != nullptr) rec->grand_slam_nullified = true;
    Emit(rec, EventType::kGrandSlamNullified, mover, {last.player, last.house});
    chain = Chain{};
  }
  auto& opp_row = b.pits[opponent];
  for (int j = chain.last; j >= chain.first; --j) {
    Emit(rec, EventType::kCapture, mover, {opponent, j}, opp_row[j]);
    opp_row[j] = 0;
  }
  b.stores[mover] += chain.seeds;
  if (rec != nullptr) rec->captured = chain.seeds;
  s.to_move_ = opponent;  // O.7.

  // O.12: majority/half, then the cycle rule, then O.8.
  if (chain.seeds > 0) {
    const int total = b.stores[0] + b.stores[1] + RowSum(s, 0) + RowSum(s, 1);
    const int s0 = 2 * b.stores[0];
    const int s1 = 2 * b.stores[1];
    if (s0 > total || s1 > total || (s0 == total && s1 == total)) {
      EndGame(s, EndReason::kMajority, /*sweep=*/false, rec);  // O.9, O-D3.
      return;
    }
  }
  if (rules.move_cap == 0) {  // O.11 repetition_ends.
    if (chain.seeds > 0) {
      OwareResetRepetition(s);
    } else {
      // Entries alternate the player to move: compare every other one.
      const PositionKey key = KeyOf(b, n, s.to_move_);
      for (int j = static_cast<int>(s.seen_.size()) - 2; j >= 0; j -= 2) {
        if (SameKey(s.seen_[j], key)) {
          EndGame(s, EndReason::kRepetition, /*sweep=*/true, rec);
          return;
        }
      }
      s.seen_.push_back(key);
    }
  } else if (s.ply_ >= rules.move_cap) {  // O.11 move_cap.
    EndGame(s, EndReason::kMoveCap, /*sweep=*/true, rec);
    return;
  }
  if (!OwareHasLegalMove(s, opponent)) {  // O.8.
    EndGame(s, EndReason::kNoLegalMove, /*sweep=*/true, rec);
  }
}

}  // namespace mancala::engine
