#!/usr/bin/env bash
# Every corpus case and the ledger judged on load, by every command that reads them (issue 27):
# each defect below is made in a fresh copy of the corpus, and every command that reads the file
# must exit 2 with one line "topocheck: FILE[:LINE]: error: ..." naming it, never skip it or call
# it a new counterexample. Also `merge` of tampered reports.
# Usage: corpus_load_test.sh TOPOCHECK CORPUS
set -uo pipefail
tc="$1"; corpus="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0; passes=0

# expect2 NAME PATTERN ARGS...: exit 2 and exactly one stderr line matching PATTERN.
expect2() {
  local name="$1" pattern="$2"; shift 2
  "$tc" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$? lines; lines=$(grep -c '' "$tmp/err")
  if [ "$got" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qE -e "$pattern" "$tmp/err"; then
    passes=$((passes+1))
  else
    echo "FAIL [$name]: topocheck $*: exit $got (expected 2), stderr (expected one line matching '$pattern'):"
    sed 's/^/  /' "$tmp/err" | head -5; fails=$((fails+1))
  fi
}

# fresh: a clean copy of the corpus at $c.
fresh() { rm -rf "$tmp/c"; cp -r "$corpus" "$tmp/c"; c="$tmp/c"; }

# edit FILE PYTHON: runs PYTHON with `d` the parsed FILE, then writes d back.
edit() {
  python3 - "$1" "$2" <<'PY'
import json, sys
path, code = sys.argv[1], sys.argv[2]
d = json.load(open(path))
exec(code)
json.dump(d, open(path, "w"), indent=2)
PY
}

# case_commands NAME REL PATTERN CLAIM: every command that reads the case REL (relative to $c)
# fails naming it.
case_commands() {
  local name="$1" rel="$2" pattern="$3" claim="$4"
  local file="$c/$rel" re; re="$(sed 's/[.[\*^$]/\\&/g' <<<"$c/$rel")"
  expect2 "$name: replay"           "^topocheck: $re: error: .*$pattern" --corpus "$c" replay
  expect2 "$name: replay FILE"      "^topocheck: $re: error: .*$pattern" --corpus "$c" replay "$file"
  expect2 "$name: examples"         "^topocheck: $re: error: .*$pattern" --corpus "$c" examples
  expect2 "$name: show"             "^topocheck: $re: error: .*$pattern" --corpus "$c" show "$file"
  expect2 "$name: verify CLAIM"     "^topocheck: $re: error: .*$pattern" --corpus "$c" verify "$claim" --budget quick --jobs 1
  expect2 "$name: verify"           "^topocheck: $re: error: .*$pattern" --corpus "$c" verify --budget quick --jobs 1
}

disjoint=metacube/thm2.disjoint/paper-4eb4b5cf13a112a7.json
valid=metacube/thm2.valid/paper-02edb145de06d096.json

# Types and widths of the input, judged by the claim's own parsers.
fresh; edit "$c/$disjoint" 'd["params"]["k"] = "one"'
case_commands "params.k = one" "$disjoint" "k" metacube.thm2.disjoint
fresh; edit "$c/$disjoint" 'd["input"]["s"] = 0'
case_commands "number for a node" "$disjoint" "s" metacube.thm2.disjoint
fresh; edit "$c/$disjoint" 'd["input"]["t"] = "1010"'
case_commands "node of the wrong width" "$disjoint" "t" metacube.thm2.disjoint
# Unknown claim and reading.
fresh; edit "$c/$disjoint" 'd["claim"] = "metacube.thm2.nothing"'
case_commands "unknown claim" "$disjoint" "unknown claim 'metacube\.thm2\.nothing'" metacube.thm2.disjoint
fresh; edit "$c/$disjoint" 'd["reading"] = "nothing"'
case_commands "unknown reading" "$disjoint" "has no reading 'nothing'" metacube.thm2.disjoint

# The stored witness re-judged: a node of the wrong width; a valid path system (the repaired
# construction's paths for the same s and t); another case's witness.
fresh; edit "$c/$disjoint" 'd["witness"]["paths"][0][1] = "0100"'
case_commands "witness node of the wrong width" "$disjoint" "witness/paths/0/1 is \"0100\"" metacube.thm2.disjoint
"$tc" construct metacube-paths --k 1 --m 1 --s 000 --t 101 --reading repaired --json > "$tmp/repaired.json" 2>/dev/null
fresh; edit "$c/$disjoint" "d['witness']['paths'] = json.load(open('$tmp/repaired.json'))['paths']"
case_commands "witness replaced by a valid path system" "$disjoint" "stored witness is not the one the claim's checker finds" metacube.thm2.disjoint
fresh; edit "$c/$disjoint" "d['witness'] = json.load(open('$c/$valid'))['witness']"
case_commands "witness of another case" "$disjoint" "stored witness is not the one" metacube.thm2.disjoint
# An AAPC counterexample's stored schedule: one move's datum changed.
a2=aapc/a2.units/all_port.exactly-bde722c2fb10d420.json
fresh; edit "$c/$a2" 'd["witness"]["schedule"]["units"][0][0][0] = "7_2"'
case_commands "a stored schedule's move changed" "$a2" "witness/schedule/units/0/0/0 is \"7_2\"" aapc.a2.units

# Duplicates: a copy of a case under another name (both named), an example listed twice.
fresh; cp "$c/$disjoint" "$c/metacube/thm2.disjoint/paper-copy.json"
expect2 "copy of a case: replay" "paper-copy\.json: error: same claim, reading, params and input as .*paper-4eb4b5cf13a112a7\.json" --corpus "$c" replay
expect2 "copy of a case: verify" "paper-copy\.json: error: same claim, reading, params and input as .*paper-4eb4b5cf13a112a7\.json" --corpus "$c" verify --budget quick --jobs 1
expect2 "copy of a case: examples" "paper-copy\.json: error: same claim" --corpus "$c" examples
expect2 "copy of a case: replay FILE FILE" "error: same claim, reading, params and input as" --corpus "$c" replay "$c/$disjoint" "$c/metacube/thm2.disjoint/paper-copy.json"
expect2 "case given twice: replay FILE FILE" "paper-4eb4b5cf13a112a7\.json: error: the case is given twice" --corpus "$c" replay "$c/$disjoint" "$c/$disjoint"
fresh; cp "$c/hypercube/examples/table1.json" "$c/hypercube/examples/table1-again.json"
expect2 "example listed twice: examples" "table1\.json: error: same claim, reading, params and input as .*table1-again\.json" --corpus "$c" examples
expect2 "example listed twice: verify" "table1\.json: error: same claim" --corpus "$c" verify hypercube.table1 --budget quick --jobs 1
expect2 "example listed twice: replay" "table1\.json: error: same claim" --corpus "$c" replay

# A case outside its claim's folder (a thm2.disjoint case in thm2.valid/).
fresh; cp "$c/$disjoint" "$c/metacube/thm2.valid/"
moved="$c/metacube/thm2.valid/paper-4eb4b5cf13a112a7.json"
for cmd in "replay" "examples" "verify --budget quick --jobs 1" "verify metacube.thm2.valid --budget quick --jobs 1" "show $moved"; do
  # shellcheck disable=SC2086
  expect2 "misplaced case: $cmd" "thm2\.valid/paper-4eb4b5cf13a112a7\.json: error: a counterexample of metacube\.thm2\.disjoint belongs in metacube/thm2\.disjoint/" --corpus "$c" $cmd
done

# The ledger's references: an unknown claim, an unknown reading, a case naming a missing file;
# list, a selective verify and a full quick verify all exit 2 with LEDGER:LINE.
ledger_commands() {  # ledger_commands NAME PATTERN: $c/ledger.json is bad at the line in $tmp/line
  local name="$1" pattern="$2" line; line="$(cat "$tmp/line")"
  expect2 "$name: list"          "ledger\.json:$line: error: .*$pattern" --corpus "$c" list
  expect2 "$name: verify CLAIM"  "ledger\.json:$line: error: .*$pattern" --corpus "$c" verify hypercube.table1 --budget quick --jobs 1
  expect2 "$name: verify"        "ledger\.json:$line: error: .*$pattern" --corpus "$c" verify --budget quick --jobs 1
}
# add_entry JSON: appends an entry to $c/ledger.json (indent 2) and writes the line it starts on to $tmp/line.
add_entry() {
  python3 - "$c/ledger.json" "$1" "$tmp/line" <<'PY'
import json, sys
path, entry, line_file = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
d = json.load(open(path))
d["expectations"].append(entry)
text = json.dumps(d, indent=2)
open(path, "w").write(text + "\n")
# The entry's opening brace: the last "{" at the entries' indentation.
lines = text.split("\n")
open(line_file, "w").write(str(max(i for i, l in enumerate(lines) if l == "    {") + 1))
PY
}
fresh; add_entry '{"claim": "no.such.claim", "reading": "literal", "verdict": "holds", "reason": "x"}'
ledger_commands "ledger: unknown claim" "unknown claim 'no\.such\.claim'"
fresh; add_entry '{"claim": "hypercube.table1", "reading": "nothing", "verdict": "holds", "reason": "x"}'
ledger_commands "ledger: unknown reading" "has no reading 'nothing'"
fresh; python3 - "$c/ledger.json" "$tmp/line" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
k = next(i for i, e in enumerate(d["expectations"]) if e.get("case"))
d["expectations"][k]["case"] = "metacube/none.json"
text = json.dumps(d, indent=2)
open(sys.argv[1], "w").write(text + "\n")
lines = text.split("\n")
starts = [i + 1 for i, l in enumerate(lines) if l == "    {"]
open(sys.argv[2], "w").write(str(starts[k]))
PY
ledger_commands "ledger: missing case" "'case' names .*metacube/none\.json, which is not a file"

# merge validates each report: a claim verdict "bogus"; a method refuted without a counterexample.
fresh
"$tc" --corpus "$c" verify 'hypercube.ecube.shortest' --budget quick --jobs 1 --shard 1/1 --json "$tmp/r.json" >/dev/null 2>&1
cp "$tmp/r.json" "$tmp/bogus.json"; edit "$tmp/bogus.json" 'd["claims"][0]["verdict"] = "bogus"'
expect2 "merge: claim verdict bogus" "bogus\.json: error: claims\[0\] \(hypercube\.ecube\.shortest \[literal\]\): unknown verdict 'bogus'" --corpus "$c" merge "$tmp/bogus.json"
cp "$tmp/r.json" "$tmp/nocx.json"; edit "$tmp/nocx.json" 'd["claims"][0]["methods"][0]["verdict"] = "refuted"; d["claims"][0]["methods"][0]["counterexample"] = None'
expect2 "merge: method refuted without a counterexample" "nocx\.json: error: claims\[0\]\.methods\[0\] \(hypercube\.ecube\.shortest \[literal\]\): method [a-z]+ refuted without a counterexample" --corpus "$c" merge "$tmp/nocx.json"
cp "$tmp/r.json" "$tmp/nocx2.json"; edit "$tmp/nocx2.json" 'd["claims"][0]["verdict"] = "refuted"; d["claims"][0]["counterexample"] = None'
expect2 "merge: claim refuted without a counterexample" "nocx2\.json: error: .*hypercube\.ecube\.shortest \[literal\].*refuted without a counterexample" --corpus "$c" merge "$tmp/nocx2.json"
cp "$tmp/r.json" "$tmp/nomatch.json"; edit "$tmp/nomatch.json" 'del d["claims"][0]["matches"]'
expect2 "merge: missing field" "nomatch\.json: error: .*missing field \"matches\"" --corpus "$c" merge "$tmp/nomatch.json"
# The untouched report merges (exit 0).
if "$tc" --corpus "$c" merge "$tmp/r.json" >/dev/null 2>&1; then passes=$((passes+1)); else echo "FAIL: merge of an untouched report"; fails=$((fails+1)); fi

echo "corpus_load_test: $passes passed, $fails failed"
[ $fails -eq 0 ]
