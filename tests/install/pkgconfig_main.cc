// Built with nothing but `pkg-config --cflags --libs topocheck`: the naive judge rejects two
// paths of Q_3 that share an internal node, and accepts two disjoint ones.
#include <cstdio>
#include <vector>

#include <topocheck/core/checks.h>
#include <topocheck/hypercube/hypercube.h>

int main() {
  using topocheck::Node;
  using topocheck::Path;
  const auto q3 = topocheck::hypercube::Hypercube::make(3);
  const Node s{0b000, 3}, t{0b011, 3};
  const std::vector<Path> shared{Path{{s, Node{0b001, 3}, t}}, Path{{s, Node{0b001, 3}, t}}};
  const std::vector<Path> disjoint{Path{{s, Node{0b001, 3}, t}}, Path{{s, Node{0b010, 3}, t}}};
  if (topocheck::check_paths_valid_simple(*q3, disjoint, s, t)) return 1;
  const auto violation = topocheck::check_internally_node_disjoint(shared);
  if (!violation || topocheck::check_internally_node_disjoint(disjoint)) return 1;
  std::printf("judged: %s\n", violation->c_str());
  return 0;
}
