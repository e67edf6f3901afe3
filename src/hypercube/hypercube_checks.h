// One-input checks of the hypercube claims: run the construction, judge it with core's naive
// checkers. Shared by the exhaustive and random methods, the properties, the SMT cross-checks,
// corpus replay and the benchmarks, so that every method decides the same thing.
#pragma once

#include "core/checks.h"
#include "hypercube/hypercube.h"

namespace topocheck::hypercube {

// hypercube.alg2.disjoint: the n paths of cube_disjoint_paths(n, x, y) are valid in Q_n, go from
// x to y, are simple (closed when x = y), and are internally node-disjoint.
Violation check_alg2_disjoint(const Hypercube& cube, Node x, Node y,
                              P3Variant variant = P3Variant::kAsPrinted);

// hypercube.alg2.lengths: with d = H(x, y), of the paths Z_i = (x^(i) -> y) (P_i without x),
// exactly d have length d - 1 and n - d have length d + 1. Also requires valid paths from x to y.
Violation check_alg2_lengths(const Hypercube& cube, Node x, Node y,
                             P3Variant variant = P3Variant::kAsPrinted);

// hypercube.ecube.shortest: the e-cube route is a valid path from x to y of length H(x, y).
Violation check_ecube_shortest(const Hypercube& cube, Node x, Node y,
                               EcubeVariant variant = EcubeVariant::kAsPrinted);

}  // namespace topocheck::hypercube
