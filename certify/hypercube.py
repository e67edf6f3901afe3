"""Certificate checkers of the hypercube family (Q_n; the hypercube claims of papers/003,
Algorithms 2-3 and Table 1, and of the e-cube routing background).

As of this writing corpus/hypercube holds no counterexample (every hypercube claim holds), so
only the disjointness claim of Algorithm 2 has a checker, ready for a future case:

- hypercube.alg2.disjoint: C: the witness's paths are walks of Q_n from input.x to input.y, and
  two of them share a node other than x and y (node sets compared). W: that the paths are
  Algorithm 2's output for (x, y) (not re-derived here).
"""
import itertools

from _common import bits, hop_dim


def check_alg2_disjoint(case):
    n = case["params"]["n"]
    x, y = bits(case["input"]["x"], n), bits(case["input"]["y"], n)
    paths = [[bits(v, n) for v in p] for p in case["witness"]["paths"]]
    for i, p in enumerate(paths):
        if not p or p[0] != x or p[-1] != y or any(hop_dim(a, b) is None for a, b in zip(p, p[1:])):
            return False, "path %d is not a walk of Q_%d from x to y" % (i, n)
    for i, j in itertools.combinations(range(len(paths)), 2):
        common = (set(paths[i]) & set(paths[j])) - {x, y}
        if common:
            return True, "paths %d and %d share node %s, other than x and y" % (i, j, format(min(common), "0%db" % n))
    return False, "no node other than x and y lies on two paths"


CHECKERS = {
    "hypercube.alg2.disjoint": check_alg2_disjoint,
}
