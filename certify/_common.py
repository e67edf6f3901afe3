"""Helpers shared by the certificate checkers of certify/ (no family: the leading underscore keeps
it from ever being taken for one). Everything here is written from the papers' definitions:

- Nodes of a hypercube Q_n print as bit strings, bit n-1 first (all five papers); bit i is
  dimension i. Two nodes are joined by a link iff they differ in exactly one bit.
- A path is a list of nodes; it is a walk when consecutive nodes are adjacent, simple when no
  node repeats. Its internal nodes are all but the first and the last.
- Disjointness readings (the migration paper's "totally disjoint" / "pairwise disjoint" leave
  it open; READING.md): node: no internal node of one path occurs anywhere in the other; link:
  no (undirected) link is used by both; directed-link: no link is used by both in the same
  direction (links are full duplex).
"""


class Malformed(Exception):
    """The case does not have the shape its checker reads (the driver exits 2, naming the file)."""


def need(cond, what):
    if not cond:
        raise Malformed(what)


def bits(text, n=None, what="node"):
    """A bit string (bit n-1 first) as an int; checks the width when n is given."""
    need(isinstance(text, str) and text != "" and set(text) <= {"0", "1"},
         "%s %r is not a bit string" % (what, text))
    need(n is None or len(text) == n, "%s %r does not have %s bits" % (what, text, n))
    return int(text, 2)


def fmt(x, n):
    return format(x, "0%db" % n) if n > 0 else ""


def path_text(p, n):
    return ":".join(fmt(x, n) for x in p)


def popcount(x):
    return bin(x).count("1")


def dims_of(mask):
    out, i = [], 0
    while mask >> i:
        if mask >> i & 1:
            out.append(i)
        i += 1
    return out


def hop_dim(a, b):
    """The dimension of link a-b in a hypercube, or None when a, b are not adjacent."""
    x = a ^ b
    return x.bit_length() - 1 if x and x & (x - 1) == 0 else None


def is_walk(path, adjacent):
    return len(path) >= 1 and all(adjacent(path[i], path[i + 1]) for i in range(len(path) - 1))


def repeated(path):
    """(node, first position, second position) of the first repetition, or None."""
    seen = {}
    for i, x in enumerate(path):
        if x in seen:
            return x, seen[x], i
        seen[x] = i
    return None


def links(path, directed):
    out = set()
    for a, b in zip(path, path[1:]):
        out.add((a, b) if directed else (min(a, b), max(a, b)))
    return out


def shared(p, q, reading, n):
    """Why paths p and q are not disjoint under `reading` (node | link | directed-link), or None."""
    if reading == "node":
        qs, ps = set(q), set(p)
        for i, x in enumerate(p[1:-1], 1):
            if x in qs:
                return "node %s is internal to the first path (position %d) and on the second" % (fmt(x, n), i)
        for i, x in enumerate(q[1:-1], 1):
            if x in ps:
                return "node %s is internal to the second path (position %d) and on the first" % (fmt(x, n), i)
        return None
    if reading in ("link", "directed-link"):
        common = links(p, reading == "directed-link") & links(q, reading == "directed-link")
        if common:
            a, b = sorted(common)[0]
            return "both use %s %s%s%s" % ("directed link" if reading == "directed-link" else "link",
                                           fmt(a, n), "->" if reading == "directed-link" else "-", fmt(b, n))
        return None
    raise Malformed("unknown disjointness reading %r" % reading)
