"""Certificate checkers for the AAPC family (papers/004, Masuyama & Masuyama, "A Method of
Fault-Tolerant All-to-All Personalized Communication in Hypercubes").

Independent of topocheck: nothing of the project is imported or run. Definitions from the paper:
  - Q_n, nodes 0..2^n-1, i^(j) = i with bit j flipped; dividing along dimensions D gives the PSs
    (partner sets): the nodes agreeing on every bit outside D; each PS is a Q_|D| (Section 2).
  - A faulty PS holds a faulty node; a perfect PS none. The PS adjacent to P across j (j outside
    D) is P with bit j flipped.
  - An A_f partition (Section 2 after Property 3, Section 3.3.1): D of f dimensions with at most
    one fault per PS (Property 1) and a dimension d outside D taking every faulty PS to a perfect
    PS (Property 3); its Q_{f+1}s are the cosets of span(D + {d}).
  - Printed counts: A_1 5*2^(n-1) - 2 (3.1.2); A_2 5*2^(n-1) + n - 1 (3.2.2); A_f
    (5*2^f - 2)*2^(n-(f+1)) (3.3.2); optimal AAPC in a nonfaulty Q_n 2^n - 1 (3.1.2).
  - Port models (the paper states none; the readings name them): all_port (every link of a node
    in one unit, one datum per directed link per unit), one_receive (all-port sending, each node
    receives at most one datum per unit), one_port (each node sends at most one and receives at
    most one datum per unit). Store-and-forward, one hop per unit.

What each checker confirms:
  aapc.prop1.partition [any_f_dimensions]  1 <= f <= floor(n/2), |D| = f, and two faults agree on
       every bit outside D (share a PS of D).
  aapc.prop1.one_more_dimension [exists_common_bit]  1 <= f <= floor(n/2) and, enumerating every D
       of f - 1 dimensions with at most one fault per PS, no dimension outside D has all faults
       agreeing.
  aapc.prop2.dimension [any]  1 <= f <= n and the named d has a fault x with x^(d) faulty.
  aapc.prop3.perfect_partner [any_exactly_one]  1 <= f <= floor(n/2), |D| = f, and some faulty PS
       of D has a number of adjacent perfect PSs other than one (recounted).
  aapc.sec2.af_precondition [as_printed]  every A_f partition (D, d) of the faults is enumerated,
       at least one exists, and none has 2^(f+1) faulty Q_{f+1}s.
  aapc.a2.defined [literal]  the two faults differ in d, and a node "whose adjacent node along d
       is faulty" (n_1 or n_2) is itself faulty, so A_2 cannot take it as a source.
  aapc.af.consistent_with_a1 / consistent_with_a2  the printed formulas, evaluated exactly at the
       case's n (and f), differ (A_2 minus its n-unit Step 1 for `without_step1`).
  aapc.sec312.optimum [all_port]  a schedule is built here (greedy, longest remaining distance
       first, shortest paths) and validated under the all-port model: it delivers every datum in
       fewer than 2^n - 1 units. [one_port, one_receive]  the reception bound: every node receives
       at most one datum per unit, all data need sum of distances = 2^n * n * 2^(n-1) receptions,
       so at least n * 2^(n-1) units, more than 2^n - 1.
  aapc.{a1,a2,af}.units [<model>.at_most | <model>.exactly]  premise: the faults, d (and D) form
       the algorithm's input (A_1: one fault; A_2: two faults differing in d; A_f: (D, d) an A_f
       partition of f <= floor(n/2) faults); the printed count recomputed here equals
       witness.paper_units; the witness's step units add up to its total; the total exceeds
       (at_most) or differs from (exactly) the printed count. The schedule itself, when the
       witness carries it (witness.schedule, every move unit by unit): replayed here under the
       reading's port model with the faulty nodes inert (every datum between distinct nonfaulty
       nodes, moves along links between nonfaulty nodes, one hop per datum per unit, none after
       delivery, every datum delivered at the end), its n and faults equal to the case's, its
       length and its steps equal to the witness's; the total and the step counts compared with
       the paper are then the replayed schedule's. That the schedule is the one the algorithm
       produces under the reading is not re-derived (the generator is not re-implemented here).
       Without witness.schedule the length is taken from the witness, and the verdict says so.
"""

import itertools


def parse_faults(text):
    text = str(text).strip()
    return sorted({int(x) for x in text.split(",") if x.strip() != ""}) if text else []


def parse_dims(text):
    return parse_faults(text)


def ps_key(x, D, n):
    mask = sum(1 << j for j in range(n) if j not in D)
    return x & mask


def one_fault_per_ps(faults, D, n):
    keys = [ps_key(x, D, n) for x in faults]
    return len(keys) == len(set(keys))


def pow2(k):
    return 2 ** k


def units_a1(n):
    return 5 * pow2(n - 1) - 2


def units_a2(n):
    return 5 * pow2(n - 1) + n - 1


def units_af(n, f):
    return (5 * pow2(f) - 2) * pow2(n - (f + 1))


def common(case):
    n = int(case["params"]["n"])
    faults = parse_faults(case["input"].get("faults", ""))
    if any(not 0 <= x < pow2(n) for x in faults):
        raise ValueError("a fault is not a node of Q_n")
    return n, faults


def af_partitions(faults, n):
    f = len(faults)
    out = []
    for D in itertools.combinations(range(n), f):
        if not one_fault_per_ps(faults, D, n):
            continue
        faulty_keys = {ps_key(x, D, n) for x in faults}
        for d in range(n):
            if d in D:
                continue
            if all((k ^ (1 << d)) not in faulty_keys for k in faulty_keys):
                out.append((D, d))
    return out


# ---- properties ----------------------------------------------------------------------------------

def check_prop1_partition(case):
    n, faults = common(case)
    f = len(faults)
    D = parse_dims(case["input"]["D"])
    if case["reading"] != "any_f_dimensions":
        return False, f"no checker for reading {case['reading']}"
    if not (1 <= f <= n // 2) or len(D) != f or any(not 0 <= j < n for j in D):
        return False, f"premise fails: f = {f}, n = {n}, |D| = {len(D)}"
    for a, b in itertools.combinations(faults, 2):
        if ps_key(a, D, n) == ps_key(b, D, n):
            return True, f"f = {f} <= floor(n/2); faults {a} and {b} agree outside D = {D}: one PS holds both"
    return False, f"every PS of D = {D} holds at most one fault"


def check_prop1_one_more(case):
    n, faults = common(case)
    f = len(faults)
    if case["reading"] != "exists_common_bit":
        return False, f"no checker for reading {case['reading']}"
    if not 1 <= f <= n // 2:
        return False, f"premise fails: f = {f}, n = {n}"
    agree = [j for j in range(n) if len({x >> j & 1 for x in faults}) == 1]
    found_D = 0
    for D in itertools.combinations(range(n), f - 1):
        if not one_fault_per_ps(faults, D, n):
            continue
        found_D += 1
        extra = [j for j in agree if j not in D]
        if extra:
            return False, f"D = {list(D)} leaves dimension {extra[0]} in which every fault agrees"
    return True, (f"f = {f}: the faults agree on no dimension ({'none' if not agree else agree}) outside any of the "
                  f"{found_D} admissible D of f - 1 dimensions")


def check_prop2(case):
    n, faults = common(case)
    f = len(faults)
    if case["reading"] != "any":
        return False, f"no checker for reading {case['reading']}"
    d = int(case["input"]["d"])
    if not (1 <= f <= n) or not 0 <= d < n:
        return False, f"premise fails: f = {f}, n = {n}, d = {d}"
    for x in faults:
        if (x ^ (1 << d)) in faults:
            return True, f"f = {f} <= n; across d = {d} the faulty node {x} has the faulty neighbour {x ^ (1 << d)}"
    return False, f"every fault's neighbour across d = {d} is nonfaulty"


def check_prop3(case):
    n, faults = common(case)
    f = len(faults)
    D = parse_dims(case["input"]["D"])
    if case["reading"] != "any_exactly_one":
        return False, f"no checker for reading {case['reading']}"
    if not (1 <= f <= n // 2) or len(D) != f:
        return False, f"premise fails: f = {f}, n = {n}, |D| = {len(D)}"
    faulty = {ps_key(x, D, n) for x in faults}
    for k in sorted(faulty):
        perfect = [j for j in range(n) if j not in D and (k ^ (1 << j)) not in faulty]
        if len(perfect) != 1:
            members = sorted(x for x in range(pow2(n)) if ps_key(x, D, n) == k)
            return True, f"D = {D}: the faulty PS {members} has {len(perfect)} adjacent perfect PSs (across {perfect})"
    return False, "every faulty PS has exactly one adjacent perfect PS"


def check_af_precondition(case):
    n, faults = common(case)
    f = len(faults)
    if case["reading"] != "as_printed":
        return False, f"no checker for reading {case['reading']}"
    if not 1 <= f <= n // 2:
        return False, f"premise fails: f = {f}, n = {n}"
    parts = af_partitions(faults, n)
    if not parts:
        return False, "no A_f partition exists at all (a Property 1/3 failure, not the printed count's)"
    counts = []
    for D, d in parts:
        span = set(D) | {d}
        counts.append(len({ps_key(x, span, n) for x in faults}))
    if any(c == pow2(f + 1) for c in counts):
        return False, f"some A_f partition has 2^(f+1) = {pow2(f + 1)} faulty Q_(f+1)s"
    return True, (f"all {len(parts)} A_f partitions enumerated; faulty Q_(f+1) counts {sorted(set(counts))}, never "
                  f"2^(f+1) = {pow2(f + 1)}")


def check_a2_defined(case):
    n, faults = common(case)
    d = int(case["input"]["d"])
    if case["reading"] != "literal":
        return False, f"no checker for reading {case['reading']}"
    if len(faults) != 2 or not 0 <= d < n:
        return False, "premise fails: A_2 takes two faults and a dimension"
    a, b = faults
    if not (a ^ b) >> d & 1:
        return False, f"the faults {a}, {b} do not differ in d = {d}: the halves along d do not hold one fault each"
    # n_1 in a's half is the node whose neighbour along d is faulty: b's neighbour b^(d) lies in a's half.
    n1, n2 = b ^ (1 << d), a ^ (1 << d)
    bad = [x for x in (n1, n2) if x in faults]
    if not bad:
        return False, f"n_1 = {n1} and n_2 = {n2} are nonfaulty: A_2 is defined"
    return True, f"d = {d}: n_1 = {n1}, n_2 = {n2}; {bad} faulty, so Phase 2 Step 1's sources are faulty nodes"


# ---- printed counts ------------------------------------------------------------------------------

def check_consistent_a1(case):
    n, f = int(case["params"]["n"]), int(case["input"]["f"])
    if f != 1 or n < 2 or case["reading"] != "literal":
        return False, "premise fails (f = 1, n >= 2, reading literal)"
    af, a1 = units_af(n, 1), units_a1(n)
    if af == a1:
        return False, f"n = {n}: both counts are {af}"
    return True, f"n = {n}: (5*2^1 - 2)*2^(n-2) = {af} but 5*2^(n-1) - 2 = {a1}"


def check_consistent_a2(case):
    n, f = int(case["params"]["n"]), int(case["input"]["f"])
    if f != 2 or n < 4:
        return False, "premise fails (f = 2, n >= 4)"
    af, a2 = units_af(n, 2), units_a2(n)
    if case["reading"] == "without_step1":
        a2 -= n
    elif case["reading"] != "literal":
        return False, f"no checker for reading {case['reading']}"
    if af == a2:
        return False, f"n = {n}: both counts are {af}"
    return True, f"n = {n}: A_f at f = 2 gives {af}, A_2 ({case['reading']}) gives {a2}"


# ---- the optimum of Section 3.1.2 ----------------------------------------------------------------

def greedy_all_port_schedule(n):
    """Each datum (src, dst) moves along shortest paths; per unit each directed link carries at
    most one datum; data with the most remaining hops go first. Returns the list of units, each a
    list of (datum, from, to)."""
    N = pow2(n)
    at = {(s, t): s for s in range(N) for t in range(N) if s != t}
    units = []
    while at:
        used, moves = set(), []
        for datum in sorted(at, key=lambda k: (-bin(at[k] ^ k[1]).count("1"), k)):
            c = at[datum]
            for j in range(n):
                if (c ^ datum[1]) >> j & 1 and (c, c ^ (1 << j)) not in used:
                    used.add((c, c ^ (1 << j)))
                    moves.append((datum, c, c ^ (1 << j)))
                    break
        for datum, c, nxt in moves:
            if nxt == datum[1]:
                del at[datum]
            else:
                at[datum] = nxt
        units.append(moves)
        if len(units) > 4 * N * n:
            raise RuntimeError("no progress")
    return units


def validate_schedule(n, units, model, faults=()):
    """Replays `units` from every datum at its source: every move is a link from the datum's
    current node between nonfaulty nodes, a datum moves at most once per unit and never after it
    has arrived, per unit one datum per directed link (and the model's per-node limits), and at
    the end every datum is at its destination. A datum is (source, destination) of two distinct
    nonfaulty nodes."""
    N = pow2(n)
    bad = set(faults)
    at = {(s, t): s for s in range(N) for t in range(N) if s != t and s not in bad and t not in bad}
    for u, moves in enumerate(units):
        links, sends, recvs, moved = set(), {}, {}, set()
        for datum, c, nxt in moves:
            if (at.get(datum) != c or bin(c ^ nxt).count("1") != 1 or (c, nxt) in links or nxt in bad
                    or datum in moved or c == datum[1]):
                return f"unit {u + 1}: illegal move of {datum} {c}->{nxt}"
            links.add((c, nxt))
            moved.add(datum)
            sends[c] = sends.get(c, 0) + 1
            recvs[nxt] = recvs.get(nxt, 0) + 1
        if model in ("one_port",) and any(v > 1 for v in sends.values()):
            return f"unit {u + 1}: a node sends twice"
        if model in ("one_port", "one_receive") and any(v > 1 for v in recvs.values()):
            return f"unit {u + 1}: a node receives twice"
        for datum, c, nxt in moves:
            at[datum] = nxt
    if any(at[k] != k[1] for k in at):
        return "not every datum delivered"
    return None


def check_optimum(case):
    n = int(case["params"]["n"])
    model = case["reading"]
    if case["params"].get("model", model) != model or parse_faults(case["input"].get("faults", "")):
        return False, "params.model differs from the reading, or the cube has faults"
    paper = pow2(n) - 1
    if model == "all_port":
        units = greedy_all_port_schedule(n)
        bad = validate_schedule(n, units, model)
        if bad:
            return False, f"the checker's own schedule is invalid: {bad}"
        if len(units) >= paper:
            return False, f"the checker's schedule takes {len(units)} units, not fewer than {paper}"
        return True, f"n = {n}: a schedule built and validated here (all-port) takes {len(units)} units < 2^n - 1 = {paper}"
    if model in ("one_port", "one_receive"):
        receptions = pow2(n) * n * pow2(n - 1)  # sum over ordered pairs of the distance
        bound = -(-receptions // pow2(n))
        if bound <= paper:
            return False, f"the reception bound {bound} does not exceed {paper}"
        return True, (f"n = {n}: {receptions} receptions, at most {pow2(n)} per unit ({model}): at least {bound} units "
                      f"> 2^n - 1 = {paper}")
    return False, f"unknown model {model!r}"


# ---- schedule unit counts ------------------------------------------------------------------------

def replay_witness_schedule(sched, n, faults, model, w):
    """None when the stored schedule ({"n", "faults", "steps": [{"name", "begin", "end"}], "units":
    [[["<dest>_<source>", from, to], ...], ...]}) is on the case's n and faults, valid under
    `model`, as long as witness.units and cut into witness.steps; else the first difference."""
    if sched.get("n") != n:
        return f"n is {sched.get('n')}, the case's is {n}"
    if sorted(sched.get("faults", [])) != sorted(faults):
        return f"faults {sorted(sched.get('faults', []))} are not the case's {sorted(faults)}"
    units = []
    for u, moves in enumerate(sched.get("units", [])):
        row = []
        for m in moves:
            dest, source = (int(x) for x in str(m[0]).split("_"))
            row.append(((source, dest), int(m[1]), int(m[2])))
        units.append(row)
    bad = validate_schedule(n, units, model, faults)
    if bad:
        return bad
    if len(units) != w.get("units"):
        return f"{len(units)} units, witness.units says {w.get('units')}"
    steps = [(st.get("name"), st.get("end", 0) - st.get("begin", 0)) for st in sched.get("steps", [])]
    listed = [(st.get("name"), st.get("units")) for st in w.get("steps", [])]
    if steps != listed:
        return f"its steps {steps} are not witness.steps {listed}"
    if any(not 0 <= st.get("begin", -1) <= st.get("end", -1) <= len(units) for st in sched.get("steps", [])):
        return "a step lies outside the schedule"
    return None


def check_units(alg):
    def fn(case):
        n, faults = common(case)
        model, _, kind = case["reading"].partition(".")
        if kind == "" and case["reading"].endswith("_steps_at_most"):
            model, kind = case["reading"][: -len("_steps_at_most")], "steps_at_most"
        # at_most.every_order: the same bound, for a Phase-2 list order other than the
        # implementation's (input.order; the schedule, like every schedule here, from the witness).
        if kind == "at_most.every_order":
            kind = "at_most"
        if case["params"].get("model") != model or kind not in ("at_most", "exactly", "steps_at_most"):
            return False, f"reading {case['reading']} does not match params.model {case['params'].get('model')}"
        d = int(case["input"]["d"])
        if not 0 <= d < n:
            return False, "d is not a dimension"
        if alg == "a1":
            if len(faults) != 1:
                return False, "A_1 takes one fault"
            paper = units_a1(n)
        elif alg == "a2":
            if len(faults) != 2 or not (faults[0] ^ faults[1]) >> d & 1:
                return False, "A_2 takes two faults that differ in d"
            paper = units_a2(n)
        else:
            f = len(faults)
            D = tuple(parse_dims(case["input"].get("dims", "")))
            if not 1 <= f <= n // 2:
                return False, f"A_f needs 1 <= f <= floor(n/2) (f = {f}, n = {n})"
            if (D, d) not in af_partitions(faults, n):
                return False, f"(D = {list(D)}, d = {d}) is not an A_f partition of the faults {faults}"
            paper = units_af(n, f)
        w = case["witness"]
        if w.get("paper_units") != paper:
            return False, f"witness.paper_units {w.get('paper_units')} is not the printed count {paper}"
        units = w.get("units")
        if not isinstance(units, int):
            return False, "witness.units missing"
        if "steps" in w and sum(s["units"] for s in w["steps"]) != units:
            return False, f"the steps add up to {sum(s['units'] for s in w['steps'])}, not {units}"
        if w.get("checker", "valid") != "valid":
            return False, "the witness's schedule is not marked valid"
        replayed = "schedule" in w
        if replayed:
            bad = replay_witness_schedule(w["schedule"], n, faults, model, w)
            if bad:
                return False, f"witness.schedule: {bad}"
        if kind == "steps_at_most":
            # The per-step counts the paper prints and the checker knows: A_2's Phase 2 Step 1,
            # "= n in the case of a double fault" (Section 3.3.2).
            if alg != "a2":
                return False, "no printed per-step count of this algorithm is known to this checker"
            step = [st for st in w.get("steps", []) if st.get("name") == "phase 2 step 1"]
            if len(step) != 1:
                return False, "the witness has no single 'phase 2 step 1'"
            if step[0]["units"] <= n:
                return False, f"phase 2 step 1 takes {step[0]['units']} units, at most n = {n}"
            how = "replayed here and valid under the model" if replayed else "taken from the witness"
            return True, (f"premise checked (two faults differing in d); phase 2 step 1 takes {step[0]['units']} units > "
                          f"n = {n} (Section 3.3.2), the steps adding up to the schedule's {units} ({how})")
        if kind == "at_most" and units <= paper:
            return False, f"{units} units is at most the printed {paper}"
        if kind == "exactly" and units == paper:
            return False, f"{units} units is exactly the printed {paper}"
        rel = "more than" if units > paper else "fewer than"
        how = ("replayed here and valid under the model" if replayed
               else "sum of its steps; length taken from the witness, schedule not re-derived")
        return True, f"premise checked; printed count recomputed: {paper}; the schedule's {units} units ({how}) is {rel} it"
    return fn


CHECKERS = {
    "aapc.prop1.partition": check_prop1_partition,
    "aapc.prop1.one_more_dimension": check_prop1_one_more,
    "aapc.prop2.dimension": check_prop2,
    "aapc.prop3.perfect_partner": check_prop3,
    "aapc.sec2.af_precondition": check_af_precondition,
    "aapc.a2.defined": check_a2_defined,
    "aapc.af.consistent_with_a1": check_consistent_a1,
    "aapc.af.consistent_with_a2": check_consistent_a2,
    "aapc.sec312.optimum": check_optimum,
    "aapc.a1.units": check_units("a1"),
    "aapc.a2.units": check_units("a2"),
    "aapc.af.units": check_units("af"),
}
