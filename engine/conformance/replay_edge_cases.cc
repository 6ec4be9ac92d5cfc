// edge_cases.json: each case's `position` is set up with State::FromBoard
// (with `active` and `ranks` for Mancala Basic), its `moves` and `resign`
// are applied, and the engine is compared with `expected` once per option
// value listed there ("mover_empty"/"any_side_empty" are end_rule values,
// "grand_slam=illegal" names the option). Mancala Basic cases have a single
// `expected`. The board size comes from the position (B13 plays 7 pits,
// B14 4 players x 4 pits).

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/conformance/replay_internal.h"

namespace mancala::engine::conformance::internal {
namespace {

const std::set<std::string> kExpectedKeys = {
    "pits",   "stores", "to_move",    "terminal", "legal_next", "legal_before",
    "events", "winner", "end_reason", "ranks",    "active"};

// The option an expected-key names: "any_side_empty" (an end_rule value) or
// "name=value".
void AddExpectedKeyOption(const std::string& key, OptionMap& options) {
  if (key == "mover_empty" || key == "any_side_empty") {
    options["end_rule"] = key;
    return;
  }
  const auto eq = key.find('=');
  if (eq == std::string::npos) {
    throw std::runtime_error("expected-key \"" + key + "\" names no option");
  }
  options[key.substr(0, eq)] = key.substr(eq + 1);
}

// Compares one event summary of `expected.events` with a move's record.
void CheckEvent(UnitCheck& check, const json& want, const MoveRecord& rec,
                const State& state) {
  std::set<std::string> checked = {"illegal", "legal", "resigned"};
  CheckAnnotations(check, want, rec, state, checked);
  for (const auto& [key, value] : want.items()) {
    if (checked.count(key) == 0) {
      check.Fail("event key \"" + key + "\" is not checked by this replay");
    }
  }
}

void ReplayUnit(const json& c, const std::string& id, const json& expected,
                const Rules& rules, const std::string& file,
                ReplayReport& report) {
  UnitCheck check(file, id);
  const json& pos = c.at("position");
  std::vector<int> active;
  if (pos.contains("active") && !pos["active"].is_null()) {
    active = pos["active"].get<std::vector<int>>();
  }
  std::array<int, kMaxPlayers> ranks{};
  if (pos.contains("ranks") && !pos["ranks"].is_null()) {
    const json& r = pos["ranks"];
    for (int p = 0; p < static_cast<int>(r.size()) && p < kMaxPlayers; ++p) {
      ranks[p] = r[p].is_null() ? 0 : r[p].get<int>();
    }
  }
  auto made =
      State::FromBoard(rules, BoardFromJson(pos.at("pits"), pos.at("stores")),
                       pos.at("to_move").get<int>(), active, ranks);
  if (const RulesError* e = std::get_if<RulesError>(&made)) {
    check.Fail("position refused: " + e->message);
    check.AddTo(report);
    return;
  }
  State state = std::get<State>(std::move(made));
  for (const auto& [key, value] : expected.items()) {
    if (kExpectedKeys.count(key) == 0) {
      check.Fail("expected key \"" + key + "\" is not checked by this replay");
    }
  }
  if (expected.contains("legal_before")) {
    check.Expect("legal_before", expected["legal_before"],
                 MovesJson(state.LegalMoves()));
  }
  const json events = expected.value("events", json::array());
  const json& moves = c.at("moves");
  const bool resigns = c.contains("resign") && !c["resign"].is_null();
  const int actions = static_cast<int>(moves.size()) + (resigns ? 1 : 0);
  if (static_cast<int>(events.size()) != actions) {
    check.Fail("expected.events lists " + std::to_string(events.size()) +
               " entries for " + std::to_string(actions) + " actions");
  }
  MoveRecord rec;
  for (int k = 0; k < actions && check.ok(); ++k) {
    check.set_ply(k);
    const json want = k < static_cast<int>(events.size()) ? events[k] : json();
    if (k == static_cast<int>(moves.size())) {  // The resignation.
      const int player = c["resign"].get<int>();
      if (auto error = state.Resign(player, &rec)) {
        check.Fail("resignation refused: " +
                   std::string(MoveErrorMessage(*error)));
        break;
      }
      check.Expect("resigned", want.value("resigned", json(nullptr)), player);
      CheckEvent(check, want, rec, state);
      continue;
    }
    const int pit = moves[k].get<int>();
    const std::vector<int> legal = state.LegalMoves();
    const Board before = state.board();
    const auto error = state.Apply(pit, &rec);
    if (want.contains("illegal")) {  // 1.11: rejected, nothing changes.
      check.Expect("illegal", want["illegal"],
                   error ? json(pit) : json(nullptr));
      check.Expect("legal", want.value("legal", json(nullptr)),
                   MovesJson(legal));
      check.Expect("pits after the illegal move", PitsJson(before),
                   PitsJson(state.board()));
      continue;
    }
    if (error) {
      check.Fail("move " + std::to_string(pit) +
                 " refused: " + std::string(MoveErrorMessage(*error)));
      break;
    }
    CheckEvent(check, want, rec, state);
  }
  if (check.ok()) {
    check.set_ply(-1);
    auto expect = [&](const char* key, const json& got) {
      if (expected.contains(key)) check.Expect(key, expected[key], got);
    };
    expect("pits", PitsJson(state.board()));
    expect("stores", StoresJson(state.board()));
    expect("to_move", ToMoveJson(state));
    expect("terminal", state.is_over());
    expect("legal_next", MovesJson(state.LegalMoves()));
    expect("ranks", RanksJson(state));
    expect("active", ActiveJson(state));
    expect("winner", WinnerJson(state));
    if (expected.contains("end_reason")) {
      const json& want = expected["end_reason"];
      const std::string got(EndReasonName(state.outcome().end_reason));
      check.Expect("end_reason",
                   want.is_null() ? want : json(EngineEndReason(want)),
                   got.empty() ? json(nullptr) : json(got));
    }
  }
  check.AddTo(report);
}

}  // namespace

void ReplayEdgeCases(const json& doc, const std::string& file,
                     ReplayReport& report) {
  for (const json& c : doc.at("cases")) {
    const std::string case_id = c.at("id").get<std::string>();
    const std::string game = c.at("game").get<std::string>();
    const json& expected = c.at("expected");
    // Mancala Basic cases have one expected result; the others one per value.
    std::vector<std::pair<std::string, json>> units;
    if (expected.contains("pits")) {
      units.emplace_back("", expected);
    } else {
      for (const auto& [key, value] : expected.items()) {
        units.emplace_back(key, value);
      }
    }
    for (const auto& [key, want] : units) {
      const std::string id = key.empty() ? case_id : case_id + "[" + key + "]";
      try {
        OptionMap options;
        const json data_options = c.value("options", json::object());
        for (const auto& [name, value] : data_options.items()) {
          AddDataOption(name, value, options);
        }
        if (!key.empty()) AddExpectedKeyOption(key, options);
        // The board size comes from the position.
        const json& pits = c.at("position").at("pits");
        const int players = static_cast<int>(pits.size());
        const std::string row = std::to_string(pits.at(0).size());
        if (game == "mancala_basic") {
          options.emplace("players", std::to_string(players));
          options.emplace("pits", row);
        } else if (game == "congkak") {
          options.emplace("houses", row);
        }
        auto parsed = ParseRules(game, options, players);
        if (const RulesError* e = std::get_if<RulesError>(&parsed)) {
          ++report.skipped;
          report.skipped_reasons.push_back(file + " " + id + ": " + e->message);
          continue;
        }
        ReplayUnit(c, id, want, std::get<Rules>(parsed), file, report);
      } catch (const std::exception& e) {
        ++report.failed;
        report.mismatches.push_back(
            {file, id, -1, std::string("malformed case: ") + e.what()});
      }
    }
  }
}

}  // namespace mancala::engine::conformance::internal
