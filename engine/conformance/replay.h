// Checks the golden data of tests/data against the engine.
//
// A trace file (`*_playthrough.json`, `*_random*.json`) is a list of games
// played by another engine (or the rules model): each game is replayed from
// its `initial` position with the file's `spec_options`, comparing every
// step as docs/rules.md 8.1 and tests/data/README.md say for the file's family
// (the file name's prefix: openspiel_kalah_, openspiel_oware_,
// congkaksolver_, specmodel_, stoneshark_basic2p_, stoneshark_kalah_).
// edge_cases.json holds hand-made positions: each case is set up with
// State::FromBoard, its moves (and resignation) applied, and the result
// compared with `expected[<option value>]` for every option value listed.
//
// Thread-safety: ReplayFile is reentrant.

#ifndef MANCALA_ENGINE_CONFORMANCE_REPLAY_H_
#define MANCALA_ENGINE_CONFORMANCE_REPLAY_H_

#include <string>
#include <vector>

namespace mancala::engine::conformance {

struct Mismatch {
  std::string file;
  std::string game_id;  // e.g. "game 17" or "K05[any_side_empty]".
  int ply = -1;         // 0-based step, -1 if not step-specific.
  std::string what;     // "pits: expected [[..]] got [[..]]".
};

struct ReplayReport {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  std::vector<Mismatch> mismatches;
  std::vector<std::string> skipped_reasons;
};

// Checks one trace file or edge_cases.json (detected by content) against the
// engine, as tests/data/README.md and docs/rules.md 8.1 say. A "unit"
// is one game of a trace file or one (case, option value) pair of
// edge_cases.json; a unit fails at its first step with a mismatch (every
// mismatch of that step is listed) and the rest of it is not replayed.
// Unreadable/invalid JSON -> one failure with a message, never a crash. A
// unit the engine cannot run (options it does not accept) is skipped, with
// the reason in skipped_reasons.
ReplayReport ReplayFile(const std::string& path);

// One line per mismatch, "file game_id ply N: what", for test logs and the
// command line.
std::string FormatReport(const ReplayReport& report);

}  // namespace mancala::engine::conformance

#endif  // MANCALA_ENGINE_CONFORMANCE_REPLAY_H_
