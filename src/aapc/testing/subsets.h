// Every f-subset of the nodes of Q_n, for the aapc tests that sweep fault sets exhaustively
// (symmetry_test, equivariance_test). Not part of the library.
#pragma once

#include <functional>
#include <vector>

#include "aapc/aapc.h"

namespace topocheck::aapc {

// The f-subsets of {0, ..., 2^n - 1} as ascending lists, in lexicographic order. Cost: C(2^n, f).
inline std::vector<std::vector<NodeId>> all_subsets(int n, int f) {
  std::vector<std::vector<NodeId>> out;
  std::vector<NodeId> set(static_cast<size_t>(f));
  const NodeId N = NodeId{1} << n;
  std::function<void(int, NodeId)> rec = [&](int k, NodeId from) {
    if (k == f) {
      out.push_back(set);
      return;
    }
    for (NodeId x = from; x < N; ++x) {
      set[static_cast<size_t>(k)] = x;
      rec(k + 1, x + 1);
    }
  };
  rec(0, 0);
  return out;
}

}  // namespace topocheck::aapc
