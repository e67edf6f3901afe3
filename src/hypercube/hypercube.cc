#include "hypercube/hypercube.h"

#include <bit>

#include <fmt/format.h>

namespace topocheck::hypercube {

Result<Hypercube> Hypercube::make(int n) {
  if (n < 1 || n > kMaxDimension)
    return invalid_argument(fmt::format("hypercube dimension n = {} is out of range 1..{}", n,
                                        kMaxDimension));
  return Hypercube(n);
}

std::string Hypercube::name() const { return fmt::format("Q_{}", n_); }

std::vector<Node> Hypercube::neighbors(Node u) const {
  TC_CHECK(u.width == n_, "node width differs from the cube dimension");
  std::vector<Node> out;
  out.reserve(static_cast<size_t>(n_));
  for (int i = 0; i < n_; ++i) out.push_back(u.flip(i));
  return out;
}

bool Hypercube::is_edge(Node u, Node v) const { return edge_dimension(u, v).has_value(); }

std::optional<int> Hypercube::edge_dimension(Node u, Node v) const {
  if (!contains(u) || !contains(v)) return std::nullopt;
  const uint64_t diff = u.bits ^ v.bits;
  // Adjacent iff the addresses differ in exactly one bit (diff is a power of two).
  if (std::popcount(diff) != 1) return std::nullopt;
  return std::countr_zero(diff);
}

std::string to_string(P3Variant variant) {
  switch (variant) {
    case P3Variant::kAsPrinted: return "as_printed";
    case P3Variant::kBrokenAscendingOrder: return "broken_ascending_order";
    case P3Variant::kBrokenMissingFlip: return "broken_missing_flip";
  }
  return "?";
}

std::optional<P3Variant> parse_p3_variant(const std::string& name) {
  for (P3Variant v : {P3Variant::kAsPrinted, P3Variant::kBrokenAscendingOrder,
                      P3Variant::kBrokenMissingFlip})
    if (to_string(v) == name) return v;
  return std::nullopt;
}

int p3_dimension(P3Variant variant, int n, int i, int j) {
  switch (variant) {
    case P3Variant::kAsPrinted: return (i + j) % n;  // b = (i + j) % n, j = 1..n
    case P3Variant::kBrokenAscendingOrder: return j - 1;
    case P3Variant::kBrokenMissingFlip: return j < n ? (i + j) % n : -1;
  }
  return -1;
}

Path p3(int n, int i, Node x, Node y, P3Variant variant) {
  TC_CHECK(n >= 1 && n <= kMaxDimension, "p3: n out of range");
  TC_CHECK(x.width == n && y.width == n, "p3: node width differs from n");
  TC_CHECK(i >= 0 && i < n, "p3: path index out of range");
  const uint64_t u = x.bits ^ y.bits;  // the bits still to flip
  Path path{{x}};
  if (variant == P3Variant::kAsPrinted) {
    std::vector<uint64_t> walk(static_cast<size_t>(n));
    const uint64_t* end = p3_walk(x.bits, u, n, i, 0, walk.data());
    for (const uint64_t* a = walk.data(); a != end; ++a) path.nodes.push_back(Node{*a, n});
    return path;
  }
  // The deliberately broken variants (negative controls) follow their own schedules.
  Node v = x;
  for (int j = 1; j <= n; ++j) {
    const int b = p3_dimension(variant, n, i, j);
    if (b < 0) continue;
    if (u & (uint64_t{1} << b)) {  // (u & 2^b) != 0: flip dimension b
      v = v.flip(b);
      path.nodes.push_back(v);
    }
  }
  return path;
}

std::vector<Path> cube_disjoint_paths(int n, Node x, Node y, P3Variant variant) {
  std::vector<Path> paths;
  paths.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    Path p = p3(n, i, x.flip(i), y, variant);
    p.nodes.insert(p.nodes.begin(), x);
    paths.push_back(std::move(p));
  }
  return paths;
}

Path ecube_route(Node x, Node y, EcubeVariant variant) {
  TC_CHECK(x.width == y.width, "ecube_route: nodes of different widths");
  Path path{{x}};
  Node v = x;
  if (variant == EcubeVariant::kBrokenFirstHop && x != y && ((x.bits ^ y.bits) & 1) == 0) {
    v = v.flip(0);
    path.nodes.push_back(v);
  }
  while (v != y) {
    const int i = std::countr_zero(v.bits ^ y.bits);  // rightmost differing bit
    v = v.flip(i);
    path.nodes.push_back(v);
  }
  return path;
}

}  // namespace topocheck::hypercube
