// Random-playout properties: 100,000 games for every option set that
// changes play, with fixed seeds (std::mt19937_64). After every move:
//   - seeds are conserved (MB.I4, O.I2, K.1 totals, C.1 "sum = 98");
//   - stores never decrease (MB.7; captures and sweeps only add);
//   - the player to move is active and has a legal move (MB.I2, O.I1, K.11);
//   - Mancala Basic: other players' rows never lose stones (MB.I1), and a
//     player who finished or resigned never moves again (MB.11b, MB.15).
// Every game ends within a generous ply bound (MB.I3, K.11, C.8, O.11).
// At the end: ranks are complete and consistent with the end rule.
// Some games (1 in 16) have a random player resign at a random ply.

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine {
namespace {

// The plain build plays 100,000 games per option set. Sanitizer builds
// (MANCALA_PROPERTY_GAMES, tests/engine/CMakeLists.txt) play 10,000: there
// the point is memory and undefined behaviour on every rule path, which a
// tenth of the games still walk, at a tenth of ~10x slower code.
#ifndef MANCALA_PROPERTY_GAMES
#define MANCALA_PROPERTY_GAMES 100000
#endif
constexpr int kGamesPerOptionSet = MANCALA_PROPERTY_GAMES;
constexpr int kPlyBound = 20000;  // Far above any real game (asserts K.11).

Rules Parse(const std::string& game, const OptionMap& options, int players) {
  auto r = ParseRules(game, options, players);
  if (auto* e = std::get_if<RulesError>(&r)) {
    ADD_FAILURE() << e->message;
    return Rules{};
  }
  return std::get<Rules>(r);
}

std::string Describe(const OptionMap& options) {
  std::string out;
  for (const auto& [k, v] : options) out += k + "=" + v + " ";
  return out;
}

// The k-th set bit of `mask` (k < popcount).
int NthBit(std::uint32_t mask, int k) {
  for (; k > 0; --k) mask &= mask - 1;
  return std::countr_zero(mask);
}

// A per-move check without gtest's assertion machinery (millions of moves):
// fails the test and returns when `cond` is false.
#define CHEAP_CHECK(cond, what)          \
  do {                                   \
    if (!(cond)) {                       \
      FAIL() << what << "; " << where(); \
    }                                    \
  } while (false)

struct Totals {
  long games = 0;
  long moves = 0;
  long resignations = 0;
  int longest = 0;
};

// Plays `games` random games, checking the invariants; stops at the first
// violation (reported with the seed, game and ply).
void PlayRandomGames(const Rules& rules, int games, std::uint64_t seed,
                     Totals& totals) {
  std::mt19937_64 rng(seed);
  const int players = rules.players;
  const int n = rules.pits;
  const int total = players * n * rules.seeds;
  const bool basic = rules.game == Game::kMancalaBasic;
  for (int g = 0; g < games; ++g) {
    State s(rules, g % players);
    const int resign_at = rng() % 16 == 0 ? static_cast<int>(rng() % 80) : -1;
    std::array<bool, kMaxPlayers> gone{};  // Finished or resigned.
    std::array<int, kMaxPlayers> stores{};
    std::array<int, kMaxPlayers> rows{};
    auto where = [&] {
      return "seed " + std::to_string(seed) + " game " + std::to_string(g) +
             " ply " + std::to_string(s.ply());
    };
    // Row sums and stores after the previous move (MB.I1, MB.7).
    for (int p = 0; p < players; ++p) {
      stores[p] = s.store(p);
      rows[p] = 0;
      for (int i = 0; i < n; ++i) rows[p] += s.pit(p, i);
    }
    int plies = 0;
    while (!s.is_over()) {
      if (plies == resign_at) {
        int who = static_cast<int>(rng() % players);
        while (gone[who]) who = (who + 1) % players;
        CHEAP_CHECK(!s.Resign(who).has_value(), "resignation refused");
        gone[who] = true;
        ++totals.resignations;
        if (s.is_over()) break;
      }
      const int mover = s.to_move();
      CHEAP_CHECK(
          mover >= 0 && mover < players && s.is_active(mover) && !gone[mover],
          "player " << mover << " may not move");
      const std::uint32_t mask = s.LegalMask();
      CHEAP_CHECK(mask != 0, "no legal move for the player to move");
      const int pit =
          NthBit(mask, static_cast<int>(rng() % std::popcount(mask)));
      CHEAP_CHECK(!s.Apply(pit).has_value(),
                  "legal move " << pit << " refused");
      ++plies;
      CHEAP_CHECK(plies < kPlyBound, "no end in sight");
      int sum = 0;
      for (int p = 0; p < players; ++p) {
        int row = 0;
        for (int i = 0; i < n; ++i) row += s.pit(p, i);
        sum += row + s.store(p);
        CHEAP_CHECK(s.store(p) >= stores[p], "store " << p << " lost seeds");
        if (basic && p != mover) {
          CHEAP_CHECK(row >= rows[p], "MB.I1: row " << p << " lost stones");
        }
        if (basic && p == mover && row == 0) gone[p] = true;  // MB.9.
        stores[p] = s.store(p);
        rows[p] = row;
      }
      CHEAP_CHECK(sum == total, "seeds not conserved: " << sum);
    }
    // The result.
    const Outcome& o = s.outcome();
    ASSERT_NE(o.end_reason, EndReason::kNone) << where();
    for (int p = 0; p < players; ++p) {
      ASSERT_GE(o.ranks[p], 1) << where();
      ASSERT_LE(o.ranks[p], players) << where();
    }
    if (players == 2 && o.end_reason != EndReason::kResignation && !basic) {
      const int s0 = s.store(0), s1 = s.store(1);
      ASSERT_EQ(o.winner, s0 > s1 ? 0 : s1 > s0 ? 1 : -1) << where();
      if (o.end_reason != EndReason::kMajority) {
        ASSERT_EQ(o.remaining[0] + o.remaining[1], 0)
            << "not swept; " << where();
      }
    }
    if (basic && (rules.determine_all_ranks || players == 2)) {
      int seen = 0;
      for (int p = 0; p < players; ++p) seen |= 1 << o.ranks[p];
      ASSERT_EQ(seen, ((1 << (players + 1)) - 2))
          << "ranks not 1..N; " << where();
    }
    ++totals.games;
    totals.moves += plies;
    if (plies > totals.longest) totals.longest = plies;
  }
}

void RunOptionSets(const std::string& game,
                   const std::vector<std::pair<OptionMap, int>>& sets) {
  std::uint64_t seed = 20260914;
  for (const auto& [options, players] : sets) {
    SCOPED_TRACE(game + " players=" + std::to_string(players) + " " +
                 Describe(options));
    const Rules rules = Parse(game, options, players);
    Totals totals;
    PlayRandomGames(rules, kGamesPerOptionSet, seed++, totals);
    if (::testing::Test::HasFatalFailure()) return;
    EXPECT_EQ(totals.games, kGamesPerOptionSet);
    std::printf(
        "%-14s p=%d %-90s %ld games %ld moves (longest %d) %ld resigned\n",
        game.c_str(), players, Describe(options).c_str(), totals.games,
        totals.moves, totals.longest, totals.resignations);
  }
}

// Applying a move's events to the board before it gives the board after it,
// the totals agree with the events, and asking for a record changes nothing
// (the playout path without a record is the same rules code).
void CheckEventsReplay(const Rules& rules, int games, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  MoveRecord rec;
  for (int g = 0; g < games; ++g) {
    State s(rules, g % rules.players);
    State twin = s;  // Played without records.
    while (!s.is_over()) {
      const std::uint32_t mask = s.LegalMask();
      ASSERT_EQ(mask, twin.LegalMask());
      const int pit =
          NthBit(mask, static_cast<int>(rng() % std::popcount(mask)));
      Board board = s.board();
      ASSERT_FALSE(s.Apply(pit, &rec).has_value());
      ASSERT_FALSE(twin.Apply(pit).has_value());
      ASSERT_EQ(s.board(), twin.board()) << "game " << g;
      ASSERT_EQ(s.to_move(), twin.to_move());
      int drops = 0, pickups = 0, captured = 0, extra = 0, finish = 0;
      std::array<int, kMaxPlayers> swept{};
      for (const Event& e : rec.events) {
        const Place& at = e.place;
        int& slot = at.is_store() ? board.stores[at.player]
                                  : board.pits[at.player][at.pit];
        switch (e.type) {
          case EventType::kPickUp:
            ASSERT_EQ(slot, e.count);
            slot = 0;
            ++pickups;
            break;
          case EventType::kDrop:
            ++slot;
            ++drops;
            break;
          case EventType::kCapture:
          case EventType::kSweep:
            ASSERT_EQ(slot, e.count) << EventTypeName(e.type);
            slot = 0;
            board.stores[e.player] += e.count;
            if (e.type == EventType::kSweep) swept[e.player] += e.count;
            if (e.type == EventType::kCapture && e.player == rec.player) {
              captured += e.count;
            }
            break;
          case EventType::kExtraTurn:
            ++extra;
            break;
          case EventType::kFinish:
            ++finish;
            break;
          default:
            break;
        }
      }
      ASSERT_EQ(board, s.board()) << "events do not replay; game " << g;
      ASSERT_EQ(drops, rec.sown);
      ASSERT_EQ(pickups, 1 + rec.relays);
      ASSERT_EQ(captured, rec.captured);
      ASSERT_EQ(swept, rec.swept);
      ASSERT_EQ(extra, rec.extra_turn ? 1 : 0);
      ASSERT_EQ(finish, rec.finished ? 1 : 0);
      ASSERT_EQ(rec.events.back().type == EventType::kGameOver, s.is_over());
    }
    ASSERT_EQ(s.outcome().ranks, twin.outcome().ranks);
    ASSERT_EQ(s.outcome().pre_sweep, twin.outcome().pre_sweep);
  }
}

TEST(PropertyTest, EventsReplayToTheBoardAndRecordsChangeNothing) {
  const std::vector<std::tuple<std::string, OptionMap, int>> sets = {
      {"kalah", {}, 2},
      {"kalah", {{"end_rule", "any_side_empty"}, {"seeds", "6"}}, 2},
      {"oware", {}, 2},
      {"oware", {{"grand_slam", "illegal"}, {"cycle_rule", "move_cap:200"}}, 2},
      {"congkak", {}, 2},
      {"congkak",
       {{"houses", "9"},
        {"seeds", "9"},
        {"empty_opposite", "seed_to_store"},
        {"empty_opponent_house", "seed_to_opponent_store"},
        {"capture_requires_lap", "on"},
        {"end_rule", "any_side_empty"}},
       2},
      {"mancala_basic", {{"pits", "7"}}, 2},
      {"mancala_basic", {}, 3},
      {"mancala_basic", {{"pits", "4"}, {"determine_all_ranks", "off"}}, 4},
  };
  std::uint64_t seed = 7;
  for (const auto& [game, options, players] : sets) {
    SCOPED_TRACE(game + " " + Describe(options));
    CheckEventsReplay(Parse(game, options, players), 3000, seed++);
    if (HasFatalFailure()) return;
  }
}

TEST(PropertyTest, Kalah) {
  std::vector<std::pair<OptionMap, int>> sets;
  for (const char* seeds : {"4", "5", "6"}) {
    for (const char* end : {"mover_empty", "any_side_empty"}) {
      sets.push_back({{{"seeds", seeds}, {"end_rule", end}}, 2});
    }
  }
  RunOptionSets("kalah", sets);
}

TEST(PropertyTest, Oware) {
  std::vector<std::pair<OptionMap, int>> sets;
  for (const char* seeds : {"4", "5", "6"}) {
    for (const char* slam : {"no_capture", "illegal"}) {
      for (const char* cycle : {"repetition_ends", "move_cap:200"}) {
        sets.push_back(
            {{{"seeds", seeds}, {"grand_slam", slam}, {"cycle_rule", cycle}},
             2});
      }
    }
  }
  RunOptionSets("oware", sets);
}

TEST(PropertyTest, Congkak) {
  std::vector<std::pair<OptionMap, int>> sets;
  for (const char* board : {"5", "7", "9"}) {
    for (const char* end : {"mover_empty", "any_side_empty"}) {
      for (const char* lap : {"off", "on"}) {
        for (const char* opposite : {"seed_stays", "seed_to_store"}) {
          for (const char* house : {"seed_stays", "seed_to_opponent_store"}) {
            sets.push_back({{{"houses", board},
                             {"seeds", board},
                             {"end_rule", end},
                             {"capture_requires_lap", lap},
                             {"empty_opposite", opposite},
                             {"empty_opponent_house", house}},
                            2});
          }
        }
      }
    }
  }
  RunOptionSets("congkak", sets);
}

void BasicSets(int players, std::vector<std::pair<OptionMap, int>>& sets) {
  const std::vector<const char*> pits =
      players == 2 ? std::vector<const char*>{"6", "7"}
                   : std::vector<const char*>{"6", "4"};
  for (const char* p : pits) {
    for (const char* stones : {"4", "3"}) {
      for (const char* all : {"on", "off"}) {
        sets.push_back({{{"players", std::to_string(players)},
                         {"pits", p},
                         {"stones", stones},
                         {"determine_all_ranks", all}},
                        players});
      }
    }
  }
}

TEST(PropertyTest, MancalaBasic2p) {
  std::vector<std::pair<OptionMap, int>> sets;
  BasicSets(2, sets);
  RunOptionSets("mancala_basic", sets);
}

TEST(PropertyTest, MancalaBasic3p) {
  std::vector<std::pair<OptionMap, int>> sets;
  BasicSets(3, sets);
  RunOptionSets("mancala_basic", sets);
}

TEST(PropertyTest, MancalaBasic4p) {
  std::vector<std::pair<OptionMap, int>> sets;
  BasicSets(4, sets);
  RunOptionSets("mancala_basic", sets);
}

}  // namespace
}  // namespace mancala::engine
