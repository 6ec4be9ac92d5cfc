// A tiny deterministic random number generator for the computer players.
//
// SplitMix64 (Steele, Lea, Flood 2014): the same sequence on every platform
// and standard library, unlike std::uniform_int_distribution, so a seeded
// CPU makes the same choices everywhere.
// Thread-safety: a Rng is a value; use one per thread.

#ifndef MANCALA_ENGINE_CPU_RNG_H_
#define MANCALA_ENGINE_CPU_RNG_H_

#include <cstdint>

namespace mancala::engine::cpu {

// Mixes a 64-bit value into a well-spread 64-bit value (SplitMix64's
// finaliser). Pure; also used to derive per-game and per-move seeds.
inline std::uint64_t Mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n); n must be > 0. (The modulo bias is below 2^-50 for
  // the small n used here.)
  int Below(int n) {
    return static_cast<int>(Next() % static_cast<std::uint64_t>(n));
  }

 private:
  std::uint64_t state_;
};

}  // namespace mancala::engine::cpu

#endif  // MANCALA_ENGINE_CPU_RNG_H_
