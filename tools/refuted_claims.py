#!/usr/bin/env python3
"""Prints the refuted claims of a `topocheck verify --json` report as a Markdown table: each
claim an error of the paper (every reading its text allows refuted), ambiguous (one holds: the
text is true under it), undecided, not reproduced (a measured finding) or beyond the paper, with
the readings on each side.
Usage: tools/refuted_claims.py REPORT.json [FAMILY]"""
import json
import sys


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        report = json.load(open(sys.argv[1], encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"{sys.argv[1]}: error: {e}", file=sys.stderr)
        return 2
    family = sys.argv[2] if len(sys.argv) == 3 else None
    rows = [s for s in report.get("refuted_claims", []) if not family or s["claim"].split(".")[0] == family]
    print("| claim | kind | refuted under | holds under | other readings |")
    print("|---|---|---|---|---|")
    for s in rows:
        print(f"| `{s['claim']}` | {s['kind']} | {', '.join(s['refuted'])} | {', '.join(s['holds']) or '—'} | "
              f"{', '.join(s['other']) or '—'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
