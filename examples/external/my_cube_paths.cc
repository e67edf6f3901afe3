#include "my_cube_paths.h"

#include <cstddef>

std::vector<topocheck::Path> my_disjoint_paths(int n, topocheck::Node x, topocheck::Node y) {
  std::vector<int> differ;  // D, ascending
  for (int i = 0; i < n; ++i)
    if (x.bit(i) != y.bit(i)) differ.push_back(i);
  const std::size_t d = differ.size();
  std::vector<topocheck::Path> paths;
  // Across D: path k flips D[k], D[k+1], ..., D[d-1], D[0], ..., D[k-1].
  for (std::size_t k = 0; k < d; ++k) {
    topocheck::Path p{{x}};
    for (std::size_t step = 0; step < d; ++step) {
#ifdef PLANTED_BUG
      // The bug: D[k] first, then the others in ascending order instead of rotated.
      const std::size_t rest = step == 0 ? k : (step - 1 < k ? step - 1 : step);
      p.nodes.push_back(p.nodes.back().flip(differ[rest]));
#else
      p.nodes.push_back(p.nodes.back().flip(differ[(k + step) % d]));
#endif
    }
    paths.push_back(p);
  }
  // Around each dimension j outside D: j, then D ascending, then j again.
  for (int j = 0; j < n; ++j) {
    if (x.bit(j) != y.bit(j)) continue;
    topocheck::Path p{{x, x.flip(j)}};
    for (int i : differ) p.nodes.push_back(p.nodes.back().flip(i));
    p.nodes.push_back(p.nodes.back().flip(j));
    paths.push_back(p);
  }
  return paths;
}
