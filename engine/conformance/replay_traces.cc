// Trace files: every game replayed from `initial`, compared step by step
// (docs/rules.md 8.1). The last step and the `result` are compared as each file
// family allows:
//   openspiel_kalah_, congkaksolver_: those engines never sweep, so the
//     engine's board before its sweep equals the step, and its final stores
//     equal result.final_totals (store + own pits);
//   openspiel_oware_: on a majority end open_spiel also sweeps (O-D3), so
//     the engine equals result.spec_final_pits/spec_final_stores there;
//   specmodel_: everything, ranks, finish_order and remaining_stones too;
//   stoneshark_basic2p_: board, winner and ranks;
//   stoneshark_kalah_: after StoneShark's early stop (> half) only the
//     board is comparable.

#include <set>
#include <string>

#include "engine/conformance/replay_internal.h"

namespace mancala::engine::conformance::internal {
namespace {

enum class Family {
  kOpenSpielKalah,
  kOpenSpielOware,
  kCongkakSolver,
  kSpecModel,
  kStoneSharkBasic,
  kStoneSharkKalah,
  kOther,  // Compared like specmodel_.
};

Family FamilyOf(const std::string& path) {
  const std::string name = path.substr(path.find_last_of('/') + 1);
  auto starts = [&](const char* prefix) { return name.rfind(prefix, 0) == 0; };
  if (starts("openspiel_kalah_")) return Family::kOpenSpielKalah;
  if (starts("openspiel_oware_")) return Family::kOpenSpielOware;
  if (starts("congkaksolver_")) return Family::kCongkakSolver;
  if (starts("specmodel_")) return Family::kSpecModel;
  if (starts("stoneshark_basic2p_")) return Family::kStoneSharkBasic;
  if (starts("stoneshark_kalah_")) return Family::kStoneSharkKalah;
  return Family::kOther;
}

// Step keys that are inputs or another engine's own notes, not engine facts.
const std::set<std::string> kStepInputs = {"mover", "house", "legal_houses",
                                           "os_action", "engine_cond"};
const std::set<std::string> kResultNotes = {"note", "board_swept", "cond",
                                            "how"};

// Winner from open_spiel's returns: +1 / -1 / 0.
json WinnerFromReturns(const json& returns) {
  const double r0 = returns.at(0).get<double>();
  const double r1 = returns.at(1).get<double>();
  if (r0 == r1) return -1;
  return r0 > r1 ? 0 : 1;
}

json StoresOf(const State& s) { return StoresJson(s.board()); }

void CheckResult(UnitCheck& check, Family family, const json& result,
                 const State& state, int steps) {
  check.set_ply(-1);
  const int winner = state.outcome().winner;
  for (const auto& [key, want] : result.items()) {
    if (kResultNotes.count(key) != 0) continue;
    if (key == "terminal") {
      check.Expect("result.terminal", want, state.is_over());
    } else if (key == "num_moves") {
      check.Expect("result.num_moves", want, steps);
    } else if (key == "final_totals" || key == "spec_final_stores") {
      check.Expect("result." + key, want, StoresOf(state));
    } else if (key == "spec_final_pits") {
      check.Expect("result.spec_final_pits", want, PitsJson(state.board()));
    } else if (key == "final_stores") {
      // open_spiel Oware's stores include its majority sweep.
      const bool os_majority =
          family == Family::kOpenSpielOware &&
          result.value("end_reason", "") == "majority_or_half";
      if (!os_majority)
        check.Expect("result.final_stores", want, StoresOf(state));
    } else if (key == "returns") {
      check.Expect("winner (from result.returns)", WinnerFromReturns(want),
                   winner);
    } else if (key == "winner") {
      check.Expect("result.winner", want,
                   winner < 0 ? json(nullptr) : json(winner));
    } else if (key == "end_reason") {
      if (family != Family::kOpenSpielKalah) {  // Kalah's is prose.
        check.Expect("result.end_reason",
                     EngineEndReason(want.get<std::string>()),
                     std::string(EndReasonName(state.outcome().end_reason)));
      }
    } else if (key == "ranks") {
      json ranks = json::array();
      for (int p = 0; p < state.rules().players; ++p) {
        ranks.push_back(state.outcome().ranks[p]);
      }
      check.Expect("result.ranks", want, ranks);
    } else if (key == "finish_order") {
      check.Expect("result.finish_order", want,
                   MovesJson(state.outcome().finish_order));
    } else if (key == "remaining_stones") {
      json left = json::array();
      for (int p = 0; p < state.rules().players; ++p) {
        left.push_back(state.outcome().remaining[p]);
      }
      check.Expect("result.remaining_stones", want, left);
    } else if (key != "engine_end") {
      check.Fail("result." + key + " is not checked by this replay");
    }
  }
}

void ReplayGame(const json& game, int index, Family family, const Rules& rules,
                const std::string& file, ReplayReport& report) {
  UnitCheck check(file, "game " + std::to_string(index));
  const json& initial = game.at("initial");
  auto made = State::FromBoard(
      rules, BoardFromJson(initial.at("pits"), initial.at("stores")),
      initial.at("to_move").get<int>());
  if (const RulesError* e = std::get_if<RulesError>(&made)) {
    check.Fail("initial position refused: " + e->message);
    check.AddTo(report);
    return;
  }
  State state = std::get<State>(std::move(made));
  const json& result = game.at("result");
  // StoneShark's Kalah stops as soon as a store holds more than half.
  const bool early_stop =
      family == Family::kStoneSharkKalah &&
      result.value("engine_end", "").rfind("early_majority", 0) == 0;
  const json& steps = game.at("steps");
  const int count = static_cast<int>(steps.size());
  MoveRecord rec;
  for (int k = 0; k < count && check.ok(); ++k) {
    const json& step = steps[k];
    check.set_ply(k);
    check.Expect("mover", step.at("mover"), ToMoveJson(state));
    check.Expect("legal_houses", step.at("legal_houses"),
                 MovesJson(state.LegalMoves()));
    if (!check.ok()) break;
    const int house = step.at("house").get<int>();
    if (auto error = state.Apply(house, &rec)) {
      check.Fail("move " + std::to_string(house) +
                 " refused: " + std::string(MoveErrorMessage(*error)));
      break;
    }
    std::set<std::string> checked = kStepInputs;
    CheckAnnotations(check, step, rec, state, checked);
    checked.insert({"pits", "stores", "to_move", "terminal"});

    const bool last = k + 1 == count;
    const Board* board = &state.board();
    json want_pits = step.at("pits");
    json want_stores = step.at("stores");
    if (last && state.is_over() &&
        (family == Family::kOpenSpielKalah ||
         family == Family::kCongkakSolver || early_stop)) {
      board = &state.outcome().pre_sweep;  // They do not sweep.
    }
    if (last && family == Family::kOpenSpielOware &&
        result.value("end_reason", "") == "majority_or_half") {
      want_pits = result.at("spec_final_pits");  // O-D3: no sweep.
      want_stores = result.at("spec_final_stores");
    }
    check.Expect("pits", want_pits, PitsJson(*board));
    check.Expect("stores", want_stores, StoresJson(*board));
    if (!(last && early_stop)) {
      check.Expect("to_move", step.at("to_move"), ToMoveJson(state));
      check.Expect("terminal", step.at("terminal"), state.is_over());
    }
    for (const auto& [key, value] : step.items()) {
      if (checked.count(key) == 0) {
        check.Fail("step key \"" + key + "\" is not checked by this replay");
      }
    }
  }
  if (check.ok() && !early_stop) {
    if (!state.is_over()) {
      check.set_ply(-1);
      check.Fail("the game is not over after the last step");
    }
    CheckResult(check, family, result, state, count);
  }
  check.AddTo(report);
}

}  // namespace

void ReplayTraces(const json& doc, const std::string& file,
                  ReplayReport& report) {
  const json& games = doc.at("games");
  const std::string game_name = doc.at("game").get<std::string>();
  OptionMap options;
  int players = 2;
  if (!games.empty()) {
    players = static_cast<int>(games[0].at("initial").at("pits").size());
  }
  players = doc.value("players", players);
  const json spec_options = doc.value("spec_options", json::object());
  for (const auto& [name, value] : spec_options.items()) {
    AddDataOption(name, value, options);
  }
  if (game_name == "mancala_basic" && !games.empty()) {
    options["players"] = std::to_string(players);
  }
  auto parsed = ParseRules(game_name, options, players);
  if (const RulesError* e = std::get_if<RulesError>(&parsed)) {
    report.skipped += static_cast<int>(games.size());
    report.skipped_reasons.push_back(file + ": " + e->message);
    return;
  }
  const Rules rules = std::get<Rules>(parsed);
  const Family family = FamilyOf(file);
  for (int i = 0; i < static_cast<int>(games.size()); ++i) {
    try {
      ReplayGame(games[i], i, family, rules, file, report);
    } catch (const std::exception& e) {
      ++report.failed;
      report.mismatches.push_back({file, "game " + std::to_string(i), -1,
                                   std::string("malformed game: ") + e.what()});
    }
  }
}

}  // namespace mancala::engine::conformance::internal
