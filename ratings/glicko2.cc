// Glicko-2, following Glickman's "Example of the Glicko-2 system" (revision
// of 2022-03-22) step by step. See glicko2.h.

#include "ratings/glicko2.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace mancala::ratings {
namespace {

void Require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("Glicko2: ") + what);
}

void CheckPlayer(const Glicko2Rating& p) {
  Require(std::isfinite(p.rating), "rating must be finite");
  Require(std::isfinite(p.rd) && p.rd > 0, "rd must be finite and > 0");
  Require(std::isfinite(p.volatility) && p.volatility > 0,
          "volatility must be finite and > 0");
}

void CheckPeriods(double t) {
  Require(std::isfinite(t) && t >= 0,
          "elapsed_rating_periods must be finite and >= 0");
}

// RD after t rating periods without games, phi* = sqrt(phi^2 + t sigma^2)
// (Glickman step 6 / step 1 note). Exactly rd when t == 0.
double AgedRd(double rd, double sigma, double t) {
  if (t == 0) return rd;
  const double phi = rd / kGlicko2Scale;
  return kGlicko2Scale * std::sqrt(phi * phi + t * sigma * sigma);
}

// Glickman step 3: g(phi).
double G(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi /
                                   (std::numbers::pi * std::numbers::pi));
}

// Glickman step 3: E(mu, mu_j, phi_j), with g = g(phi_j) precomputed.
double E(double mu, double mu_j, double g) {
  return 1.0 / (1.0 + std::exp(-g * (mu - mu_j)));
}

}  // namespace

Glicko2Trace Glicko2UpdateTraced(const Glicko2Rating& player,
                                 std::span<const Glicko2Game> games, double tau,
                                 double elapsed_rating_periods) {
  CheckPlayer(player);
  Require(std::isfinite(tau) && tau > 0, "tau must be finite and > 0");
  CheckPeriods(elapsed_rating_periods);
  for (const Glicko2Game& game : games) {
    Require(std::isfinite(game.opp_rating), "opp_rating must be finite");
    Require(std::isfinite(game.opp_rd) && game.opp_rd > 0,
            "opp_rd must be finite and > 0");
    Require(game.score >= 0 && game.score <= 1, "score must be in [0, 1]");
  }

  Glicko2Trace tr{};
  const double sigma = player.volatility;
  const double t = elapsed_rating_periods;

  // Step 2: convert to the Glicko-2 scale.
  tr.mu = (player.rating - kGlicko2Center) / kGlicko2Scale;
  tr.phi = player.rd / kGlicko2Scale;
  const double phi2 = tr.phi * tr.phi;

  if (games.empty()) {
    // Step 1 note: a player who did not compete keeps mu and sigma; only
    // step 6 applies, and phi' = phi*.
    tr.v = std::numeric_limits<double>::infinity();
    tr.delta = 0.0;
    tr.sigma_new = sigma;
    tr.phi_star = std::sqrt(phi2 + t * sigma * sigma);
    tr.phi_new = tr.phi_star;
    tr.mu_new = tr.mu;
    tr.illinois_iterations = 0;
    tr.bracket = Glicko2Bracket::kNoGames;
    tr.result = {player.rating, AgedRd(player.rd, sigma, t), sigma};
    return tr;
  }

  // Steps 3 and 4: v and the sum for delta (and for mu' in step 7).
  double inv_v = 0.0;
  double score_sum = 0.0;  // sum g(phi_j) (s_j - E)
  for (const Glicko2Game& game : games) {
    const double mu_j = (game.opp_rating - kGlicko2Center) / kGlicko2Scale;
    const double phi_j = game.opp_rd / kGlicko2Scale;
    const double g = G(phi_j);
    const double e = E(tr.mu, mu_j, g);
    inv_v += g * g * e * (1.0 - e);
    score_sum += g * (game.score - e);
  }
  tr.v = 1.0 / inv_v;
  tr.delta = tr.v * score_sum;
  const double v = tr.v;
  const double delta2 = tr.delta * tr.delta;

  // Step 5: the new volatility.
  // 5.1
  const double a = std::log(sigma * sigma);
  const double tau2 = tau * tau;
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi2 + v + ex;
    return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / tau2;
  };
  // 5.2
  double A = a;
  double B;
  if (delta2 > phi2 + v) {
    B = std::log(delta2 - phi2 - v);
    tr.bracket = Glicko2Bracket::kDeltaSquared;
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    B = a - k * tau;
    tr.bracket = Glicko2Bracket::kKLoop;
  }
  // 5.3
  double fA = f(A);
  double fB = f(B);
  // 5.4: Illinois iteration.
  int iterations = 0;
  while (std::abs(B - A) > kConvergenceEpsilon) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA = fA / 2.0;
    }
    B = C;
    fB = fC;
    ++iterations;
  }
  tr.illinois_iterations = iterations;
  // 5.5
  tr.sigma_new = std::exp(A / 2.0);

  // Step 6 (ratings.json conventions.step6: t is an input).
  tr.phi_star = std::sqrt(phi2 + t * tr.sigma_new * tr.sigma_new);

  // Step 7.
  tr.phi_new = 1.0 / std::sqrt(1.0 / (tr.phi_star * tr.phi_star) + 1.0 / v);
  tr.mu_new = tr.mu + tr.phi_new * tr.phi_new * score_sum;

  // Step 8.
  tr.result = {kGlicko2Scale * tr.mu_new + kGlicko2Center,
               kGlicko2Scale * tr.phi_new, tr.sigma_new};
  return tr;
}

Glicko2Rating Glicko2Update(const Glicko2Rating& player,
                            std::span<const Glicko2Game> games, double tau,
                            double elapsed_rating_periods) {
  return Glicko2UpdateTraced(player, games, tau, elapsed_rating_periods).result;
}

Glicko2Rating AgeForTimeAway(const Glicko2Rating& player,
                             double elapsed_rating_periods) {
  CheckPlayer(player);
  CheckPeriods(elapsed_rating_periods);
  return {player.rating,
          AgedRd(player.rd, player.volatility, elapsed_rating_periods),
          player.volatility};
}

double RatingPeriodsSince(double days) { return days * kRatingPeriodsPerDay; }

Glicko2Rating ClampForStorage(const Glicko2Rating& r) {
  return {r.rating, std::clamp(r.rd, kMinStoredRd, kMaxStoredRd), r.volatility};
}

bool IsProvisional(const Glicko2Rating& r) { return r.rd >= kProvisionalRd; }

}  // namespace mancala::ratings
