// Draws a match in the terminal as its players see it.
//
// Two players: the opponent's pits on top, numbered right to left, the
// viewer's pits below, left to right; the opponent's store on the left end,
// the viewer's on the right (the usual board, sowing counter-clockwise).
// Three or four players: one line per seat in turn order.

#ifndef MANCALA_SERVICES_CLI_BOARD_VIEW_H_
#define MANCALA_SERVICES_CLI_BOARD_VIEW_H_

#include <string>

#include "mancala/v1/match_service.pb.h"

namespace mancala::cli {

// The board seen from `viewer_seat`, with pit numbers and seat names.
std::string DrawBoard(const v1::Match& match, int viewer_seat);

// One line describing a recorded move, e.g. "CPU (level 2) plays pit 3:
// captures 5" or "You resign".
std::string DescribeMove(const v1::Match& match, const v1::Move& move,
                         int viewer_seat);

// The result line(s) of a finished match.
// The end reason in words for people: SIDE_EMPTY -> "side empty".
std::string EndReasonWords(v1::EndReason reason);
std::string DescribeResult(const v1::Match& match, int viewer_seat);

}  // namespace mancala::cli

#endif  // MANCALA_SERVICES_CLI_BOARD_VIEW_H_
