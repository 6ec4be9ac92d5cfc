// The SQLite store alone under closed-loop appends: `callers` threads, each
// appending moves to its own match with AppendMove (one UPDATE of the match
// and one INSERT of the move per call, as mancalad's SubmitMove writes),
// on a fresh database in `dir` with synchronous=FULL. Used by store_bench
// (group commit against one transaction per move) and by service_bench
// (mancalad against the bare group commit of the same rows, same run).
// Thread-safety: one call at a time per `dir`.

#ifndef MANCALA_TESTS_BENCH_STORE_LOAD_H_
#define MANCALA_TESTS_BENCH_STORE_LOAD_H_

#include <cstdint>
#include <filesystem>
#include <string>

#include "storage/store.h"

namespace mancala::bench {

// A two-player Kalah match "match<i>", and its move at `ply` with about a
// real move's stored events and reply.
storage::MatchRecord LoadMatch(int i);
storage::MoveRow LoadMove(const std::string& match_id, int64_t ply);

struct AppendLoad {
  double appends_per_s = 0;
  double moves_per_batch = 0;
  double wal_bytes_per_move = 0;
  double p50_ms = 0, p99_ms = 0;  // Latency of one AppendMove.
};

// Appends for `seconds` (or, if `moves_each` > 0, exactly that many moves
// per caller); `checkpoint_pages` 0 turns checkpoints off. The folder is
// made and removed. Exits the process if the store fails.
AppendLoad MeasureAppends(const std::filesystem::path& dir, bool group_commit,
                          int callers, double seconds, int moves_each,
                          int checkpoint_pages);

}  // namespace mancala::bench

#endif  // MANCALA_TESTS_BENCH_STORE_LOAD_H_
