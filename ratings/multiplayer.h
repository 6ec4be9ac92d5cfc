// Rating one finished match of 2-4 players with Glicko-2 by pairs
// (docs/ratings.md "Multiplayer by pairs").
//
// Each player gets one virtual game against each opponent, scored from the
// final ranks: better rank 1, equal rank 0.5, worse rank 0 (docs/ratings.md; a
// shared place is a draw). The match is one rating period for each player
// (docs/ratings.md): every player's new rating is one Glicko2Update over their
// N-1 virtual games, and every virtual game uses the opponents' ratings from
// "before" (the values as they stand when this match is rated), never a
// value already updated by this match. Two players is the same computation
// with one game each (docs/ratings.md "Two players").
//
// Units as in glicko2.h: rating and RD in rating points, volatility sigma,
// tau dimensionless, elapsed rating periods t >= 0.
// Pure functions; thread-safe. The caller serialises matches sharing a
// player (docs/ratings.md: updates of such matches never interleave).

#ifndef MANCALA_SERVICES_RATINGS_MULTIPLAYER_H_
#define MANCALA_SERVICES_RATINGS_MULTIPLAYER_H_

#include <cstddef>
#include <span>
#include <vector>

#include "ratings/glicko2.h"

namespace mancala::ratings {

// One seat of a finished match.
struct MatchPlayer {
  int rank;              // Final place, 1 = best; equal ranks = shared place.
                         // Ranks need not be contiguous (1, 2, 2, 4).
  Glicko2Rating before;  // Rating before this match.
};

inline constexpr std::size_t kMinMatchPlayers = 2;
inline constexpr std::size_t kMaxMatchPlayers = 4;

// Score of a virtual game of a player of rank `rank` against one of rank
// `opp_rank`: 1 if rank < opp_rank, 0.5 if equal, 0 if rank > opp_rank.
double PairScore(int rank, int opp_rank);

// The N-1 virtual games of players[index] against every other player, in the
// order of `players` (skipping index), with opponents' "before" values.
// Preconditions (else std::invalid_argument): 2 <= N <= 4, every rank >= 1,
// index < N.
std::vector<Glicko2Game> VirtualGames(std::span<const MatchPlayer> players,
                                      std::size_t index);

// The new rating of every player, in the order of `players`:
//   result[i] = Glicko2Update(players[i].before,
//                             VirtualGames(players, i), tau,
//                             elapsed_rating_periods).
// Unclamped (store ClampForStorage of each). For the service, tau is
// kServiceTau; time away is applied to each `before` beforehand with
// AgeForTimeAway and elapsed_rating_periods is then 0 (see glicko2.h).
// Preconditions: as VirtualGames and Glicko2Update (std::invalid_argument).
std::vector<Glicko2Rating> MultiplayerUpdate(
    std::span<const MatchPlayer> players, double tau,
    double elapsed_rating_periods);

}  // namespace mancala::ratings

#endif  // MANCALA_SERVICES_RATINGS_MULTIPLAYER_H_
