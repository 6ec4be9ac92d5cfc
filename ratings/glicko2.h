// Glicko-2 rating update: the pure mathematics, plus the service's policy
// constants and helpers.
//
// Source of every formula: Mark Glickman, "Example of the Glicko-2 system"
// (glicko.net/glicko/glicko2.pdf, revision of 2022-03-22), cited below as
// "Glickman step N". Policy: docs/ratings.md. Test vectors:
// tests/data/ratings.json (sections glicko2,
// glicko2_lichess_mode, multiplayer).
//
// Units used throughout:
// - rating: rating points on the Glicko scale (new player 1500).
// - rd: rating deviation in rating points (new player 350).
// - volatility: sigma, dimensionless, on the Glicko-2 scale (new player 0.06).
// - tau: system constant, dimensionless (service: 0.5).
// - elapsed rating periods: t, a real number >= 0 (not necessarily whole).
// - days: calendar days, real number >= 0.
// Internally the update works on the Glicko-2 scale: mu = (rating - 1500) /
// 173.7178 and phi = rd / 173.7178 (Glickman step 2).
//
// Everything in this header is a pure function of its arguments: no state, no
// I/O, safe to call from any thread.
//
// Typical service flow for one rated player (docs/ratings.md "Time"):
//   Glicko2Rating aged = AgeForTimeAway(stored,
//                                       RatingPeriodsSince(days_since_last));
//   Glicko2Rating next = Glicko2Update(aged, games, kServiceTau, 0.0);
//   store(ClampForStorage(next));
// (For a first match, days_since_last is 0 and aging is a no-op.) Step 6 is
// then run with t = 0, which is the lichess per-game mode of vector L1.

#ifndef MANCALA_SERVICES_RATINGS_GLICKO2_H_
#define MANCALA_SERVICES_RATINGS_GLICKO2_H_

#include <span>

namespace mancala::ratings {

// A player's rating as stored and shown.
struct Glicko2Rating {
  double rating;      // Rating points.
  double rd;          // Rating deviation, rating points; > 0.
  double volatility;  // sigma; > 0.
};

// One game of a rating period, seen from the player being rated.
struct Glicko2Game {
  double opp_rating;  // Opponent's rating before the period, rating points.
  double opp_rd;      // Opponent's RD before the period, rating points; > 0.
  double score;       // 1 win, 0.5 draw, 0 loss (any value in [0, 1]).
};

// ---------------------------------------------------------------------------
// Constants.

// Ratio between the Glicko and Glicko-2 scales (Glickman step 2, step 8).
inline constexpr double kGlicko2Scale = 173.7178;
// Rating at mu = 0 (Glickman step 2, step 8).
inline constexpr double kGlicko2Center = 1500.0;
// Convergence tolerance of the Illinois iteration (Glickman step 5.4).
inline constexpr double kConvergenceEpsilon = 1e-6;

// Service policy (docs/ratings.md "Algorithm").
inline constexpr double kServiceTau = 0.5;
inline constexpr Glicko2Rating kNewPlayer{1500.0, 350.0, 0.06};
// The stored RD is kept within [kMinStoredRd, kMaxStoredRd] rating points.
inline constexpr double kMinStoredRd = 30.0;
inline constexpr double kMaxStoredRd = 350.0;
// A rating with RD >= kProvisionalRd rating points is shown as provisional.
inline constexpr double kProvisionalRd = 110.0;
// Rating periods per day of absence (docs/ratings.md "Time"; lichess's rate).
inline constexpr double kRatingPeriodsPerDay = 0.21436;

// ---------------------------------------------------------------------------
// The update.

// Returns the player's rating after one rating period in which they played
// `games` (Glickman steps 2-8), with system constant `tau` and
// `elapsed_rating_periods` = t in step 6:
//     phi* = sqrt(phi^2 + t * sigma'^2)
// (ratings.json conventions.step6). The paper uses t = 1; lichess per game
// uses t = 0 because the RD was aged by wall-clock time before the game
// (vector L1). Everything else follows the paper exactly:
// - step 3: v = 1 / sum g(phi_j)^2 E (1 - E);
// - step 4: delta = v * sum g(phi_j) (s_j - E);
// - step 5: new volatility sigma' by the Illinois algorithm with tolerance
//   kConvergenceEpsilon, using "f(C) * f(B) <= 0" in the sign test (5.4);
// - step 7: phi' = 1 / sqrt(1/phi*^2 + 1/v), mu' = mu + phi'^2 sum g (s - E);
// - step 8: back to rating points.
// With no games (Glickman step 1 note, vector G6): rating and volatility are
// unchanged and the RD becomes phi* = sqrt(phi^2 + t * sigma^2) (so with
// t = 0 nothing changes).
//
// No clamping: the result is the exact formula (see ClampForStorage).
// Preconditions (else std::invalid_argument): player.rd > 0,
// player.volatility > 0, tau > 0, elapsed_rating_periods >= 0, every
// opp_rd > 0 and every score in [0, 1]; all values finite.
Glicko2Rating Glicko2Update(const Glicko2Rating& player,
                            std::span<const Glicko2Game> games, double tau,
                            double elapsed_rating_periods);

// How step 5.1 found the second bracket value B.
enum class Glicko2Bracket {
  kNoGames,       // No games: step 5 not run.
  kDeltaSquared,  // delta^2 > phi^2 + v: B = ln(delta^2 - phi^2 - v).
  kKLoop,         // Otherwise: B = a - k tau, smallest k >= 1 with f(B) >= 0.
};

// The intermediate values of one update, on the Glicko-2 scale, as named in
// the paper and in ratings.json "intermediate". Exposed for tests and for
// explaining a rating; use Glicko2Update in production code.
struct Glicko2Trace {
  double mu;                // Step 2.
  double phi;               // Step 2.
  double v;                 // Step 3 (+infinity with no games).
  double delta;             // Step 4 (0 with no games).
  double sigma_new;         // Step 5 (sigma' = sigma with no games).
  double phi_star;          // Step 6.
  double phi_new;           // Step 7.
  double mu_new;            // Step 7.
  int illinois_iterations;  // Passes of the step 5.4 loop (0 with no games).
  Glicko2Bracket bracket;   // Step 5.1 branch.
  Glicko2Rating result;     // Step 8: what Glicko2Update returns.
};

// Glicko2Update, also returning every intermediate value. Same
// preconditions.
Glicko2Trace Glicko2UpdateTraced(const Glicko2Rating& player,
                                 std::span<const Glicko2Game> games, double tau,
                                 double elapsed_rating_periods);

// ---------------------------------------------------------------------------
// Service helpers.

// The RD grown for time away without games (docs/ratings.md "Time"; the same
// formula as Glickman step 6 / the no-games case):
//     phi* = sqrt(phi^2 + t * sigma^2),  t = elapsed_rating_periods >= 0.
// Rating and volatility are unchanged; no clamping. Equal to
// Glicko2Update(player, {}, tau, elapsed_rating_periods) for any tau.
Glicko2Rating AgeForTimeAway(const Glicko2Rating& player,
                             double elapsed_rating_periods);

// Rating periods elapsed in `days` days: days * 0.21436 (docs/ratings.md
// "Time"). The service uses 0 for a player's first rated match.
double RatingPeriodsSince(double days);

// `r` with its RD clamped to [30, 350] rating points, as the service stores
// it (docs/ratings.md "Algorithm"). Rating and volatility unchanged.
Glicko2Rating ClampForStorage(const Glicko2Rating& r);

// True iff the rating is shown as provisional: rd >= 110 rating points
// (docs/ratings.md "Provisional").
bool IsProvisional(const Glicko2Rating& r);

}  // namespace mancala::ratings

#endif  // MANCALA_SERVICES_RATINGS_GLICKO2_H_
