"""Certificate checkers of the metacube family: Li, Peng, Chu, "Disjoint Paths in Metacube"
(papers/003). Definitions written from the paper (Section 2):

- MC(k, m) has h = 2^k classes; a node is an (mh + k)-bit address u = (c_u, M_u[h-1], ...,
  M_u[0]): the k-bit class field leftmost, then the m-bit fields M[h-1] ... M[0].
- Cross-edges: two nodes whose addresses differ in exactly one bit of the class field.
  Cube-edges: two nodes of class c whose addresses differ in exactly one bit of M[c] (the field
  the node's own class selects). No other links.
- Theorem 2: Algorithm 4 gives k + m disjoint paths from s to t (s != t). A path is valid when it
  is a walk of MC(k, m) from s to t and simple (no node repeats). Disjoint: no node other than s
  and t lies on two paths (internally node-disjoint). Fault tolerance (abstract, Section 4): with
  at most k + m - 1 faulty nodes other than s and t, some constructed path avoids them all.

What each checker confirms (C) and takes from the witness (W):
- thm2.valid: C: some path of the witness is not a walk of MC(k,m) from s to t, or repeats a node,
  or the witness has a number of paths other than k + m; every other fact of the message is
  recomputed. W: that the paths are Algorithm 4's output for (s, t) (not re-derived here).
- thm2.disjoint: C: two different paths, each a walk of MC(k,m) from s to t, on which one node
  other than s and t lies (judged on node sets, so a non-simple path counts by its nodes, not by
  its repetition: a repeated node is thm2.valid's failure, not this claim's). W: as above.
- thm2.fault_tolerance: C: a set of at most k + m - 1 nodes, none of them s or t, meeting every
  path (the witness's "faults" if it gives them, else the smallest such set, found by this
  checker by exhaustive search over the paths' internal nodes). W: as above.
- thm2.case_bound: C: the witness's paths are walks of MC(k,m) from s to t and one is longer than
  the bound the proof gives for the case of (s, t), the case and the bound recomputed from s and t
  (case 0: one class and one cluster, H + 6; case 1: one class, two clusters, H + 2^k + 4; case 2:
  two classes, H + 2^k + 4 + max|Z_i|, max|Z_i| = d + 1 if d < k else d - 1; H the Hamming distance
  of the addresses, d that of the class fields). W: that the paths are the construction's output.
- symmetry.alg4_commutes: C: a has class field zero (so XOR with a is an automorphism of MC(k,m)
  by the edge definition), the translated pair is (s^a, t^a), both path systems are walks of
  MC(k,m) between the right ends, and some path of (s^a, t^a) differs from the same-numbered path
  of (s, t) XORed with a. W: that both systems are Algorithm 4's outputs.
"""
import itertools

from _common import Malformed, bits, need, repeated


class MC:
    def __init__(self, k, m):
        need(isinstance(k, int) and isinstance(m, int) and 1 <= k <= 4 and 1 <= m <= 8, "params k, m out of range")
        self.k, self.m, self.h = k, m, 1 << k
        self.n = m * self.h + k

    def cls(self, u):
        return u >> (self.m * self.h)

    def adjacent(self, u, v):
        x = u ^ v
        if x == 0 or x & (x - 1):
            return False
        d = x.bit_length() - 1
        if d >= self.m * self.h:
            return True  # cross-edge: one bit of the class field
        c = self.cls(u)
        return c * self.m <= d < (c + 1) * self.m  # cube-edge: a bit of M[c_u]

    def node(self, text):
        return bits(text, self.n)

    def text(self, u):
        return format(u, "0%db" % self.n)

    def path_text(self, p):
        return ":".join(self.text(x) for x in p)

    def walk(self, p, s, t):
        """Why p is not a walk of MC(k,m) from s to t, or None."""
        if not p or p[0] != s or p[-1] != t:
            return "does not run from s to t"
        for a, b in zip(p, p[1:]):
            if not self.adjacent(a, b):
                return "%s-%s is not a link of MC(%d,%d)" % (self.text(a), self.text(b), self.k, self.m)
        return None


def first_non_walk(mc, paths, s, t):
    """(i, why) for the first path that is not a walk of MC(k,m) from s to t, or None."""
    for i, p in enumerate(paths):
        why = mc.walk(p, s, t)
        if why:
            return i, why
    return None


def setup(case):
    mc = MC(case["params"]["k"], case["params"]["m"])
    s, t = mc.node(case["input"]["s"]), mc.node(case["input"]["t"])
    need(s != t, "s = t")
    paths = [[mc.node(x) for x in p] for p in case["witness"]["paths"]]
    need(paths, "the witness has no paths")
    return mc, s, t, paths


def check_valid(case):
    mc, s, t, paths = setup(case)
    for i, p in enumerate(paths):
        why = mc.walk(p, s, t)
        if why:
            return True, "P_%d %s: %s" % (i, mc.path_text(p), why)
        r = repeated(p)
        if r:
            return True, "P_%d is a walk of MC(%d,%d) from s to t, but node %s occurs twice (positions %d and %d)" % (
                i, mc.k, mc.m, mc.text(r[0]), r[1], r[2])
    if len(paths) != mc.k + mc.m:
        return True, "%d paths, not k + m = %d" % (len(paths), mc.k + mc.m)
    return False, "all %d paths are simple walks of MC(%d,%d) from s to t" % (len(paths), mc.k, mc.m)


def check_disjoint(case):
    mc, s, t, paths = setup(case)
    bad = first_non_walk(mc, paths, s, t)
    if bad:
        return False, "P_%d is not a walk from s to t (%s): thm2.valid's failure, not disjointness" % bad
    for i, j in itertools.combinations(range(len(paths)), 2):
        common = (set(paths[i]) & set(paths[j])) - {s, t}
        if common:
            x = min(common)
            return True, "P_%d and P_%d (walks of MC(%d,%d) from s to t) share node %s, internal to both" % (
                i, j, mc.k, mc.m, mc.text(x))
    rep = [i for i, p in enumerate(paths) if repeated(p)]
    return False, "no node other than s and t lies on two paths (node sets compared)%s" % (
        "; P_%s repeat a node, which is thm2.valid's failure, not this claim's" % ",".join(map(str, rep)) if rep else "")


def check_fault_tolerance(case):
    mc, s, t, paths = setup(case)
    bound = mc.k + mc.m - 1
    bad = first_non_walk(mc, paths, s, t)
    if bad:
        return False, "P_%d is not a walk from s to t (%s)" % bad
    sets = [set(p) - {s, t} for p in paths]
    faults = case["witness"].get("faults")
    if faults is not None:
        F = {mc.node(x) for x in faults}
        if s in F or t in F:
            return False, "the fault set contains s or t"
        if len(F) > bound:
            return False, "the fault set has %d nodes, more than k + m - 1 = %d" % (len(F), bound)
        missed = [i for i, q in enumerate(sets) if not (q & F)]
        if missed:
            return False, "the fault set misses P_%d" % missed[0]
        return True, "faults {%s} (%d <= k + m - 1 = %d, not s or t) meet every one of the %d paths" % (
            ", ".join(sorted(mc.text(x) for x in F)), len(F), bound, len(paths))
    universe = sorted(set().union(*sets))
    if any(not q for q in sets):
        return False, "a path has no internal node (s adjacent to t): no fault set meets it"
    for size in range(1, bound + 1):
        for F in itertools.combinations(universe, size):
            Fs = set(F)
            if all(q & Fs for q in sets):
                return True, "faults {%s} (%d <= k + m - 1 = %d, not s or t, found by this checker) meet every path" % (
                    ", ".join(mc.text(x) for x in F), size, bound)
    return False, "no set of at most k + m - 1 = %d nodes other than s, t meets every path" % bound


def check_alg4_commutes(case):
    mc, s, t, paths = setup(case)
    tr = case["witness"]["translate"]
    a = mc.node(tr["a"])
    if mc.cls(a) != 0:
        return False, "a = %s has a nonzero class field: XOR with it is not an automorphism" % tr["a"]
    s2, t2 = mc.node(tr["s"]), mc.node(tr["t"])
    if (s2, t2) != (s ^ a, t ^ a):
        return False, "the translated pair is not (s^a, t^a)"
    paths2 = [[mc.node(x) for x in p] for p in tr["paths"]]
    for name, ps, (x, y) in (("(s, t)", paths, (s, t)), ("(s^a, t^a)", paths2, (s2, t2))):
        for i, p in enumerate(ps):
            why = mc.walk(p, x, y)
            if why:
                return False, "P_%d of %s: %s" % (i, name, why)
    if len(paths) != len(paths2):
        return True, "%d paths for (s, t), %d for (s^a, t^a)" % (len(paths), len(paths2))
    for i, (p, q) in enumerate(zip(paths, paths2)):
        moved = [x ^ a for x in p]
        if moved != q:
            return True, "a = %s: P_%d of (s^a, t^a) = %s is not P_%d of (s, t) XOR a = %s" % (
                tr["a"], i, mc.path_text(q), i, mc.path_text(moved))
    return False, "every path of (s^a, t^a) is the same-numbered path of (s, t) XOR a"


def check_case_bound(case):
    mc, s, t, paths = setup(case)
    bad = first_non_walk(mc, paths, s, t)
    if bad:
        return False, "P_%d is not a walk from s to t (%s): thm2.valid's failure" % bad
    H = bin(s ^ t).count("1")
    d = bin(mc.cls(s) ^ mc.cls(t)).count("1")
    field_mask = (1 << (mc.m * mc.h)) - 1
    own = ((1 << mc.m) - 1) << (mc.m * mc.cls(s))  # M[c_s]
    if d == 0 and ((s ^ t) & field_mask & ~own) == 0:
        case_number, bound = 0, H + 6
    elif d == 0:
        case_number, bound = 1, H + mc.h + 4
    else:
        case_number, bound = 2, H + mc.h + 4 + (d + 1 if d < mc.k else d - 1)
    for i, p in enumerate(paths):
        if len(p) - 1 > bound:
            return True, "P_%d (a walk of MC(%d,%d) from s to t) has length %d > the case-%d bound %d (H(s,t) = %d)" % (
                i, mc.k, mc.m, len(p) - 1, case_number, bound, H)
    return False, "every path is within the case-%d bound %d" % (case_number, bound)


def check_proof_combined(case):
    """metacube.thm2.proof.combined: the proof of Theorem 2 bounds its third case by
    H(s,t) + 2^k + 4 + max_i |Z_i| and then claims that is <= H(s,t) + 2^k + m + 5, i.e. that
    max_i |Z_i| <= m + 1. The Z_i are the k disjoint class paths of Algorithm 2 in the k-cube of
    class fields between the classes of s and t at distance d: d of length d - 1 and k - d of
    length d + 1 (the paper's lemma before Algorithm 2), so max |Z_i| = d + 1 when d < k, else
    d - 1. C: H(s,t), d, both bounds recomputed from s, t, k, m, and the inequality failing.
    W: that (s, t) falls in the proof's third case (the witness's "case" 2; its condition is
    Algorithm 4's, not re-derived here), checked only to be a pair in different classes."""
    mc = MC(case["params"]["k"], case["params"]["m"])
    s, t = mc.node(case["input"]["s"]), mc.node(case["input"]["t"])
    need(s != t, "s = t")
    need(case.get("witness", {}).get("case") == 2, "the witness names no third case (\"case\": 2)")
    d = bin(mc.cls(s) ^ mc.cls(t)).count("1")
    if d == 0:
        return False, "s and t are in one class: not the proof's third case"
    H = bin(s ^ t).count("1")
    max_z = d + 1 if d < mc.k else d - 1
    case_bound = H + mc.h + 4 + max_z
    theorem_bound = H + mc.h + mc.m + 5
    if case_bound > theorem_bound:
        return True, ("H(s,t) = %d, class distance d = %d, max|Z_i| = %d: the third case's bound %d > "
                      "H(s,t) + 2^k + m + 5 = %d" % (H, d, max_z, case_bound, theorem_bound))
    return False, "the third case's bound %d <= %d: the combining step holds here" % (case_bound, theorem_bound)


CHECKERS = {
    "metacube.thm2.valid": check_valid,
    "metacube.thm2.disjoint": check_disjoint,
    "metacube.thm2.fault_tolerance": check_fault_tolerance,
    "metacube.thm2.case_bound": check_case_bound,
    "metacube.symmetry.alg4_commutes": check_alg4_commutes,
    "metacube.thm2.proof.combined": check_proof_combined,
}
