"""Certificate checkers of the migration family: Chen and Tzeng, "On-Line Task Migration in
Hypercubes Through Double Disjoint Paths" (papers/000). Definitions written from the paper:

- Subcubes are strings over {0,1,*}, bit n-1 first. D(S) = {i : S[i] = *}; I(S,T) = {i : S[i] =
  T[i]} (two '*' are equal); C(S,T) = {i : S[i], T[i] fixed and complementary}; D(S)-D(T),
  D(T)-D(S). zeta = |C|, beta = |D(S)-D(T)|, gamma = |D(S) n D(T)|.
- alpha: a bijection D(S)-D(T) -> D(T)-D(S), written "i:j,..." ("" with beta > 0: i-th smallest
  to i-th smallest).
- f (Section 2.2) and g (equation (1)): u[i] on I, T[i] on C u (D(S)-D(T)); on i in D(T)-D(S),
  u[i] or its complement by whether u[a^-1(i)] = T[a^-1(i)]. The OCR lost the bar; the Fig. 2
  example (f(001011) = 100000, g(001011) = 110100) pins f: complement when equal, g: complement
  when different ("bars-fig2", written "f:=,g:!="); the other assignments are the readings
  "bars-f{eq,ne}-g{eq,ne}". h (equation (2)): complement D(T)-D(S).
- D_f(S|u) = {i in D(S) : u[i] != f(u)[i]}, D_f(T|u) likewise in D(T); D_g(.|u) with g.
- Hamming path a -> b: a walk crossing every dimension of a XOR b exactly once.
  Regular (Definition 1): a Hamming path u -> f(u) whose links along D(T|u) u C precede those
  along D(S|u); subscripts read D_f ("Df", the dimensions of the path) or D_g as printed ("Dg").
  Aggressive (Definition 2): a Hamming path u -> g(u) whose links along D_g(T|u) precede those
  along C u D_g(S|u).
- A block is an active subcube other than S; a block link joins two nodes of one block.
- The procedure (Section 4): Case a) (D_f(S|u) nonempty) an aggressive path u -> w -> g(u) and a
  regular path u -> x -> f(u) extended along the fixed dimension sequence to h(f(u)) = g(u);
  Case b) two aggressive paths, one taking link k last, one taking it first. Section 4.2
  (|C| = {k}): S splits along D(S) n D(T) into subcubes B (stars on D(S)-D(T)); the specific
  node q of B (D_g(S|q) empty) takes the single link k, and, when some p of B has an aggressive
  path whose last link is not k, the second path q -> q^X (HAMMING-PATH) -> link k -> along the
  broadcast sequence over X, X = D_g(T|p) ("XD_g") or D_f(T|p) ("XD_f"; the subscript is lost).
  "If beta = 0 or every aggressive path from B traverses link k last, the second migration path
  between q and g(q) is absent."

What each checker confirms (C) and takes from the witness (W):
- thm1/thm2.all_disjoint, thm2.pair_disjoint: C: the witness's instance is the input's; f and g of
  every listed node recomputed (paper bars) and equal to the witness's; every path a simple walk of
  Q_n from u to g(u) with no block link; every path has the shape of its kind by the definitions
  above (aggressive; regular up to f(u) then the node's sequence; k last / k first Hamming paths;
  the single link; q's second path: Hamming over X, link k, X in the broadcast order, X recomputed
  from p, p in B with an aggressive path not ending in k; each B the split of S along D(S) n D(T)
  with q its node with D_g(S|q) empty); then two paths of different nodes (all_disjoint) or the
  two paths of one node (pair_disjoint: equal, or) sharing what the reading names. W: which
  Hamming path HAMMING-PATH returned (the paper cites it and does not give it: any block-free
  Hamming path between the right ends is accepted), and the choices alpha, k, p, sequence.
- thm2.two_paths: C: as above for the listed paths; a node u != g(u) with fewer than two paths,
  and the paper's own rule gives it one (specific node; beta = 0 or every aggressive path of its
  B, from the witness and checked as aggressive, ends with link k). W: the aggressive paths.
- conclusion.tells_absence: C: as two_paths for the short node, then a further block-free path
  u -> g(u) disjoint (reading) from every chosen path, found by this checker (NetworkX BFS, then
  every simple path) and re-checked. W: as above.
- conclusion.tells_absence_jointly: C: the procedure leaves a node short by the paper's rule
  (beta = 0, or recomputed with this checker's own HAMMING-PATH for every p of B); the stored
  paths (input.paths) are two per node u != g(u), valid, block-free, all pairwise disjoint under
  the reading. Nothing from the witness.
- iso.*, lemma2/3/4/6, hamming.any_pair, sec42.specific_nodes, sec5.*: no witness; the checker
  searches the instance of the input itself (every node, every path of the kind) and certifies
  when it finds the violation the reading names.
"""
import itertools
import math

import networkx as nx

from _common import Malformed, bits, dims_of, fmt, hop_dim, need, path_text, popcount, repeated, shared

READINGS_D = ("node", "link", "directed-link")


# ---- subcubes and the instance -------------------------------------------------------------

class Cube:
    def __init__(self, text, n=None, what="subcube"):
        need(isinstance(text, str) and text != "" and set(text) <= {"0", "1", "*"},
             "%s %r is not a string over 0, 1, *" % (what, text))
        need(n is None or len(text) == n, "%s %r does not have %s symbols" % (what, text, n))
        self.text, self.n = text, len(text)
        self.star = sum(1 << (self.n - 1 - i) for i, c in enumerate(text) if c == "*")
        self.value = sum(1 << (self.n - 1 - i) for i, c in enumerate(text) if c == "1")

    def contains(self, x):
        return (x & ~self.star) == self.value

    def nodes(self):
        out = []
        free = dims_of(self.star)
        for combo in range(1 << len(free)):
            x = self.value
            for j, d in enumerate(free):
                if combo >> j & 1:
                    x |= 1 << d
            out.append(x)
        return sorted(out)


class Inst:
    def __init__(self, S, T, alpha_text, n=None):
        self.S, self.T = Cube(S, n, "S"), Cube(T, n, "T")
        self.n = self.S.n
        need(self.T.n == self.n, "S and T have different widths")
        need(popcount(self.S.star) == popcount(self.T.star), "S and T have different dimensions")
        full = (1 << self.n) - 1
        self.DS, self.DT = self.S.star, self.T.star
        fixed = full & ~self.DS & ~self.DT
        self.C = fixed & (self.S.value ^ self.T.value)
        self.DSmDT, self.DTmDS = self.DS & ~self.DT, self.DT & ~self.DS
        self.zeta, self.beta, self.gamma = popcount(self.C), popcount(self.DSmDT), popcount(self.DS & self.DT)
        self.alpha = parse_alpha(alpha_text, self)
        self.inv = {j: i for i, j in self.alpha.items()}

    def bit(self, x, i):
        return x >> i & 1

    def image(self, u, complement_on_equal):
        """f or g: complement_on_equal says which of the two D(T)-D(S) cases complements."""
        x = 0
        for i in range(self.n):
            m = 1 << i
            if m & self.DTmDS:
                j = self.inv[i]
                eq = self.bit(u, j) == self.bit(self.T.value, j)
                b = self.bit(u, i) ^ (1 if eq == complement_on_equal else 0)
            elif m & (self.C | self.DSmDT):
                b = self.bit(self.T.value, i)
            else:
                b = self.bit(u, i)
            x |= b << i
        return x

    def f(self, u, bars=(True, False)):
        return self.image(u, bars[0])

    def g(self, u, bars=(True, False)):
        return self.image(u, bars[1])

    def h(self, v):
        return v ^ self.DTmDS

    def d_sets(self, u, bars=(True, False)):
        fu, gu = self.f(u, bars), self.g(u, bars)
        return {"fS": (u ^ fu) & self.DS, "fT": (u ^ fu) & self.DT,
                "gS": (u ^ gu) & self.DS, "gT": (u ^ gu) & self.DT}


def parse_alpha(text, inst):
    need(isinstance(text, str), "alpha must be a string")
    src, dst = dims_of(inst.DSmDT), dims_of(inst.DTmDS)
    if text == "":
        return dict(zip(src, dst))
    out = {}
    for part in text.split(","):
        a, sep, b = part.partition(":")
        need(sep == ":" and a.strip().isdigit() and b.strip().isdigit(), "alpha %r is not i:j,..." % text)
        out[int(a)] = int(b)
    need(sorted(out) == src and sorted(out.values()) == dst,
         "alpha %r is not a bijection D(S)-D(T) -> D(T)-D(S)" % text)
    return out


def parse_bars(reading_part):
    """"bars-fig2" / "bars-feq-geq" ... -> (f complements on equal, g complements on equal)."""
    if reading_part == "bars-fig2":
        return (True, False)
    parts = reading_part.split("-")
    need(len(parts) == 3 and parts[0] == "bars" and parts[1] in ("feq", "fne") and parts[2] in ("geq", "gne"),
         "unknown bars reading %r" % reading_part)
    return (parts[1] == "feq", parts[2] == "geq")


def bars_of_text(text):
    need(text in ("f:=,g:!=", "f:=,g:=", "f:!=,g:=", "f:!=,g:!="), "bars %r unknown" % text)
    f, g = text.split(",")
    return (f == "f:=", g == "g:=")


# ---- path kinds -------------------------------------------------------------------------------

def hop_dims(path):
    return [hop_dim(a, b) for a, b in zip(path, path[1:])]


def is_hamming(path, a, b):
    if not path or path[0] != a or path[-1] != b:
        return False
    ds = hop_dims(path)
    return None not in ds and len(ds) == popcount(a ^ b) and len(set(ds)) == len(ds)


def precede(path, first, then):
    """Every link along a dimension of `first` comes before every link along one of `then`."""
    ds = hop_dims(path)
    last_first = max([i for i, d in enumerate(ds) if first >> d & 1], default=-1)
    first_then = min([i for i, d in enumerate(ds) if then >> d & 1], default=len(ds))
    return last_first < first_then


def is_regular(inst, path, u, reading="Df"):
    if not inst.S.contains(u) or not is_hamming(path, u, inst.f(u)):
        return False
    d = inst.d_sets(u)
    if reading == "Df":
        return precede(path, d["fT"] | inst.C, d["fS"])
    return precede(path, d["gT"] | inst.C, d["gS"])


def is_aggressive(inst, path, u):
    if not inst.S.contains(u) or not is_hamming(path, u, inst.g(u)):
        return False
    d = inst.d_sets(u)
    return precede(path, d["gT"], inst.C | d["gS"])


def hamming_paths(a, b):
    out = []
    for perm in itertools.permutations(dims_of(a ^ b)):
        p = [a]
        for d in perm:
            p.append(p[-1] ^ (1 << d))
        out.append(p)
    return out


def along(a, seq):
    p = [a]
    for d in seq:
        p.append(p[-1] ^ (1 << d))
    return p


def block_link(blocks, a, b):
    return any(B.contains(a) and B.contains(b) for B in blocks)


def parse_blocks(text, n, avoid=()):
    need(isinstance(text, str), "blocks must be a string")
    blocks = [Cube(t, n, "block") for t in text.split(",")] if text else []
    for i, a in enumerate(blocks):
        for b in blocks[i + 1:]:
            need(((a.value ^ b.value) & ~a.star & ~b.star) != 0, "blocks %s and %s meet" % (a.text, b.text))
        for c in avoid:
            need(((a.value ^ c.value) & ~a.star & ~c.star) != 0, "block %s meets %s" % (a.text, c.text))
    return blocks


def hamming_path(a, b, blocks, tie):
    """HAMMING-PATH (cited, not given): the first block-free Hamming path a -> b in the tie-break's
    order of dimension sequences, or None when every Hamming path has a block link."""
    order = dims_of(a ^ b)
    if tie == "descending":
        order.reverse()

    def dfs(x, left):
        if not left:
            return [x]
        for d in left:
            y = x ^ (1 << d)
            if not block_link(blocks, x, y):
                rest = dfs(y, [e for e in left if e != d])
                if rest:
                    return [x] + rest
        return None
    return dfs(a, order)


# ---- the plan in a theorem witness ----------------------------------------------------------

class Plan:
    pass


SEQ_QUANTIFIERS = ("-every-seq", "-some-seq")


def seq_quantifier(reading):
    """Section 4.2's broadcast sequence ("(in any sequence)"): "every" (refuted by one allowed
    sequence: the witness's), "some" (refuted only if every allowed sequence fails), or None."""
    for q in SEQ_QUANTIFIERS:
        if reading.endswith(q):
            return q[1:-4]
    return None


def x_of(reading):
    for q in SEQ_QUANTIFIERS:
        if reading.endswith(q):
            reading = reading[: -len(q)]
    for x in ("XD_f", "XD_g"):
        if reading == x or reading.endswith("-" + x):
            return x, reading[: -len(x)].rstrip("-")
    return None, reading


def load_plan(case):
    """Parses the witness's plan and confirms every fact about it listed in the header.
    Returns (plan, None) or (None, why it is not the paper's procedure's plan)."""
    inp, w, n = case["input"], case["witness"], case["params"]["n"]
    need(isinstance(n, int) and 1 <= n <= 20, "params.n must be an integer in 1..20")
    inst = Inst(inp["S"], inp["T"], inp.get("alpha", ""), n)
    P = Plan()
    P.inst, P.n = inst, n
    P.blocks = parse_blocks(inp.get("blocks", ""), n, (inst.S, inst.T))
    for key, mine in (("S", inp["S"]), ("T", inp["T"]), ("n", n)):
        if key in w and w[key] != mine:
            return None, "the witness's %s = %r is not the input's %r" % (key, w[key], mine)
    if "bars" in w and bars_of_text(w["bars"]) != (True, False):
        return None, "the witness's plan uses bars %s, not the paper's f:=,g:!= (Fig. 2)" % w["bars"]
    if w.get("alpha", inp.get("alpha", "")) != inp.get("alpha", "") and parse_alpha(w["alpha"], inst) != inst.alpha:
        return None, "the witness's alpha is not the input's"
    P.section42 = inst.zeta == 1
    P.x = inp.get("x", "D_g")
    need(P.x in ("D_g", "D_f"), "input.x must be D_g or D_f")
    k = inp.get("k", -1)
    C = dims_of(inst.C)
    P.k = (C[0] if C else -1) if k == -1 else k
    need(P.k == -1 or P.k in C, "input.k is not in C(S,T)")
    seq_text = inp.get("sequence", "")
    P.seq = [int(s) for s in seq_text.split(",")] if seq_text else dims_of(inst.DTmDS)
    need(sorted(P.seq) == dims_of(inst.DTmDS), "input.sequence is not a sequence of D(T)-D(S)")
    P.nodes = {}
    for np_ in w["nodes"]:
        u = bits(np_["u"], n)
        if not inst.S.contains(u):
            return None, "listed node %s is not in S" % np_["u"]
        if u in P.nodes:
            return None, "node %s listed twice" % np_["u"]
        paths = []
        for mp in np_["paths"]:
            paths.append({"kind": mp["kind"], "path": [bits(x, n) for x in mp["path"]],
                          "ext": mp.get("extension_from", -1)})
        P.nodes[u] = {"case": np_["case"], "paths": paths, "f": np_.get("f"), "g": np_.get("g"),
                      "missing": np_.get("missing", "")}
    # the B subcubes (Section 4.2)
    P.bs = []
    if P.section42:
        for b in w.get("bs", []):
            B = Cube(b["B"], n, "B")
            q = bits(b["q"], n)
            p = bits(b["p"], n) if b.get("p") else None
            seq = list(b.get("sequence", P.seq))
            if B.star != inst.DSmDT or not all(inst.S.contains(x) for x in B.nodes()):
                return None, "B = %s is not a subcube of S with stars on D(S)-D(T)" % b["B"]
            qs = [x for x in B.nodes() if inst.d_sets(x)["gS"] == 0]
            if qs != [q]:
                return None, "B = %s: its nodes with D_g(S|q) empty are %s, not q = %s" % (
                    b["B"], [fmt(x, n) for x in qs], b["q"])
            if sorted(seq) != dims_of(inst.DTmDS):
                return None, "B = %s: the broadcast sequence is not one of D(T)-D(S)" % b["B"]
            P.bs.append({"B": B, "q": q, "p": p, "seq": seq})
        covered = sorted(x for b in P.bs for x in b["B"].nodes())
        if P.bs and covered != inst.S.nodes():
            return None, "the subcubes B do not partition S"
    why = check_plan_paths(P)
    return (None, why) if why else (P, None)


def b_of(P, u):
    for b in P.bs:
        if b["B"].contains(u):
            return b
    return None


def seq_for(P, u):
    b = b_of(P, u)
    return b["seq"] if b else P.seq


def check_plan_paths(P):
    inst, n = P.inst, P.n
    for u, np_ in sorted(P.nodes.items()):
        fu, gu = inst.f(u), inst.g(u)
        U = fmt(u, n)
        if np_["f"] is not None and bits(np_["f"], n) != fu:
            return "node %s: the witness says f(u) = %s, the paper's f gives %s" % (U, np_["f"], fmt(fu, n))
        if np_["g"] is not None and bits(np_["g"], n) != gu:
            return "node %s: the witness says g(u) = %s, the paper's g gives %s" % (U, np_["g"], fmt(gu, n))
        d = inst.d_sets(u)
        for mp in np_["paths"]:
            p, kind = mp["path"], mp["kind"]
            T = path_text(p, n)
            if p[0] != u or p[-1] != gu:
                return "node %s: path %s does not run from u to g(u) = %s" % (U, T, fmt(gu, n))
            if None in hop_dims(p):
                return "node %s: %s is not a walk of Q_%d" % (U, T, n)
            r = repeated(p)
            if r:
                return "node %s: %s repeats node %s" % (U, T, fmt(r[0], n))
            for a, b in zip(p, p[1:]):
                if block_link(P.blocks, a, b):
                    return "node %s: %s uses block link %s-%s" % (U, T, fmt(a, n), fmt(b, n))
            why = kind_mismatch(P, u, d, mp)
            if why:
                return "node %s: %s path %s: %s" % (U, kind, T, why)
    return None


def kind_mismatch(P, u, d, mp):
    inst, p, kind, ext = P.inst, mp["path"], mp["kind"], mp["ext"]
    fu, gu = inst.f(u), inst.g(u)
    ds = hop_dims(p)
    if kind == "aggressive":
        return None if is_aggressive(inst, p, u) else "not an aggressive path (Definition 2)"
    if kind == "regular+extension":
        if d["fS"] == 0:
            return "Case a) needs D_f(S|u) nonempty"
        if not (0 <= ext < len(p)) or p[ext] != fu:
            return "its extension does not start at f(u) = %s" % fmt(fu, P.n)
        if not is_regular(inst, p[: ext + 1], u, "Df"):
            return "its part up to f(u) is not a regular path (Definition 1)"
        if p[ext:] != along(fu, seq_for(P, u)):
            return "its extension does not follow the fixed sequence %s" % seq_for(P, u)
        return None
    if kind in ("case-b-k-last", "case-b-k-first"):
        if d["fS"] != 0:
            return "Case b) needs D_f(S|v) empty"
        if not is_hamming(p, u, gu) or not is_aggressive(inst, p, u):
            return "not an aggressive Hamming path"
        want = ds[-1] if kind == "case-b-k-last" else ds[0]
        return None if want == P.k else "does not take link k = %d %s" % (P.k, kind[9:])
    if kind == "single-link":
        return None if P.section42 and len(p) == 2 and d["gS"] == 0 else "not the single link of a specific node"
    if kind == "specific-second":
        b = b_of(P, u)
        if not P.section42 or b is None or b["q"] != u or b["p"] is None:
            return "not the second path of a specific node q with a chosen p"
        pp = b["p"]
        if pp == u or not b["B"].contains(pp):
            return "p = %s is not another node of q's B" % fmt(pp, P.n)
        agg = [m["path"] for m in P.nodes.get(pp, {"paths": []})["paths"] if m["kind"] == "aggressive"]
        if not agg or hop_dims(agg[0])[-1] == P.k:
            return "p = %s has no aggressive path whose last link is not k" % fmt(pp, P.n)
        dp = inst.d_sets(pp)
        X = dp["gT"] if P.x == "D_g" else dp["fT"]
        m = popcount(X)
        if len(ds) != 2 * m + 1 or set(ds[:m]) != set(dims_of(X)) or ds[m] != P.k:
            return "not q -> q^X -> link k -> ... with X = %s = {%s}" % (P.x + "(T|p)", ",".join(map(str, dims_of(X))))
        if ds[m + 1:] != [x for x in b["seq"] if X >> x & 1]:
            return "its last subpath does not follow the broadcast sequence %s" % b["seq"]
        return None
    return "unknown path kind"


def all_paths(P):
    return [(u, i, mp["path"]) for u, np_ in sorted(P.nodes.items()) for i, mp in enumerate(np_["paths"])]


def reading_parts(case, thm):
    reading = case["reading"]
    x, d = x_of(reading)
    if thm == 2:
        need(x is not None, "reading %r names no X" % reading)
        need(case["input"].get("x") == x[1:], "reading %s but input.x = %r" % (reading, case["input"].get("x")))
    need(d in READINGS_D or d == "", "unknown reading %r" % reading)
    return d


def every_assignment(case, P, thm, violation_of):
    """A some-sequence reading ("refuted only if every allowed sequence fails"): None when the
    reading quantifies over no sequence, or when the witness's one plan stands for every allowed
    sequence (D(T)-D(S) has at most one dimension). Otherwise the witness must list, in
    "every_assignment", one plan per assignment of an order of D(T)-D(S) to each B; each is
    loaded and checked like the main plan, the assignments must be exactly all of them, and each
    plan must show the violation (violation_of(plan) -> (found, message)). Returns None when
    confirmed, else (False, why)."""
    if seq_quantifier(case["reading"]) != "some" or len(P.seq) <= 1:
        return None
    plans = case["witness"].get("every_assignment")
    if not isinstance(plans, list) or not plans:
        return False, ("some-sequence reading: D(T)-D(S) = %s allows %d orders per B, and the witness lists no "
                       "plan per assignment (\"every_assignment\")" % (P.seq, math.factorial(len(P.seq))))
    seen = set()
    for i, w in enumerate(plans):
        Q, why = load_plan(dict(case, witness=w))
        if why:
            return False, "every_assignment[%d]: %s" % (i, why)
        why = situation_ok(Q, thm)
        if why:
            return False, "every_assignment[%d]: %s" % (i, why)
        found, msg = violation_of(Q)
        if not found:
            return False, "every_assignment[%d] (sequences %s): %s" % (i, [b["seq"] for b in Q.bs], msg)
        seen.add(tuple(tuple(b["seq"]) for b in sorted(Q.bs, key=lambda b: str(b["B"]))))
    orders = list(itertools.permutations(P.seq))
    wanted = set(itertools.product(orders, repeat=len(P.bs)))
    if seen != wanted:
        return False, "every_assignment covers %d of the %d assignments of an order to each of the %d B's" % (
            len(seen & wanted), len(wanted), len(P.bs))
    return None


def situation_ok(P, thm):
    if thm == 1 and P.inst.zeta == 1:
        return "|C(S,T)| = 1: Theorem 1 does not apply"
    if thm == 2 and P.inst.zeta != 1:
        return "|C(S,T)| = %d: Theorem 2 does not apply" % P.inst.zeta
    return None


def check_all_disjoint(thm):
    def fn(case):
        d = reading_parts(case, thm)
        P, why = load_plan(case)
        if why:
            return False, why
        why = situation_ok(P, thm)
        if why:
            return False, why

        def violation_of(Q):
            ps = all_paths(Q)
            for a in range(len(ps)):
                for b in range(a + 1, len(ps)):
                    (u, _, p), (v, _, q) = ps[a], ps[b]
                    if u == v:
                        continue
                    s = shared(p, q, d, Q.n)
                    if s:
                        return True, "nodes %s and %s: paths %s and %s: %s (every path checked valid and of its kind)" % (
                            fmt(u, Q.n), fmt(v, Q.n), path_text(p, Q.n), path_text(q, Q.n), s)
            return False, "no two paths of different nodes share a %s" % ("node" if d == "node" else d)
        refused = every_assignment(case, P, thm, violation_of)
        if refused:
            return refused
        found, msg = violation_of(P)
        if found and seq_quantifier(case["reading"]) == "some" and len(P.seq) > 1:
            msg += "; and likewise under every other assignment of orders to the B's (every_assignment)"
        return found, msg
    return fn


def check_pair_disjoint(case):
    d = reading_parts(case, 2)
    P, why = load_plan(case)
    if why:
        return False, why
    why = situation_ok(P, 2)
    if why:
        return False, why

    def violation_of(Q):
        for u, np_ in sorted(Q.nodes.items()):
            if len(np_["paths"]) < 2:
                continue
            p, q = np_["paths"][0]["path"], np_["paths"][1]["path"]
            if p == q:
                return True, "node %s: its two paths are one path %s (not two disjoint paths under any reading)" % (
                    fmt(u, Q.n), path_text(p, Q.n))
            s = shared(p, q, d, Q.n)
            if s:
                return True, "node %s: its paths %s and %s: %s" % (fmt(u, Q.n), path_text(p, Q.n), path_text(q, Q.n), s)
        return False, "the two paths of every node are distinct and %s-disjoint" % d
    refused = every_assignment(case, P, 2, violation_of)
    return refused if refused else violation_of(P)


def short_by_rule(P, u):
    """Why the paper's procedure leaves node u with one path (None: it does not by the text)."""
    inst = P.inst
    if not P.section42 or inst.d_sets(u)["gS"] != 0:
        return None
    if inst.beta == 0:
        return "specific node with beta = 0 (Section 4.2: \"If beta = 0 ... the second migration path between q and g(q) is absent\")"
    b = b_of(P, u)
    if b is None:
        return None
    for x in b["B"].nodes():
        if x == u:
            continue
        agg = [m["path"] for m in P.nodes.get(x, {"paths": []})["paths"] if m["kind"] == "aggressive"]
        if not agg or hop_dims(agg[0])[-1] != P.k:
            return None
    return "every aggressive path from its B traverses link k last (Section 4.2)"


def short_node(P):
    for u, np_ in sorted(P.nodes.items()):
        if u != P.inst.g(u) and len(np_["paths"]) < 2:
            return u, np_
    return None, None


def check_two_paths(case):
    reading_parts(case, 2)
    P, why = load_plan(case)
    if why:
        return False, why
    why = situation_ok(P, 2)
    if why:
        return False, why
    listed = sorted(P.nodes)
    if listed != P.inst.S.nodes():
        return False, "the witness does not list every node of S"
    u, np_ = short_node(P)
    if u is None:
        return False, "every node u != g(u) has two paths"
    rule = short_by_rule(P, u)
    if not rule:
        return False, "node %s has %d path(s), but the paper's procedure gives it two" % (fmt(u, P.n), len(np_["paths"]))
    return True, "node %s -> %s: %d path; %s" % (fmt(u, P.n), fmt(P.inst.g(u), P.n), len(np_["paths"]), rule)


def q_graph(n, blocks):
    G = nx.Graph()
    G.add_nodes_from(range(1 << n))
    for x in range(1 << n):
        for i in range(n):
            y = x ^ (1 << i)
            if x < y and not block_link(blocks, x, y):
                G.add_edge(x, y)
    return G


def disjoint_from_all(p, others, d, n):
    """p is another path than every one of `others` and disjoint (reading d) from each."""
    return all(p != q and shared(p, q, d, n) is None for q in others)


def find_further_path(P, u, others, d):
    """A block-free path u -> g(u) disjoint (reading d) from every path of `others`, or None."""
    n, gu = P.n, P.inst.g(u)
    G = q_graph(n, P.blocks)
    H = G.copy()
    if d == "node":
        H.remove_nodes_from({x for q in others for x in q} - {u, gu})
    else:
        for q in others:
            H.remove_edges_from([(a, b) for a, b in zip(q, q[1:]) if H.has_edge(a, b)] if d == "link" else [])
    try:
        p = nx.shortest_path(H, u, gu)
        if disjoint_from_all(p, others, d, n):
            return p
    except nx.NetworkXNoPath:
        pass
    if n <= 5:
        for p in nx.all_simple_paths(G, u, gu):
            if disjoint_from_all(p, others, d, n):
                return p
    return None


def check_tells_absence(case):
    reading = case["reading"]
    need(reading.startswith("4.1-") or reading.startswith("4.2-"), "unknown reading %r" % reading)
    thm = 2 if reading.startswith("4.2-") else 1
    rest = reading[4:]
    x, d = x_of(rest)
    need(d in READINGS_D, "unknown reading %r" % reading)
    if thm == 2:
        need(x is not None and case["input"].get("x") == x[1:], "reading %s does not match input.x" % reading)
    P, why = load_plan(case)
    if why:
        return False, why
    why = situation_ok(P, thm)
    if why:
        return False, why
    u, np_ = short_node(P)
    if u is None:
        return False, "every node u != g(u) has two paths: nothing is reported absent"
    rule = short_by_rule(P, u)
    if not rule:
        return False, "node %s is short, but not by the paper's rule" % fmt(u, P.n)
    others = [p for (_, _, p) in all_paths(P)]
    p = find_further_path(P, u, others, d)
    if p is None:
        return False, "node %s: no block-free path to g(u) is %s-disjoint from every chosen path" % (fmt(u, P.n), d)
    return True, ("node %s: the procedure reports the second path absent (%s), yet %s is block-free and %s-disjoint "
                  "from every chosen path (found by this checker)" % (fmt(u, P.n), rule, path_text(p, P.n), d))


def check_tells_absence_jointly(case):
    reading = case["reading"]
    need(reading[:4] in ("4.1-", "4.2-") and reading[4:] in READINGS_D, "unknown reading %r" % reading)
    d, thm = reading[4:], (2 if reading.startswith("4.2") else 1)
    inp, n = case["input"], case["params"]["n"]
    inst = Inst(inp["S"], inp["T"], inp.get("alpha", ""), n)
    if (inst.zeta == 1) != (thm == 2):
        return False, "|C(S,T)| = %d is not the reading's situation" % inst.zeta
    blocks = parse_blocks(inp.get("blocks", ""), n, (inst.S, inst.T))
    # 1. the procedure leaves a node short, by the paper's rule (recomputed, nothing from the witness)
    short = None
    if thm == 2:
        C = dims_of(inst.C)
        k = C[0] if inp.get("k", -1) == -1 else inp["k"]
        tie = inp.get("tie_break", "ascending")
        for q in inst.S.nodes():
            if inst.d_sets(q)["gS"] != 0:
                continue
            if inst.beta == 0:
                short = (q, "beta = 0")
                break
            B = [x for x in inst.S.nodes() if (x ^ q) & ~inst.DSmDT == 0 and x != q]
            eligible = False
            for p in B:
                w = p ^ inst.d_sets(p)["gT"]
                a, b = hamming_path(p, w, blocks, tie), hamming_path(inst.g(p), w, blocks, tie)
                if a is None or b is None:
                    continue
                agg = a + b[::-1][1:]
                if hop_dims(agg)[-1] != k:
                    eligible = True
            if not eligible:
                short = (q, "every aggressive path from its B traverses link k last")
                break
    if short is None:
        return False, "the paper's procedure leaves no node short on this input (by the rule of Section 4.2)"
    # 2. the stored paths: two per node u != g(u), valid, block-free, pairwise disjoint
    stored = [[bits(x, n) for x in p] for p in inp["paths"]]
    movers = [u for u in inst.S.nodes() if u != inst.g(u)]
    if len(stored) != 2 * len(movers):
        return False, "input.paths has %d paths, not two for each of the %d nodes u != g(u)" % (len(stored), len(movers))
    for j, p in enumerate(stored):
        u = movers[j // 2]
        if p[0] != u or p[-1] != inst.g(u) or None in hop_dims(p) or repeated(p):
            return False, "stored path %s is not a simple path of Q_%d from %s to g = %s" % (
                path_text(p, n), n, fmt(u, n), fmt(inst.g(u), n))
        if any(block_link(blocks, a, b) for a, b in zip(p, p[1:])):
            return False, "stored path %s uses a block link" % path_text(p, n)
    for a in range(len(stored)):
        for b in range(a + 1, len(stored)):
            if stored[a] == stored[b] or shared(stored[a], stored[b], d, n):
                return False, "stored paths %s and %s are not %s-disjoint" % (
                    path_text(stored[a], n), path_text(stored[b], n), d)
    return True, ("node %s is left short by the procedure (%s), yet the stored paths give every node two block-free "
                  "paths, all pairwise %s-disjoint" % (fmt(short[0], n), short[1], d))


# ---- claims without a witness: search the instance --------------------------------------------

def lemma_inst(case):
    inp = case["input"]
    n = case["params"].get("n")
    return Inst(inp["S"], inp["T"], inp.get("alpha", ""), n)


def first_shared(ps, qs, d, n):
    for p in ps:
        for q in qs:
            s = shared(p, q, d, n)
            if s:
                return p, q, s
    return None


def against_aggressive(inst, same, d, paths_of):
    n = inst.n
    for u in inst.S.nodes():
        if inst.d_sets(u)["fS"] == 0:
            continue
        mine = paths_of(u)
        for v in inst.S.nodes():
            if u == v and not same:
                continue
            if inst.g(v) == v:
                continue  # Section 4.1: "then v = g(v) and there is no migration path needed for v"
            agg = [p for p in hamming_paths(v, inst.g(v)) if is_aggressive(inst, p, v)]
            hit = first_shared(mine, agg, d, n)
            if hit:
                return "u = %s, v = %s: %s and %s: %s" % (fmt(u, n), fmt(v, n), path_text(hit[0], n),
                                                         path_text(hit[1], n), hit[2])
    return None


def check_lemma2(case):
    parts = case["reading"].split("-", 2)
    need(len(parts) == 3 and parts[0] in ("Df", "Dg") and parts[1] in ("any", "distinct") and parts[2] in READINGS_D,
         "unknown reading %r" % case["reading"])
    inst = lemma_inst(case)
    v = against_aggressive(inst, parts[1] == "any", parts[2], lambda u: [
        p for p in hamming_paths(u, inst.f(u)) if is_regular(inst, p, u, parts[0])])
    return (True, "regular (%s) against aggressive: %s" % (parts[0], v)) if v else \
        (False, "every regular path and every aggressive path are %s-disjoint here" % parts[2])


def check_lemma6(case):
    parts = case["reading"].split("-", 1)
    need(len(parts) == 2 and parts[0] in ("any", "distinct") and parts[1] in READINGS_D,
         "unknown reading %r" % case["reading"])
    inst = lemma_inst(case)
    v = against_aggressive(inst, parts[0] == "any", parts[1],
                           lambda u: hamming_paths(u, u ^ inst.DTmDS))
    return (True, "Hamming path u -> u' (u' = u XOR D(T)-D(S)) against aggressive: %s" % v) if v else \
        (False, "every such Hamming path and every aggressive path are %s-disjoint here" % parts[1])


def check_lemma3(case):
    d = case["reading"]
    need(d in READINGS_D, "unknown reading %r" % d)
    inst = lemma_inst(case)
    n = inst.n
    T = inst.T.nodes()
    for seq in itertools.permutations(dims_of(inst.DTmDS)):
        for i, u in enumerate(T):
            for v in T[i + 1:]:
                p, q = along(u, seq), along(v, seq)
                s = shared(p, q, d, n)
                if s:
                    return True, "sequence %s: %s and %s (u -> h(u), v -> h(v)): %s" % (
                        ",".join(map(str, seq)), path_text(p, n), path_text(q, n), s)
    return False, "every two such paths are %s-disjoint here" % d


def check_lemma4(case):
    r = case["reading"]
    need(r in ("Df", "Dg"), "unknown reading %r" % r)
    inst = lemma_inst(case)
    n = inst.n
    for u in inst.S.nodes():
        if inst.d_sets(u)["fS"] == 0:
            continue
        for p in hamming_paths(u, inst.f(u)):
            if not is_regular(inst, p, u, r):
                continue
            for a, b in zip(p, p[1:]):
                if inst.T.contains(a) and inst.T.contains(b):
                    return True, "regular (%s) path %s of u = %s uses link %s-%s of T" % (
                        r, path_text(p, n), fmt(u, n), fmt(a, n), fmt(b, n))
    return False, "no regular path uses a link of T here"


def check_iso(what):
    def fn(case):
        bars = parse_bars(case["reading"])
        inst = lemma_inst(case)
        n = inst.n
        for u in inst.S.nodes():
            fu, gu = inst.f(u, bars), inst.g(u, bars)
            if what == "g_is_h_of_f" and gu != inst.h(fu):
                return True, "u = %s: g(u) = %s but h(f(u)) = %s" % (fmt(u, n), fmt(gu, n), fmt(inst.h(fu), n))
            if what == "distance" and popcount(u ^ fu) != inst.zeta + inst.beta:
                return True, "u = %s: H(u, f(u)) = %d, |C| + |D(S)-D(T)| = %d" % (
                    fmt(u, n), popcount(u ^ fu), inst.zeta + inst.beta)
        return False, "holds for every u of S here"
    return fn


def check_hamming_any_pair(case):
    r = case["reading"]
    need(r in ("any-endpoints", "endpoints-outside-blocks"), "unknown reading %r" % r)
    n = case["params"]["n"]
    need(isinstance(n, int) and 2 <= n <= 12, "params.n must be in 2..12")
    S0, T1 = Cube("0" * n), Cube("1" * n)
    blocks = parse_blocks(case["input"]["blocks"], n, (S0, T1))
    for a in range(1 << n):
        for b in range(a + 1, 1 << n):
            if r == "endpoints-outside-blocks" and any(B.contains(a) or B.contains(b) for B in blocks):
                continue
            if all(any(block_link(blocks, x, y) for x, y in zip(p, p[1:])) for p in hamming_paths(a, b)):
                return True, "blocks %s: every Hamming path from %s to %s (all %d) has a block link" % (
                    case["input"]["blocks"], fmt(a, n), fmt(b, n), len(hamming_paths(a, b)))
    return False, "every pair has a block-free Hamming path"


def check_specific_nodes(case):
    r = case["reading"]
    need(r in ("as-printed", "2^gamma"), "unknown reading %r" % r)
    inst = lemma_inst(case)
    n = inst.n
    if inst.zeta != 1:
        return False, "|C(S,T)| = %d: Section 4.2 does not apply" % inst.zeta
    # S split along D(S) n D(T): one subcube per assignment of those dimensions
    common = inst.DS & inst.DT
    Bs = {}
    for x in inst.S.nodes():
        Bs.setdefault(x & common, []).append(x)
    expected = 1 << (inst.beta if r == "as-printed" else inst.gamma)
    if len(Bs) != expected:
        return True, "S = %s, T = %s: S splits into %d subcubes B along D(S) n D(T), not 2^%s = %d" % (
            inst.S.text, inst.T.text, len(Bs), "beta" if r == "as-printed" else "gamma", expected)
    for key, xs in Bs.items():
        q = [x for x in xs if inst.d_sets(x)["fS"] == 0]
        if len(q) != 1:
            return True, "a subcube B has %d nodes q with D_f(S|q) empty" % len(q)
    return False, "the counting holds here"


def check_latency(kind):
    bounds = {"within-10pct": 1.8, "within-5pct": 1.9, "at-least-45pct": 0.45}

    def fn(case):
        r = case["reading"]
        need(r in bounds, "unknown reading %r" % r)
        inp, n = case["input"], case["params"]["n"]
        zeta, beta, ratio, st = inp["zeta"], inp["beta"], float(inp["M_over_X"]), float(inp["startup_fraction"])
        # the claim's scope: n <= 16, beta >= 1, M >= 1000 X, start-up <= 1% of M/B, and zeta + 2 beta <= n:
        # Section 2.2, I, C, D(S)-D(T), D(T)-D(S) "are pairwise disjoint, and their union is N"
        if not (1 <= n <= 16 and beta >= 1 and zeta >= 0 and zeta + 2 * beta <= n and ratio >= 1000 and 0 <= st <= 0.01):
            return False, "the input is outside the claim's scope"
        M, B, X = ratio, 1.0, 1.0
        start = st * M / B
        single = start + (X / B) * (zeta + beta) + M / B          # Section 5.2: P = zeta + beta
        dual = start + (X / B) * (zeta + 2 * beta) + M / (2 * B)  # P = zeta + 2 beta, M/(2B)
        value = single / dual if kind == "speedup" else 1 - dual / single
        if value < bounds[r]:
            return True, "%s = %.4f / %.4f = %.4f < %s" % (kind, single, dual, value, bounds[r]) if kind == "speedup" \
                else "reduction = %.4f < %s" % (value, bounds[r])
        return False, "%s = %.4f >= %s" % (kind, value, bounds[r])
    return fn


CHECKERS = {
    "migration.thm1.all_disjoint": check_all_disjoint(1),
    "migration.thm2.all_disjoint": check_all_disjoint(2),
    "migration.thm2.pair_disjoint": check_pair_disjoint,
    "migration.thm2.two_paths": check_two_paths,
    "migration.conclusion.tells_absence": check_tells_absence,
    "migration.conclusion.tells_absence_jointly": check_tells_absence_jointly,
    "migration.lemma2.regular_aggressive_disjoint": check_lemma2,
    "migration.lemma3.h_paths_disjoint": check_lemma3,
    "migration.lemma4.regular_avoids_t": check_lemma4,
    "migration.lemma6.hamming_aggressive_disjoint": check_lemma6,
    "migration.iso.distance": check_iso("distance"),
    "migration.iso.g_is_h_of_f": check_iso("g_is_h_of_f"),
    "migration.hamming.any_pair": check_hamming_any_pair,
    "migration.sec42.specific_nodes": check_specific_nodes,
    "migration.sec5.speedup": check_latency("speedup"),
    "migration.sec5.reduction": check_latency("reduction"),
}
