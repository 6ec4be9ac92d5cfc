#include "engine/cpu/alphabeta.h"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "engine/cpu/evaluation.h"
#include "engine/cpu/kalah_endgame.h"
#include "engine/cpu/kalah_position.h"
#include "engine/cpu/root_moves.h"
#include "engine/cpu/transposition_table.h"

namespace mancala::engine::cpu {
namespace {

// The position the search plays on in every game but Kalah: a State.
// (Kalah, always 6 pits and two players, plays on the compact
// KalahPosition, below; so no move here keeps the turn by the Kalah rule
// and no endgame table covers a position.)
class StatePosition {
 public:
  StatePosition(const State& s, const SearchLimits& limits)
      : s_(s), deep_(limits.deep_evaluation) {}

  std::uint32_t LegalMask() const { return s_.LegalMask(); }
  int to_move() const { return s_.to_move(); }
  bool IsFinalFor(int me) const { return cpu::IsFinalFor(s_, me); }
  static constexpr bool kalah() { return false; }
  static constexpr bool KeepsTurn(int /*pit*/) { return false; }
  void Play(int pit, StatePosition& child) const {
    child.s_ = s_;
    child.s_.Apply(pit);
  }
  int Evaluate(int me) const {
    return deep_ ? cpu::EvaluateDeep(s_, me) : cpu::Evaluate(s_, me);
  }
  std::uint64_t Key() const { return PositionKey(s_); }
  static constexpr bool EndgameValue(const KalahEndgame& /*table*/, int /*me*/,
                                     int& /*value*/) {
    return false;
  }

 private:
  State s_;
  bool deep_;  // EvaluateDeep (level 4) rather than Evaluate.
};

// KalahPosition with the members the search asks for.
class CompactPosition : public KalahPosition {
 public:
  // (Kalah has no deep terms: EvaluateDeep is Evaluate there.)
  CompactPosition(const State& s, const SearchLimits& /*limits*/)
      : KalahPosition(s) {}

  // Two players: a resignation ends the game before any search.
  bool IsFinalFor(int /*me*/) const { return is_over(); }
  static constexpr bool kalah() { return true; }
  void Play(int pit, CompactPosition& child) const {
    KalahPosition::Play(pit, child);
  }
  // If `table` covers this position: true, and its exact value for `me`.
  bool EndgameValue(const KalahEndgame& table, int me, int& value) const {
    if (PitSeeds() > kKalahEndgameSeeds) return false;
    value = MarginValue(EndgameMargin(table, me));
    return true;
  }
};

template <class Position>
class Searcher {
 public:
  Searcher(const State& root, const SearchLimits& limits)
      : root_(root),
        limits_(limits),
        me_(root.to_move()),
        tt_(limits.tt_log2) {}

  SearchResult Run();

 private:
  int Search(const Position& s, int depth, int alpha, int beta, int ext);
  // A lost root (limits_.play_lost_for_errors): the opponent's replies in
  // its next turn after `c` (a root move played) that leave the root
  // player not lost any more, as a search of `depth` plies from the root
  // tells; with the root player still to move (an extra turn), the most
  // its moves leave (up to `extensions` of them). 0 if a limit ends it.
  int Escapes(const Position& c, int depth, int ext);
  // The legal moves of `s` in search order: `first` (if legal), then in
  // Kalah the moves that give an extra turn, then by history, then pits
  // nearer the store first.
  int OrderMoves(const Position& s, int first,
                 std::array<int, kMaxPits>& out) const;

  const State& root_;
  const SearchLimits limits_;
  const int me_;
  TranspositionTable tt_;
  std::array<std::array<std::uint64_t, kMaxPits>, kMaxPlayers> history_{};
  NodeCounter counter_{limits_};  // Armed after the depth-1 iteration.
  bool depth_cut_ = false;        // Some node was cut by depth (or by the TT).
};

template <class Position>
int Searcher<Position>::OrderMoves(const Position& s, int first,
                                   std::array<int, kMaxPits>& out) const {
  const std::uint32_t mask = s.LegalMask();
  const int n = root_.rules().pits;
  const auto& hist = history_[s.to_move()];
  int count = 0;
  if (first >= 0 && (mask >> first & 1u)) out[count++] = first;
  // Kalah: moves that keep the turn next (a third fewer positions to the
  // same depth, measured on 40 positions at depth 12).
  const bool kalah = s.kalah();
  int start = count;
  if (kalah) {
    for (int i = n - 1; i >= 0; --i) {
      if ((mask >> i & 1u) && i != first && s.KeepsTurn(i)) {
        out[count++] = i;
      }
    }
    start = count;
  }
  for (int i = n - 1; i >= 0; --i) {
    if ((mask >> i & 1u) && i != first && !(kalah && s.KeepsTurn(i))) {
      out[count++] = i;
    }
  }
  // The rest by history, stable (ties keep nearer-the-store first).
  for (int a = start + 1; a < count; ++a) {
    const int pit = out[a];
    int b = a;
    while (b > start && hist[out[b - 1]] < hist[pit]) {
      out[b] = out[b - 1];
      --b;
    }
    out[b] = pit;
  }
  return count;
}

template <class Position>
int Searcher<Position>::Search(const Position& s, int depth, int alpha,
                               int beta, int ext) {
  const KalahEndgame* endgame = limits_.kalah_endgame;
  int exact;
  if (endgame != nullptr && s.EndgameValue(*endgame, me_, exact)) {
    return exact;  // No depth was cut here.
  }
  if (depth <= 0) {
    depth_cut_ = true;
    return s.Evaluate(me_);
  }
  // Nodes one ply above the horizon, the most numerous, skip the table: a
  // probe there is mostly a cache miss that saves little (a quarter less
  // time to the same depth for 5% more positions, measured in Kalah).
  const bool use_tt = depth > 1;
  const std::uint64_t key = use_tt ? s.Key() : 0;
  int tt_move = -1;
  if (const TtEntry* e = use_tt ? tt_.Probe(key) : nullptr) {
    tt_move = e->move;
    if (e->depth >= depth) {
      const int v = e->value;
      if (e->bound == Bound::kExact ||
          (e->bound == Bound::kLower && v >= beta) ||
          (e->bound == Bound::kUpper && v <= alpha)) {
        depth_cut_ = true;
        return v;
      }
    }
  }
  std::array<int, kMaxPits> moves;
  const int count = OrderMoves(s, tt_move, moves);
  const bool maximizing = s.to_move() == me_;
  int best = maximizing ? -kInfinity : kInfinity;
  int best_move = moves[0];
  int a = alpha;
  int b = beta;
  Position child = s;
  for (int k = 0; k < count; ++k) {
    const int pit = moves[k];
    s.Play(pit, child);
    counter_.Count();
    if (counter_.aborted()) return 0;
    int v;
    if (child.IsFinalFor(me_)) {
      v = child.Evaluate(me_);
    } else {
      // The same turn goes on without using depth (up to `extensions`).
      const bool extend =
          child.to_move() == s.to_move() && ext < limits_.extensions;
      const int d = extend ? depth : depth - 1;
      const int e = extend ? ext + 1 : ext;
      if (k == 0) {
        v = Search(child, d, a, b, e);
      } else if (maximizing) {
        // Principal-variation search: a later move is first only asked
        // whether it beats the best so far (a null window), and searched
        // with the whole window only if it does.
        v = Search(child, d, a, a + 1, e);
        if (v > a && v < b && !counter_.aborted())
          v = Search(child, d, a, b, e);
      } else {
        v = Search(child, d, b - 1, b, e);
        if (v < b && v > a && !counter_.aborted())
          v = Search(child, d, a, b, e);
      }
    }
    if (counter_.aborted()) return 0;
    if (maximizing ? v > best : v < best) {
      best = v;
      best_move = pit;
      if (maximizing) {
        a = std::max(a, v);
      } else {
        b = std::min(b, v);
      }
      if (a >= b) {
        history_[s.to_move()][pit] += static_cast<std::uint64_t>(depth * depth);
        break;
      }
    }
  }
  const Bound bound = best <= alpha  ? Bound::kUpper
                      : best >= beta ? Bound::kLower
                                     : Bound::kExact;
  if (use_tt) tt_.Store(key, depth, best, bound, best_move);
  return best;
}

template <class Position>
int Searcher<Position>::Escapes(const Position& c, int depth, int ext) {
  if (c.IsFinalFor(me_)) return 0;
  std::array<int, kMaxPits> moves;
  const int count = OrderMoves(c, -1, moves);
  Position next = c;
  int escapes = 0;
  for (int k = 0; k < count; ++k) {
    c.Play(moves[k], next);
    counter_.Count();
    if (counter_.aborted()) return 0;
    if (c.to_move() == me_) {
      // An extra turn: the opponent's turn comes after the best of them.
      if (ext < limits_.extensions) {
        escapes = std::max(escapes, Escapes(next, depth, ext + 1));
      }
      continue;
    }
    // Not lost after this reply: the search finds a value above the lost
    // range (a null window at its edge answers that).
    const int v = next.IsFinalFor(me_) ? next.Evaluate(me_)
                                       : Search(next, depth - 2, -kDecidedValue,
                                                -kDecidedValue + 1, 0);
    if (counter_.aborted()) return 0;
    escapes += v > -kDecidedValue ? 1 : 0;
  }
  return escapes;
}

template <class Position>
SearchResult Searcher<Position>::Run() {
  SearchResult result;
  RootMoves root(root_, limits_.seed);
  result.move = root.first();
  if (root.size() == 1) return result;

  const int max_depth = std::clamp(limits_.max_depth, 1, kMaxSearchDepth);
  const Position start(root_, limits_);
  Position child = start;
  bool lost = false;  // The last completed iteration found every move lost.
  for (int depth = 1; depth <= max_depth; ++depth) {
    if (depth == 2) counter_.Arm();  // Limits apply from depth 2 on.
    depth_cut_ = false;
    root.BeginIteration();
    for (std::size_t k = 0; k < root.size(); ++k) {
      start.Play(root.move(k), child);
      counter_.Count();
      if (counter_.aborted()) break;
      // The window starts one below the best value so far, so a move worth
      // as much gets its exact value and can be told apart as a tie.
      const int low = root.has_best() ? root.best_value() - 1 : -kInfinity;
      int v;
      if (child.IsFinalFor(me_)) {
        v = child.Evaluate(me_);
      } else if (child.to_move() == me_ && limits_.extensions > 0 &&
                 depth > 1) {
        // An extra turn (not in the depth-1 iteration, which must stay
        // one position per move).
        v = Search(child, depth, low, kInfinity, 1);
      } else {
        v = Search(child, depth - 1, low, kInfinity, 0);
      }
      if (counter_.aborted()) break;
      root.Record(k, v);
    }
    if (counter_.aborted()) {
      result.cut_short = true;
      // The iteration cut short still ranks the moves it finished: the
      // previous best came first, and a later move recorded above it
      // beat it at the new depth, so its best is never worse informed.
      // (A lost root stays lost: the choice by escapes stands.)
      if (root.has_best() && !lost) {
        result.value = root.best_value();
        result.move = root.EndIteration();
      }
      break;
    }
    result.value = root.best_value();
    // (The depth-1 iteration counts escapes only if it searched the whole
    // tree, the endgame table's exact values: it must otherwise stay one
    // position per move.)
    const bool was_lost = lost;
    lost = limits_.play_lost_for_errors && (depth > 1 || !depth_cut_) &&
           result.value <= -kDecidedValue;
    if (lost) {
      counter_.Arm();
      // Every move loses against the best replies the search sees: play
      // the one that leaves the opponent the most replies that let the
      // game go (issue 31), the smallest loss among equals.
      const bool cut = depth_cut_;
      std::vector<int> escapes(root.size());
      for (std::size_t k = 0; k < root.size() && !counter_.aborted(); ++k) {
        start.Play(root.move(k), child);
        counter_.Count();
        escapes[k] = Escapes(child, depth, child.to_move() == me_ ? 1 : 0);
      }
      depth_cut_ = cut;
      if (counter_.aborted()) {
        // Cut short: the last choice by escapes stands, if there was one.
        if (!was_lost) result.move = root.EndIteration();
        result.cut_short = true;
        break;
      }
      result.move = root.EndLostIteration(escapes);
    } else {
      result.move = root.EndIteration();
    }
    result.depth = depth;
    // A decided result does not stop the deepening: its margin still
    // counts (evaluation.h). Only a tree searched to its ends does.
    if (!depth_cut_) break;
  }
  result.nodes = counter_.nodes();
  return result;
}

}  // namespace

SearchResult AlphaBetaSearch(const State& state, const SearchLimits& limits) {
  if (CompactPosition::Supports(state.rules())) {
    return Searcher<CompactPosition>(state, limits).Run();
  }
  return Searcher<StatePosition>(state, limits).Run();
}

}  // namespace mancala::engine::cpu
