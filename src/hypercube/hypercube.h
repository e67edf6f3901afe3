// The hypercube Q_n: e-cube routing and n disjoint paths (Algorithms 2 and 3).
//
// Papers and notation:
//  - Li, Peng, Chu, "Disjoint Paths in Metacube", Section 3: x^(i) is x with bit i flipped
//    (`Node::flip(i)`); Algorithm 3 p3(n, i, x, y) flips, for j = 1..n, dimension b = (i + j) % n
//    whenever bit b of u = x XOR y is set; Algorithm 2 CubeDisjointPaths(n, x, y) builds
//    P_i = x : x^(i) : p3(n, i, x^(i), y) for i = 0..n-1. (The printed p3 reads u from
//    Algorithm 2; standalone, u = x XOR y, which is the same value.)
//  - Raghupathy, Leuze, Schach, Section 1: static (e-cube) routing flips the rightmost
//    (lowest-numbered) differing bit first.
//
// Worked example (Table 1, x = 000, y = 011, n = 3):
//   P_0 = 000:001:011   P_1 = 000:010:011   P_2 = 000:100:101:111:011
// Paths are returned WITH x in front, as Table 1 prints them; the paper's Z_i = (x^(i) -> y) is
// the path without its first node, of length d-1 (d of them) or d+1 (n-d of them), d = H(x, y).
//
// Preconditions: 1 <= n <= 63 and nodes of width n; violations abort (TC_CHECK). Boundary code
// validates user input with `Hypercube::make` and `parse_node(text, n)` first.
// Cost: p3 is O(n); cube_disjoint_paths O(n^2); ecube_route O(n).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/node.h"
#include "core/path.h"
#include "core/status.h"
#include "core/topology.h"

namespace topocheck::hypercube {

inline constexpr int kMaxDimension = 63;

class Hypercube final : public Topology {
 public:
  // Errors (not aborts) on n outside 1..63.
  static Result<Hypercube> make(int n);
  int dimension() const { return n_; }

  std::string name() const override;
  int width() const override { return n_; }
  uint64_t num_nodes() const override { return uint64_t{1} << n_; }  // n = 63: 2^63
  bool contains(Node u) const override {
    return u.width == n_ && (n_ == 64 || (u.bits >> n_) == 0);
  }
  std::vector<Node> neighbors(Node u) const override;  // u^(0), u^(1), ..., u^(n-1)
  bool is_edge(Node u, Node v) const override;
  std::optional<int> edge_dimension(Node u, Node v) const override;
  uint64_t index_of(Node u) const override { return u.bits; }
  Node node_at(uint64_t index) const override { return Node{index, n_}; }

 private:
  explicit Hypercube(int n) : n_(n) {}
  int n_;
};

// The p3 dimension schedule. kAsPrinted is the paper's Algorithm 3. The other two are
// DELIBERATELY BROKEN negative controls that every check (checkers, properties, SMT) must reject:
//  - kBrokenAscendingOrder: b = j - 1 for every path (the rotation by i is lost);
//  - kBrokenMissingFlip: the loop stops at j = n - 1 (dimension i is never flipped).
enum class P3Variant { kAsPrinted, kBrokenAscendingOrder, kBrokenMissingFlip };

std::string to_string(P3Variant variant);
std::optional<P3Variant> parse_p3_variant(const std::string& name);

// The dimension p3 examines at step j (1-based) of path i, or -1 when the variant has no step j.
int p3_dimension(P3Variant variant, int n, int i, int j);

// Algorithm 3: the path from x to y (x included) flipping the differing bits in the order
// (i+1) % n, (i+2) % n, ..., i. kAsPrinted runs p3_walk below; the broken variants follow
// p3_dimension.
Path p3(int n, int i, Node x, Node y, P3Variant variant = P3Variant::kAsPrinted);

// Algorithm 3's walk on raw addresses: the one p3 of the project (the hypercube's p3 and the
// Metacube's p3 in a cluster and on the class field all run it). From the address `start`, for
// j = 1..n it looks at b = (i + j) % n and, when bit b of `diff` is set, flips address bit
// `shift + b` and writes the address reached to the next slot of `out`. Returns the end of what
// it wrote: one address per set bit of diff below n, none for the others.
// `out` must have room for n addresses (every step writes its slot; only a flip keeps it, so the
// loop has no data-dependent branch: the sweeps call it millions of times). Preconditions:
// 1 <= n, 0 <= i, and shift + b < 64 for every set bit b of diff below n.
// Cost: O(n).
inline uint64_t* p3_walk(uint64_t start, uint64_t diff, int n, int i, int shift, uint64_t* out) {
  uint64_t w = start;
  // b = (i + j) % n for j = 1 .. n, by one division and a wrap-around (i % n + j < 2n).
  int b = i % n;
  for (int j = 1; j <= n; ++j) {
    b = (b + 1) & -static_cast<int>(b + 1 != n);  // b + 1, or 0 at n (no branch)
    // The flip of bit shift + b when bit b of diff is set, else 0 (no shift by 64 or more).
    const uint64_t bit = b < 64 ? (diff >> b) & 1 : 0;
    const uint64_t flip = bit << ((shift + b) & 63);
    w ^= flip;
    *out = w;
    out += flip != 0;
  }
  return out;
}

// Algorithm 2: P_i = x : p3(n, i, x^(i), y), i = 0..n-1 (x = y allowed, as Table 1 lists).
std::vector<Path> cube_disjoint_paths(int n, Node x, Node y,
                                      P3Variant variant = P3Variant::kAsPrinted);

// E-cube (static) routing: flip the rightmost differing bit first. Returns x ... y.
// kBrokenFirstHop (a negative control): when x != y agree in dimension 0, the route flips it
// first and then routes e-cube from there (a detour of two hops).
enum class EcubeVariant { kAsPrinted, kBrokenFirstHop };
Path ecube_route(Node x, Node y, EcubeVariant variant = EcubeVariant::kAsPrinted);

}  // namespace topocheck::hypercube
