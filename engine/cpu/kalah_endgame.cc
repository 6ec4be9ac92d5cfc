#include "engine/cpu/kalah_endgame.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace mancala::engine::cpu {
namespace {

constexpr int kPits = 6;
constexpr int kRing = 2 * kPits + 1;  // Own pits, own store, their pits.
constexpr int kCells = 2 * kPits;
constexpr std::int8_t kUnknown = -128;  // |gain| <= kKalahEndgameSeeds.

// Binomial coefficients C(m, k) for the position index.
constexpr int kMaxM = kKalahEndgameSeeds + kCells;
using BinomialTable =
    std::array<std::array<std::uint64_t, kCells + 1>, kMaxM + 1>;
constexpr BinomialTable MakeBinomials() {
  BinomialTable c{};
  for (int m = 0; m <= kMaxM; ++m) {
    c[m][0] = 1;
    for (int k = 1; k <= kCells && k <= m; ++k) {
      c[m][k] = c[m - 1][k - 1] + (k <= m - 1 ? c[m - 1][k] : 0);
    }
  }
  return c;
}
constexpr BinomialTable kBinomial = MakeBinomials();

// Ways to put m seeds into k pits: C(m + k - 1, k - 1).
constexpr std::uint64_t Compositions(int m, int k) {
  return kBinomial[m + k - 1][k - 1];
}

// Where the positions of n seeds start: all positions of fewer seeds come
// first, C(n - 1 + 12, 12) of them.
std::uint64_t Offset(int n) { return n == 0 ? 0 : kBinomial[n + 11][12]; }

// Skip[i][left][a]: how many positions come before those whose pit i
// holds `a` seeds, among those agreeing on pits 0..i-1 with `left` seeds
// for pits i..11 (the positions whose pit i holds fewer).
using SkipTable =
    std::array<std::array<std::array<std::uint32_t, kKalahEndgameSeeds + 1>,
                          kKalahEndgameSeeds + 1>,
               kCells>;
constexpr SkipTable MakeSkips() {
  SkipTable t{};
  for (int i = 0; i < kCells - 1; ++i) {
    const int k = kCells - i;
    for (int left = 0; left <= kKalahEndgameSeeds; ++left) {
      for (int a = 0; a <= left; ++a) {
        t[i][left][a] = static_cast<std::uint32_t>(Compositions(left, k) -
                                                   Compositions(left - a, k));
      }
    }
  }
  return t;
}
constexpr SkipTable kSkip = MakeSkips();

// The position's place in the table: after every position of fewer seeds,
// and among those of as many in lexicographic order of (pit 0, pit 1, ...,
// pit 10).
std::uint32_t Index(const KalahEndgame::Pits& pits, int seeds) {
  std::uint32_t rank = static_cast<std::uint32_t>(Offset(seeds));
  int left = seeds;
  for (int i = 0; i < kCells - 1; ++i) {
    rank += kSkip[i][left][pits[i]];
    left -= pits[i];
  }
  return rank;
}

int Sum(const KalahEndgame::Pits& pits, int from, int count) {
  int sum = 0;
  for (int i = from; i < from + count; ++i) sum += pits[i];
  return sum;
}

// The next position of the same seed count in Index order; false after
// the last.
bool NextPosition(KalahEndgame::Pits& pits) {
  int i = kCells - 2;
  if (pits[kCells - 1] == 0) {
    int j = kCells - 2;
    while (j >= 0 && pits[j] == 0) --j;
    i = j - 1;
  }
  if (i < 0) return false;
  const int rest = Sum(pits, i + 1, kCells - 1 - i);
  ++pits[i];
  for (int j = i + 1; j < kCells; ++j) pits[j] = 0;
  pits[kCells - 1] = static_cast<std::uint8_t>(rest - 1);
  return true;
}

// The build: solves every position of 0, 1, ... seeds, each once.
class Builder {
 public:
  Builder(EndRule rule, std::vector<std::int8_t>& gains)
      : rule_(rule), gains_(gains) {}

  void Run() {
    for (int n = 0; n <= kKalahEndgameSeeds; ++n) {
      KalahEndgame::Pits pits{};
      pits[kCells - 1] = static_cast<std::uint8_t>(n);
      std::uint32_t index = static_cast<std::uint32_t>(Offset(n));
      do {
        Solve(pits, n, index++);
      } while (NextPosition(pits));
    }
  }

 private:
  struct Child {
    KalahEndgame::Pits pits;
    std::uint32_t index;
    int gain;
    bool extra_turn;
    bool over;
  };

  // The gain of `pits` (`seeds` seeds, at `index`), solving what it needs.
  int Solve(const KalahEndgame::Pits& pits, int seeds, std::uint32_t index) {
    std::int8_t& slot = gains_[index];
    if (slot != kUnknown) return slot;
    const int mine = Sum(pits, 0, kPits);
    const int theirs = Sum(pits, kPits, kPits);
    int best;
    if (mine == 0 || (rule_ == EndRule::kAnySideEmpty && theirs == 0)) {
      // The game is over (K.8, K.8'; a position the rules end before it
      // is played, kept for completeness): each row to its owner (K.9).
      best = mine - theirs;
    } else {
      // All moves first, their entries fetched from memory together: the
      // table is far larger than the caches.
      std::array<Child, kPits> children;
      int count = 0;
      for (int pit = 0; pit < kPits; ++pit) {
        if (pits[pit] == 0) continue;
        Child& c = children[count++];
        c.pits = pits;
        c.gain =
            KalahEndgame::PlayCompact(c.pits, pit, rule_, c.extra_turn, c.over);
        if (!c.over) {
          // Every seed gained left the pits (no sweep yet).
          c.index = Index(c.pits, seeds - c.gain);
          __builtin_prefetch(&gains_[c.index]);
        }
      }
      best = -kKalahEndgameSeeds - 1;
      for (int k = 0; k < count; ++k) {
        const Child& c = children[k];
        int gain = c.gain;
        if (!c.over) {
          const int rest = Solve(c.pits, seeds - c.gain, c.index);
          gain += c.extra_turn ? rest : -rest;
        }
        best = std::max(best, gain);
      }
    }
    slot = static_cast<std::int8_t>(best);
    return best;
  }

  const EndRule rule_;
  std::vector<std::int8_t>& gains_;
};

}  // namespace

int KalahEndgame::PlayCompact(Pits& pits, int pit, EndRule rule,
                              bool& extra_turn, bool& over) {
  // Ring positions: 0..5 the mover's pits, 6 the mover's store, 7..12 the
  // opponent's pits (cells 6..11); the opponent's store is skipped (K.3).
  int hand = pits[pit];
  pits[pit] = 0;
  int gain = 0;
  int at = pit;
  while (hand-- > 0) {
    at = at + 1 == kRing ? 0 : at + 1;
    if (at == kPits) {
      ++gain;
    } else {
      ++pits[at < kPits ? at : at - 1];
    }
  }
  extra_turn = at == kPits;  // K.4.
  if (at < kPits && pits[at] == 1) {
    // K.5 / K.6: the last seed in an own pit that was empty.
    const int opposite = kPits + (kPits - 1 - at);
    if (pits[opposite] > 0) {
      gain += pits[opposite] + 1;
      pits[opposite] = 0;
      pits[at] = 0;
    }
  }
  const int mine = Sum(pits, 0, kPits);
  const int theirs = Sum(pits, kPits, kPits);
  const int next_row = extra_turn ? mine : theirs;
  over = rule == EndRule::kMoverEmpty ? next_row == 0              // K.8.
                                      : mine == 0 || theirs == 0;  // K.8'.
  if (over) {
    gain += mine - theirs;  // K.9: each row to its owner.
    pits.fill(0);
  } else if (!extra_turn) {
    for (int i = 0; i < kPits; ++i) std::swap(pits[i], pits[kPits + i]);
  }
  return gain;
}

KalahEndgame::KalahEndgame(EndRule rule)
    : gains_(static_cast<std::size_t>(Offset(kKalahEndgameSeeds + 1)),
             kUnknown) {
  const auto start = std::chrono::steady_clock::now();
  Builder(rule, gains_).Run();
  build_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
}

int KalahEndgame::Gain(const Pits& pits) const {
  return gains_[Index(pits, Sum(pits, 0, kCells))];
}

bool KalahEndgame::Supports(const Rules& rules) {
  return rules.game == Game::kKalah && rules.players == 2 &&
         rules.pits == kPits;
}

bool KalahEndgame::Covers(const State& state) const {
  int seeds = 0;
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < kPits; ++i) seeds += state.pit(p, i);
  }
  return seeds <= kKalahEndgameSeeds;
}

int KalahEndgame::FinalMargin(const State& state, int player) const {
  const int mover = state.to_move();
  Pits pits;
  for (int i = 0; i < kPits; ++i) {
    pits[i] = static_cast<std::uint8_t>(state.pit(mover, i));
    pits[kPits + i] = static_cast<std::uint8_t>(state.pit(1 - mover, i));
  }
  const int gain = Gain(pits);
  const int stores = state.store(player) - state.store(1 - player);
  return stores + (player == mover ? gain : -gain);
}

namespace {

// One table per end rule, built once on a background thread. Never
// destroyed: a build still running at exit must not write into freed
// memory, so the slot and its thread outlive static destruction.
struct Slot {
  std::once_flag started;
  std::mutex mu;
  std::condition_variable built;
  std::atomic<const KalahEndgame*> table{nullptr};
};

Slot& SlotFor(EndRule rule) {
  static Slot* const slots = new Slot[2];
  return slots[rule == EndRule::kMoverEmpty ? 0 : 1];
}

Slot& Start(EndRule rule) {
  Slot& slot = SlotFor(rule);
  std::call_once(slot.started, [&slot, rule] {
    std::thread([&slot, rule] {
      const auto* table = new KalahEndgame(rule);
      {
        std::lock_guard<std::mutex> lock(slot.mu);
        slot.table.store(table, std::memory_order_release);
      }
      slot.built.notify_all();
    }).detach();
  });
  return slot;
}

}  // namespace

const KalahEndgame* KalahEndgame::TryGet(const Rules& rules) {
  if (!Supports(rules)) return nullptr;
  return Start(rules.end_rule).table.load(std::memory_order_acquire);
}

const KalahEndgame* KalahEndgame::Get(const Rules& rules) {
  if (!Supports(rules)) return nullptr;
  Slot& slot = Start(rules.end_rule);
  std::unique_lock<std::mutex> lock(slot.mu);
  slot.built.wait(lock, [&slot] {
    return slot.table.load(std::memory_order_acquire) != nullptr;
  });
  return slot.table.load(std::memory_order_acquire);
}

}  // namespace mancala::engine::cpu
