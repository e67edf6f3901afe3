#include "hypercube/hypercube_checks.h"

#include <fmt/format.h>

namespace topocheck::hypercube {

Violation check_alg2_disjoint(const Hypercube& cube, Node x, Node y, P3Variant variant) {
  const int n = cube.dimension();
  const std::vector<Path> paths = cube_disjoint_paths(n, x, y, variant);
  if (paths.size() != static_cast<size_t>(n))
    return fmt::format("{} paths, expected n = {}", paths.size(), n);
  if (auto v = check_paths_valid_simple(cube, paths, x, y)) return v;
  return check_internally_node_disjoint(paths);
}

Violation check_alg2_lengths(const Hypercube& cube, Node x, Node y, P3Variant variant) {
  const int n = cube.dimension();
  const int d = hamming(x, y);
  const std::vector<Path> paths = cube_disjoint_paths(n, x, y, variant);
  for (size_t i = 0; i < paths.size(); ++i) {
    if (auto v = check_path_valid(cube, paths[i])) return fmt::format("path {}: {}", i, *v);
    if (auto v = check_endpoints(paths[i], x, y)) return fmt::format("path {}: {}", i, *v);
  }
  int shorter = 0, longer = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    const int z = paths[i].length() - 1;  // |Z_i|: the path from x^(i), without the first hop
    if (z == d - 1) ++shorter;
    else if (z == d + 1) ++longer;
    else
      return fmt::format("Z_{} = (x^({}) -> y) has length {}, neither d-1 = {} nor d+1 = {}", i, i,
                         z, d - 1, d + 1);
  }
  if (shorter != d || longer != n - d)
    return fmt::format("{} paths of length d-1 and {} of length d+1; the paper says {} and {} (d = {})",
                       shorter, longer, d, n - d, d);
  return std::nullopt;
}

Violation check_ecube_shortest(const Hypercube& cube, Node x, Node y, EcubeVariant variant) {
  const Path p = ecube_route(x, y, variant);
  if (auto v = check_path_valid(cube, p)) return v;
  if (auto v = check_endpoints(p, x, y)) return v;
  if (p.length() != hamming(x, y))
    return fmt::format("the e-cube route has length {}, the Hamming distance is {}", p.length(),
                       hamming(x, y));
  return std::nullopt;
}

}  // namespace topocheck::hypercube
