#include "tests/engine/test_util.h"

#include <gtest/gtest.h>

namespace mancala::engine::testing {

Rules MustParse(std::string_view game, const OptionMap& options, int players) {
  auto r = ParseRules(game, options, players);
  if (const RulesError* e = std::get_if<RulesError>(&r)) {
    ADD_FAILURE() << "ParseRules failed: " << e->message;
    return Rules{};
  }
  return std::get<Rules>(r);
}

std::string ParseError(std::string_view game, const OptionMap& options,
                       int players) {
  auto r = ParseRules(game, options, players);
  if (const RulesError* e = std::get_if<RulesError>(&r)) return e->message;
  return "";
}

State MustFromBoard(const Rules& rules, const Rows& pits,
                    const std::vector<int>& stores, int to_move,
                    const std::vector<int>& active,
                    const std::array<int, kMaxPlayers>& ranks) {
  Board b;
  b.players = static_cast<int>(pits.size());
  b.pits_per_player = static_cast<int>(pits[0].size());
  for (int p = 0; p < b.players; ++p) {
    for (int i = 0; i < b.pits_per_player; ++i) b.pits[p][i] = pits[p][i];
    b.stores[p] = stores[p];
  }
  auto s = State::FromBoard(rules, b, to_move, active, ranks);
  if (const RulesError* e = std::get_if<RulesError>(&s)) {
    ADD_FAILURE() << "FromBoard failed: " << e->message;
    return State(rules);
  }
  return std::get<State>(std::move(s));
}

Rows Pits(const Board& b) {
  Rows rows(b.players);
  for (int p = 0; p < b.players; ++p) {
    rows[p].assign(b.pits[p].begin(), b.pits[p].begin() + b.pits_per_player);
  }
  return rows;
}
Rows Pits(const State& s) { return Pits(s.board()); }

std::vector<int> Stores(const Board& b) {
  return {b.stores.begin(), b.stores.begin() + b.players};
}
std::vector<int> Stores(const State& s) { return Stores(s.board()); }

std::vector<int> Ranks(const State& s) {
  const auto& r = s.outcome().ranks;
  return {r.begin(), r.begin() + s.rules().players};
}

MoveRecord Play(State& s, int pit) {
  MoveRecord rec;
  auto error = s.Apply(pit, &rec);
  EXPECT_FALSE(error.has_value())
      << "move " << pit << " refused: " << MoveErrorMessage(*error);
  return rec;
}

std::string Describe(const Event& e) {
  auto place = [&] {
    return std::to_string(e.place.player) + ":" +
           (e.place.is_store() ? std::string("S")
                               : std::to_string(e.place.pit));
  };
  const std::string name(EventTypeName(e.type));
  const std::string who = "p" + std::to_string(e.player);
  switch (e.type) {
    case EventType::kPickUp:
    case EventType::kSweep:
      return name + " " + place() + " x" + std::to_string(e.count);
    case EventType::kDrop:
      return name + " " + place();
    case EventType::kCapture:
      return name + " " + who + " " + place() + " x" + std::to_string(e.count);
    case EventType::kGrandSlamNullified:
      return name + " " + who + " " + place();
    case EventType::kFinish:
    case EventType::kResign:
      return name + " " + who + " r" + std::to_string(e.rank);
    case EventType::kExtraTurn:
    case EventType::kGameOver:
      return name + " " + who;
  }
  return name;
}

std::vector<std::string> Describe(const MoveRecord& rec) {
  std::vector<std::string> out;
  for (const Event& e : rec.events) out.push_back(Describe(e));
  return out;
}

std::vector<std::string> DescribeNoDrops(const MoveRecord& rec) {
  std::vector<std::string> out;
  for (const Event& e : rec.events) {
    if (e.type != EventType::kDrop) out.push_back(Describe(e));
  }
  return out;
}

int TotalSeeds(const State& s) {
  int total = 0;
  for (int p = 0; p < s.rules().players; ++p) {
    total += s.store(p);
    for (int i = 0; i < s.rules().pits; ++i) total += s.pit(p, i);
  }
  return total;
}

}  // namespace mancala::engine::testing
