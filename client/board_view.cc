#include "client/board_view.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <vector>

namespace mancala::cli {
namespace {

std::string Cell(int seeds) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "(%2d)", seeds);
  return buf;
}

std::string Label(int pit) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "  %-2d", pit);
  return buf;
}

std::string SeatName(const v1::Match& match, int seat, int viewer) {
  std::string name = match.seats(seat).display_name();
  return seat == viewer ? "You (" + name + ")" : name;
}

}  // namespace

std::string DrawBoard(const v1::Match& match, int viewer) {
  std::ostringstream out;
  const v1::Board& board = match.board();
  const int seats = board.sides_size();
  if (seats == 2) {
    const int other = 1 - viewer;
    const v1::Side& top = board.sides(other);
    const v1::Side& bottom = board.sides(viewer);
    const int n = top.pits_size();
    const std::string indent(7, ' ');
    out << indent << SeatName(match, other, viewer) << "\n" << indent;
    for (int i = n - 1; i >= 0; --i) out << Label(i);
    out << "\n" << indent;
    for (int i = n - 1; i >= 0; --i) out << Cell(top.pits(i));
    char stores[64];
    std::snprintf(stores, sizeof stores, "[%3d]", top.store());
    out << "\n  " << stores << std::string(4 * n, ' ');
    std::snprintf(stores, sizeof stores, "[%3d]", bottom.store());
    out << stores << "\n" << indent;
    for (int i = 0; i < n; ++i) out << Cell(bottom.pits(i));
    out << "\n" << indent;
    for (int i = 0; i < n; ++i) out << Label(i);
    out << "\n" << indent << SeatName(match, viewer, viewer) << "\n";
    return out.str();
  }
  for (int s = 0; s < seats; ++s) {
    const v1::Side& side = board.sides(s);
    out << (s == match.to_move() ? "> " : "  ") << "seat " << s << " ";
    for (int i = 0; i < side.pits_size(); ++i) out << Cell(side.pits(i));
    char store[32];
    std::snprintf(store, sizeof store, " [%3d]  ", side.store());
    out << store << SeatName(match, s, viewer) << "\n";
  }
  out << "         ";
  for (int i = 0; i < board.sides(0).pits_size(); ++i) out << Label(i);
  out << "\n";
  return out.str();
}

std::string DescribeMove(const v1::Match& match, const v1::Move& move,
                         int viewer) {
  std::ostringstream out;
  out << SeatName(match, move.seat(), viewer);
  if (move.pit() < 0) {
    out << " resigns";
    return out.str();
  }
  out << (move.by_cpu() && match.seats(move.seat()).kind() != v1::Seat::CPU
              ? " (played by the CPU)"
              : "")
      << " plays pit " << move.pit();
  int captured = 0;
  bool extra = false;
  for (const v1::MoveEvent& e : move.events()) {
    if (e.type() == v1::MoveEvent::CAPTURE) captured += e.count();
    if (e.type() == v1::MoveEvent::EXTRA_TURN) extra = true;
  }
  if (captured > 0) out << ", captures " << captured;
  if (extra) out << ", moves again";
  return out.str();
}

std::string EndReasonWords(v1::EndReason reason) {
  // "SIDE_EMPTY" -> "side empty".
  std::string words = v1::EndReason_Name(reason);
  for (char& c : words) {
    c = c == '_'
            ? ' '
            : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return words;
}

std::string DescribeResult(const v1::Match& match, int viewer) {
  std::ostringstream out;
  const v1::Result& r = match.result();
  out << "Game over (" << EndReasonWords(r.end_reason()) << "). ";
  if (match.seats_size() == 2 && viewer >= 0) {
    out << "Score " << r.scores(viewer) << " - " << r.scores(1 - viewer)
        << ": ";
    if (r.winner() < 0) {
      out << "draw.";
    } else {
      out << (r.winner() == viewer ? "you win!" : "you lose.");
    }
    return out.str();
  }
  out << "Ranks:";
  std::vector<int> order(static_cast<std::size_t>(match.seats_size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&r](int a, int b) { return r.ranks(a) < r.ranks(b); });
  for (const int s : order) {
    out << "\n  " << r.ranks(s) << ". " << SeatName(match, s, viewer)
        << " (store " << r.scores(s) << ")";
  }
  return out.str();
}

}  // namespace mancala::cli
