// The match and move the storage benchmarks append: a Kalah match of a
// player against the CPU, and a move about the size of a stored Kalah move
// (events) with a stored reply (a request id's first answer).

#ifndef MANCALA_TESTS_BENCH_BENCH_RECORDS_H_
#define MANCALA_TESTS_BENCH_BENCH_RECORDS_H_

#include <string>

#include "storage/store.h"

namespace mancala::bench {

inline storage::MatchRecord BenchMatch(const std::string& id) {
  storage::MatchRecord m;
  m.id = id;
  m.game = "kalah";
  m.seats = {{storage::SeatRecord::Kind::kPlayer, "p1", 0},
             {storage::SeatRecord::Kind::kCpu, "", 2}};
  m.created_by = "p1";
  return m;
}

// Ply 0: set move.ply (and a request id) before each append.
inline storage::MoveRow BenchMove(const std::string& match_id) {
  storage::MoveRow move;
  move.match_id = match_id;
  move.events = std::string(60, 'e');
  move.reply = std::string(200, 'r');
  return move;
}

}  // namespace mancala::bench

#endif  // MANCALA_TESTS_BENCH_BENCH_RECORDS_H_
