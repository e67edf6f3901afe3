#!/usr/bin/env python3
"""A user's construction for `topocheck search --external`: n internally node-disjoint paths
between two nodes s != t of the hypercube Q_n. Reads {"topology": "hypercube:n", "s": ..., "t": ...}
on stdin (bit strings, most significant bit first) and writes {"paths": [...]} on stdout.

Across each differing dimension d_k: d_k, d_k+1, ..., then the rest of D rotated; around each
other dimension j: j, D ascending, j. With --planted-bug the paths across D are not rotated
(d_k first, then D ascending), so for |D| >= 3 two of them meet: a bug the search must find."""
import json
import sys

planted = "--planted-bug" in sys.argv[1:]
query = json.load(sys.stdin)
family, _, size = query["topology"].partition(":")
if family != "hypercube":
    sys.exit(f"cube_paths.py: only hypercubes, not {query['topology']}")
n = int(size)
s, t = int(query["s"], 2), int(query["t"], 2)
differ = [i for i in range(n) if (s ^ t) >> i & 1]


def text(node):
    return format(node, f"0{n}b")


paths = []
for k in range(len(differ)):
    order = [differ[k]] + [d for d in differ if d != differ[k]] if planted else differ[k:] + differ[:k]
    path, node = [s], s
    for d in order:
        node ^= 1 << d
        path.append(node)
    paths.append(path)
for j in range(n):
    if j in differ:
        continue
    path, node = [s], s ^ (1 << j)
    path.append(node)
    for d in differ:
        node ^= 1 << d
        path.append(node)
    path.append(node ^ (1 << j))
    paths.append(path)
json.dump({"paths": [[text(u) for u in p] for p in paths]}, sys.stdout)
print()
