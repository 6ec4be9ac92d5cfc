// Internal to the conformance checker: JSON <-> engine values and the
// per-unit mismatch collector shared by the trace and edge-case replays.
//
// Comparisons are made on JSON values: the engine's value is converted to
// the data's spelling (pits as [[..], ..], to_move null once over, ranks
// null when not given) and compared with ==, so a mismatch message shows
// both sides exactly as the data file writes them.

#ifndef MANCALA_ENGINE_CONFORMANCE_REPLAY_INTERNAL_H_
#define MANCALA_ENGINE_CONFORMANCE_REPLAY_INTERNAL_H_

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "engine/conformance/replay.h"
#include "engine/events.h"
#include "engine/rules.h"
#include "engine/state.h"

namespace mancala::engine::conformance::internal {

using nlohmann::json;

// Mismatches of one unit (a game, or an edge case under one option value).
class UnitCheck {
 public:
  UnitCheck(std::string file, std::string game_id)
      : file_(std::move(file)), game_id_(std::move(game_id)) {}

  void set_ply(int ply) { ply_ = ply; }
  // Records "<what>: expected <expected> got <got>" if they differ.
  void Expect(const std::string& what, const json& expected, const json& got);
  void Fail(const std::string& what);
  // False once a mismatch was found: stop replaying the unit.
  bool ok() const { return found_.empty(); }
  // Adds this unit to the report as passed or failed.
  void AddTo(ReplayReport& report) const;

 private:
  std::string file_;
  std::string game_id_;
  int ply_ = -1;
  std::vector<Mismatch> found_;
};

json PitsJson(const Board& board);
json StoresJson(const Board& board);
json ToMoveJson(const State& state);  // null once over.
json ActiveJson(const State& state);  // Active players, ascending.
json RanksJson(const State& state);   // 0 -> null.
json MovesJson(const std::vector<int>& moves);
// Winner as the edge cases write it: null while not over, "draw", or 0/1.
json WinnerJson(const State& state);

// A board from `pits` ([[..], ..]) and `stores`; throws json errors on a bad
// shape.
Board BoardFromJson(const json& pits, const json& stores);

// The data's end-reason spelling in the engine's ("majority_or_half" is
// "majority").
std::string EngineEndReason(const std::string& data_reason);

// Adds one data option (spec_options of a trace file, options of an edge
// case) to `out` in the engine's spelling: booleans become on/off,
// `repetition: end_collect` becomes `cycle_rule = repetition_ends`,
// `capture_needs_opposite: false` becomes `empty_opposite = seed_to_store`.
void AddDataOption(const std::string& name, const json& value, OptionMap& out);

// Compares the per-move annotations `step` carries (extra_turn, captured,
// relays, sown, finished, grand_slam_nullified, must_feed, swept,
// active_after, pre_sweep, end_reason) with the engine after the move.
// Keys in `checked` are marked as handled.
void CheckAnnotations(UnitCheck& check, const json& step, const MoveRecord& rec,
                      const State& state, std::set<std::string>& checked);

void ReplayTraces(const json& doc, const std::string& file,
                  ReplayReport& report);
void ReplayEdgeCases(const json& doc, const std::string& file,
                     ReplayReport& report);

}  // namespace mancala::engine::conformance::internal

#endif  // MANCALA_ENGINE_CONFORMANCE_REPLAY_INTERNAL_H_
