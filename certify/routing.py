"""Certificate checkers for the routing family (papers/001, Raghupathy, Leuze, Schach, "Message
Routing Schemes in a Hypercube Machine").

Independent of topocheck: nothing of the project is imported or run. Definitions from the paper:
  - Static routing (Section 1): from the current node c to the destination d, route in dimension
    i = the index of the rightmost (lowest) bit in which c and d differ.
  - Dynamic routing (Sections 2-3): "the first unused link that will move it closer to its
    destination": any dimension in which c and d differ.
  - Store-and-forward, one hop per move. Finite buffers (the problem Section 1 sets aside, "we
    ignore the problem of deadlock caused by full message buffers [3]"), as the claim's readings
    state it: each message starts in its source's unbounded injection queue (not a buffer);
    per_node: one pool of B slots per node, a message that left its injection queue and is not
    delivered occupies a slot of the pool of the node it is at; per_link: one pool of B slots per
    directed link u->v (at v), occupied while the message that crossed u->v is at v. A hop into
    the destination delivers (no slot); any other hop needs a free slot of the target buffer and
    frees the slot held. Deadlock: an undelivered message exists and no move is possible.
  - Section 4's findings, with the tolerance each reading states (44 cases = routing x links x
    schemes A-K; running-time means):
      factor_two     max over the 22 (links, scheme) of mean(static)/mean(dynamic) lies in [1.6, 2.4]
      scheme_e_best  E within 1% of the fastest of the 44 cases, and in that case's (routing, links)
                     group A and C each within 10% of E
      uni_gain       gain = 100 (bi - uni) / bi over the 22 (routing, scheme): all >= -1, at most 3
                     above 15, median below 7.5

What each checker confirms:
  routing.sec1.finite_buffers_deadlock_free  replays input.witness's moves from the initial state
       (every message in its injection queue): each move is a hop the routing allows, into a buffer
       with a free slot (or into the destination); the replayed state equals witness `final`; in
       it some message is undelivered and NO message has a legal move (every allowed hop of every
       undelivered message needs a full buffer); the wait cycle is a cycle of messages each
       needing a buffer occupied by the next. Routing/buffers/capacity/n agree with params and
       the reading.
  routing.sec4.{factor_two, scheme_e_best, uni_gain}  recomputes the finding's figures from
       witness.means (the 44 per-case means of the case's workload seed; the simulator is not
       re-run), checks they agree with witness.evidence, and confirms the finding's condition
       fails; the message gives the margin by which it fails (the effect size), so a refutation by
       a hair is visible.
"""

import math
import statistics

SCHEMES = "ABCDEFGHIJK"


# ---- finite buffers ----------------------------------------------------------------------------

def bits(s):
    return int(s, 2)


def allowed_hops(c, d, n, routing):
    diff = c ^ d
    dims = [i for i in range(n) if diff >> i & 1]
    if not dims:
        return []
    if routing == "static":
        dims = dims[:1]  # the rightmost differing bit
    return [c ^ (1 << i) for i in dims]


def check_deadlock(case):
    w = case["input"]["witness"]
    params = case.get("params", {})
    n, cap, routing, buffers = w["n"], w["capacity"], w["routing"], w["buffers"]
    if (params.get("n"), params.get("capacity"), params.get("routing"), params.get("buffers")) != (n, cap, routing, buffers):
        return False, "params disagree with the witness"
    if case["reading"] != f"{routing}_{buffers}":
        return False, f"the witness is {routing}_{buffers}, not the reading {case['reading']}"
    if routing not in ("static", "dynamic") or buffers not in ("per_node", "per_link") or cap < 1:
        return False, "unknown model"
    msgs = [(bits(m["source"]), bits(m["destination"])) for m in w["messages"]]
    if any(s == d for s, d in msgs) or any(not (0 <= x < 2 ** n) for m in msgs for x in m):
        return False, "a message is not between two distinct nodes of Q_n"
    # state per message: ("queue", node) | ("buf", node, from) | ("done",)
    state = [("queue", s, None) for s, _ in msgs]

    def buffer_of(node, frm):
        return ("node", node) if buffers == "per_node" else ("link", frm, node)

    def occupancy():
        occ = {}
        for k, st in enumerate(state):
            if st[0] == "buf":
                occ.setdefault(buffer_of(st[1], st[2]), []).append(k)
        return occ

    def legal(k, to):
        st = state[k]
        if st[0] == "done":
            return False, "delivered"
        c = st[1]
        if to not in allowed_hops(c, msgs[k][1], n, routing):
            return False, f"{c:0{n}b}->{to:0{n}b} is not a hop {routing} routing allows"
        if to == msgs[k][1]:
            return True, ""
        b = buffer_of(to, c)
        if len(occupancy().get(b, [])) >= cap:
            return False, f"buffer {b} is full"
        return True, ""

    for j, mv in enumerate(w["moves"]):
        k = mv["message"]
        if not 0 <= k < len(msgs):
            return False, f"move {j}: no message {k}"
        frm, to = bits(mv["from"]), bits(mv["to"])
        if state[k][0] == "done" or state[k][1] != frm:
            return False, f"move {j}: message {k} is not at {mv['from']}"
        ok, why = legal(k, to)
        if not ok:
            return False, f"move {j} (m{k} {mv['from']}->{mv['to']}): {why}"
        state[k] = ("done", None, None) if to == msgs[k][1] else ("buf", to, frm)
    final = w["final"]
    if len(final) != len(msgs):
        return False, "witness.final does not list every message"
    for k, f in enumerate(final):
        st = state[k]
        want = {"buffered": "buf", "injected": "queue", "queued": "queue", "delivered": "done"}.get(f["where"])
        if want != st[0] or (st[0] != "done" and bits(f["node"]) != st[1]) or \
                (st[0] == "buf" and "from" in f and bits(f["from"]) != st[2]):
            return False, f"witness.final entry {k} differs from the replayed state {st}"
    undelivered = [k for k, st in enumerate(state) if st[0] != "done"]
    if not undelivered:
        return False, "every message is delivered"
    occ = occupancy()
    for k in undelivered:
        for to in allowed_hops(state[k][1], msgs[k][1], n, routing):
            ok, _ = legal(k, to)
            if ok:
                return False, f"not deadlocked: m{k} can move {state[k][1]:0{n}b}->{to:0{n}b}"
    cyc = w.get("wait_cycle", [])
    if len(cyc) < 2:
        return False, "no wait cycle"
    for i, k in enumerate(cyc):
        nxt = cyc[(i + 1) % len(cyc)]
        if state[k][0] == "done" or state[nxt][0] != "buf":
            return False, f"wait cycle: m{k} or m{nxt} is not waiting in a buffer"
        needs = {buffer_of(to, state[k][1]) for to in allowed_hops(state[k][1], msgs[k][1], n, routing)}
        if buffer_of(state[nxt][1], state[nxt][2]) not in needs:
            return False, f"wait cycle: m{k} needs no buffer m{nxt} occupies"
    return True, (f"replayed {len(w['moves'])} moves on Q_{n} ({routing}, {buffers}, B = {cap}): {len(undelivered)} "
                  f"undelivered messages, none has a legal move (every allowed hop needs a full buffer); wait cycle "
                  f"{cyc} confirmed")


# ---- Section 4 findings --------------------------------------------------------------------------
#
# A finding's witness gives, per figure the finding states, the figure's value in each study (one
# study per workload seed; taken from the witness, the simulator is not re-run) and the region the
# paper's sentence puts it in. The checker recomputes the mean, the sample standard deviation and
# the two-sided 95% Student t interval of the mean from those values (its own t table), checks the
# region against the paper's (fixed below, per claim), and certifies the refutation only when some
# figure's whole interval lies outside its region: an interval straddling a region's edge decides
# nothing.

# t_{0.975, df}, from the standard tables.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
        20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
        29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}

# The regions the paper's sentences state, per claim and figure.
REGIONS = {
    "routing.sec4.factor_two": {"max_ratio_static_over_dynamic": "in [1.6, 2.4]"},
    "routing.sec4.scheme_e_best": {"E_above_fastest_pct": "<= 1", "A_C_above_E_pct": "<= 10"},
}


def close(a, b, tol=2e-3):
    return abs(a - b) <= tol * max(1.0, abs(b))


def t975(df):
    if df in T975:
        return T975[df]
    below = [d for d in T975 if d < df]
    return T975[max(below)] if below else None  # conservative: the next smaller df's (larger) quantile


def region_of(text):
    """'in [a, b]' -> (a, b); '<= x' -> (-inf, x); '>= x' -> (x, inf)."""
    text = text.strip()
    if text.startswith("in [") and text.endswith("]"):
        a, b = text[4:-1].split(",")
        return float(a), float(b)
    if text.startswith("<="):
        return float("-inf"), float(text[2:])
    if text.startswith(">="):
        return float(text[2:]), float("inf")
    raise ValueError(f"region {text!r} is not 'in [a, b]', '<= x' or '>= x'")


def check_interval_finding(case):
    want = REGIONS.get(case["claim"])
    if want is None:
        return False, "no regions known for this finding"
    figures = case["witness"].get("figures")
    if not isinstance(figures, list) or not figures:
        return False, "the witness has no figures"
    outside, notes = [], []
    for f in figures:
        name, values = f.get("name"), f.get("values")
        if name not in want:
            return False, f"figure {name!r} is not one the paper's sentence states"
        if f.get("region") != want[name]:
            return False, f"figure {name}: region {f.get('region')!r}, the paper's is {want[name]!r}"
        if not isinstance(values, list) or len(values) < 2:
            return False, f"figure {name}: fewer than two studies"
        n = len(values)
        mean = statistics.fmean(values)
        sd = statistics.stdev(values)
        half = t975(n - 1) * sd / math.sqrt(n)
        lo, hi = mean - half, mean + half
        if not close(f.get("mean", mean), mean, 1e-6):
            return False, f"figure {name}: stated mean {f.get('mean')} is not the values' mean {mean}"
        a, b = region_of(want[name])
        if hi < a or lo > b:
            outside.append(f"{name}: mean {mean:.4g}, 95% t interval [{lo:.4g}, {hi:.4g}] over {n} studies lies outside "
                           f"{want[name]}")
        elif a <= lo and hi <= b:
            notes.append(f"{name} inside {want[name]}")
        else:
            notes.append(f"{name}: interval [{lo:.4g}, {hi:.4g}] straddles {want[name]}")
    if not outside:
        return False, "no figure's interval lies wholly outside its region (" + "; ".join(notes) + ")"
    return True, "recomputed from the per-study values: " + "; ".join(outside)


CHECKERS = {
    "routing.sec1.finite_buffers_deadlock_free": check_deadlock,
    "routing.sec4.factor_two": check_interval_finding,
    "routing.sec4.scheme_e_best": check_interval_finding,
}
