#!/usr/bin/env python3
"""Compares a merged sharded report with an unsharded one (verify --json): the same claim readings,
each with the same verdict and the same counterexample (method by method); for readings that hold,
the same number of applicable cases. Exit 0 when equal, 1 naming every difference.
Usage: compare.py MERGED.json WHOLE.json"""
import json
import sys


def readings(path):
    with open(path) as fh:
        report = json.load(fh)
    return {(c["id"], c["reading"]): c for c in report["claims"]}


merged, whole = readings(sys.argv[1]), readings(sys.argv[2])
problems = []
if merged.keys() != whole.keys():
    problems.append(f"claim readings differ: {sorted(merged.keys() ^ whole.keys())}")
for key in sorted(merged.keys() & whole.keys()):
    m, w = merged[key], whole[key]
    name = f"{key[0]} [{key[1]}]"
    if m["verdict"] != w["verdict"]:
        problems.append(f"{name}: verdict {m['verdict']} merged, {w['verdict']} unsharded")
    if m["counterexample"] != w["counterexample"]:
        problems.append(f"{name}: the counterexamples differ")
    for mm, wm in zip(m["methods"], w["methods"]):
        if mm["method"] != wm["method"] or mm["verdict"] != wm["verdict"] or mm["counterexample"] != wm["counterexample"]:
            problems.append(f"{name}: method {mm['method']}: {mm['verdict']} merged, {wm['verdict']} unsharded")
    if w["verdict"] == "holds" and m["applicable"] != w["applicable"]:
        problems.append(f"{name}: {m['applicable']} applicable cases merged, {w['applicable']} unsharded")
for p in problems:
    print("DIFFERS:", p)
print(f"{len(merged)} claim readings compared, {len(problems)} difference(s)")
sys.exit(1 if problems else 0)
