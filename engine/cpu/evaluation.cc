#include "engine/cpu/evaluation.h"

#include <algorithm>
#include <array>

namespace mancala::engine::cpu {
namespace {

constexpr int kSeedValue = 100;
// Mancala Basic: value of one turn in the race to empty one's pits, and of
// one stone left in them.
constexpr int kTurnValue = 100;
constexpr int kStoneValue = 3;

int PitSum(const Board& b, int player, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += b.pits[player][i];
  return sum;
}

// A result known for `me` (won or lost) worth `margin` (positive: ahead),
// in the heuristic's units: the margin keeps counting, so a win by 40 is
// worth more than a win by 2 and a loss by 2 more than a loss by 40.
int DecidedValue(bool won, int margin) {
  return (won ? kWinValue : -kWinValue) + margin;
}

// Two players, game over: a draw is 0, a win or loss its final margin.
int FinalValue(const State& s, int me) {
  const auto& ranks = s.outcome().ranks;
  if (ranks[me] == ranks[1 - me]) return 0;  // A draw: equal stores.
  return DecidedValue(ranks[me] == 1, kSeedValue * FinalMargin(s, me));
}

// Oware: EvaluateDeep's row terms (evaluation.h) for `row`, one player's
// houses.
int OwareRowValue(const std::array<int, kMaxPits>& row, int n) {
  // Tuned by self-play (evaluation.h).
  constexpr int kHomeSeedValue = 10;
  constexpr int kSmallHouseValue = 60;  // A house of 1 or 2 seeds.
  constexpr int kEmptyHouseValue = -60;
  int value = 0;
  for (int i = 0; i < n; ++i) {
    const int seeds = row[i];
    value += kHomeSeedValue * seeds;
    if (seeds == 0) {
      value += kEmptyHouseValue;
    } else if (seeds <= 2) {
      value += kSmallHouseValue;
    }
  }
  return value;
}

// Kalah, Oware, Congkak: the store difference decides (K.10, O.13, C.11).
int EvaluateStoreGame(const State& s, int me) {
  const Board& b = s.board();
  const int opp = 1 - me;
  const int diff = b.stores[me] - b.stores[opp];
  if (s.is_over()) return FinalValue(s, me);
  const int n = s.rules().pits;
  const int mine = PitSum(b, me, n);
  const int theirs = PitSum(b, opp, n);
  if (s.rules().game == Game::kOware) {
    const int cap = s.rules().move_cap;
    if (cap == 0) return kSeedValue * diff;
    // O.11 move_cap: at the cap each player takes the seeds of their own
    // row, so a seed at home gains value as the cap nears, up to a whole
    // store seed.
    return kSeedValue * diff +
           static_cast<int>(static_cast<long long>(kSeedValue) *
                            (mine - theirs) * std::min(s.ply(), cap) / cap);
  }
  // (Oware ends the game itself once a store holds more than half.)
  return OpenSowingValue(b.stores[me], b.stores[opp], mine, theirs);
}

// Mancala Basic: an estimate of the turns `player` needs to empty its pits
// if nobody sowed into them (a solitaire). A move whose last stone reaches a
// store (own or, after a lap of the others' pits, any other: MB.10) is free,
// as it keeps the turn; the one nearest the store is played first (as in
// Tchoukaillon). Otherwise the turn ends with a move of the largest pile,
// which sends the most stones out of the row. Stones sown past the own
// store are dropped from the row (they go to the other players).
int SolitaireTurns(const Board& b, int player, int n) {
  std::array<int, kMaxPits> row{};
  int left = 0;
  for (int i = 0; i < n; ++i) left += row[i] = b.pits[player][i];
  int turns = 0;
  for (int guard = 0; left > 0 && guard < 256; ++guard) {
    int play = -1;
    for (int i = n - 1; i >= 0 && play < 0; --i) {
      const int to_store = n - i;
      if (row[i] >= to_store && (row[i] - to_store) % (n + 1) == 0) play = i;
    }
    if (play < 0) {
      ++turns;
      for (int i = 0; i < n; ++i) {
        if (play < 0 || row[i] > row[play]) play = i;
      }
    }
    const int k = row[play];
    row[play] = 0;
    left -= k;
    for (int j = play + 1; j < n && j <= play + k; ++j) {
      ++row[j];
      ++left;
    }
  }
  return turns;
}

// What EvaluateBasic needs about every player, computed once.
struct BasicFacts {
  int players = 0;
  int best_free = 1;                    // Best rank not given yet.
  std::array<int, kMaxPlayers> cost{};  // Race cost of active players.
  int active_cost = 0;
  int active = 0;
};

// Mancala Basic: the first to empty their own pits wins (MB.9, MB.11);
// stones in stores count for nothing (MB.7). A player's race cost is its
// solitaire turns, plus the part of a round it waits before moving (the
// player to move waits 0, the next one 1/m of a turn, ...: the finishing
// order of a race between equals), plus a little per stone.
BasicFacts BasicFactsOf(const State& s) {
  BasicFacts f;
  f.players = s.rules().players;
  if (s.is_over()) return f;
  const int n = s.rules().pits;
  const auto& ranks = s.outcome().ranks;
  for (int r = 1; r <= f.players; ++r) {
    bool taken = false;
    for (int p = 0; p < f.players; ++p) taken = taken || ranks[p] == r;
    if (!taken) {
      f.best_free = r;
      break;
    }
  }
  int m = 0;
  for (int p = 0; p < f.players; ++p) m += s.is_active(p) ? 1 : 0;
  int waits = 0;
  for (int k = 0; k < f.players; ++k) {
    const int p = (s.to_move() + k) % f.players;
    if (!s.is_active(p)) continue;
    f.cost[p] = kTurnValue * SolitaireTurns(s.board(), p, n) +
                kTurnValue * waits / m + kStoneValue * PitSum(s.board(), p, n);
    ++waits;
    f.active_cost += f.cost[p];
    ++f.active;
  }
  return f;
}

// Mancala Basic, `me` ranked: with two players the game is over and its
// margin counts; with 3-4 the rank is the result (RankValue).
int BasicFinalValue(const State& s, int me) {
  const int players = s.rules().players;
  if (players == 2) return FinalValue(s, me);
  return RankValue(s.outcome().ranks[me], players);
}

int BasicValue(const State& s, const BasicFacts& f, int me) {
  if (IsFinalFor(s, me)) return BasicFinalValue(s, me);
  // Cheaper than the others (on average) is better; the value stays
  // between the best rank still free and the next one.
  const int others = f.active - 1;
  const int mine = f.cost[me];
  int h = others > 0 ? (f.active_cost - mine) / others - mine : -mine;
  const int hi = RankValue(f.best_free, f.players);
  const int lo = RankValue(std::min(f.best_free + 1, f.players), f.players);
  const int half = (hi - lo) / 2 - 1;
  h = std::clamp(h, -half, half);
  return (hi + lo) / 2 + h;
}

}  // namespace

int FinalMargin(const State& state, int player) {
  const int opp = 1 - player;
  if (state.rules().game == Game::kMancalaBasic) {
    const auto& left = state.outcome().remaining;
    return left[opp] - left[player];
  }
  return state.board().stores[player] - state.board().stores[opp];
}

int MarginValue(int margin) {
  return margin == 0 ? 0 : DecidedValue(margin > 0, kSeedValue * margin);
}

int RankValue(int rank, int players) {
  if (players < 2) return 0;
  return static_cast<int>(static_cast<long long>(kWinValue) *
                          (players + 1 - 2 * rank) / (players - 1));
}

int Evaluate(const State& state, int player) {
  if (state.rules().game == Game::kMancalaBasic) {
    if (IsFinalFor(state, player)) return BasicFinalValue(state, player);
    return BasicValue(state, BasicFactsOf(state), player);
  }
  return EvaluateStoreGame(state, player);
}

int EvaluateDeep(const State& state, int player) {
  const int value = Evaluate(state, player);
  if (state.rules().game != Game::kOware || state.is_over()) return value;
  const Board& b = state.board();
  const int n = state.rules().pits;
  return value + OwareRowValue(b.pits[player], n) -
         OwareRowValue(b.pits[1 - player], n);
}

PlayerValues EvaluateAll(const State& state) {
  PlayerValues v{};
  const int players = state.rules().players;
  if (state.rules().game == Game::kMancalaBasic) {
    const BasicFacts facts = BasicFactsOf(state);
    for (int p = 0; p < players; ++p) v[p] = BasicValue(state, facts, p);
    return v;
  }
  for (int p = 0; p < players; ++p) v[p] = Evaluate(state, p);
  return v;
}

}  // namespace mancala::engine::cpu
