#!/usr/bin/env bash
# Command-line behaviour of `topocheck`: exit codes, one-line errors naming the argument or
# FILE:LINE, JSON shapes, nothing written half-way; and that the README lists every command.
# Usage: cli_test.sh TOPOCHECK CORPUS README
set -uo pipefail
tc="$1"; corpus="$2"; readme="${3:-}"
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
expect 2 "--n: 0 is outside 1\.\.63"      construct hypercube-route --n 0 --x 0 --y 1
expect 2 "--n: 64 is outside 1\.\.63"             construct hypercube-route --n 64 --x 0 --y 1
expect 2 "error: .*--n"                              construct hypercube-route --x 000 --y 011
expect 2 "--blocks: block 1 \(0010\*0\) meets S"        construct migration --S '0010**' --T '1*0*00' --blocks '0010*0'
expect 2 "different dimensions"                      construct migration --S '0010**' --T '1*0000'
expect 2 "--alpha: .*not in D\(S\)-D\(T\)"             construct migration --S '0010**' --T '1*0*00' --alpha 2:0,1:4
expect 2 "--M: "                                     construct migration-latency --M 0 --B 1 --zeta 1 --beta 1
expect 0 '"situation":"4.1"'                         construct migration --n 6 --S '0010**' --T '1*0*00' --alpha 0:2,1:4 --blocks '01****,1*1***' --json
expect 0 'all_disjoint.directed-link +holds'         construct migration --n 6 --S '0010**' --T '1*0*00' --alpha 0:2,1:4 --sequence 2,4
expect 0 '"checker":"valid".*"units":'                simulate aapc --n 4 --faults 6,9 --json
expect 0 'step 4 +4_0, 4_1, 4_2, 4_3, 5_4, 7_4'        simulate aapc --n 3 --faults 6 --algorithm A1 --d 2 --link 0-4
# A user's schedule: the generated one passes --check; the same with one move dropped is rejected (exit 1).
"$tc" simulate aapc --n 3 --faults 6 --out "$tmp/s.json" >/dev/null 2>&1
expect 0 'checker: valid'                            simulate aapc --check "$tmp/s.json"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); j['units'][0].pop(); json.dump(j, open(sys.argv[2],'w'))" "$tmp/s.json" "$tmp/bad.json"
expect 1 'checker: INVALID: ' simulate aapc --check "$tmp/bad.json"
printf '{"n": 3, "faults": [6], "units": [[["0_4", 4]]]}\n' > "$tmp/badmove.json"
expect 2 'units\[0\]\[0\]: a move is'              simulate aapc --check "$tmp/badmove.json"
# simulate routing (paper 001): single runs, the study, workloads, bad input.
expect 0 'running time [0-9]+ cycles; [0-9]+ messages'  simulate routing --dim 8 --routing dynamic --priority E --links uni --workload gauss --seed 7
expect 0 '"running_time": [0-9]+'                     simulate routing --dim 8 --routing dynamic --priority E --links uni --workload gauss --seed 7 --json
expect 0 'trace check: valid'                         simulate routing --dim 5 --workload layered --priority I --check
expect 0 'scheme_e_best +(reproduced|not reproduced)' simulate routing --study --dim 5 --reps 3 --workload reduce_broadcast
mkdir -p "$tmp/figs"
expect 0 'wrote .*figure5.svg'                        simulate routing --study --dim 4 --reps 2 --workload gauss --svg "$tmp/figs"
if [ -s "$tmp/figs/figure3.svg" ] && [ -s "$tmp/figs/figure4.svg" ] && grep -q '<svg' "$tmp/figs/figure5.svg"; then
  passes=$((passes+1)); else echo "FAIL: --study --svg writes figure3/4/5.svg"; fails=$((fails+1)); fi
expect 2 '--svg: .*is not a directory'                simulate routing --study --dim 4 --reps 2 --svg "$tmp/nodir/x"
if [ ! -e "$tmp/nodir" ]; then passes=$((passes+1)); else echo "FAIL: --svg to a missing folder writes nothing"; fails=$((fails+1)); fi
"$tc" simulate routing --dim 4 --workload layered --write-workload "$tmp/w.json" >/dev/null 2>&1
expect 0 'running time'                               simulate routing --dim 4 --workload "$tmp/w.json"
expect 2 '--workload: .*placed on 16 nodes, --dim gives 32' simulate routing --dim 5 --workload "$tmp/w.json"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); j['processes'][3]['sends']=[3]; json.dump(j, open(sys.argv[2],'w'), indent=1)" "$tmp/w.json" "$tmp/selfsend.json"
expect 2 'selfsend.json:[0-9]+: error: processes\[3\]'  simulate routing --dim 4 --workload "$tmp/selfsend.json"
expect 2 "--workload: 'ring' is neither"              simulate routing --workload ring
expect 2 '--dim: 13 is outside 1\.\.12'               simulate routing --dim 13
expect 2 "--priority: 'L' is not a scheme"             simulate routing --dim 3 --priority L
expect 2 "--routing: 'adaptive'"                       simulate routing --dim 3 --routing adaptive
expect 2 "--links: 'duplex'"                           simulate routing --dim 3 --links duplex
expect 2 '--study runs every routing'                  simulate routing --study --routing dynamic
expect 2 '--reps: 1 is outside'                        simulate routing --study --dim 3 --reps 1
expect 2 "--arbitration: 'fifo' is not"               simulate routing --dim 3 --arbitration fifo
expect 2 '--nonzeros-per-row: only with --workload gauss' simulate routing --dim 3 --workload layered --nonzeros-per-row 3

# simulate wormhole (paper 002, issue 8): single runs, a deadlock on C4, the study, bad input.
expect 0 'trace check: valid'                         simulate wormhole --nodes 16 --load 0.3 --check
expect 0 '"flit_crossings": [0-9]+'                    simulate wormhole --steps '3:(0,1) 4:(1,3) 5:(0,3)' --routing updown-adaptive --root 2 --json
expect 1 'DEADLOCK at cycle 1: 4 worms'                simulate wormhole --graph c4 --traffic distance-two --length 1 --seed 11
expect 1 'witness check: a genuine deadlock'           simulate wormhole --graph c4 --traffic distance-two --length 1 --seed 11
expect 0 'trace check: valid'                         simulate wormhole --graph grid3x3 --routing updown-deterministic --traffic all-to-all --check
mkdir -p "$tmp/wsvg"
expect 0 'wrote .*latency_64.svg'                      simulate wormhole --study --quick --jobs 2 --svg "$tmp/wsvg"
[ -s "$tmp/wsvg/throughput_16.svg" ] && passes=$((passes+1)) || { echo "FAIL: throughput_16.svg not written"; fails=$((fails+1)); }
expect 2 '--svg: .*is not a directory'                 simulate wormhole --study --quick --svg "$tmp/nodir/x"
expect 2 '--svg: only with --study'                    simulate wormhole --svg "$tmp/wsvg"
expect 2 "--graph: .*petersen"                         simulate wormhole --graph petersen
expect 2 "--routing: 'xy'"                             simulate wormhole --routing xy
expect 2 "--steps: .*step 1"                           simulate wormhole --steps '3:(0,7)'
expect 2 "--root: '9' is not a node"                   simulate wormhole --graph c4 --root 9
expect 2 "--root: 'middle' is not center"              simulate wormhole --study --root middle
expect 2 "--traffic: 'tornado'"                        simulate wormhole --traffic tornado
expect 2 '--load: 1.5 is outside'                      simulate wormhole --load 1.5
expect 2 '--buffer: 0 is outside 1\.\.1024'                       simulate wormhole --buffer 0
expect 2 '--study builds its own'                      simulate wormhole --study --graph c4
expect 0 'label="waits"'                               show "$corpus/wormhole/thm2.non_itm_deadlock_free/c4-4d898db73db6f8bb.json" --format dot
expect 0 'arbitration .node_by_node.'                 simulate routing --study --dim 4 --reps 2 --arbitration node_by_node --nonzeros-per-row 3
expect 0 '"speedup":'                                construct migration-latency --M 100000 --B 2.8 --X 16 --S '0010**' --T '1*0*00' --json
expect 2 "missing.json: error: cannot read"          show "$tmp/missing.json"
expect 2 "--format: 'svg'"                           show "$corpus/hypercube/examples/table1.json" --format svg
expect 2 "--param 'n': expected NAME=VALUE"          prove hypercube.alg2.disjoint --param n
expect 2 "params.n|n must be"                        prove hypercube.alg2.disjoint --param n=0
expect 2 "has no SMT encoding"                       prove hypercube.table1 --param n=3
expect 0 ' 3 \{6\} +one_port +A1 \(d = 0\) +18 +25 +12 +12$' simulate aapc --table --max-n 3 --exact-seconds 0
expect 2 '--max-n: 2 is outside'                     simulate aapc --table --max-n 2
# The Q_4 one_port minimum with one fault, 32 units (Z3, about 26 minutes; stored): the checker accepts it.
expect 0 'checker: valid'                            simulate aapc --check "$(dirname "$0")/data/q4_faults_0_one_port_32.json" --model one_port
expect 2 "--faults: node 8 is not in Q_3"              simulate aapc --n 3 --faults 8
expect 2 "--faults: node 6 is listed twice"          simulate aapc --n 3 --faults 6,6
expect 2 "--n: 11 is outside"                        simulate aapc --n 11
expect 2 "--model: 'two_port'"                       simulate aapc --n 3 --faults 6 --model two_port
expect 2 "--algorithm: A1 takes exactly one fault"   simulate aapc --n 3 --faults 1,6 --algorithm A1
expect 2 "--link: 0-3 is not a link of Q_3"          simulate aapc --n 3 --faults 6 --link 0-3
expect 2 "--d: 3 is not a dimension"                 simulate aapc --n 3 --faults 6 --d 3
expect 2 "--svg: "                                   simulate aapc --n 3 --faults 6 --svg /dev/null/x.svg
expect 2 "--frame: 'relative' is not canonical or absolute" simulate aapc --n 3 --faults 1,6 --frame relative
expect 0 '"frame":"absolute"'                        simulate aapc --n 3 --faults 0,3 --d 0 --frame absolute --json
expect 2 "--json .*does not exist"                   verify hypercube.table1 --json "$tmp/no/such/dir/out.json"
expect 2 "error: "                                   no-such-command

# A malformed corpus file is reported with FILE:LINE, never skipped.
mkdir -p "$tmp/badcorpus"; cp "$corpus/ledger.json" "$tmp/badcorpus/"
printf '{\n  "format": 1,\n  "kind": \n}\n' > "$tmp/badcorpus/bad.json"
"$tc" --corpus "$tmp/badcorpus" replay >"$tmp/out" 2>"$tmp/err"; code=$?
if [ $code -eq 2 ] && grep -qE 'bad.json:4: error: invalid JSON' "$tmp/err" && [ "$(grep -c '' "$tmp/err")" -eq 1 ]; then passes=$((passes+1)); else echo "FAIL: bad corpus file: exit $code"; cat "$tmp/err"; fails=$((fails+1)); fi
rm "$tmp/badcorpus/bad.json"; mkdir -p "$tmp/badcorpus/hypercube/alg2.disjoint"  # a case lives in its claim's folder
printf '{"format": 1, "kind": "counterexample", "claim": "hypercube.alg2.disjoint", "reading": "literal", "params": {"n": 3}, "input": {"x": "000", "y": "0110"}, "violation": "v", "witness": {}, "found_by": {"method": "random"}, "minimized": true}\n' > "$tmp/badcorpus/hypercube/alg2.disjoint/bad.json"
"$tc" --corpus "$tmp/badcorpus" replay >"$tmp/out" 2>"$tmp/err"; code=$?
if [ $code -eq 2 ] && grep -qE 'bad.json: error: input.y: .*width 4' "$tmp/err"; then passes=$((passes+1)); else echo "FAIL: bad corpus input: exit $code"; cat "$tmp/err"; fails=$((fails+1)); fi
# A case that no longer fails is a difference (exit 1).
printf '{"format": 1, "kind": "counterexample", "claim": "hypercube.alg2.disjoint", "reading": "literal", "params": {"n": 3}, "input": {"x": "000", "y": "011"}, "violation": "v", "witness": {}, "found_by": {"method": "random"}, "minimized": true}\n' > "$tmp/badcorpus/hypercube/alg2.disjoint/bad.json"
expect 1 "" --corpus "$tmp/badcorpus" replay "$tmp/badcorpus/hypercube/alg2.disjoint/bad.json"
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
expect 0 'P_2 \(9 hops\) = 000000:000001:010001:' \
  construct metacube-paths --k 2 --m 1 --s 000000 --t 000111 --reading corrected

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
# (A copy of the whole corpus: every case the ledger names must exist.)
cp -r "$corpus" "$tmp/wrongledger"
python3 - "$corpus/ledger.json" "$tmp/wrongledger/ledger.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["expectations"]:
    if e["claim"] == "hypercube.ecube.shortest": e["verdict"] = "inconclusive"
json.dump(d, open(sys.argv[2], "w"))
PY
expect 1 "DIFFERS: expected inconclusive, got holds" --corpus "$tmp/wrongledger" verify hypercube.ecube.shortest --budget quick
mkdir -p "$tmp/nocase"; cp -r "$corpus/hypercube" "$tmp/nocase/"
python3 - "$corpus/ledger.json" "$tmp/nocase/ledger.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["expectations"]:
    if e["claim"] == "hypercube.ecube.shortest": e["verdict"] = "refuted"
json.dump(d, open(sys.argv[2], "w"))
PY
expect 2 "names no 'case'" --corpus "$tmp/nocase" verify hypercube.ecube.shortest --budget quick

# --reading: only the matching readings (repeatable globs; the claim glob after it stays a claim
# glob); a glob that matches no reading of the selected claims is bad usage.
expect 2 "--reading: 'nope' matches no reading of the selected claims" verify 'metacube.thm2.length' --reading nope
expect 0 "" verify --reading 'paper-key*' 'metacube.thm2.length' --budget quick --json "$tmp/reading.json"
python3 - "$tmp/reading.json" <<'PY' && passes=$((passes+1)) || { echo "FAIL: verify --reading selects one reading"; fails=$((fails+1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert [(c["id"], c["reading"]) for c in d["claims"]] == [("metacube.thm2.length", "paper-keybit-example4")], d["claims"]
PY
expect 0 "2 claim readings" verify 'metacube.thm2.length' --reading paper --reading 'paper-keybit-*' --budget quick

# Sharded verify and merge. Bad --shard values: exit 2, one line naming --shard.
for bad in 0/4 5/4 1/0 4 x/4 1/ /4; do
  expect 2 "--shard: '$bad'" verify 'hypercube.ecube.*' --budget quick --shard "$bad"
done
# Shards of a run that holds, and of one whose expected refutation lies in shard 1 of 3: each
# shard alone exits 0 (one shard does not decide a refutation); merged, the verdicts are compared
# with the ledger as usual.
for i in 1 2 3; do
  expect 0 "" verify 'hypercube.ecube.*' 'metacube.thm2.valid' --budget quick --shard "$i/3" --json "$tmp/shard$i.json"
done
python3 - "$tmp/shard2.json" <<'PY' && passes=$((passes+1)) || { echo "FAIL: shard report shape"; fails=$((fails+1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["shard"] == "2/3", d["shard"]
methods = {(c["id"], m["method"]): m for c in d["claims"] for m in c["methods"]}
ex = methods[("hypercube.ecube.shortest", "exhaustive")]
assert ex["shard"].startswith("2/3, pairs [") and not ex["skipped"], ex
# The random method (not split) runs whole in exactly one of the three shards.
ran = []
for i in (1, 2, 3):
    e = json.load(open(sys.argv[1].replace("shard2", f"shard{i}")))
    m = {(c["id"], m["method"]): m for c in e["claims"] for m in c["methods"]}[("hypercube.ecube.shortest", "random")]
    if not m["skipped"]: ran.append(i)
assert len(ran) == 1, ran
assert "[shard 2/3" in [c for c in d["claims"] if c["id"] == "hypercube.ecube.shortest"][0]["scope"]
PY
expect 0 "case: metacube/thm2.valid/paper-" merge "$tmp/shard3.json" "$tmp/shard1.json" "$tmp/shard2.json" --json "$tmp/merged.json"
python3 - "$tmp/merged.json" <<'PY' && passes=$((passes+1)) || { echo "FAIL: merged report shape"; fails=$((fails+1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["merged_shards"] == 3 and d["summary"]["differing"] == 0, d["summary"]
v = [c for c in d["claims"] if c["id"] == "metacube.thm2.valid" and c["reading"] == "paper"][0]
assert v["verdict"] == "refuted" and v["counterexample"]["input"] == {"s": "000", "t": "010"}, v["counterexample"]
PY
# Every family's split sweeps (metacube and hypercube pairs, AAPC fault sets, the migration theorem
# sweep, ITM levels) and the work that is not split, in 3 shards: merged, every claim reading has
# the verdict, counterexample and applicable count of the unsharded run (a method that ran whole in
# every shard would count its cases three times).
families=('hypercube.*' 'metacube.thm2.valid' 'metacube.thm2.proof.*' 'aapc.prop2.*' 'migration.thm1.valid' 'itm.thm2.*' 'itm.lemma4.*')
expect 0 "" verify "${families[@]}" --budget quick --json "$tmp/whole.json"
for i in 1 2 3; do
  expect 0 "" verify "${families[@]}" --budget quick --shard "$i/3" --json "$tmp/fam$i.json"
done
expect 0 "" merge "$tmp/fam1.json" "$tmp/fam2.json" "$tmp/fam3.json" --json "$tmp/fam-merged.json"
if python3 "$(dirname "$0")/slurm/compare.py" "$tmp/fam-merged.json" "$tmp/whole.json"; then passes=$((passes+1))
else echo "FAIL: merged shards differ from the unsharded run"; fails=$((fails+1)); fi
expect 2 "missing shard 2/3 \(have 2 of 3\)" merge "$tmp/shard1.json" "$tmp/shard3.json"
expect 2 "shard2.json: error: shard 2/3 is also in" merge "$tmp/shard1.json" "$tmp/shard2.json" "$tmp/shard3.json" "$tmp/shard2.json"
expect 2 "v.json: error: not a shard report" merge "$tmp/v.json"
expect 2 "nothing.json: error: cannot read" merge "$tmp/nothing.json"
printf '{"budget": "quick",\n "seed": 1,\n "shard": \n' > "$tmp/broken.json"
expect 2 "broken.json:4: error: invalid JSON" merge "$tmp/broken.json"
# Shards of different runs (another seed, budget or N) are refused, naming the file.
python3 - "$tmp/shard2.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for name, key, value in [("seed7", "seed", 7), ("deep", "budget", "deep"), ("of4", "shard", "2/4")]:
    json.dump(dict(d, **{key: value}), open(f"{sys.argv[2]}/shard2-{name}.json", "w"))
PY
expect 2 "shard2-seed7.json: error: budget quick and seed 7 differ from .*shard1.json \(budget quick, seed 1\)" \
  merge "$tmp/shard1.json" "$tmp/shard2-seed7.json" "$tmp/shard3.json"
expect 2 "shard2-deep.json: error: budget deep and seed 1 differ from" \
  merge "$tmp/shard1.json" "$tmp/shard2-deep.json" "$tmp/shard3.json"
expect 2 "shard2-of4.json: error: shard 2/4 is of 4 shards, .*shard1.json is of 3" \
  merge "$tmp/shard1.json" "$tmp/shard2-of4.json" "$tmp/shard3.json"
# A merged verdict that differs from the ledger exits 1.
expect 1 "DIFFERS: expected inconclusive, got holds" --corpus "$tmp/wrongledger" merge "$tmp/shard1.json" "$tmp/shard2.json" "$tmp/shard3.json"

# show --format dot: plausible dot (digraph, balanced braces outside quoted strings), one colour per
# path, every node shared by two paths or repeated in one filled red and named in the legend line;
# endpoints that only end paths are not highlighted. (Syntax only: graphviz is not a dependency.)
dot_ok() {  # dot_ok FILE: starts with "digraph", braces balance outside quotes, one statement per line
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
assert text.startswith("digraph "), text[:40]
bare = re.sub(r'"(\\.|[^"\\])*"', '""', text)
depth = 0
for ch in bare:
    depth += {"{": 1, "}": -1}.get(ch, 0)
    assert depth >= 0, "unbalanced }"
assert depth == 0, "unbalanced {"
assert bare.rstrip().endswith("}"), "no closing brace"
for line in bare.splitlines()[1:-1]:
    assert line.strip().endswith(";"), line
PY
}
case_valid="$corpus/metacube/thm2.valid/paper-02edb145de06d096.json"     # P_0 = 000:100:110:010:110:010
"$tc" --corpus "$corpus" show "$case_valid" --format dot >"$tmp/valid.dot" 2>"$tmp/err"; code=$?
if [ $code -eq 0 ] && dot_ok "$tmp/valid.dot" \
   && grep -qE '^  "110" \[label="110\\n\(1, 1, 0\)", style=filled, fillcolor=red, penwidth=3\];$' "$tmp/valid.dot" \
   && grep -qE '^  "010" \[.*fillcolor=red' "$tmp/valid.dot" \
   && ! grep -qE '^  "000" \[.*fillcolor' "$tmp/valid.dot" \
   && grep -qE '^  label=".*shared: .*110 \(/paths/0 @2, /paths/0 @4\)' "$tmp/valid.dot" \
   && [ "$(grep -c -- '-> .*color=blue' "$tmp/valid.dot")" -eq 5 ] && [ "$(grep -c -- '-> .*color=darkgreen' "$tmp/valid.dot")" -eq 5 ]; then
  passes=$((passes+1)); else echo "FAIL: show --format dot highlights 110 (twice in P_0) (exit $code)"; cat "$tmp/valid.dot" "$tmp/err"; fails=$((fails+1)); fi
# Two paths through one node (every stored metacube case repeats a node inside P_0, so this one is
# written here: the pre-completion `repaired` reading's MC(1,1), s = 000, t = 101).
mkdir -p "$tmp/dotcase/metacube/thm2.disjoint"
printf '{"format": 1, "kind": "counterexample", "claim": "metacube.thm2.disjoint", "reading": "repaired", "params": {"k": 1, "m": 1}, "input": {"s": "000", "t": "101"}, "violation": "paths 0 and 1 share node 001", "witness": {"paths": [["000", "001", "101"], ["000", "001", "101"]]}, "found_by": {"method": "exhaustive"}, "minimized": true}\n' > "$tmp/dotcase/metacube/thm2.disjoint/shared.json"
"$tc" --corpus "$corpus" show "$tmp/dotcase/metacube/thm2.disjoint/shared.json" --format dot >"$tmp/shared.dot" 2>"$tmp/err"; code=$?
if [ $code -eq 0 ] && dot_ok "$tmp/shared.dot" && grep -qE '^  "001" \[.*fillcolor=red' "$tmp/shared.dot" \
   && grep -qE '^  label=".*shared: 001 \(/paths/0 @1, /paths/1 @1\)";$' "$tmp/shared.dot" \
   && [ "$(grep -c fillcolor "$tmp/shared.dot")" -eq 1 ]; then
  passes=$((passes+1)); else echo "FAIL: show --format dot highlights a node shared by two paths (exit $code)"; cat "$tmp/shared.dot" "$tmp/err"; fails=$((fails+1)); fi
# Table 1 as printed: its P_1 typo (000:010:101:100) meets P_0 at 101, which the drawing shows.
"$tc" --corpus "$corpus" show "$corpus/hypercube/examples/table1.json" --format dot >"$tmp/table1.dot" 2>"$tmp/err"; code=$?
if [ $code -eq 0 ] && dot_ok "$tmp/table1.dot" && grep -qE '^  "101" \[.*fillcolor=red' "$tmp/table1.dot" \
   && grep -q 'shared: 101 (/columns/3/paths/0 @2, /columns/3/paths/1 @2)' "$tmp/table1.dot"; then
  passes=$((passes+1)); else echo "FAIL: show --format dot of Table 1 highlights the printed typo's 101 (exit $code)"; head -5 "$tmp/table1.dot"; fails=$((fails+1)); fi
# Disjoint paths (Table 2 of the Metacube paper): nothing highlighted.
"$tc" --corpus "$corpus" show "$corpus/metacube/examples/table2.json" --format dot >"$tmp/table2.dot" 2>"$tmp/err"; code=$?
if [ $code -eq 0 ] && dot_ok "$tmp/table2.dot" && grep -q 'no shared node' "$tmp/table2.dot" && ! grep -q fillcolor "$tmp/table2.dot"; then
  passes=$((passes+1)); else echo "FAIL: show --format dot of disjoint paths highlights nothing (exit $code)"; head -5 "$tmp/table2.dot"; fails=$((fails+1)); fi

# The README's command list (its code blocks) against --help: every verb and sub-verb that --help
# lists has a `./topocheck VERB` line there, and every `./topocheck WORD` line names a verb that
# --help lists (or the launcher's test / test-deep). readme_problems FILE prints what is wrong.
subverbs() { "$tc" "$@" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF { print $1 }'; }
readme_problems() {
  local lines v s w known
  lines=$(awk '/^```/ { inside = !inside; next } inside' "$1" | grep -E '^\./topocheck ' || true)
  for v in $(subverbs); do
    case "$v" in
      construct|simulate)
        for s in $(subverbs "$v"); do grep -qE "^\./topocheck $v $s( |$)" <<<"$lines" || echo "missing: $v $s"; done ;;
      *) grep -qE "^\./topocheck $v( |$)" <<<"$lines" || echo "missing: $v" ;;
    esac
  done
  known=" $(subverbs | tr '\n' ' ') test test-deep "
  for w in $(awk '{ print $2 }' <<<"$lines" | sort -u); do
    case "$known" in *" $w "*) ;; *) echo "not a verb: $w" ;; esac
  done
}
readme="${3:-}"
if [ -n "$readme" ]; then
  problems=$(readme_problems "$readme")
  if [ -z "$problems" ]; then passes=$((passes+1))
  else echo "FAIL: README command list: $problems"; fails=$((fails+1)); fi
  # Negative controls: without its `replay` line, or with a verb that does not exist, it fails.
  grep -v '^\./topocheck replay' "$readme" > "$tmp/readme_bad.md"
  if grep -q "missing: replay" <<<"$(readme_problems "$tmp/readme_bad.md")"; then passes=$((passes+1))
  else echo "FAIL: the README check misses a missing verb"; fails=$((fails+1)); fi
  sed 's#^\./topocheck replay#./topocheck replays#' "$readme" > "$tmp/readme_bad.md"
  if grep -q "not a verb: replays" <<<"$(readme_problems "$tmp/readme_bad.md")"; then passes=$((passes+1))
  else echo "FAIL: the README check misses a verb that does not exist"; fails=$((fails+1)); fi
fi

# The findings pages' generated verdict tables: as the ledger has them; an edited row is found
# (exit 1, the page named) and rewritten; a page without its markers is exit 2 naming it.
docs="$(dirname "$corpus")/docs/findings"
if [ -d "$docs" ]; then
  expect 0 "every generated table is the ledger's"          report --findings "$docs" --check
  cp -r "$docs" "$tmp/findings"
  sed -i '/^| `hypercube.table1` (/s/| `literal` | holds |/| `literal` | refuted |/' "$tmp/findings/hypercube.md"
  expect 1 "hypercube.md: its generated tables differ"      report --findings "$tmp/findings" --check
  expect 0 "hypercube.md: rewritten"                      report --findings "$tmp/findings"
  expect 0 "every generated table is the ledger's"          report --findings "$tmp/findings" --check
  sed -i 's/^| `metacube.thm2.valid` | error of the paper |/| `metacube.thm2.valid` | ambiguous |/' "$tmp/findings/README.md"
  expect 1 "README.md: its generated tables differ"         report --findings "$tmp/findings" --check
  cp "$docs/README.md" "$tmp/findings/README.md"
  # The claims and counterexamples blocks: a statement or a stored violation edited by hand is found.
  sed -i '/^| `aapc.a1.units` | /s/| Sections/| Section/' "$tmp/findings/aapc.md"
  expect 1 "aapc.md: its generated tables differ"         report --findings "$tmp/findings" --check
  cp "$docs/aapc.md" "$tmp/findings/aapc.md"
  sed -i '/^| `aapc.a1.units` \[`all_port.exactly`\]/s/not the paper/not quite the paper/' "$tmp/findings/aapc.md"
  expect 1 "aapc.md: its generated tables differ"         report --findings "$tmp/findings" --check
  cp "$docs/aapc.md" "$tmp/findings/aapc.md"
  grep -v 'end of generated counterexamples' "$docs/wormhole.md" > "$tmp/findings/wormhole.md"
  expect 2 "wormhole.md: error: no generated block"       report --findings "$tmp/findings" --check
  cp "$docs/wormhole.md" "$tmp/findings/wormhole.md"
  grep -v 'end of generated verdicts' "$docs/itm.md" > "$tmp/findings/itm.md"
  expect 2 "itm.md: error: no generated block"            report --findings "$tmp/findings" --check
  expect 2 "--html or --findings: give exactly one"       report
fi

# check paths: a user's path system judged; bad files one line with FILE:LINE, exit 2, nothing on stdout.
examples="$(dirname "$corpus")/examples/check"
if [ -d "$examples" ]; then
  expect 0 "^ok$"                                          check paths --file "$examples/paths-q3.json"
  expect 1 "disjoint +violated +paths 0 and 1 share node 011" check paths --file "$examples/paths-q3-shared-node.json"
  expect 1 '"verdict": "violated"'                         check paths --file "$examples/paths-q3-shared-node.json" --format json
  expect 1 'shared: 011'                                   check paths --file "$examples/paths-q3-shared-node.json" --format dot
  expect 2 "check needs one of its commands: paths"        check
  expect 2 "unknown check command 'route'"                 check route --file x.json
  expect 2 "is a directory, not a JSON file"               check paths --file "$examples"
  expect 2 "nope.json: error: cannot read the file"        check paths --file "$tmp/nope.json"
  printf '{"topology": "hypercube:3",\n "s": "000", "t": "111",\n "paths": [["000", "0011"]]}\n' > "$tmp/bad-width.json"
  expect 2 "bad-width.json:3: error: /paths/0/1"           check paths --file "$tmp/bad-width.json"
  printf '{"topology": "hypercube:3",\n "s": "000",\n "t": [}\n' > "$tmp/bad-json.json"
  expect 2 "bad-json.json:3: error: invalid JSON"          check paths --file "$tmp/bad-json.json"
  expect 2 "--format: 'svg' is not text, json or dot"      check paths --file "$examples/paths-q3.json" --format svg
  expect 2 "--json .*: the folder .* does not exist"                            check paths --file "$examples/paths-q3.json" --json "$tmp/no/such/dir/x.json"
  expect 2 "/dev/full: error: --json: write failed"        check paths --file "$examples/paths-q3.json" --json /dev/full
  # check schedule: an AAPC schedule judged by the schedule checker under its model.
  expect 0 "lower_bound +ok +15 units"                     check schedule --file "$examples/schedule-a2-q3.json"
  expect 1 "valid +violated +datum 2_7 is not delivered"   check schedule --file "$examples/schedule-a2-q3-undelivered.json"
  expect 2 "--format dot: a schedule file has no drawing"  check schedule --file "$examples/schedule-a2-q3.json" --format dot
  expect 2 "ledger.json:3: error: /expectations: unknown field" check schedule --file "$corpus/ledger.json"
  # check routing: a routing table's channel dependency graph, arrival and minimality.
  expect 0 "deadlock_free +ok"                             check routing --file "$examples/routing-itm5-shortest.json"
  expect 1 "deadlock_free +violated +the channel dependency graph has the cycle" check routing --file "$examples/routing-c4-shortest.json"
  printf '{"graph": {"nodes": 3, "edges": [[0, 1], [1, 2]]},\n "table": [\n  {"node": 0, "dest": 2, "next": [2]}]}\n' > "$tmp/bad-hop.json"
  expect 2 "bad-hop.json:3: error: /table/0/next/0: 2 is not a neighbour of 0" check routing --file "$tmp/bad-hop.json"
  # check --batch: every file of a folder, one JSON and one JUnit report; a bad file stops it all.
  mkdir -p "$tmp/batch" && cp "$examples"/paths-*.json "$tmp/batch/"
  expect 1 "2 file\(s\): 1 ok, 1 violated"                check paths --batch "$tmp/batch" --json "$tmp/batch.json" --junit "$tmp/batch.xml"
  if ! grep -q '<failure message="disjoint: paths 0 and 1 share node 011' "$tmp/batch.xml" || ! grep -q '"verdict": "violated"' "$tmp/batch.json"; then
    echo "FAIL: check --batch: the JUnit or JSON report lacks the violation"; fails=$((fails+1))
  fi
  cp "$tmp/bad-width.json" "$tmp/batch/"
  rm -f "$tmp/batch2.json"
  expect 2 "bad-width.json:3: error"                       check paths --batch "$tmp/batch" --json "$tmp/batch2.json"
  [ -e "$tmp/batch2.json" ] && { echo "FAIL: check --batch wrote a report despite a bad file"; fails=$((fails+1)); }
  expect 2 "--file or --batch: give exactly one"          check paths
  expect 2 "--junit: only with --batch"                   check paths --file "$examples/paths-q3.json" --junit "$tmp/x.xml"
  # check paths on a table (JSON Lines): streamed, a line per system; from a file or from stdin.
  expect 1 "disjoint +violated +1 of 4 systems; first at line 5 \(000 to 110\)" check paths --file "$examples/paths-table-q3.jsonl"
  "$tc" construct metacube-paths --k 1 --m 2 --s all --t all --reading corrected 2>/dev/null |
    "$tc" check paths --file - --lines --format json > "$tmp/table.json" 2>"$tmp/err"
  if [ $? -ne 0 ] || ! grep -q '"systems": 992' "$tmp/table.json"; then
    echo "FAIL: construct metacube-paths --s all --t all | check paths --file - --lines: not 992 systems, all ok"; fails=$((fails+1))
  fi
  printf '{"kind": "paths", "topology": "hypercube:3"}\n{"s": "000", "t": "001", "paths": [["000", "001"]]}\n{"s": "000", "t": "001", "paths": [["000", "0x1"]]}\n' > "$tmp/bad.jsonl"
  expect 2 "bad.jsonl:3: error: /paths/0/1"                check paths --file "$tmp/bad.jsonl"
  expect 2 "--format dot: a table of path systems has no drawing" check paths --file "$examples/paths-table-q3.jsonl" --format dot
  expect 2 "--file -: standard input is read as a JSON Lines table" check paths --file -
  expect 2 "--s all: only with --t all"                    construct metacube-paths --k 1 --m 2 --s all --t 00000
  mkdir -p "$tmp/batch3" && cp "$examples/paths-q3.json" "$examples/paths-table-q3.jsonl" "$tmp/batch3/"
  expect 1 "paths-table-q3.jsonl: violated \(disjoint\)"  check paths --batch "$tmp/batch3"
  # search --external: a user's construction as a program, hunted with the generators and shrinking.
  prog="python3 $examples/cube_paths.py"
  expect 0 "no counterexample: 30 case\(s\) of hypercube:6"  search --external "$prog" --topology hypercube:6 --cases 30
  mkdir -p "$tmp/own"
  expect 1 'input: +\{"s":"000","t":"111","topology":"hypercube:3"\}' --corpus "$tmp/own" search --external "$prog --planted-bug" --topology hypercube:6 --save
  expect 1 "disjoint: violated: paths 0 and 1 share node 011"  --corpus "$tmp/own" search --external "$prog --planted-bug" --topology hypercube:6
  expect 1 "stored .*external-[0-9a-f]*.json: still fails: disjoint" --corpus "$tmp/own" search --external "$prog --planted-bug" --cases 2
  expect 0 "stored .*external-[0-9a-f]*.json: now passes"  --corpus "$tmp/own" search --external "$prog" --cases 2
  expect 1 "violated \(disjoint\)"                         check paths --batch "$tmp/own"
  expect 2 "--external: 'no-such-program-here' could not be run: exit 127" search --external no-such-program-here
  expect 2 "--corpus .*: the suite's corpus of claims" search --external "$prog" --save
  "$tc" search --external "$prog" --save >/dev/null 2>"$tmp/err"
  if [ $? -ne 2 ] || ! grep -q -- "--save: with --external, give the folder of your corpus" "$tmp/err"; then
    echo "FAIL: search --external --save without --corpus is not refused"; fails=$((fails+1))
  fi
  expect 2 "--topology requires --external"                search hypercube.alg2.disjoint --topology hypercube:3
  expect 2 "--topology: 'torus:3' is not hypercube:N or metacube:K,M" search --external "$prog" --topology torus:3
  expect 2 "CLAIM: give a claim id, or --external PROGRAM" search
  # plan: a sharded run in a folder (--local here; --slurm is tested on a real cluster by slurm_plan).
  expect 0 "all match the ledger"                         plan metacube.thm2.length --budget quick --shards 3 --local --jobs 2 --out "$tmp/plan"
  [ -f "$tmp/plan/merged.json" ] && [ -f "$tmp/plan/shard-3.json" ] || { echo "FAIL: plan --local left no merged report"; fails=$((fails+1)); }
  rm "$tmp/plan/shard-2.json"
  expect 2 "--merge: 1 of 3 shards are not complete: shard-2.json: missing" plan --out "$tmp/plan" --merge
  expect 0 "^2$"                                          plan --out "$tmp/plan" --missing
  expect 2 "--out .*: it holds another plan"              plan metacube.thm2.length --budget quick --shards 4 --local --out "$tmp/plan"
  expect 0 "bash .*submit.sh"                             plan 'metacube.thm2.*' --budget deep --shards 200 --slurm --out "$tmp/sweep"
  expect 2 "--time: 'two hours' has a space"              plan metacube.thm2.length --shards 2 --slurm --time "two hours" --out "$tmp/sweep2"
  expect 2 "--slurm or --local: give exactly one"         plan metacube.thm2.length --shards 2 --out "$tmp/sweep3"
  expect 2 "no plan.json there"                           plan --out "$tmp/nowhere" --missing
  # check itm: a graph or AddNode steps under each reading of AddNode.
  expect 0 "broadcast\[exterior\] +ok"                  check itm --file "$examples/itm-graph.json"
  expect 1 "itm\[exterior\] +violated +step 2 .4:\(0,1\).: \(0,1\) is interior" check itm --file "$examples/itm-interior-step.json"
  printf '{"steps": "3:(0,1) 4:(1,x)"}\n' > "$tmp/bad-steps.json"
  expect 2 "bad-steps.json:1: error: /steps: step 2"      check itm --file "$tmp/bad-steps.json"
fi

echo "cli_test: $passes passed, $fails failed"
[ $fails -eq 0 ]
