#!/usr/bin/env bash
# Command-line behaviour of `topocheck`: exit codes, one-line errors naming the argument or
# FILE:LINE, JSON shapes, nothing written half-way. Usage: cli_test.sh TOPOCHECK CORPUS
set -uo pipefail
tc="$1"; corpus="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0; passes=0

# expect CODE PATTERN ARGS...: exit code CODE, and (for code 2) exactly one stderr line matching PATTERN.
expect() {
  local code="$1" pattern="$2"; shift 2
  local base=(--corpus "$corpus")
  [ "${1:-}" = "--corpus" ] && base=()
  "$tc" "${base[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  local lines; lines=$(grep -c '' "$tmp/err")
  if [ "$got" -ne "$code" ]; then
    echo "FAIL: topocheck $*: exit $got, expected $code"; sed 's/^/  stderr: /' "$tmp/err" | head -5; fails=$((fails+1)); return
  fi
  if [ "$code" -eq 2 ] && { [ "$lines" -ne 1 ] || ! grep -qE -e "$pattern" "$tmp/err"; }; then
    echo "FAIL: topocheck $*: stderr is not one line matching '$pattern':"; sed 's/^/  /' "$tmp/err"; fails=$((fails+1)); return
  fi
  if [ "$code" -ne 2 ] && [ -n "$pattern" ] && ! grep -qE -e "$pattern" "$tmp/out"; then
    echo "FAIL: topocheck $*: stdout does not match '$pattern'"; head -5 "$tmp/out"; fails=$((fails+1)); return
  fi
  passes=$((passes+1))
}

# Bad input: exit 2, one line naming the problem.
expect 2 "unknown claim 'no.such.claim'"            search no.such.claim
expect 2 "no claim matches 'nothing\.\*'"           verify 'nothing.*'
expect 2 "--budget: 'huge'"                          verify --budget huge
expect 2 "--x: .*character 2 is '2'"                 construct hypercube-paths --n 3 --x 020 --y 011
expect 2 "--y: .*width 4, the topology needs 3"      construct hypercube-paths --n 3 --x 000 --y 0110
expect 2 "--n: .*n = 0 is out of range 1\.\.63"      construct hypercube-route --n 0 --x 0 --y 1
expect 2 "--n: .*n = 64 is out of range"             construct hypercube-route --n 64 --x 0 --y 1
expect 2 "error: .*--n"                              construct hypercube-route --x 000 --y 011
expect 2 "missing.json: error: cannot read"          show "$tmp/missing.json"
expect 2 "--format: 'svg'"                           show "$corpus/hypercube/examples/table1.json" --format svg
expect 2 "--param 'n': expected NAME=VALUE"          prove hypercube.alg2.disjoint --param n
expect 2 "params.n|n must be"                        prove hypercube.alg2.disjoint --param n=0
expect 2 "has no SMT encoding"                       prove hypercube.table1 --param n=3
expect 2 "--json .*does not exist"                   verify hypercube.table1 --json "$tmp/no/such/dir/out.json"
expect 2 "error: "                                   no-such-command

# A malformed corpus file is reported with FILE:LINE, never skipped.
mkdir -p "$tmp/badcorpus"; cp "$corpus/ledger.json" "$tmp/badcorpus/"
printf '{\n  "format": 1,\n  "kind": \n}\n' > "$tmp/badcorpus/bad.json"
"$tc" --corpus "$tmp/badcorpus" replay >"$tmp/out" 2>"$tmp/err"; code=$?
if [ $code -eq 2 ] && grep -qE 'bad.json:4: error: invalid JSON' "$tmp/err" && [ "$(grep -c '' "$tmp/err")" -eq 1 ]; then passes=$((passes+1)); else echo "FAIL: bad corpus file: exit $code"; cat "$tmp/err"; fails=$((fails+1)); fi
printf '{"format": 1, "kind": "counterexample", "claim": "hypercube.alg2.disjoint", "reading": "literal", "params": {"n": 3}, "input": {"x": "000", "y": "0110"}, "violation": "v", "witness": {}, "found_by": {"method": "random"}, "minimized": true}\n' > "$tmp/badcorpus/bad.json"
"$tc" --corpus "$tmp/badcorpus" replay >"$tmp/out" 2>"$tmp/err"; code=$?
if [ $code -eq 2 ] && grep -qE 'bad.json: error: input.y: .*width 4' "$tmp/err"; then passes=$((passes+1)); else echo "FAIL: bad corpus input: exit $code"; cat "$tmp/err"; fails=$((fails+1)); fi
# A case that no longer fails is a difference (exit 1).
printf '{"format": 1, "kind": "counterexample", "claim": "hypercube.alg2.disjoint", "reading": "literal", "params": {"n": 3}, "input": {"x": "000", "y": "011"}, "violation": "v", "witness": {}, "found_by": {"method": "random"}, "minimized": true}\n' > "$tmp/badcorpus/bad.json"
expect 1 "" --corpus "$tmp/badcorpus" replay "$tmp/badcorpus/bad.json"
# A bad ledger is reported with FILE:LINE and nothing is written.
mkdir -p "$tmp/badledger"; printf '{"format": 1, "expectations": [\n {"claim": "hypercube.table1", "reading": "literal", "verdict": "maybe", "reason": "x"}]}\n' > "$tmp/badledger/ledger.json"
"$tc" --corpus "$tmp/badledger" verify hypercube.table1 --json "$tmp/v.json" >"$tmp/out" 2>"$tmp/err"; code=$?
if [ $code -eq 2 ] && grep -qE "ledger.json:2: error: expectation 0: unknown verdict 'maybe'" "$tmp/err" && [ ! -e "$tmp/v.json" ]; then passes=$((passes+1)); else echo "FAIL: bad ledger: exit $code"; cat "$tmp/err"; fails=$((fails+1)); fi

# Good input.
expect 0 '^\{"paths":\[\["000","001","011"\],\["000","010","011"\],\["000","100","101","111","011"\]\]\}$' \
  construct hypercube-paths --n 3 --x 000 --y 011 --json
expect 0 '^000:001:011$' construct hypercube-route --n 3 --x 000 --y 011
expect 0 '"id": "hypercube.alg2.disjoint"' list --json
expect 0 '/columns/3/paths/1 = 000:010:101:100' show "$corpus/hypercube/examples/table1.json"
expect 0 'digraph' show "$corpus/hypercube/examples/table1.json" --format dot
expect 0 'holds' prove hypercube.alg2.disjoint --param n=4
expect 0 'erratum \(typo\)' examples
expect 0 '^\{"paths":\[\["0000000000","0100000000","0100000100","1100000100",' \
  construct metacube-paths --k 2 --m 2 --s 0000000000 --t 0001011101 --json
expect 0 '^00000000000000:00000000000001:00000000000011:01000000000011:' \
  construct metacube-route --k 2 --m 3 --s 00000000000000 --t 00001110101011
expect 0 'P_3 \(12 hops\)' construct metacube-paths --k 2 --m 2 --s '(00,00,00,00,01)' --t '(11,01,00,00,00)'
expect 2 '--s: .*width 9, the topology needs 10' construct metacube-paths --k 2 --m 2 --s 000000000 --t 0001011101
expect 2 '--t: s and t must differ' construct metacube-paths --k 2 --m 2 --s 0000000000 --t 0000000000
expect 2 '--k/--m: .*needs m\*2\^k \+ k = 67' construct metacube-route --k 3 --m 8 --s 0 --t 1
expect 2 "--reading: 'foo' is not paper" construct metacube-paths --k 2 --m 2 --s 0000000000 --t 0001011101 --reading foo

# verify --json has the documented fields.
"$tc" --corpus "$corpus" verify 'hypercube.ecube.*' --budget quick --json "$tmp/v.json" --junit "$tmp/v.xml" >/dev/null 2>&1; code=$?
if [ $code -eq 0 ] && python3 - "$tmp/v.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) >= {"budget", "seed", "claims", "summary"}, d.keys()
for c in d["claims"]:
    assert set(c) >= {"id", "reading", "methods", "verdict", "scope", "cases", "expected", "matches", "corpus_case"}, c.keys()
assert d["summary"]["differing"] == 0
PY
then passes=$((passes+1)); else echo "FAIL: verify --json shape (exit $code)"; fails=$((fails+1)); fi
grep -q '<testsuites' "$tmp/v.xml" && passes=$((passes+1)) || { echo "FAIL: junit"; fails=$((fails+1)); }

# A verdict that differs from the ledger exits 1 and says which.
mkdir -p "$tmp/wrongledger"; cp -r "$corpus/hypercube" "$tmp/wrongledger/"
python3 - "$corpus/ledger.json" "$tmp/wrongledger/ledger.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["expectations"]:
    if e["claim"] == "hypercube.ecube.shortest": e["verdict"] = "refuted"
json.dump(d, open(sys.argv[2], "w"))
PY
expect 1 "DIFFERS: expected refuted, got holds" --corpus "$tmp/wrongledger" verify hypercube.ecube.shortest --budget quick

echo "cli_test: $passes passed, $fails failed"
[ $fails -eq 0 ]
