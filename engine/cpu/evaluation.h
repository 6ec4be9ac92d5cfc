// Static evaluation of a position for the computer players.
//
// Values are integers from the point of view of one player (the "root"
// player of a search): larger is better for that player. Scale: 100 per
// seed of store difference (Kalah, Oware, Congkak; Oware with a move cap
// adds the seeds in each row, weighted by ply / cap, since each player
// takes their own row at the cap, O.11) or of stones left in
// the pits (Mancala Basic, where fewer is better). Kalah and Congkak add 25
// per seed of difference in the players' own pits, which the sweep gives
// their owners (K.9, C.10) unless they are captured or sown across first.
//
// Tuned by self-play (issue 31): level 4 with 25 per pit seed, against
// level 4 with 0, 50 and 75, in Kalah with random 2-ply openings (each
// played from both seats, 200 games, 20,000 positions a move), scored
// 55.2%, 59.2% and 62.0%; terms for pits that give an extra turn (+-20)
// or for non-empty pits (+-20) scored 49-51% against it, no measurable
// gain, and were left out.
//
// Two players, a result known (the game over, or in Kalah and Congkak a
// store holding more than half the seeds, which stores never give back):
// kWinValue plus the margin for a win, -kWinValue plus the margin for a
// loss, 0 for a draw. The margin keeps counting once the result is known
// (a strong CPU wins by as much and loses by as little as it
// can): over, 100 per seed of FinalMargin(); decided but still playing, the
// open-game estimate above. So a win by 40 is worth more than a win by 2,
// and a loss by 2 more than a loss by 40, and a search that plays on after
// the result is known maximises the final margin.
//
// Multi-player Mancala Basic: a player's final rank r of N is worth
// RankValue(r, N), from kWinValue (first) down to -kWinValue (last); a
// player still playing is valued between the best rank still free and the
// next one, by the stones-left heuristic. The rank is the result there
// (MB.11); there is no margin between ranks.
// Thread-safety: pure functions.

#ifndef MANCALA_ENGINE_CPU_EVALUATION_H_
#define MANCALA_ENGINE_CPU_EVALUATION_H_

#include <array>

#include "engine/state.h"

namespace mancala::engine::cpu {

inline constexpr int kWinValue = 1'000'000;
// |value| >= kDecidedValue: the result for the root player is known (a
// finished game, a store holding more than half the seeds, a final rank):
// margins never carry a value across it.
inline constexpr int kDecidedValue = kWinValue / 2;
// Larger than any evaluation; the search's open window bound.
inline constexpr int kInfinity = 4 * kWinValue;

// Kalah and Congkak, a game not over, for one player: its store and pit
// seeds and the opponent's. The same value Evaluate gives (inline: the
// compact Kalah search, kalah_position.h, calls it at every leaf).
inline int OpenSowingValue(int my_store, int their_store, int my_pits,
                           int their_pits) {
  constexpr int kSeedValue = 100;
  // A seed in one's own pits is worth a quarter of a seed in the store (it
  // is swept to its owner at the end, K.9 / C.10, unless it is captured or
  // sown across first).
  constexpr int kSideSeedValue = 25;
  const int value = kSeedValue * (my_store - their_store) +
                    kSideSeedValue * (my_pits - their_pits);
  // Stores never lose seeds in Kalah and Congkak: more than half of all
  // seeds is a win whatever happens next. The margin is still open, so it
  // is estimated as in an open game.
  const int total = my_store + their_store + my_pits + their_pits;
  if (2 * my_store > total) return kWinValue + value;
  if (2 * their_store > total) return -kWinValue + value;
  return value;
}

// Value of rank `rank` (1 = best) among `players` players: kWinValue for
// first, -kWinValue for last, evenly spaced in between.
int RankValue(int rank, int players);

// The value of `state` (over or not) for `player`, who must be a player of
// the game (0..players-1). Mancala Basic with 3-4 players: once `player` has
// finished (or resigned) the value is RankValue of its rank.
int Evaluate(const State& state, int player);

// Two players, `state` over: `player`'s final margin, its store minus the
// other's (Kalah, Oware, Congkak), or the stones left in the other's pits
// minus its own (Mancala Basic, MB.16). Positive: `player` is ahead.
int FinalMargin(const State& state, int player);

// Two players: the value of a game over whose final margin for the root
// player is `margin` (FinalMargin's units): 0 for a draw, else a win or
// loss by that margin, as Evaluate values a finished game.
int MarginValue(int margin);

// EvaluateDeep, the leaves of level 4's two-player search: Evaluate plus,
// in an Oware game not over, for each player's own row, mine minus the
// opponent's: 10 per seed, 60 per house holding 1 or 2 seeds and -60 per
// empty house. Seeds at home are sown when their owner chooses and are
// its own at a repetition or no-move end (O.8, O.11); small houses are
// short moves that keep seeds at home while the other side must sow; an
// empty house is a move less. The weights are measured, not derived
// (issue 31): level 4 with a term against level 4 without it, 100,000
// positions a move, random 2-ply openings each played from both seats,
// 100 games: 10 per home seed against none scored 85.5%, 25 against 10
// 55.0%, 50 against 25 16.5%; then, with 10 per seed, small houses at +30
// against none 62.0%, empty houses at -30 against none 67.5%, both at 60
// against both at 30 58.0%; a bonus for houses of 12 seeds or more (a lap)
// 46.5%, left out.
// They are for a deep search only: at one ply they outweigh the captures
// a shallow search misses (level 2 with them scored 81.0% against level 1
// in the strength series' setting, 96.2% without), so Evaluate, which
// levels 2 and 3 use, leaves them out.
int EvaluateDeep(const State& state, int player);

// One value per player (entries beyond the player count are 0).
using PlayerValues = std::array<int, kMaxPlayers>;

// Evaluate(state, p) for every player p, computed together.
PlayerValues EvaluateAll(const State& state);

// True if `state` needs no further search from `player`'s point of view:
// the game is over, or (3-4 players) `player` already has its rank.
inline bool IsFinalFor(const State& state, int player) {
  return state.is_over() || !state.is_active(player);
}

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_EVALUATION_H_
