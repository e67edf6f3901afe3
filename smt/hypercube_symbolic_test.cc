// hypercube_symbolic.h: the encoding's paths against the construction's, node by node; the proofs
// for every n in 1..63 against the exhaustive checks at small n; every negative control refuted
// with a model that the checker confirms at the model's n.
#include "smt/hypercube_symbolic.h"

#include <random>

#include <gtest/gtest.h>

#include "hypercube/hypercube.h"
#include "hypercube/hypercube_checks.h"

namespace topocheck::smt {
namespace {

using hypercube::P3Variant;

constexpr P3Variant kVariants[] = {P3Variant::kAsPrinted, P3Variant::kBrokenAscendingOrder,
                                   P3Variant::kBrokenMissingFlip};

std::vector<uint64_t> bits_of(const Path& p) {
  std::vector<uint64_t> out;
  for (const Node& v : p.nodes) out.push_back(v.bits);
  return out;
}

// The encoded path i equals cube_disjoint_paths' path i: every x, y for n <= 3, and random ones up
// to n = 63.
TEST(HypercubeSymbolic, EncodedPathsAreTheConstructionsPaths) {
  for (P3Variant variant : kVariants) {
    for (int n = 1; n <= 3; ++n)
      for (uint64_t x = 0; x < (uint64_t{1} << n); ++x)
        for (uint64_t y = 0; y < (uint64_t{1} << n); ++y) {
          const auto paths = hypercube::cube_disjoint_paths(n, Node{x, n}, Node{y, n}, variant);
          for (int i = 0; i < n; ++i)
            ASSERT_EQ(alg2_encoded_path(n, x, y, i, variant), bits_of(paths[static_cast<size_t>(i)]))
                << "n " << n << " x " << x << " y " << y << " i " << i;
        }
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 60; ++trial) {
      const int n = 5 + static_cast<int>(rng() % 59);
      const uint64_t mask = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
      const uint64_t x = rng() & mask, y = rng() & mask;
      const int i = static_cast<int>(rng() % static_cast<uint64_t>(n));
      const auto paths = hypercube::cube_disjoint_paths(n, Node{x, n}, Node{y, n}, variant);
      ASSERT_EQ(alg2_encoded_path(n, x, y, i, variant), bits_of(paths[static_cast<size_t>(i)]))
          << "n " << n << " x " << x << " y " << y << " i " << i;
    }
  }
}

// Every n <= 6 checked exhaustively by the claim's own checker.
void expect_exhaustive_holds(SymbolicClaim claim) {
  for (int n = 1; n <= 6; ++n) {
    const auto cube = hypercube::Hypercube::make(n).value();
    for (uint64_t x = 0; x < cube.num_nodes(); ++x)
      for (uint64_t y = 0; y < cube.num_nodes(); ++y) {
        const Node a{x, n}, b{y, n};
        const Violation v = claim == SymbolicClaim::kAlg2Disjoint   ? hypercube::check_alg2_disjoint(cube, a, b)
                            : claim == SymbolicClaim::kAlg2Lengths ? hypercube::check_alg2_lengths(cube, a, b)
                                                                   : hypercube::check_ecube_shortest(cube, a, b);
        ASSERT_FALSE(v) << to_string(claim) << " n " << n << ": " << *v;
      }
  }
}

// The e-cube route is proved for every n in 1..63 in one query per group (about 2 s); the
// exhaustive checks agree where they run.
TEST(HypercubeSymbolic, EcubeProvedForEveryN) {
  const SymbolicResult r = prove_for_every_n(SymbolicClaim::kEcubeShortest, claims::SolverLimits{0, 300'000});
  ASSERT_EQ(r.status, SmtStatus::kProved) << r.reason << r.violation;
  for (const SymbolicGroup& g : r.groups) EXPECT_EQ(ranges_text(g.proved), "1..63") << g.name;
  expect_exhaustive_holds(SymbolicClaim::kEcubeShortest);
}

// Algorithm 2 for n = 1..16 (the gating slice; every n to 63 is HypercubeSymbolicDeep), and the
// exhaustive checks agree where they run.
TEST(HypercubeSymbolic, Alg2ProvedForSmallSizes) {
  for (SymbolicClaim claim : {SymbolicClaim::kAlg2Disjoint, SymbolicClaim::kAlg2Lengths}) {
    const SymbolicResult r = prove_for_sizes(claim, 1, 16, claims::SolverLimits{0, 60'000});
    ASSERT_EQ(r.status, SmtStatus::kProved) << to_string(claim) << ": " << r.reason << r.violation;
    for (const SymbolicGroup& g : r.groups) EXPECT_EQ(ranges_text(g.proved), "1..16") << g.name;
    expect_exhaustive_holds(claim);
  }
}

// Every n in 1..63, ranges halved where one query is too hard (deep: minutes).
TEST(HypercubeSymbolicDeep, Alg2ProvedForEveryN) {
  for (SymbolicClaim claim : {SymbolicClaim::kAlg2Disjoint, SymbolicClaim::kAlg2Lengths}) {
    const SymbolicResult r = prove_for_every_n(claim, claims::SolverLimits{0, 120'000});
    ASSERT_EQ(r.status, SmtStatus::kProved) << to_string(claim) << ": " << r.reason << r.violation;
    for (const SymbolicGroup& g : r.groups) EXPECT_EQ(ranges_text(g.proved), "1..63") << g.name;
  }
}

// Negative controls: each broken construction makes the proof fail, with a model the checker
// confirms at the model's n.
TEST(HypercubeSymbolic, BrokenConstructionsAreRefutedWithConfirmedModels) {
  struct Control {
    SymbolicClaim claim;
    P3Variant p3;
    bool ecube_broken;
  };
  for (const Control& c : {Control{SymbolicClaim::kAlg2Disjoint, P3Variant::kBrokenAscendingOrder, false},
                           Control{SymbolicClaim::kAlg2Disjoint, P3Variant::kBrokenMissingFlip, false},
                           Control{SymbolicClaim::kAlg2Lengths, P3Variant::kBrokenMissingFlip, false},
                           Control{SymbolicClaim::kEcubeShortest, P3Variant::kAsPrinted, true}}) {
    const SymbolicResult r = prove_for_every_n(c.claim, claims::SolverLimits{0, 600'000}, c.p3, c.ecube_broken);
    ASSERT_EQ(r.status, SmtStatus::kCounterexample) << to_string(c.claim) << ": " << r.reason;
    EXPECT_GE(r.n, 1);
    EXPECT_LE(r.n, kSymbolicMaxN);
    EXPECT_FALSE(r.violation.empty());
  }
}

}  // namespace
}  // namespace topocheck::smt
