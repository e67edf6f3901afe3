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

def means_of(case):
    m = case["witness"]["means"]
    keys = [f"{r}/{l}/{s}" for r in ("static", "dynamic") for l in ("bi", "uni") for s in SCHEMES]
    missing = [k for k in keys if k not in m]
    if missing or len(m) != 44:
        raise ValueError(f"witness.means does not hold the 44 cases (missing {missing[:3]})")
    return m


def close(a, b, tol=2e-3):
    return abs(a - b) <= tol * max(1.0, abs(b))


def check_factor_two(case):
    try:
        m = means_of(case)
    except ValueError as e:
        return False, str(e)
    ratios = {f"{l}/{s}": m[f"static/{l}/{s}"] / m[f"dynamic/{l}/{s}"] for l in ("bi", "uni") for s in SCHEMES}
    at = max(ratios, key=ratios.get)
    best = ratios[at]
    ev = case["witness"].get("evidence", {})
    if "max_ratio" in ev and not close(ev["max_ratio"], best):
        return False, f"evidence max_ratio {ev['max_ratio']} differs from the recomputed {best:.4f}"
    if 1.6 <= best <= 2.4:
        return False, f"the largest improvement {best:.3f}x ({at}) lies in [1.6, 2.4]: the finding holds"
    margin = 1.6 - best if best < 1.6 else best - 2.4
    return True, (f"recomputed from the 44 means: the largest static/dynamic ratio is {best:.4f} ({at}), outside "
                  f"[1.6, 2.4] by {margin:.4f}")


def check_scheme_e_best(case):
    try:
        m = means_of(case)
    except ValueError as e:
        return False, str(e)
    fastest = min(m, key=m.get)
    r, l, _ = fastest.split("/")
    e, a, c = m[f"{r}/{l}/E"], m[f"{r}/{l}/A"], m[f"{r}/{l}/C"]
    e_best = e <= m[fastest] * 1.01
    close_ac = a <= e * 1.10 and c <= e * 1.10
    ev = case["witness"].get("evidence", {})
    if ev and (ev.get("fastest") != fastest or not close(ev.get("E", e), e)):
        return False, f"evidence ({ev.get('fastest')}, E {ev.get('E')}) differs from the recomputed ({fastest}, E {e})"
    if e_best and close_ac:
        return False, f"E ({e}) is within 1% of the fastest {fastest} ({m[fastest]}) and A, C within 10%: the finding holds"
    parts = []
    if not e_best:
        parts.append(f"E {e} is {100 * (e / m[fastest] - 1):.1f}% above the fastest case {fastest} ({m[fastest]}), "
                     f"tolerance 1%")
    if not close_ac:
        parts.append(f"A {a} / C {c} vs E {e}: {100 * (a / e - 1):+.1f}% / {100 * (c / e - 1):+.1f}%, tolerance +10%")
    return True, "recomputed from the 44 means: " + "; ".join(parts)


def check_uni_gain(case):
    try:
        m = means_of(case)
    except ValueError as e:
        return False, str(e)
    gains = {f"{r}/{s}": 100 * (m[f"{r}/bi/{s}"] - m[f"{r}/uni/{s}"]) / m[f"{r}/bi/{s}"]
             for r in ("static", "dynamic") for s in SCHEMES}
    vals = sorted(gains.values())
    lowest, median = vals[0], statistics.median(vals)
    above = sum(1 for g in vals if g > 15)
    ev = case["witness"].get("evidence", {})
    if ev and (not close(ev.get("min", lowest), lowest, 1e-2) or not close(ev.get("median", median), median, 1e-2)):
        return False, f"evidence (min {ev.get('min')}, median {ev.get('median')}) differs from the recomputed ({lowest}, {median})"
    parts = []
    if lowest < -1:
        worst = min(gains, key=gains.get)
        parts.append(f"gain {lowest:.3f}% at {worst} is below -1 by {-1 - lowest:.3f} points")
    if above > 3:
        parts.append(f"{above} of 22 gains exceed 15%")
    if median >= 7.5:
        parts.append(f"median gain {median:.2f}% is not below 7.5")
    if not parts:
        return False, f"gains from {lowest:.2f}% to {vals[-1]:.2f}%, median {median:.2f}%, {above} above 15: the finding holds"
    return True, "recomputed from the 44 means: " + "; ".join(parts)


CHECKERS = {
    "routing.sec1.finite_buffers_deadlock_free": check_deadlock,
    "routing.sec4.factor_two": check_factor_two,
    "routing.sec4.scheme_e_best": check_scheme_e_best,
    "routing.sec4.uni_gain": check_uni_gain,
}
