// A small seeded pseudo-random generator whose output is fixed by this file alone: the same seed
// gives the same numbers with every compiler and standard library. (The standard engines are
// portable but std::uniform_int_distribution, std::shuffle and friends are implementation-defined,
// so a workload or a simulation seeded through them could differ between libstdc++ and libc++.)
//
// Algorithm: xoshiro256** (Blackman and Vigna, "Scrambled linear pseudorandom number generators",
// 2021; prng.di.unimi.it), its 256-bit state filled from the seed by four splitmix64 steps, as the
// authors recommend. Not cryptographic.
//  - next():       64 uniform bits.
//  - below(b):     uniform on [0, b), b >= 1, unbiased by rejection: draws r until r >= 2^64 mod b
//                  and returns r mod b (at most one retry expected for any b).
//  - unit():       uniform on [0, 1) in steps of 2^-53 (the top 53 bits of next()).
//  - shuffle(v):   Fisher-Yates, i = n-1 down to 1: swap v[i] with v[below(i + 1)].
// Example: Rng(1).next() == 0xb3f2af6d0fc710c5 (pinned by routing_workload_test).
// Cost: O(1) per draw, shuffle O(n) draws. A bound of 0 aborts (TC_CHECK).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/status.h"

namespace topocheck::routing {

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    // splitmix64 (Steele, Lea, Flood 2014): x += golden gamma; then two xor-shift-multiply rounds.
    for (uint64_t& word : state_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  uint64_t next() {
    // xoshiro256**: result = rotl(s1 * 5, 7) * 9, then the linear state update.
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  uint64_t below(uint64_t bound) {
    TC_CHECK(bound >= 1, "Rng::below needs a bound of at least 1");
    // (0 - bound) % bound == 2^64 mod bound: the values below it are the incomplete last block
    // of residues; rejecting them leaves each residue exactly floor(2^64 / bound) preimages.
    const uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      const uint64_t r = next();
      if (r >= threshold) return r % bound;
    }
  }

  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  template <class T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) {
      const size_t j = static_cast<size_t>(below(i));
      using std::swap;
      swap(v[i - 1], v[j]);
    }
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4] = {0, 0, 0, 0};
};

}  // namespace topocheck::routing
