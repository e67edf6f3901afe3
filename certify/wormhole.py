"""Certificate checkers for the wormhole claims of papers/002 (Liu, "Incremental Triangular Mesh":
the abstract's deadlock freedom, contention-free broadcast and the throughput comparison with
up*/down* routing).

Independent of topocheck: nothing of the project is imported or run. ITMs are rebuilt with the
AddNode definition of this directory's itm.py (also independent, written from the paper).
Definitions used here:
  - Wormhole switching (abstract): "blocked messages remain in the network, prohibiting other
    messages from using the occupied links and buffers". Channels are directed links; a worm
    holds a contiguous run of channels ending at the node its head is at, and waits for the next
    channel of its route. A deadlock is a cycle of worms, each waiting for a channel held by the
    next. Shortest-path routing: every hop reduces the distance to the destination.
  - up*/down* (Autonet): a BFS tree from the root; the "up" end of a link is the end with the
    smaller (BFS level, id); a legal route is zero or more up hops, then zero or more down hops.

What each checker confirms:
  wormhole.thm2.non_itm_deadlock_free  witness.edges is the named graph (c4 = C_4, k23 = K_{2,3},
       grid3x3 = the 3x3 grid, up to isomorphism; nonchordal: has a chordless cycle of length
       >= 4) and is not an ITM under either rule; witness.deadlock.stuck lists worms of input.messages whose
       wait-for relation (worm -> holder of the channel it wants) is one cycle through all of them; held
       channels of different worms are disjoint; each worm's held channels are a contiguous walk
       ending at its head node `at`, no more than its length in flits (buffer 1 flit per
       channel); its held channels plus the wanted one lie on a shortest path from its source to
       its destination. The simulation run that reached the state is not replayed (the state's
       reachability is taken from the witness).
  wormhole.updown.shortest_paths  the ITM rebuilt from input.steps (rule of the reading) equals
       witness.edges; the root (kernel node for "kernel-root"); over the BFS tree from the root,
       some shortest path of G takes a down hop followed by an up hop (found by enumeration and
       named in the message), so up*/down* forbids it.
  wormhole.abstract.throughput_vs_updown  (empirical; the simulator is not re-run) every
       instance's ratio equals sp/updown; the instance named by input (seed, size) exists and has
       sp <= updown, i.e. shortest-path routing is not strictly better there, which is what the
       reading ("strictly higher ... on every instance") forbids; witness.steps builds an ITM
       (any-edge) of that size; for root-center the root is the rebuilt ITM's center (smallest
       eccentricity, then smallest id). The throughput figures themselves are taken from the
       witness.
  wormhole.broadcast.contention_free  as itm.broadcast.contention_free (itm.py): a "no circular
       order" witness is Lemma 4's failure and is not certified (itm.PREMISE_FAILURE_REFUTES).
"""

import importlib.util
import itertools
import os

import networkx as nx

_spec = importlib.util.spec_from_file_location("certify_itm_b", os.path.join(os.path.dirname(__file__), "itm.py"))
itm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(itm)


def parse_channel(text):
    a, b = text.split("->")
    return int(a), int(b)


NAMED = {
    "c4": lambda: nx.cycle_graph(4),
    "k23": lambda: nx.complete_bipartite_graph(2, 3),
    "grid3x3": lambda: nx.grid_2d_graph(3, 3),
}


def has_chordless_cycle(g, min_len=4):
    return not nx.is_chordal(g)


def check_deadlock(case):
    reading = case["reading"]
    w = case["witness"]
    g = nx.Graph()
    g.add_edges_from(tuple(e) for e in w["edges"])
    if reading in NAMED:
        if not nx.is_isomorphic(g, NAMED[reading]()):
            return False, f"witness.edges is not the graph {reading}"
    elif reading == "nonchordal":
        if not has_chordless_cycle(g):
            return False, "the graph is chordal (no chordless cycle of length >= 4)"
    else:
        return False, f"unknown control graph {reading!r}"
    if not nx.is_connected(g):
        return False, "the graph is not connected"
    if any(itm.is_itm({itm.norm(e) for e in g.edges}, set(g.nodes), rule) for rule in itm.RULES):
        return False, "the graph is an ITM: the claim's premise (not an ITM) fails"
    msgs = case["input"]["messages"]
    dl = w["deadlock"]
    stuck = dl["stuck"]
    if len(stuck) < 2:
        return False, "a waiting cycle needs at least two worms"
    dist = dict(nx.all_pairs_shortest_path_length(g))
    held_by = {}
    for s in stuck:
        for t in s["held_text"]:
            ch = parse_channel(t)
            if not g.has_edge(*ch):
                return False, f"channel {t} is not a link of the graph"
            if ch in held_by:
                return False, f"channel {t} is held by worms {held_by[ch]} and {s['worm']}"
            held_by[ch] = s["worm"]
    worms = [s["worm"] for s in stuck]
    if len(set(worms)) != len(worms):
        return False, "a worm appears twice in the waiting cycle"
    waits_for = {}
    for s in stuck:
        k = s["worm"]
        if not 0 <= k < len(msgs):
            return False, f"worm {k} is not a message of input.messages"
        src, dst, length = msgs[k][0], msgs[k][1], msgs[k][2]
        held = [parse_channel(t) for t in s["held_text"]]
        if not held or len(held) > max(1, length):
            return False, f"worm {k} holds {len(held)} channels with {length} flits (one flit per channel buffer)"
        if any(held[j][1] != held[j + 1][0] for j in range(len(held) - 1)) or held[-1][1] != s["at"]:
            return False, f"worm {k}'s held channels are not a contiguous walk ending at its head {s['at']}"
        if len(s["wants_text"]) != 1:
            return False, f"worm {k} must wait for exactly one channel"
        want = parse_channel(s["wants_text"][0])
        if want[0] != s["at"] or not g.has_edge(*want):
            return False, f"worm {k} at {s['at']} cannot want {want}"
        route = [held[0][0]] + [c[1] for c in held] + [want[1]]
        if dist[src][route[0]] + (len(route) - 1) + dist[route[-1]][dst] != dist[src][dst] or len(set(route)) != len(route):
            return False, f"worm {k} ({src}->{dst}): channels {route} are not on a shortest path"
        if s["at"] == dst:
            return False, f"worm {k} is at its destination"
        if want not in held_by or held_by[want] == k:
            return False, f"worm {k} waits for {want}, which no other worm of the cycle holds"
        waits_for[k] = held_by[want]
    # The wait-for map must be one cycle through every listed worm.
    seen, k = [], worms[0]
    while k not in seen:
        seen.append(k)
        k = waits_for[k]
    if k != worms[0] or len(seen) != len(worms):
        return False, f"the wait-for relation {waits_for} is not one cycle through the listed worms"
    return True, (f"{reading} (not an ITM): {len(stuck)} worms in a waiting cycle, each holding a channel the previous "
                  f"one wants on its shortest path: " + ", ".join(f"{s['worm']} wants {s['wants_text'][0]}" for s in stuck))


def updown_levels(g, root):
    return nx.single_source_shortest_path_length(g, root)


def check_updown(case):
    rule, rest = itm.rule_of(case["reading"])
    g, edges, ext, err = itm.rebuild(case, rule)
    if err:
        return False, err
    root = int(case["witness"]["root"])
    if root not in g:
        return False, f"root {root} is not a node"
    if rest == "kernel-root" and root not in (0, 1, 2):
        return False, f"root {root} is not a kernel node"
    if rest not in ("kernel-root", "any-root"):
        return False, f"unknown root reading {rest!r}"
    lvl = updown_levels(g, root)

    def up(u, v):  # hop u -> v goes up
        return (lvl[v], v) < (lvl[u], u)

    for s, t in itertools.permutations(sorted(g.nodes), 2):
        for p in nx.all_shortest_paths(g, s, t):
            dirs = [up(a, b) for a, b in zip(p, p[1:])]
            for j in range(len(dirs) - 1):
                if not dirs[j] and dirs[j + 1]:
                    return True, (f"ITM ({rule}) rebuilt; BFS from root {root}: the shortest path {p} goes down "
                                  f"{p[j]}->{p[j + 1]} then up {p[j + 1]}->{p[j + 2]}, which up*/down* forbids")
    return False, f"every shortest path is a legal up*/down* route from root {root}"


def check_throughput(case):
    w = case["witness"]
    inst = w.get("instances", [])
    if not inst:
        return False, "no instances"
    for x in inst:
        if x["updown"] <= 0 or abs(x["sp"] / x["updown"] - x["ratio"]) > 1e-9:
            return False, f"instance size {x['size']} seed {x['seed']}: ratio {x['ratio']} is not sp/updown"
    want = (case["input"]["size"], case["input"]["seed"])
    named = [x for x in inst if (x["size"], x["seed"]) == want]
    if len(named) != 1:
        return False, f"input instance {want} is not among the witness's instances"
    x = named[0]
    if x["sp"] > x["updown"]:
        return False, f"instance {want}: shortest-path {x['sp']} is strictly higher than up*/down* {x['updown']}"
    rule = case.get("params", {}).get("rule", "any-edge")
    try:
        edges, ext = itm.build_itm(w.get("steps", ""), rule)
    except ValueError as e:
        return False, f"witness.steps is not an ITM: {e}"
    g = itm.graph_of(edges)
    if g.number_of_nodes() != want[0]:
        return False, f"witness.steps builds {g.number_of_nodes()} nodes, not {want[0]}"
    if case["reading"].endswith("root-center"):
        ecc = nx.eccentricity(g)
        center = min(g.nodes, key=lambda v: (ecc[v], v))
        if center != w.get("root"):
            return False, f"root {w.get('root')} is not the center {center}"
    worse = sum(1 for y in inst if y["sp"] <= y["updown"])
    return True, (f"instance size {want[0]} seed {want[1]}: shortest-path {x['sp']:.4f} <= up*/down* {x['updown']:.4f} "
                  f"(not strictly better); {worse} of {len(inst)} instances are not strictly better (figures taken from "
                  f"the witness, not re-simulated)")


CHECKERS = {
    "wormhole.thm2.non_itm_deadlock_free": check_deadlock,
    "wormhole.updown.shortest_paths": check_updown,
    "wormhole.abstract.throughput_vs_updown": check_throughput,
    "wormhole.broadcast.contention_free": itm.check_broadcast,
}
