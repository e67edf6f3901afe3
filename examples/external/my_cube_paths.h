// The example project's own construction: for x != y in Q_n, n internally node-disjoint x-y paths of
// at most H(x, y) + 2 hops (the textbook construction: across each differing dimension, a rotation
// of the differing dimensions; around each other dimension j, out along j, across, back along j).
#pragma once

#include <vector>

#include <topocheck/core/path.h>

std::vector<topocheck::Path> my_disjoint_paths(int n, topocheck::Node x, topocheck::Node y);
