// The path kinds of Section 2.2 and Definitions 1 and 2 (Chen and Tzeng, paper 000; notation in
// migration.h): hop dimensions, Hamming (shortest) paths, regular paths u -> f(u) under each
// reading of the damaged subscripts, aggressive paths u -> g(u), and the enumeration of every
// Hamming path between two nodes. Cost: O(path length) per judgement; hamming_paths d! paths.
#include "migration/migration.h"

#include <algorithm>
#include <bit>

namespace topocheck::migration {
namespace {

uint64_t bit(int i) { return uint64_t{1} << i; }

}  // namespace

std::vector<int> hop_dimensions(const Path& path) {
  std::vector<int> out;
  for (size_t k = 0; k + 1 < path.nodes.size(); ++k) {
    const uint64_t x = path.nodes[k].bits ^ path.nodes[k + 1].bits;
    out.push_back(std::popcount(x) == 1 && path.nodes[k].width == path.nodes[k + 1].width ? std::countr_zero(x) : -1);
  }
  return out;
}

bool is_hamming_path(const Path& path, Node a, Node b) {
  if (path.empty() || path.front() != a || path.back() != b) return false;
  uint64_t seen = 0;
  for (int d : hop_dimensions(path)) {
    if (d < 0 || (seen & bit(d))) return false;
    seen |= bit(d);
  }
  return seen == (a.bits ^ b.bits);
}

std::string to_string(RegularReading r) { return r == RegularReading::kF ? "D_f" : "D_g-as-printed"; }

namespace {
// All links along `first` precede all links along `second` on the path.
bool precede(const Path& path, uint64_t first, uint64_t second) {
  bool seen_second = false;
  for (int d : hop_dimensions(path)) {
    if (second & bit(d)) seen_second = true;
    if ((first & bit(d)) && seen_second) return false;
  }
  return true;
}
}  // namespace

bool is_regular(const Instance& inst, const Alpha& alpha, Bars bars, RegularReading reading, const Path& path, Node u) {
  if (!inst.S.contains(u) || !is_hamming_path(path, u, f(inst, alpha, u, bars))) return false;
  const DSets ds = d_sets(inst, alpha, u, bars);
  if (reading == RegularReading::kF) return precede(path, ds.f_T | inst.C, ds.f_S);
  return precede(path, ds.g_T | inst.C, ds.g_S);
}

bool is_aggressive(const Instance& inst, const Alpha& alpha, Bars bars, const Path& path, Node u) {
  if (!inst.S.contains(u) || !is_hamming_path(path, u, g(inst, alpha, u, bars))) return false;
  const DSets ds = d_sets(inst, alpha, u, bars);
  return precede(path, ds.g_T, inst.C | ds.g_S);
}

Path path_along(Node a, const std::vector<int>& dims) {
  Path p;
  p.nodes.push_back(a);
  for (int d : dims) p.nodes.push_back(p.nodes.back().flip(d));
  return p;
}

std::vector<Path> hamming_paths(Node a, Node b) {
  std::vector<Path> out;
  auto dims = dims_of(a.bits ^ b.bits);
  do out.push_back(path_along(a, dims));
  while (std::next_permutation(dims.begin(), dims.end()));
  return out;
}

}  // namespace topocheck::migration
