#include "engine/cpu/kalah_endgame.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <limits>
#include <mutex>
#include <thread>

namespace mancala::engine::cpu {
namespace {

constexpr std::int8_t kUnknown = std::numeric_limits<std::int8_t>::min();
constexpr int kMaxN = 64;
constexpr int kMaxK = 13;

// Binomial coefficients C(n, k), n < kMaxN, k < kMaxK (0 when k > n).
struct Binomials {
  std::array<std::array<std::size_t, kMaxK>, kMaxN> c{};
  constexpr Binomials() {
    for (int n = 0; n < kMaxN; ++n) {
      c[n][0] = 1;
      for (int k = 1; k < kMaxK && k <= n; ++k) {
        c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
      }
    }
  }
};
constexpr Binomials kBinomials;

std::size_t Choose(int n, int k) { return kBinomials.c[n][k]; }

}  // namespace

KalahEndgameTable::KalahEndgameTable(EndRule end_rule, int max_seeds)
    : end_rule_(end_rule),
      max_seeds_(std::clamp(max_seeds, 0, kMaxN - kCells - 1)) {
  const auto start = std::chrono::steady_clock::now();
  values_.assign(Choose(max_seeds_ + kCells, kCells), kUnknown);
  Cells cells{};
  for (int seeds = 0; seeds <= max_seeds_; ++seeds) {
    SolveAll(cells, 0, seeds, seeds);
  }
  const std::chrono::duration<double> took =
      std::chrono::steady_clock::now() - start;
  build_seconds_ = took.count();
}

std::size_t KalahEndgameTable::Index(const Cells& cells, int seeds) const {
  // Compositions with fewer seeds come first; within one count, the bar
  // positions (stars and bars) ranked by the combinatorial number system.
  std::size_t index = Choose(seeds + kCells - 1, kCells);
  int prefix = 0;
  for (int j = 0; j + 1 < kCells; ++j) {
    prefix += cells[j];
    index += Choose(prefix + j, j + 1);
  }
  return index;
}

void KalahEndgameTable::SolveAll(Cells& cells, int from, int left, int seeds) {
  if (from == kCells - 1) {
    cells[from] = left;
    Solve(cells, seeds);
    return;
  }
  for (int k = 0; k <= left; ++k) {
    cells[from] = k;
    SolveAll(cells, from + 1, left - k, seeds);
  }
}

int KalahEndgameTable::Solve(const Cells& cells, int seeds) {
  std::int8_t& slot = values_[Index(cells, seeds)];
  if (slot != kUnknown) return slot;
  int mine = 0;
  int theirs = 0;
  for (int i = 0; i < kPits; ++i) {
    mine += cells[i];
    theirs += cells[kPits + i];
  }
  // Positions the rules have already ended (K.8, K.8'): the sweep (K.9).
  // The engine never asks for them; they are filled for completeness.
  if (mine == 0 || (end_rule_ == EndRule::kAnySideEmpty && theirs == 0)) {
    slot = static_cast<std::int8_t>(mine - theirs);
    return slot;
  }
  // The ring from the mover's side (K.3): its pits 0..5, its store 6, the
  // other's pits 7..12; the other's store is skipped.
  constexpr int kRing = 2 * kPits + 1;
  constexpr int kStore = kPits;
  int best = std::numeric_limits<int>::min();
  for (int pit = 0; pit < kPits; ++pit) {
    const int hand = cells[pit];
    if (hand == 0) continue;
    std::array<int, kRing> ring{};
    for (int i = 0; i < kPits; ++i) {
      ring[i] = cells[i];
      ring[kStore + 1 + i] = cells[kPits + i];
    }
    ring[pit] = 0;
    const int laps = hand / kRing;
    for (int& r : ring) r += laps;  // The origin is sown too (K.3).
    for (int k = 1; k <= hand % kRing; ++k) ++ring[(pit + k) % kRing];
    const int last = (pit + hand) % kRing;
    if (last < kPits && ring[last] == 1) {
      const int opposite = 2 * kPits - last;  // 1.5, in ring positions.
      if (ring[opposite] > 0) {               // K.5; else K.6.
        ring[kStore] += ring[opposite] + 1;
        ring[opposite] = 0;
        ring[last] = 0;
      }
    }
    const int gain = ring[kStore];
    const bool extra_turn = last == kStore;  // K.4.
    Cells next{};
    int next_mine = 0;
    int next_theirs = 0;
    for (int i = 0; i < kPits; ++i) {
      next[i] = ring[i];
      next[kPits + i] = ring[kStore + 1 + i];
      next_mine += next[i];
      next_theirs += next[kPits + i];
    }
    const bool over = end_rule_ == EndRule::kMoverEmpty
                          ? (extra_turn ? next_mine : next_theirs) == 0
                          : next_mine == 0 || next_theirs == 0;
    int value;
    if (over) {
      value = gain + next_mine - next_theirs;  // K.9.
    } else if (extra_turn) {
      value = gain + Solve(next, seeds - gain);
    } else {
      Cells swapped{};
      for (int i = 0; i < kPits; ++i) {
        swapped[i] = next[kPits + i];
        swapped[kPits + i] = next[i];
      }
      value = gain - Solve(swapped, seeds - gain);
    }
    best = std::max(best, value);
  }
  slot = static_cast<std::int8_t>(best);
  return best;
}

std::optional<int> KalahEndgameTable::Lookup(const State& state) const {
  const Board& b = state.board();
  const int me = state.to_move();
  Cells cells;
  int seeds = 0;
  for (int i = 0; i < kPits; ++i) {
    cells[i] = b.pits[me][i];
    cells[kPits + i] = b.pits[1 - me][i];
    seeds += cells[i] + cells[kPits + i];
  }
  if (seeds > max_seeds_) return std::nullopt;
  return values_[Index(cells, seeds)];
}

namespace {

// One table per end rule (K.8, K.8').
struct Slot {
  std::once_flag built;
  std::once_flag started;
  std::atomic<const KalahEndgameTable*> table{nullptr};
};

Slot* SlotFor(const Rules& rules) {
  if (rules.game != Game::kKalah || rules.players != 2 || rules.pits != 6) {
    return nullptr;
  }
  static Slot slots[2];
  return &slots[rules.end_rule == EndRule::kMoverEmpty ? 0 : 1];
}

}  // namespace

const KalahEndgameTable* KalahEndgameTable::For(const Rules& rules) {
  Slot* slot = SlotFor(rules);
  if (slot == nullptr) return nullptr;
  std::call_once(slot->built, [&] {
    // Never freed: see the header.
    slot->table.store(new KalahEndgameTable(rules.end_rule, kKalahEndgameSeeds),
                      std::memory_order_release);
  });
  return slot->table.load(std::memory_order_acquire);
}

const KalahEndgameTable* KalahEndgameTable::IfReady(const Rules& rules) {
  Slot* slot = SlotFor(rules);
  if (slot == nullptr) return nullptr;
  if (const auto* table = slot->table.load(std::memory_order_acquire)) {
    return table;
  }
  std::call_once(slot->started,
                 [rules] { std::thread([rules] { For(rules); }).detach(); });
  return nullptr;
}

}  // namespace mancala::engine::cpu
