#!/usr/bin/env python3
"""Independent certificate checker for topocheck's stored counterexamples.

Usage: certify.py [--json] [--expect-reject] PATH...

PATH is a case file or a folder walked recursively for *.json. Only files whose top-level
"kind" is "counterexample" are considered; everything else (ledger.json, examples, ...) is
skipped silently. Each case is judged by the checker its "claim" id names: module
certify/<family>.py (family = the claim id before the first dot), entry CHECKERS[claim].

This program imports nothing of the project: no C++ code, no binary, no generated file. Its
definitions are written from the papers (see README.md). Exit status: 0 iff every considered
case is certified (with --expect-reject: iff every considered case is rejected); 1 otherwise
(a case with no checker is a failure in both modes); 2 on bad usage or an unreadable or
malformed file (the message names the file and what is wrong).
"""
import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


sys.path.insert(0, HERE)
from _common import Malformed  # noqa: E402  (certify/_common.py, this program's own helpers)


def usage(msg):
    sys.stderr.write("certify.py: %s\nusage: certify.py [--json] [--expect-reject] PATH...\n" % msg)
    sys.exit(2)


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                for name in sorted(names):
                    if name.endswith(".json"):
                        files.append(os.path.join(root, name))
        elif os.path.isfile(p):
            files.append(p)
        else:
            sys.stderr.write("certify.py: %s: no such file or folder\n" % p)
            sys.exit(2)
    return files


def load(path):
    try:
        with open(path, "r", encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as e:
        raise Malformed("cannot read: %s" % e)
    try:
        return json.loads(text)
    except ValueError as e:
        raise Malformed("not valid JSON: %s" % e)


_modules = {}


def checker_for(claim):
    family = claim.split(".", 1)[0]
    if not family or not family.replace("_", "").isalnum() or family.startswith("_"):
        return None
    if family not in _modules:
        try:
            _modules[family] = importlib.import_module(family)
        except ModuleNotFoundError as e:
            if e.name != family:
                raise
            _modules[family] = None
    mod = _modules[family]
    if mod is None:
        return None
    return getattr(mod, "CHECKERS", {}).get(claim)


def judge(path):
    """Returns None (not a counterexample) or a result dict."""
    case = load(path)
    if not isinstance(case, dict) or case.get("kind") != "counterexample":
        return None
    claim, reading = case.get("claim"), case.get("reading")
    if not isinstance(claim, str) or not claim:
        raise Malformed('"claim" must be a non-empty string')
    if not isinstance(reading, str):
        raise Malformed('"reading" must be a string')
    for key in ("params", "input", "witness"):
        if key in case and not isinstance(case[key], dict):
            raise Malformed('"%s" must be an object' % key)
    fn = checker_for(claim)
    res = {"file": path, "claim": claim, "reading": reading}
    if fn is None:
        res.update(status="no checker", message="claim %s reading %s" % (claim, reading))
        return res
    try:
        ok, message = fn(case)
    except Malformed:
        raise
    except (KeyError, ValueError, TypeError, IndexError) as e:
        raise Malformed("%s [%s]: the case does not have the shape its checker reads: %s: %s"
                        % (claim, reading, type(e).__name__, e))
    res.update(status="certified" if ok else "rejected", message=message)
    return res


def main(argv):
    as_json = expect_reject = False
    paths = []
    for a in argv:
        if a == "--json":
            as_json = True
        elif a == "--expect-reject":
            expect_reject = True
        elif a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        elif a.startswith("--"):
            usage("unknown option %s" % a)
        else:
            paths.append(a)
    if not paths:
        usage("no PATH given")
    results = []
    for f in collect(paths):
        try:
            r = judge(f)
        except Malformed as e:
            sys.stderr.write("certify.py: %s: %s\n" % (f, e))
            return 2
        if r is not None:
            results.append(r)
    want = "rejected" if expect_reject else "certified"
    if as_json:
        json.dump(results, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        for r in results:
            if r["status"] == "no checker":
                print("no checker %s: claim %s reading %s" % (r["file"], r["claim"], r["reading"]))
            else:
                print("%s %s: %s" % (r["status"], r["file"], r["message"]))
        bad = sum(1 for r in results if r["status"] != want)
        sys.stderr.write("certify.py: %d case(s), %d %s, %d not\n" % (len(results), len(results) - bad, want, bad))
    return 0 if all(r["status"] == want for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
