#!/usr/bin/env python3
"""Regenerates fuzz/seeds/<target>/ from corpus/ (fuzz/README.md).

Seeds are the text forms and files topocheck reads, taken from the corpus where it holds them:
node, subcube and path strings; ITM steps; AAPC fault lists with their n; small corpus cases;
a ledger cut to a few entries; a verify report and AAPC schedules written here in the documented
formats. The node, subcube, path and fault targets read a first control byte (the width or n the
caller requires, see each target), which the seeds set to the value the string came with.
Usage: fuzz/make_seeds.py [REPO_ROOT]   (rewrites fuzz/seeds/; commit the result)
"""
import hashlib
import json
import os
import re
import shutil
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
corpus = os.path.join(root, "corpus")
out = os.path.join(root, "fuzz", "seeds")
MAX_SEEDS = 40
MAX_CASE_BYTES = 3000


def case_files():
    for d, _, files in sorted(os.walk(corpus)):
        for f in sorted(files):
            if f.endswith(".json") and f != "ledger.json":
                yield os.path.join(d, f)


def walk(value, visit, key=None, parent=None):
    visit(value, key, parent)
    if isinstance(value, dict):
        for k, v in value.items():
            walk(v, visit, k, value)
    elif isinstance(value, list):
        for v in value:
            walk(v, visit, key, value)


nodes, subcubes, paths, steps, faults = set(), set(), set(), set(), set()
cases = []
for file in case_files():
    with open(file) as fh:
        text = fh.read()
    data = json.loads(text)
    if len(text) <= MAX_CASE_BYTES:
        cases.append((file, text))

    def visit(v, key, parent):
        if isinstance(v, str):
            if re.fullmatch(r"[01]{1,63}", v):
                nodes.add(v)
            elif re.fullmatch(r"[01*]{1,63}", v):
                subcubes.add(v)
            if key == "steps" and re.fullmatch(r"[0-9:(), ]+", v):
                steps.add(v)
            if key == "faults" and re.fullmatch(r"[0-9,]*", v):
                n = data.get("params", {}).get("n") if isinstance(data.get("params"), dict) else None
                n = n or (data.get("input", {}).get("n") if isinstance(data.get("input"), dict) else None)
                if isinstance(n, int):
                    faults.add((n, v))
        elif isinstance(v, list) and len(v) >= 2 and all(isinstance(x, str) and re.fullmatch(r"[01]{1,63}", x) for x in v):
            paths.add(":".join(v))

    walk(data, visit)


def pick(items):
    """A spread of at most MAX_SEEDS items: sorted by length, then evenly spaced."""
    items = sorted(items, key=lambda s: (len(str(s)), str(s)))
    if len(items) <= MAX_SEEDS:
        return items
    step = len(items) / MAX_SEEDS
    return [items[int(i * step)] for i in range(MAX_SEEDS)]


def write(target, name, content):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    if not name:
        name = hashlib.sha1(content).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as fh:
        fh.write(content)


def width_byte(width):
    return bytes([width + 1])  # the targets read data[0] % 66 - 1 as the required width


shutil.rmtree(out, ignore_errors=True)
for s in pick(nodes):
    write("node", None, width_byte(len(s)) + s.encode())
for s in pick(subcubes | set(pick(nodes)[:5])):
    write("subcube", None, width_byte(len(s)) + s.encode())
for i, s in enumerate(pick(paths)):
    text = s if i % 2 == 0 else "(" + " : ".join(s.split(":")) + ")"
    write("path", None, width_byte(len(s.split(":")[0])) + text.encode())
write("path", None, width_byte(0) + json.dumps(pick(paths)[0].split(":")).encode())
for s in pick(steps | {"3:(0,1) 4:(1,3) 5:(0,3)", "3:(0,1)  4:(0,3)\t5:(3,4)", ""}):
    write("itm_steps", None, s)
for n, s in pick(faults | {(3, "6"), (4, "6,9"), (10, "0,1023")}):
    write("aapc_faults", None, bytes([n + 1]) + s.encode())  # data[0] % 14 - 1 is n


def sequential_schedule(n, faulty):
    """Every datum alone in its own time units, along its e-cube route: valid under every model."""
    live = [x for x in range(1 << n) if x not in faulty]
    units = []
    for s in live:
        for d in live:
            if s == d:
                continue
            at = s
            for dim in range(n):
                if (at ^ d) >> dim & 1:
                    units.append([[f"{d}_{s}", at, at ^ (1 << dim)]])
                    at ^= 1 << dim
    return {"n": n, "faults": sorted(faulty), "steps": [{"name": "all", "begin": 0, "end": len(units)}],
            "units": units}


write("aapc_schedule", "q1.json", json.dumps(sequential_schedule(1, [])))
write("aapc_schedule", "q2.json", json.dumps(sequential_schedule(2, [])))
# Q_2 without node 3: the e-cube routes of 1 -> 2 and 2 -> 1 run through a fault, so the checker rejects it.
write("aapc_schedule", "q2_fault3.json", json.dumps(sequential_schedule(2, [3])))
with open(os.path.join(root, "tests", "data", "q4_faults_0_one_port_32.json")) as fh:
    write("aapc_schedule", "q4_faults_0_one_port_32.json", fh.read())

for file, text in pick(cases)[:MAX_SEEDS // 2] + [c for c in cases if "/examples/" in c[0]][:4]:
    write("corpus_case", os.path.relpath(file, corpus).replace("/", "__"), text)

with open(os.path.join(corpus, "ledger.json")) as fh:
    ledger = json.load(fh)
entries = ledger["expectations"]
refuted = [e for e in entries if "case" in e or "cases" in e][:3]
with_budgets = [e for e in entries if "budgets" in e][:2]
write("ledger", "first5.json", json.dumps({"format": 1, "expectations": entries[:5]}, indent=2))
write("ledger", "refuted.json", json.dumps({"format": 1, "expectations": refuted + with_budgets}, indent=2))
write("ledger", "empty.json", json.dumps({"format": 1, "expectations": []}))

method = {"method": "exhaustive", "verdict": "holds", "scope": "n <= 4", "cases": 12, "applicable": 12,
          "beyond_premise": "", "detail": "", "seconds": 0.25, "shard": "", "skipped": False,
          "counterexample": None}
refuted_method = dict(method, method="random", verdict="refuted", scope="n <= 6", cases=3, applicable=3,
                      detail="x = 000, y = 011", counterexample={
                          "params": {"n": 3}, "input": {"x": "000", "y": "011"}, "witness": {"paths": [["000", "001", "011"]]},
                          "violation": "paths 1 and 2 share node 001", "minimized": True})
claim = {"id": "hypercube.alg2.disjoint", "reading": "literal", "seed": 1, "seconds": 0.5, "faithful": True,
         "beyond_paper": False, "methods": [method]}
report = {"budget": "quick", "seed": 1, "jobs": 1, "shard": None, "claims": [claim]}
write("report", "one_claim.json", json.dumps(report, indent=1))
write("report", "shard.json", json.dumps(dict(report, shard="1/2", claims=[
    claim, dict(claim, id="hypercube.alg2.length", methods=[method, refuted_method])]), indent=1))
for target in sorted(os.listdir(out)):
    print(f"{target}: {len(os.listdir(os.path.join(out, target)))} seeds")
