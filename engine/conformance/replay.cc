// ReplayFile: reads one conformance file, recognises its kind by content and
// hands it to the trace or edge-case replay; plus the JSON conversions both
// share.

#include "engine/conformance/replay.h"

#include <fstream>
#include <sstream>

#include "engine/conformance/replay_internal.h"

namespace mancala::engine::conformance {
namespace internal {

void UnitCheck::Expect(const std::string& what, const json& expected,
                       const json& got) {
  if (expected == got) return;
  Fail(what + ": expected " + expected.dump() + " got " + got.dump());
}

void UnitCheck::Fail(const std::string& what) {
  found_.push_back({file_, game_id_, ply_, what});
}

void UnitCheck::AddTo(ReplayReport& report) const {
  if (found_.empty()) {
    ++report.passed;
    return;
  }
  ++report.failed;
  report.mismatches.insert(report.mismatches.end(), found_.begin(),
                           found_.end());
}

json PitsJson(const Board& board) {
  json pits = json::array();
  for (int p = 0; p < board.players; ++p) {
    json row = json::array();
    for (int i = 0; i < board.pits_per_player; ++i) {
      row.push_back(board.pits[p][i]);
    }
    pits.push_back(std::move(row));
  }
  return pits;
}

json StoresJson(const Board& board) {
  json stores = json::array();
  for (int p = 0; p < board.players; ++p) stores.push_back(board.stores[p]);
  return stores;
}

json ToMoveJson(const State& state) {
  return state.is_over() ? json(nullptr) : json(state.to_move());
}

json ActiveJson(const State& state) {
  json active = json::array();
  for (int p = 0; p < state.rules().players; ++p) {
    if (state.is_active(p)) active.push_back(p);
  }
  return active;
}

json RanksJson(const State& state) {
  json ranks = json::array();
  for (int p = 0; p < state.rules().players; ++p) {
    const int r = state.outcome().ranks[p];
    ranks.push_back(r == 0 ? json(nullptr) : json(r));
  }
  return ranks;
}

json MovesJson(const std::vector<int>& moves) {
  json out = json::array();
  for (int m : moves) out.push_back(m);
  return out;
}

json WinnerJson(const State& state) {
  if (!state.is_over()) return nullptr;
  if (state.outcome().winner < 0) return "draw";
  return state.outcome().winner;
}

Board BoardFromJson(const json& pits, const json& stores) {
  Board b;
  b.players = static_cast<int>(pits.size());
  b.pits_per_player = b.players > 0 ? static_cast<int>(pits.at(0).size()) : 0;
  if (b.players < 2 || b.players > kMaxPlayers || b.pits_per_player < 1 ||
      b.pits_per_player > kMaxPits ||
      static_cast<int>(stores.size()) != b.players) {
    throw std::runtime_error("board shape not supported: " + pits.dump());
  }
  for (int p = 0; p < b.players; ++p) {
    if (static_cast<int>(pits.at(p).size()) != b.pits_per_player) {
      throw std::runtime_error("rows of different lengths: " + pits.dump());
    }
    for (int i = 0; i < b.pits_per_player; ++i) {
      b.pits[p][i] = pits.at(p).at(i).get<int>();
    }
    b.stores[p] = stores.at(p).get<int>();
  }
  return b;
}

std::string EngineEndReason(const std::string& data_reason) {
  if (data_reason == "majority_or_half") return "majority";
  return data_reason;
}

void AddDataOption(const std::string& name, const json& value, OptionMap& out) {
  if (name == "repetition") {  // tests/data/README.md name map.
    const std::string v = value.get<std::string>();
    out["cycle_rule"] = v == "end_collect" ? "repetition_ends" : v;
    return;
  }
  if (name == "capture_needs_opposite") {  // C.7b, DECISION C-D3.
    out["empty_opposite"] = value.get<bool>() ? "seed_stays" : "seed_to_store";
    return;
  }
  if (value.is_boolean()) {
    out[name] = value.get<bool>() ? "on" : "off";
  } else if (value.is_number_integer()) {
    out[name] = std::to_string(value.get<long>());
  } else if (value.is_string()) {
    out[name] = value.get<std::string>();
  } else {
    out[name] = value.dump();  // ParseRules will name it.
  }
}

void CheckAnnotations(UnitCheck& check, const json& step, const MoveRecord& rec,
                      const State& state, std::set<std::string>& checked) {
  const int players = state.rules().players;
  auto has = [&](const char* key) {
    if (!step.contains(key)) return false;
    checked.insert(key);
    return true;
  };
  if (has("extra_turn")) {
    check.Expect("extra_turn", step["extra_turn"], rec.extra_turn);
  }
  if (has("captured")) check.Expect("captured", step["captured"], rec.captured);
  if (has("relays")) check.Expect("relays", step["relays"], rec.relays);
  if (has("sown")) check.Expect("sown", step["sown"], rec.sown);
  if (has("finished")) check.Expect("finished", step["finished"], rec.finished);
  if (has("grand_slam_nullified")) {
    check.Expect("grand_slam_nullified", step["grand_slam_nullified"],
                 rec.grand_slam_nullified);
  }
  if (has("must_feed")) {
    check.Expect("must_feed", step["must_feed"], rec.must_feed);
  }
  if (has("swept")) {
    json swept = json::array();
    for (int p = 0; p < players; ++p) swept.push_back(rec.swept[p]);
    check.Expect("swept", step["swept"], swept);
  }
  if (has("active_after")) {
    check.Expect("active_after", step["active_after"], ActiveJson(state));
  }
  if (has("pre_sweep")) {
    const Board& pre = state.outcome().pre_sweep;
    check.Expect("pre_sweep.pits", step["pre_sweep"].at("pits"),
                 state.is_over() ? PitsJson(pre) : json(nullptr));
    check.Expect("pre_sweep.stores", step["pre_sweep"].at("stores"),
                 state.is_over() ? StoresJson(pre) : json(nullptr));
  }
  if (has("end_reason")) {
    const json& want = step["end_reason"];
    const std::string got(EndReasonName(state.outcome().end_reason));
    check.Expect("end_reason",
                 want.is_null() ? want : json(EngineEndReason(want)),
                 got.empty() ? json(nullptr) : json(got));
  }
}

}  // namespace internal

ReplayReport ReplayFile(const std::string& path) {
  ReplayReport report;
  auto fail = [&](const std::string& what) {
    ++report.failed;
    report.mismatches.push_back({path, "file", -1, what});
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fail("cannot open the file");
    return report;
  }
  internal::json doc;
  try {
    in >> doc;
  } catch (const std::exception& e) {
    fail(std::string("invalid JSON: ") + e.what());
    return report;
  }
  try {
    if (doc.is_object() && doc.contains("cases")) {
      internal::ReplayEdgeCases(doc, path, report);
    } else if (doc.is_object() && doc.contains("games")) {
      internal::ReplayTraces(doc, path, report);
    } else {
      fail("neither a trace file (\"games\") nor edge cases (\"cases\")");
    }
  } catch (const std::exception& e) {
    fail(std::string("malformed file: ") + e.what());
  }
  return report;
}

std::string FormatReport(const ReplayReport& report) {
  std::ostringstream out;
  out << report.passed << " passed, " << report.failed << " failed, "
      << report.skipped << " skipped\n";
  for (const Mismatch& m : report.mismatches) {
    out << m.file << " " << m.game_id;
    if (m.ply >= 0) out << " ply " << m.ply;
    out << ": " << m.what << "\n";
  }
  for (const std::string& reason : report.skipped_reasons) {
    out << "skipped: " << reason << "\n";
  }
  return out.str();
}

}  // namespace mancala::engine::conformance
