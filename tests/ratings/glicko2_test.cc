// Tests of ratings/: every vector of ratings.json (sections glicko2,
// glicko2_lichess_mode, multiplayer), read at run time, plus hand tests of
// the properties docs/ratings.md asks for and of the service helpers.

#include "ratings/glicko2.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstddef>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ratings/multiplayer.h"

namespace mancala::ratings {
namespace {

using nlohmann::json;

constexpr double kRatingTol = 1e-4;      // Rating and RD, rating points.
constexpr double kVolatilityTol = 1e-6;  // Volatility.
constexpr double kScaleTol = 1e-8;       // Glicko-2-scale intermediates.

std::string ConformancePath() {
  return std::string(MANCALA_CONFORMANCE_DIR) + "/ratings.json";
}

// The whole file, or a null json if it cannot be read or parsed (the
// ConformanceFile tests then fail; vector suites are empty).
const json& Conformance() {
  static const json* const data = [] {
    std::ifstream in(ConformancePath());
    if (!in) return new json();
    return new json(json::parse(in, nullptr, /*allow_exceptions=*/false));
  }();
  return *data;
}

// One vector of a section, named by its id.
struct Vector {
  std::string id;
  json data;
};

void PrintTo(const Vector& v, std::ostream* os) { *os << v.id; }

std::vector<Vector> Section(const char* name) {
  std::vector<Vector> out;
  const json& all = Conformance();
  if (!all.is_object() || !all.contains(name)) return out;
  for (const json& v : all.at(name)) {
    out.push_back({v.at("id").get<std::string>(), v});
  }
  return out;
}

std::string VectorName(const testing::TestParamInfo<Vector>& info) {
  std::string name = info.param.id;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

Glicko2Rating RatingFrom(const json& j) {
  return {j.at("rating").get<double>(), j.at("rd").get<double>(),
          j.at("volatility").get<double>()};
}

void ExpectRating(const Glicko2Rating& got, const json& expected) {
  EXPECT_NEAR(got.rating, expected.at("rating").get<double>(), kRatingTol);
  EXPECT_NEAR(got.rd, expected.at("rd").get<double>(), kRatingTol);
  EXPECT_NEAR(got.volatility, expected.at("volatility").get<double>(),
              kVolatilityTol);
}

// ---------------------------------------------------------------------------
// The conformance file itself.

TEST(ConformanceFile, IsReadable) {
  ASSERT_TRUE(Conformance().is_object())
      << "cannot read or parse " << ConformancePath();
}

TEST(ConformanceFile, SectionsAreNonEmpty) {
  EXPECT_FALSE(Section("glicko2").empty());
  EXPECT_FALSE(Section("glicko2_lichess_mode").empty());
  EXPECT_FALSE(Section("multiplayer").empty());
}

// Parameterized suites register one test per vector when the binary starts;
// an unreadable file would register none and pass silently. This test counts
// what was registered against the file and against the counts of
// tests/data/README.md, and prints them.
int RegisteredTests(const std::string& suite) {
  const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const testing::TestSuite& s = *unit.GetTestSuite(i);
    if (suite == s.name()) return s.total_test_count();
  }
  return 0;
}

TEST(ConformanceFile, EveryVectorIsARegisteredTest) {
  const struct {
    const char* section;
    const char* suite;
    int count;
  } kSections[] = {
      {"glicko2", "Glicko2/Glicko2VectorTest", 6},
      {"glicko2_lichess_mode", "Glicko2LichessMode/Glicko2VectorTest", 1},
      {"multiplayer", "Multiplayer/MultiplayerVectorTest", 2},
  };
  for (const auto& s : kSections) {
    const int registered = RegisteredTests(s.suite);
    std::cout << s.section << ": " << Section(s.section).size()
              << " vectors in ratings.json, " << registered
              << " registered tests\n";
    EXPECT_EQ(registered, s.count) << s.suite;
    EXPECT_EQ(Section(s.section).size(), static_cast<std::size_t>(s.count))
        << s.section;
  }
}

TEST(ConformanceFile, ConventionsMatchConstants) {
  const json& c = Conformance().at("conventions");
  EXPECT_EQ(c.at("glicko2_scale").get<double>(), kGlicko2Scale);
  EXPECT_EQ(c.at("convergence_epsilon").get<double>(), kConvergenceEpsilon);
}

// ---------------------------------------------------------------------------
// Sections glicko2 and glicko2_lichess_mode: one player, one period.

class Glicko2VectorTest : public testing::TestWithParam<Vector> {};

TEST_P(Glicko2VectorTest, MatchesExpected) {
  const json& v = GetParam().data;
  const Glicko2Rating player = RatingFrom(v.at("player"));
  std::vector<Glicko2Game> games;
  for (const json& g : v.at("games")) {
    games.push_back({g.at("opp_rating").get<double>(),
                     g.at("opp_rd").get<double>(),
                     g.at("score").get<double>()});
  }
  const double tau = v.at("tau").get<double>();
  const double t = v.at("elapsed_rating_periods").get<double>();

  const Glicko2Rating got = Glicko2Update(player, games, tau, t);
  ExpectRating(got, v.at("expected"));

  const Glicko2Trace tr = Glicko2UpdateTraced(player, games, tau, t);
  EXPECT_EQ(tr.result.rating, got.rating);
  EXPECT_EQ(tr.result.rd, got.rd);
  EXPECT_EQ(tr.result.volatility, got.volatility);
  if (games.empty()) {
    EXPECT_EQ(tr.bracket, Glicko2Bracket::kNoGames);
  }

  if (!v.contains("intermediate")) return;
  const json& in = v.at("intermediate");
  EXPECT_NEAR(tr.mu, in.at("mu").get<double>(), kScaleTol);
  EXPECT_NEAR(tr.phi, in.at("phi").get<double>(), kScaleTol);
  EXPECT_NEAR(tr.v, in.at("v").get<double>(), kScaleTol);
  EXPECT_NEAR(tr.delta, in.at("delta").get<double>(), kScaleTol);
  EXPECT_NEAR(tr.sigma_new, in.at("sigma_new").get<double>(), kScaleTol);
  EXPECT_NEAR(tr.phi_star, in.at("phi_star").get<double>(), kScaleTol);
  EXPECT_NEAR(tr.phi_new, in.at("phi_new").get<double>(), kScaleTol);
  EXPECT_NEAR(tr.mu_new, in.at("mu_new").get<double>(), kScaleTol);
  EXPECT_EQ(tr.illinois_iterations, in.at("illinois_iterations").get<int>());
  const std::string branch = in.at("bracket_branch").get<std::string>();
  if (branch == "k-loop") {
    EXPECT_EQ(tr.bracket, Glicko2Bracket::kKLoop);
  } else if (branch == "delta^2 > phi^2+v") {
    EXPECT_EQ(tr.bracket, Glicko2Bracket::kDeltaSquared);
  } else {
    ADD_FAILURE() << "unknown bracket_branch " << branch;
  }
}

INSTANTIATE_TEST_SUITE_P(Glicko2, Glicko2VectorTest,
                         testing::ValuesIn(Section("glicko2")), VectorName);
INSTANTIATE_TEST_SUITE_P(Glicko2LichessMode, Glicko2VectorTest,
                         testing::ValuesIn(Section("glicko2_lichess_mode")),
                         VectorName);

// ---------------------------------------------------------------------------
// Section multiplayer.

class MultiplayerVectorTest : public testing::TestWithParam<Vector> {};

TEST_P(MultiplayerVectorTest, MatchesExpected) {
  const json& v = GetParam().data;
  ASSERT_EQ(v.at("method").get<std::string>(), "glicko2_pairwise");
  const json& ps = v.at("players");
  std::vector<MatchPlayer> players;
  std::vector<std::string> names;
  for (const json& p : ps) {
    players.push_back({p.at("rank").get<int>(), RatingFrom(p.at("before"))});
    names.push_back(p.at("name").get<std::string>());
  }
  const double tau = v.at("tau").get<double>();
  const double t = v.at("elapsed_rating_periods").get<double>();

  const std::vector<Glicko2Rating> after = MultiplayerUpdate(players, tau, t);
  ASSERT_EQ(after.size(), players.size());
  for (std::size_t i = 0; i < players.size(); ++i) {
    SCOPED_TRACE("player " + names[i]);
    // Virtual games: same opponents, same scores, opponents' "before".
    const std::vector<Glicko2Game> games = VirtualGames(players, i);
    const json& expected_games = ps[i].at("virtual_games");
    ASSERT_EQ(games.size(), expected_games.size());
    for (std::size_t k = 0; k < games.size(); ++k) {
      const std::string opp = expected_games[k].at("opp").get<std::string>();
      std::size_t j = 0;
      while (j < names.size() && names[j] != opp) ++j;
      ASSERT_LT(j, names.size()) << "unknown opponent " << opp;
      EXPECT_EQ(games[k].opp_rating, players[j].before.rating);
      EXPECT_EQ(games[k].opp_rd, players[j].before.rd);
      EXPECT_EQ(games[k].score, expected_games[k].at("score").get<double>());
    }
    ExpectRating(after[i], ps[i].at("expected"));
  }
}

INSTANTIATE_TEST_SUITE_P(Multiplayer, MultiplayerVectorTest,
                         testing::ValuesIn(Section("multiplayer")), VectorName);

// ---------------------------------------------------------------------------
// Hand tests: Glicko2Update.

TEST(Glicko2Hand, DrawBetweenEqualPlayersKeepsExactly1500) {
  for (double t : {0.0, 1.0}) {
    const Glicko2Game game{1500.0, 350.0, 0.5};
    const Glicko2Rating r = Glicko2Update(kNewPlayer, {&game, 1}, 0.5, t);
    EXPECT_EQ(r.rating, 1500.0) << "t=" << t;
    EXPECT_LT(r.rd, 350.0);
  }
  // Equal established players too.
  const Glicko2Rating p{1500.0, 80.0, 0.06};
  const Glicko2Game game{1500.0, 80.0, 0.5};
  EXPECT_EQ(Glicko2Update(p, {&game, 1}, kServiceTau, 1.0).rating, 1500.0);
}

TEST(Glicko2Hand, WinnerAndLoserMirror) {
  const Glicko2Game win{1500.0, 350.0, 1.0};
  const Glicko2Game loss{1500.0, 350.0, 0.0};
  const Glicko2Rating w = Glicko2Update(kNewPlayer, {&win, 1}, 0.5, 1.0);
  const Glicko2Rating l = Glicko2Update(kNewPlayer, {&loss, 1}, 0.5, 1.0);
  EXPECT_GT(w.rating, 1500.0);
  EXPECT_NEAR(w.rating - 1500.0, 1500.0 - l.rating, 1e-9);
  EXPECT_DOUBLE_EQ(w.rd, l.rd);
  EXPECT_DOUBLE_EQ(w.volatility, l.volatility);
}

TEST(Glicko2Hand, NoGamesAndNoTimeChangesNothing) {
  const Glicko2Rating p{1623.5, 71.25, 0.0612};
  const Glicko2Rating r = Glicko2Update(p, {}, kServiceTau, 0.0);
  EXPECT_EQ(r.rating, p.rating);
  EXPECT_EQ(r.rd, p.rd);
  EXPECT_EQ(r.volatility, p.volatility);
}

TEST(Glicko2Hand, NoClampingInsideUpdate) {
  // RD 500 in, RD above 350 out (vector L1 has 396.69): not clamped.
  const Glicko2Rating p{1500.0, 500.0, 0.09};
  const Glicko2Game g{1500.0, 500.0, 1.0};
  EXPECT_GT(Glicko2Update(p, {&g, 1}, 0.75, 0.0).rd, kMaxStoredRd);
  // Many games push the RD below 30: not clamped either.
  std::vector<Glicko2Game> games(400, Glicko2Game{1500.0, 30.0, 0.5});
  EXPECT_LT(Glicko2Update({1500.0, 30.0, 0.06}, games, 0.5, 0.0).rd,
            kMinStoredRd);
}

TEST(Glicko2Hand, InvalidInputThrows) {
  const Glicko2Game g{1500.0, 350.0, 1.0};
  const Glicko2Game bad_score{1500.0, 350.0, 1.5};
  const Glicko2Game bad_rd{1500.0, 0.0, 1.0};
  EXPECT_THROW(Glicko2Update({1500, 0, 0.06}, {&g, 1}, 0.5, 1),
               std::invalid_argument);
  EXPECT_THROW(Glicko2Update({1500, 350, 0}, {&g, 1}, 0.5, 1),
               std::invalid_argument);
  EXPECT_THROW(Glicko2Update(kNewPlayer, {&g, 1}, 0.0, 1),
               std::invalid_argument);
  EXPECT_THROW(Glicko2Update(kNewPlayer, {&g, 1}, 0.5, -1),
               std::invalid_argument);
  EXPECT_THROW(Glicko2Update(kNewPlayer, {&bad_score, 1}, 0.5, 1),
               std::invalid_argument);
  EXPECT_THROW(Glicko2Update(kNewPlayer, {&bad_rd, 1}, 0.5, 1),
               std::invalid_argument);
}

// ---------------------------------------------------------------------------
// Hand tests: multiplayer.

TEST(MultiplayerHand, PairScoreFromRanks) {
  EXPECT_EQ(PairScore(1, 2), 1.0);
  EXPECT_EQ(PairScore(2, 2), 0.5);
  EXPECT_EQ(PairScore(4, 2), 0.0);
}

TEST(MultiplayerHand, TiedRanksGiveTiedPlayersEqualRatings) {
  const MatchPlayer players[] = {
      {1, kNewPlayer}, {2, kNewPlayer}, {2, kNewPlayer}, {4, kNewPlayer}};
  const std::vector<Glicko2Rating> r = MultiplayerUpdate(players, 0.5, 1.0);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[1].rating, r[2].rating);
  EXPECT_EQ(r[1].rd, r[2].rd);
  EXPECT_EQ(r[1].volatility, r[2].volatility);
  EXPECT_EQ(r[1].rating, 1500.0);  // One win, one draw, one loss vs equals.
  EXPECT_GT(r[0].rating, r[1].rating);
  EXPECT_LT(r[3].rating, r[1].rating);
  EXPECT_NEAR(r[0].rating - 1500.0, 1500.0 - r[3].rating, 1e-9);
}

TEST(MultiplayerHand, TwoPlayersIsPlainGlicko2) {
  const Glicko2Rating a{1650.0, 120.0, 0.059};
  const Glicko2Rating b{1480.0, 240.0, 0.061};
  const MatchPlayer players[] = {{2, a}, {1, b}};
  const std::vector<Glicko2Rating> r = MultiplayerUpdate(players, 0.5, 1.0);
  const Glicko2Game a_game{b.rating, b.rd, 0.0};
  const Glicko2Game b_game{a.rating, a.rd, 1.0};
  const Glicko2Rating ra = Glicko2Update(a, {&a_game, 1}, 0.5, 1.0);
  const Glicko2Rating rb = Glicko2Update(b, {&b_game, 1}, 0.5, 1.0);
  EXPECT_EQ(r[0].rating, ra.rating);
  EXPECT_EQ(r[0].rd, ra.rd);
  EXPECT_EQ(r[0].volatility, ra.volatility);
  EXPECT_EQ(r[1].rating, rb.rating);
  EXPECT_EQ(r[1].rd, rb.rd);
  EXPECT_EQ(r[1].volatility, rb.volatility);
}

TEST(MultiplayerHand, SeatOrderDoesNotMatter) {
  const MatchPlayer p[] = {
      {2, {1600, 80, 0.06}}, {3, {1500, 200, 0.06}}, {1, {1400, 300, 0.06}}};
  const MatchPlayer q[] = {p[2], p[0], p[1]};
  const std::vector<Glicko2Rating> rp = MultiplayerUpdate(p, 0.5, 1.0);
  const std::vector<Glicko2Rating> rq = MultiplayerUpdate(q, 0.5, 1.0);
  // Sums are taken in a different order: equal to rounding.
  for (auto [i, k] : {std::pair{0, 1}, {1, 2}, {2, 0}}) {
    EXPECT_NEAR(rp[i].rating, rq[k].rating, 1e-9);
    EXPECT_NEAR(rp[i].rd, rq[k].rd, 1e-9);
    EXPECT_NEAR(rp[i].volatility, rq[k].volatility, 1e-12);
  }
}

TEST(MultiplayerHand, RejectsBadMatches) {
  const MatchPlayer one[] = {{1, kNewPlayer}};
  const MatchPlayer five[] = {{1, kNewPlayer},
                              {2, kNewPlayer},
                              {3, kNewPlayer},
                              {4, kNewPlayer},
                              {5, kNewPlayer}};
  const MatchPlayer rank0[] = {{0, kNewPlayer}, {1, kNewPlayer}};
  const MatchPlayer ok[] = {{1, kNewPlayer}, {2, kNewPlayer}};
  EXPECT_THROW(MultiplayerUpdate(one, 0.5, 1.0), std::invalid_argument);
  EXPECT_THROW(MultiplayerUpdate(five, 0.5, 1.0), std::invalid_argument);
  EXPECT_THROW(MultiplayerUpdate(rank0, 0.5, 1.0), std::invalid_argument);
  EXPECT_THROW(VirtualGames(ok, 2), std::invalid_argument);
}

// ---------------------------------------------------------------------------
// Hand tests: service policy helpers.

TEST(PolicyHand, Constants) {
  EXPECT_EQ(kServiceTau, 0.5);
  EXPECT_EQ(kNewPlayer.rating, 1500.0);
  EXPECT_EQ(kNewPlayer.rd, 350.0);
  EXPECT_EQ(kNewPlayer.volatility, 0.06);
}

TEST(PolicyHand, ClampForStorage) {
  const Glicko2Rating low = ClampForStorage({1712.0, 12.5, 0.05});
  EXPECT_EQ(low.rd, 30.0);
  EXPECT_EQ(low.rating, 1712.0);
  EXPECT_EQ(low.volatility, 0.05);
  EXPECT_EQ(ClampForStorage({1500, 396.69, 0.09}).rd, 350.0);
  EXPECT_EQ(ClampForStorage({1500, 30.0, 0.06}).rd, 30.0);
  EXPECT_EQ(ClampForStorage({1500, 350.0, 0.06}).rd, 350.0);
  EXPECT_EQ(ClampForStorage({1500, 151.5, 0.06}).rd, 151.5);
}

TEST(PolicyHand, ProvisionalIffRdAtLeast110) {
  EXPECT_TRUE(IsProvisional(kNewPlayer));
  EXPECT_TRUE(IsProvisional({1500, 110.0, 0.06}));
  EXPECT_FALSE(IsProvisional({1500, 109.999, 0.06}));
  EXPECT_FALSE(IsProvisional({1500, 30.0, 0.06}));
}

TEST(PolicyHand, RatingPeriodsSince) {
  EXPECT_EQ(RatingPeriodsSince(0.0), 0.0);
  EXPECT_DOUBLE_EQ(RatingPeriodsSince(1.0), 0.21436);
  EXPECT_DOUBLE_EQ(RatingPeriodsSince(30.0), 6.4308);
  EXPECT_DOUBLE_EQ(RatingPeriodsSince(0.5), 0.10718);
}

TEST(PolicyHand, AgeForTimeAway) {
  const Glicko2Rating p{1500.0, 200.0, 0.06};
  // t = 1 is vector G6.
  const Glicko2Rating one = AgeForTimeAway(p, 1.0);
  EXPECT_NEAR(one.rd, 200.27141669877065, kRatingTol);
  EXPECT_EQ(one.rating, p.rating);
  EXPECT_EQ(one.volatility, p.volatility);
  const Glicko2Rating same = AgeForTimeAway(p, 0.0);
  EXPECT_EQ(same.rd, p.rd);
  // Same as an update without games; RD grows with time.
  const double t = RatingPeriodsSince(100.0);
  EXPECT_EQ(AgeForTimeAway(p, t).rd, Glicko2Update(p, {}, 0.5, t).rd);
  EXPECT_GT(AgeForTimeAway(p, t).rd, one.rd);
  EXPECT_THROW(AgeForTimeAway(p, -1.0), std::invalid_argument);
}

}  // namespace
}  // namespace mancala::ratings
