"""Certificate checkers for the ITM family (papers/002, Liu, "Incremental Triangular Mesh").

Independent of topocheck: nothing of the project is imported or run. The definitions below are
written from the paper's text:

  - AddNode(G', v; (x, y)) adds node v and the edges (v, x), (v, y). The 3-clique is an ITM;
    G is an ITM iff it is AddNode of an ITM. Rule "any-edge": the corresponding edge may be any
    edge (the definition); rule "exterior": only an exterior edge (the contention-free section).
  - Exterior marking (contention-free section): the kernel's three edges are exterior; adding v
    at (x, y) makes (x, y) interior and (v, x), (v, y) exterior. Under "any-edge" the same
    marking is applied (an interior corresponding edge stays interior).
  - The circular order is the exterior cycle (Lemma 4) enumerated in either direction;
    messages w->x, y->z are independent iff w < x < y < z cyclically.
  - Theorem 3's "totally triangulated for a Hamiltonian cycle C" under the three readings named
    in the claim (every-chord-crosses, maximal-outerplanar, planar-drawing).

The ITM itself is always rebuilt from input.steps ("v:(x,y) ..." on the kernel 0, 1, 2) under the
reading's rule, and the witness's `edges` / `exterior` must equal the rebuilt ones.

What each checker confirms (everything recomputed; the case's "violation" text is never read):
  itm.lemma1.cycle_chord   witness.order is a simple cycle of the rebuilt ITM (length >= 4 for
                           "along-cycle"), and no edge of G joins two of its nodes at distance 2
                           (two steps apart along the cycle, or at graph distance 2 in G, per
                           reading).
  itm.lemma4.counts        the rebuilt ITM's exterior / interior / facet counts (triangles and
                           bounded faces E - V + 1 of the planar embedding) are not n, n-3, n-2.
  itm.lemma4.cycle         the rebuilt exterior edges do not form one simple cycle through all nodes.
  itm.thm5.contention_free witness.order
                           is the exterior cycle, witness.paths are two shortest paths of G whose
                           endpoints are independent under the reading (paper / reversed /
                           undirected / shared-endpoint) and which share a directed edge (an
                           edge in either direction for "undirected"). A witness showing only that
                           the circular order does not exist (exterior edges not a Hamiltonian
                           cycle) is REJECTED unless PREMISE_FAILURE_REFUTES: it is Lemma 4's
                           failure, and the theorem is then not applicable, not refuted.
  itm.broadcast.contention_free  witness.order (the exterior cycle), witness.source and two
                           shortest paths of two messages of one round of the recursive broadcast
                           (source sends to the middle of the list, halves recurse) sharing a
                           directed edge. "No circular order" witnesses: as for thm5.
  itm.thm3.only_if         witness.edges is the graph of input.graph6; witness.spanning_itm is a
                           spanning subgraph that is an ITM under the rule (AddNode sequence
                           found by search); and NO Hamiltonian cycle of G (all enumerated)
                           makes G totally triangulated under the reading.
  itm.thm3.if              witness.edges is the graph6 graph; witness.order is a Hamiltonian
                           cycle for which G is totally triangulated under the reading; and no
                           subset of 2n-3 edges of G is an ITM under the rule (all enumerated).
"""

import itertools

import networkx as nx

RULES = ("any-edge", "exterior")

# Theorem 5 and the broadcast speak of "the circular order defined earlier", which the paper takes
# from Lemma 4's exterior cycle. When that cycle does not exist (an any-edge ITM), the witness shows
# Lemma 4's failure, not two messages in contention: by issue 21 item 3 ("never refuted by another
# claim's failure") such a case is not certified for thm5 / broadcast. Set True to accept it.
PREMISE_FAILURE_REFUTES = False


# ---- ITM construction and recognition ------------------------------------------------------

def norm(e):
    a, b = int(e[0]), int(e[1])
    return (a, b) if a < b else (b, a)


def parse_steps(text):
    steps = []
    for tok in (text or "").split():
        v, rest = tok.split(":", 1)
        x, y = rest.strip("()").split(",")
        steps.append((int(v), int(x), int(y)))
    return steps


def build_itm(steps_text, rule):
    """Returns (edges, exterior) as sets of sorted pairs, or raises ValueError."""
    edges = {(0, 1), (0, 2), (1, 2)}
    exterior = set(edges)
    nodes = {0, 1, 2}
    for v, x, y in parse_steps(steps_text):
        e = norm((x, y))
        if v in nodes:
            raise ValueError(f"step {v}: node already present")
        if e not in edges:
            raise ValueError(f"step {v}: ({x},{y}) is not an edge")
        if rule == "exterior" and e not in exterior:
            raise ValueError(f"step {v}: ({x},{y}) is not exterior (rule exterior)")
        nodes.add(v)
        exterior.discard(e)
        for u in (x, y):
            edges.add(norm((v, u)))
            exterior.add(norm((v, u)))
    if nodes != set(range(len(nodes))):
        raise ValueError("nodes are not 0..n-1")
    return edges, exterior


def is_itm(edge_set, nodes, rule):
    """True iff the graph (nodes, edge_set) is an ITM under `rule`: some AddNode sequence from a
    kernel triangle builds exactly these edges (backtracking search over the orders)."""
    nodes = sorted(nodes)
    n = len(nodes)
    T = {norm(e) for e in edge_set}
    if n < 3 or len(T) != 2 * n - 3:
        return False
    adj = {v: set() for v in nodes}
    for a, b in T:
        if a not in adj or b not in adj:
            return False
        adj[a].add(b)
        adj[b].add(a)

    def grow(placed, ext):
        if len(placed) == n:
            return True
        for v in nodes:
            if v in placed:
                continue
            nb = adj[v] & placed
            if len(nb) != 2:
                continue
            x, y = sorted(nb)
            if (x, y) not in T:
                continue
            if rule == "exterior" and (x, y) not in ext:
                continue
            ext2 = (ext - {(x, y)}) | {norm((v, x)), norm((v, y))}
            if grow(placed | {v}, ext2):
                return True
            # v's attachment is forced, and adding more nodes never invalidates another
            # candidate except through the exterior marking: only the exterior rule needs
            # to try other orders.
            if rule != "exterior":
                return False
        return False

    for a, b, c in itertools.combinations(nodes, 3):
        if {(a, b), (a, c), (b, c)} <= T:
            if grow({a, b, c}, {(a, b), (a, c), (b, c)}):
                return True
    return False


def graph_of(edges):
    g = nx.Graph()
    g.add_edges_from(tuple(e) for e in edges)
    return g


def rebuild(case, rule):
    """Rebuilds the ITM of input.steps and compares it with the witness. Returns (G, edges,
    exterior, error-or-None)."""
    try:
        edges, ext = build_itm(case["input"].get("steps", ""), rule)
    except ValueError as err:
        return None, None, None, f"input.steps is not an ITM under rule {rule}: {err}"
    w = case.get("witness", {})
    if "edges" in w and {norm(e) for e in w["edges"]} != edges:
        return None, None, None, "witness.edges differ from the ITM rebuilt from input.steps"
    if "exterior" in w and {norm(e) for e in w["exterior"]} != ext:
        return None, None, None, "witness.exterior differs from the exterior edges rebuilt by the paper's marking"
    n = len({v for e in edges for v in e})
    if "n" in case.get("params", {}) and case["params"]["n"] != n:
        return None, None, None, f"params.n = {case['params']['n']} but the ITM has {n} nodes"
    g = graph_of(edges)
    return g, edges, ext, None


def rule_of(reading):
    for r in RULES:
        if reading == r or reading.startswith(r + "-"):
            return r, reading[len(r) + 1:]
    raise ValueError(f"reading {reading!r} names no rule")


def exterior_cycle(ext, nodes):
    """The exterior cycle as a node list if the exterior edges form one simple cycle through
    every node; otherwise (None, reason)."""
    h = graph_of(ext)
    h.add_nodes_from(nodes)
    for v in sorted(nodes):
        if h.degree(v) != 2:
            return None, f"node {v} is on {h.degree(v)} exterior edges, not 2"
    if not nx.is_connected(h):
        return None, "the exterior edges form more than one cycle"
    cyc = [0]
    prev = None
    while True:
        nxt = [u for u in sorted(h[cyc[-1]]) if u != prev]
        if prev is None:
            nxt = nxt[:1]
        if nxt[0] == cyc[0]:
            break
        prev = cyc[-1]
        cyc.append(nxt[0])
        if len(cyc) > len(nodes):
            return None, "exterior walk does not close"
    if len(cyc) != len(nodes):
        return None, "the exterior cycle misses nodes"
    return cyc, None


def same_circular_order(order, cyc):
    n = len(cyc)
    if sorted(order) != sorted(cyc) or len(order) != n:
        return False
    i = cyc.index(order[0])
    fwd = [cyc[(i + k) % n] for k in range(n)]
    bwd = [cyc[(i - k) % n] for k in range(n)]
    return list(order) in (fwd, bwd)


def is_shortest_path(g, p):
    if len(p) < 2 or len(set(p)) != len(p):
        return False
    if any(not g.has_edge(a, b) for a, b in zip(p, p[1:])):
        return False
    return nx.shortest_path_length(g, p[0], p[-1]) == len(p) - 1


# ---- Lemma 1, third property -----------------------------------------------------------------

def check_cycle_chord(case):
    rule, meaning = rule_of(case["reading"])
    g, edges, ext, err = rebuild(case, rule)
    if err:
        return False, err
    c = [int(v) for v in case["witness"].get("order", [])]
    k = len(c)
    if k < 3 or len(set(c)) != k or any(not g.has_edge(c[i], c[(i + 1) % k]) for i in range(k)):
        return False, f"witness.order {c} is not a simple cycle of the ITM"
    if meaning == "along-cycle":
        if k < 4:
            return False, f"cycle of length {k}: the along-cycle reading counts cycles of length >= 4 only"
        bad = [(c[i], c[(i + 2) % k]) for i in range(k) if g.has_edge(c[i], c[(i + 2) % k])]
    elif meaning == "along-cycle-all-cycles":
        bad = [(c[i], c[(i + 2) % k]) for i in range(k) if c[(i + 2) % k] != c[i] and g.has_edge(c[i], c[(i + 2) % k])]
        if k == 3:
            bad = []  # two steps along a triangle is one step back: no pair at distance 2 along it
    elif meaning == "graph-distance":
        dist = dict(nx.all_pairs_shortest_path_length(g))
        bad = [(a, b) for a, b in itertools.combinations(c, 2) if g.has_edge(a, b) and dist[a][b] == 2]
    else:
        return False, f"unknown chord meaning {meaning!r}"
    if bad:
        return False, f"cycle {c} has the edge {bad[0]} joining two of its nodes at distance 2 ({meaning})"
    return True, f"ITM ({rule}) rebuilt; cycle {c} of length {k} has no edge joining two of its nodes at distance 2 ({meaning})"


# ---- Lemma 4 ---------------------------------------------------------------------------------

def check_lemma4_counts(case):
    rule, rest = rule_of(case["reading"])
    g, edges, ext, err = rebuild(case, rule)
    if err:
        return False, err
    n = g.number_of_nodes()
    interior = len(edges) - len(ext)
    triangles = sum(nx.triangles(g).values()) // 3
    planar, _ = nx.check_planarity(g)
    faces = len(edges) - n + 1 if planar else None  # bounded faces of a connected plane graph (Euler)
    wrong = []
    if len(ext) != n:
        wrong.append(f"{len(ext)} exterior edges, not n = {n}")
    if interior != n - 3:
        wrong.append(f"{interior} interior edges, not n - 3 = {n - 3}")
    if triangles != n - 2:
        wrong.append(f"{triangles} triangles, not n - 2 = {n - 2}")
    if faces is not None and faces != n - 2:
        wrong.append(f"{faces} bounded faces, not n - 2 = {n - 2}")
    if not wrong:
        return False, f"all Lemma 4 counts hold on this ITM (n = {n})"
    return True, "ITM rebuilt from input.steps; " + "; ".join(wrong)


def check_lemma4_cycle(case):
    rule, rest = rule_of(case["reading"])
    g, edges, ext, err = rebuild(case, rule)
    if err:
        return False, err
    cyc, why = exterior_cycle(ext, list(g.nodes))
    if cyc is not None:
        return False, f"the exterior edges form the simple cycle {cyc} through every node"
    return True, f"ITM ({rule}) rebuilt; exterior edges are not a simple cycle through every node: {why}"


# ---- Theorem 5 and the broadcast -------------------------------------------------------------

def cyc_less(order, *nodes_):
    """a1 < a2 < ... cyclically in `order` (strict, distinct positions)."""
    n = len(order)
    pos = {v: i for i, v in enumerate(order)}
    base = pos[nodes_[0]]
    offs = [(pos[v] - base) % n for v in nodes_]
    return all(offs[i] < offs[i + 1] for i in range(len(offs) - 1))


def directed_edges(p):
    return {(a, b) for a, b in zip(p, p[1:])}


def check_thm5(case):
    rule, variant = rule_of(case["reading"])
    g, edges, ext, err = rebuild(case, rule)
    if err:
        return False, err
    if variant not in ("", "reversed", "undirected", "shared-endpoint"):
        return False, f"unknown contention reading {variant!r}"
    cyc, why = exterior_cycle(ext, list(g.nodes))
    w = case["witness"]
    if cyc is None:
        if "paths" in w:
            return False, "witness names paths but the circular order does not exist"
        return PREMISE_FAILURE_REFUTES, (
            f"ITM ({rule}) rebuilt; no circular order exists (Lemma 4's exterior cycle fails: {why}); this is "
            f"itm.lemma4.cycle's violation, not two independent messages sharing a directed edge"
            + ("" if PREMISE_FAILURE_REFUTES else ": NOT certified as a contention"))
    if "paths" not in w or "order" not in w:
        return False, f"the exterior cycle {cyc} exists and the witness names no contention"
    order = [int(v) for v in w["order"]]
    if not same_circular_order(order, cyc):
        return False, f"witness.order {order} is not the exterior cycle {cyc} in either direction"
    p, q = [[int(v) for v in path] for path in w["paths"]]
    for path in (p, q):
        if not is_shortest_path(g, path):
            return False, f"path {path} is not a shortest path of the ITM"
    wn, xn, yn, zn = p[0], p[-1], q[0], q[-1]
    if variant in ("", "undirected"):
        ok = len({wn, xn, yn, zn}) == 4 and cyc_less(order, wn, xn, yn, zn)
        desc = f"{wn} < {xn} < {yn} < {zn}"
    elif variant == "reversed":  # second message z -> y
        ok = len({wn, xn, yn, zn}) == 4 and cyc_less(order, wn, xn, zn, yn)
        desc = f"{wn} < {xn} < {zn} < {yn} (second message reversed)"
    else:  # shared-endpoint: w < x <= y < z <= w
        n = len(order)
        pos = {v: i for i, v in enumerate(order)}
        ox, oy, oz = [(pos[v] - pos[wn]) % n for v in (xn, yn, zn)]
        if oz == 0:
            oz = n
        ok = 0 < ox <= oy < oz <= n and wn != xn and yn != zn
        desc = f"{wn} < {xn} <= {yn} < {zn} <= {wn}"
    if not ok:
        return False, f"messages {wn}->{xn} and {yn}->{zn} are not independent under reading {case['reading']}"
    if variant == "undirected":
        shared = {norm(e) for e in directed_edges(p)} & {norm(e) for e in directed_edges(q)}
    else:
        shared = directed_edges(p) & directed_edges(q)
    if not shared:
        return False, f"shortest paths {p} and {q} share no {'edge' if variant == 'undirected' else 'directed edge'}"
    return True, (f"ITM ({rule}) rebuilt, order = exterior cycle; {desc} cyclically; shortest paths {p} and {q} "
                  f"share {sorted(shared)[0]}")


def broadcast_rounds(order, source):
    """The recursive broadcast over the circular order from `source`: the source sends to the
    middle of the list, then both halves recurse. Returns rounds as lists of (sender, receiver)."""
    n = len(order)
    i = order.index(source)
    lst = [order[(i + k) % n] for k in range(n)]
    rounds = []

    def rec(sub, r):
        if len(sub) <= 1:
            return
        mid = len(sub) // 2
        while len(rounds) <= r:
            rounds.append([])
        rounds[r].append((sub[0], sub[mid]))
        rec(sub[:mid], r + 1)
        rec(sub[mid:], r + 1)

    rec(lst, 0)
    return rounds


def check_broadcast(case):
    rule, variant = rule_of(case["reading"])
    g, edges, ext, err = rebuild(case, rule)
    if err:
        return False, err
    cyc, why = exterior_cycle(ext, list(g.nodes))
    w = case["witness"]
    if cyc is None:
        if "paths" in w:
            return False, "witness names paths but the circular order does not exist"
        return PREMISE_FAILURE_REFUTES, (
            f"ITM ({rule}) rebuilt; no circular order exists for the broadcast (exterior cycle fails: {why}); this is "
            f"itm.lemma4.cycle's violation, not two messages of one round on one directed edge"
            + ("" if PREMISE_FAILURE_REFUTES else ": NOT certified as a contention"))
    if "paths" not in w or "order" not in w or "source" not in w:
        return False, f"the exterior cycle {cyc} exists and the witness names no contention"
    order = [int(v) for v in w["order"]]
    if not same_circular_order(order, cyc):
        return False, "witness.order is not the exterior cycle"
    p, q = [[int(v) for v in path] for path in w["paths"]]
    msgs = {(a, b): r for r, rd in enumerate(broadcast_rounds(order, int(w["source"]))) for a, b in rd}
    for path in (p, q):
        if not is_shortest_path(g, path) or (path[0], path[-1]) not in msgs:
            return False, f"path {path} is not a shortest path of a broadcast message"
    if msgs[(p[0], p[-1])] != msgs[(q[0], q[-1])] or (p[0], p[-1]) == (q[0], q[-1]):
        return False, "the two messages are not two messages of one round"
    shared = directed_edges(p) & directed_edges(q)
    if not shared:
        return False, "the two paths share no directed edge"
    return True, f"two messages of one broadcast round share directed edge {sorted(shared)[0]}"


# ---- Theorem 3 -------------------------------------------------------------------------------

def crosses(order_pos, e, f):
    a, b = sorted((order_pos[e[0]], order_pos[e[1]]))
    c, d = sorted((order_pos[f[0]], order_pos[f[1]]))
    if len({a, b, c, d}) < 4:
        return False
    return (a < c < b) != (a < d < b)


def totally_triangulated(g, cycle, reading):
    n = len(cycle)
    pos = {v: i for i, v in enumerate(cycle)}
    sides = {norm((cycle[i], cycle[(i + 1) % n])) for i in range(n)}
    E = {norm(e) for e in g.edges}
    chords = sorted(E - sides)
    non_edges = [p for p in itertools.combinations(sorted(g.nodes), 2) if p not in E]
    if reading == "every-chord-crosses":
        return all(any(crosses(pos, ne, e) for e in E) for ne in non_edges)
    if reading == "maximal-outerplanar":
        if any(crosses(pos, e, f) for e, f in itertools.combinations(chords, 2)):
            return False
        return all(any(crosses(pos, ne, e) for e in E) for ne in non_edges)
    if reading == "planar-drawing":
        for mask in range(1 << len(chords)):
            inside = [c for i, c in enumerate(chords) if mask >> i & 1]
            outside = [c for i, c in enumerate(chords) if not mask >> i & 1]
            if any(crosses(pos, e, f) for side in (inside, outside) for e, f in itertools.combinations(side, 2)):
                continue
            if all(any(crosses(pos, ne, e) for e in inside) and any(crosses(pos, ne, e) for e in outside)
                   for ne in non_edges):
                return True
        return False
    raise ValueError(f"unknown triangulated reading {reading!r}")


def hamiltonian_cycles(g):
    nodes = sorted(g.nodes)
    if len(nodes) < 3:
        return
    first = nodes[0]
    for perm in itertools.permutations(nodes[1:]):
        if perm[0] > perm[-1]:
            continue
        cyc = [first] + list(perm)
        if all(g.has_edge(cyc[i], cyc[(i + 1) % len(cyc)]) for i in range(len(cyc))):
            yield cyc


def graph6_graph(case):
    g = nx.from_graph6_bytes(case["input"]["graph6"].encode())
    w = {norm(e) for e in case["witness"].get("edges", [])}
    if w != {norm(e) for e in g.edges}:
        return None, "witness.edges differ from input.graph6"
    if case.get("params", {}).get("n", g.number_of_nodes()) != g.number_of_nodes():
        return None, "params.n differs from the graph's order"
    return g, None


def check_thm3_only_if(case):
    rule, reading = rule_of(case["reading"])
    g, err = graph6_graph(case)
    if err:
        return False, err
    sp = {norm(e) for e in case["witness"].get("spanning_itm", [])}
    if not sp <= {norm(e) for e in g.edges}:
        return False, "witness.spanning_itm is not a subgraph of G"
    if not is_itm(sp, set(g.nodes), rule):
        return False, f"witness.spanning_itm is not a spanning ITM under rule {rule}"
    for cyc in hamiltonian_cycles(g):
        if totally_triangulated(g, cyc, reading):
            return False, f"G is totally triangulated ({reading}) for the Hamiltonian cycle {cyc}"
    return True, (f"G has a spanning ITM ({rule}, AddNode sequence found) but none of its Hamiltonian cycles makes it "
                  f"totally triangulated ({reading})")


def check_thm3_if(case):
    rule, reading = rule_of(case["reading"])
    g, err = graph6_graph(case)
    if err:
        return False, err
    cyc = [int(v) for v in case["witness"].get("order", [])]
    n = g.number_of_nodes()
    if sorted(cyc) != sorted(g.nodes) or any(not g.has_edge(cyc[i], cyc[(i + 1) % n]) for i in range(n)):
        return False, f"witness.order {cyc} is not a Hamiltonian cycle of G"
    if not totally_triangulated(g, cyc, reading):
        return False, f"G is not totally triangulated ({reading}) for {cyc}"
    for sub in itertools.combinations(sorted(norm(e) for e in g.edges), 2 * n - 3):
        if is_itm(set(sub), set(g.nodes), rule):
            return False, f"G has a spanning ITM ({rule}): {list(sub)}"
    return True, (f"G is Hamiltonian and totally triangulated ({reading}) for {cyc}, and no {2 * n - 3}-edge spanning "
                  f"subgraph is an ITM ({rule})")


CHECKERS = {
    "itm.lemma1.cycle_chord": check_cycle_chord,
    "itm.lemma4.counts": check_lemma4_counts,
    "itm.lemma4.cycle": check_lemma4_cycle,
    "itm.thm5.contention_free": check_thm5,
    "itm.broadcast.contention_free": check_broadcast,
    "itm.thm3.only_if": check_thm3_only_if,
    "itm.thm3.if": check_thm3_if,
}
