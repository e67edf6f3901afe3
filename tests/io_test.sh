#!/usr/bin/env bash
# Issue 27's output, number, limit and message defects, each by its exact command: output files
# (devices and symlinks written in place, never replaced; failed writes to stdout and files are one
# line with exit 2; no temporary left by SIGTERM), range-checked numbers, contradictory flags,
# simulations cut short, clear errors, resource limits and search --seconds.
# Usage: io_test.sh TOPOCHECK CORPUS
set -uo pipefail
tc="$1"; corpus="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0; passes=0

fail() { echo "FAIL: $*"; fails=$((fails+1)); }

# expect CODE PATTERN ARGS...: exit code CODE; for CODE 2, exactly one stderr line matching
# PATTERN; otherwise PATTERN (if any) matches stderr or stdout.
expect() {
  local code="$1" pattern="$2"; shift 2
  "$tc" --corpus "$corpus" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  local lines; lines=$(grep -c '' "$tmp/err")
  if [ "$got" -ne "$code" ]; then
    fail "topocheck $*: exit $got, expected $code"; sed 's/^/  stderr: /' "$tmp/err" | head -5; return
  fi
  if [ "$code" -eq 2 ] && { [ "$lines" -ne 1 ] || ! grep -qE -e "$pattern" "$tmp/err"; }; then
    fail "topocheck $*: stderr is not one line matching '$pattern':"; sed 's/^/  /' "$tmp/err"; return
  fi
  if [ "$code" -ne 2 ] && [ -n "$pattern" ] && ! grep -qE -e "$pattern" "$tmp/err" "$tmp/out"; then
    fail "topocheck $*: output does not match '$pattern'"; head -5 "$tmp/err" "$tmp/out"; return
  fi
  passes=$((passes+1))
}

# expect_full CODE PATTERN ARGS...: stdout is /dev/full; exit CODE and exactly one error line on
# stderr, matching PATTERN (verify's header line and, with --json -, its table go to stderr too).
expect_full() {
  local code="$1" pattern="$2"; shift 2
  "$tc" --corpus "$corpus" "$@" >/dev/full 2>"$tmp/err"
  local got=$?
  if [ "$got" -ne "$code" ] || [ "$(grep -c 'error:' "$tmp/err")" -ne 1 ] || ! grep -qE -e "$pattern" "$tmp/err"; then
    fail "topocheck $* > /dev/full: exit $got (expected $code), stderr:"; sed 's/^/  /' "$tmp/err"; return
  fi
  passes=$((passes+1))
}

# ---- Output ----------------------------------------------------------------------------------
# Failed writes to stdout: exit 2, one line naming stdout.
full='^topocheck: stdout: error: (--json: )?write failed(: No space left on device)?$'
expect_full 2 "$full" list
expect_full 2 "$full" verify hypercube.table1 --budget quick
expect_full 2 "$full" verify hypercube.table1 --budget quick --json -
expect_full 2 "$full" examples
expect_full 2 "$full" replay
expect_full 2 "$full" show "$corpus/hypercube/examples/$(ls "$corpus/hypercube/examples" | head -1)"
expect_full 2 "$full" construct hypercube-paths --n 3 --x 000 --y 011
expect_full 2 "$full" simulate aapc --n 3 --faults 6
# A device given as an output file is written in place, never replaced: /dev/full fails (exit 2,
# one line naming it) and stays a character device; /dev/null takes the report.
# (verify writes its header and table on stderr: exactly one error line there.)
"$tc" --corpus "$corpus" verify hypercube.table1 --budget quick --json /dev/full >/dev/null 2>"$tmp/err"; code=$?
if [ "$code" -eq 2 ] && [ "$(grep -c 'error:' "$tmp/err")" -eq 1 ] &&
   grep -q '^topocheck: /dev/full: error: --json: write failed: No space left on device$' "$tmp/err"; then
  passes=$((passes+1)); else fail "verify --json /dev/full: exit $code"; cat "$tmp/err"; fi
[ -c /dev/full ] && passes=$((passes+1)) || fail "/dev/full is no longer a character device"
expect 2 "/dev/full: error: --out: write failed" simulate aapc --n 3 --faults 6 --out /dev/full
expect 0 "" verify hypercube.table1 --budget quick --json /dev/null --junit /dev/null
[ -c /dev/null ] && passes=$((passes+1)) || fail "/dev/null is no longer a character device"
# A symlink stays a link; its target gets the content.
: > "$tmp/target.json"; ln -s "$tmp/target.json" "$tmp/link.json"
expect 0 "" verify hypercube.table1 --budget quick --json "$tmp/link.json"
if [ -L "$tmp/link.json" ] && grep -q '"claims"' "$tmp/target.json"; then passes=$((passes+1));
else fail "verify --json LINK replaced the symlink or did not write its target"; fi
ln -s /proc/self/fd/1 "$tmp/stdout-link"
expect 0 '"checker":"valid"' simulate aapc --n 3 --faults 6 --json --out "$tmp/stdout-link"
[ -L "$tmp/stdout-link" ] && passes=$((passes+1)) || fail "--out to a symlink to /proc/self/fd/1 replaced the link"
# A FIFO is written through, not replaced.
mkfifo "$tmp/fifo"
cat "$tmp/fifo" > "$tmp/from-fifo" & reader=$!
expect 0 "" simulate aapc --n 3 --faults 6 --out "$tmp/fifo"
wait $reader
if [ -p "$tmp/fifo" ] && grep -q '"units"' "$tmp/from-fifo"; then passes=$((passes+1)); else fail "--out FIFO"; fi
# A regular file is replaced atomically and keeps its mode; no temporary is left.
printf 'old\n' > "$tmp/out.json"; chmod 640 "$tmp/out.json"
expect 0 "" verify hypercube.table1 --budget quick --json "$tmp/out.json"
if [ "$(stat -c %a "$tmp/out.json")" = 640 ] && grep -q '"claims"' "$tmp/out.json"; then passes=$((passes+1));
else fail "verify --json FILE: mode or content wrong"; fi
# An empty file name is an error naming the option; a folder is "is a directory".
expect 2 '--json: an empty file name' verify hypercube.table1 --budget quick --json ""
expect 2 "$tmp: error: --json: is a directory" verify hypercube.table1 --budget quick --json "$tmp"
# (A SIGTERM during a write leaving no temporary: output_file_test, Temporaries.*, forks a process
# killed with a temporary registered; a shell cannot time a signal into the write reliably.)
if ls "$tmp" | grep -q '\.tmp\.'; then fail "a temporary was left: $(ls "$tmp" | grep '\.tmp\.')"; else passes=$((passes+1)); fi

# ---- Numbers ---------------------------------------------------------------------------------
expect 2 "--seed: '-1' is not an integer in 0\.\.18446744073709551615" search hypercube.alg2.disjoint --seed -1
expect 2 "--seed: 18446744073709551616 is outside 0\.\.18446744073709551615" \
  search hypercube.alg2.disjoint --seed 18446744073709551616
expect 2 "--seed: '-1' is not an integer" verify hypercube.table1 --seed -1
expect 2 "--rlimit: '-1' is not an integer in 0\.\." prove hypercube.alg2.disjoint --param n=3 --rlimit -1
expect 2 "--jobs: 0 is outside 1\.\.256" verify hypercube.table1 --jobs 0
expect 2 "--jobs: -1 is outside 1\.\.256" verify hypercube.table1 --jobs -1
expect 2 "--nonzeros-per-row: 'nan' is not a finite number" simulate routing --nonzeros-per-row nan
expect 2 "--timeout: 'nan' is not a finite number" prove hypercube.alg2.disjoint --param n=3 --timeout nan
expect 2 "--M: 1e308 is outside \(0, 1e\+12\]" \
  construct migration-latency --M 1e308 --B 1e-308 --zeta 1000000000 --beta 1000000000
expect 2 "--zeta: 1000000000 is outside 0\.\.30" \
  construct migration-latency --M 1e6 --B 1 --zeta 1000000000 --beta 1000000000
expect 2 "--M: 1e308 is outside \(0, 1e\+12\]" construct migration-latency --M 1e308 --B 1 --zeta 1 --beta 1
expect 2 "--B: 1e-308 is outside \[1e-12, 1e\+12\]" construct migration-latency --M 1 --B 1e-308 --zeta 1 --beta 1
expect 2 "--seconds: 'inf' is not a finite number" search hypercube.alg2.disjoint --seconds inf
expect 2 "--seconds: 0 is outside \(0, " search hypercube.alg2.disjoint --seconds 0

# ---- Flags ignored or contradictory ------------------------------------------------------------
expect 2 "--zeta excludes --S|--S excludes --zeta" \
  construct migration-latency --M 1 --B 1 --zeta 1 --beta 1 --S '0010**' --T '1*0*00'
expect 2 "--steps: builds an ITM; it cannot be combined with --graph c4" \
  simulate wormhole --graph c4 --steps '3:(0,1) 4:(1,3)'
expect 2 "--nodes excludes --steps|--steps excludes --nodes" simulate wormhole --steps '3:(0,1)' --nodes 20
expect 2 "--reps: only with --study" simulate routing --dim 3 --reps 5
expect 2 "--jobs: only with --study" simulate routing --dim 3 --jobs 2

# ---- Simulations cut short -------------------------------------------------------------------
expect 2 "--max-cycles: 0 is outside 1\.\." simulate wormhole --max-cycles 0
expect 2 "--buffer: 4294967296 is outside 1\.\.1024" simulate wormhole --graph c4 --traffic distance-two --buffer 4294967296
expect 2 "--length: 1000000 is outside 1\.\.1024" simulate wormhole --graph c4 --traffic distance-two --length 1000000
expect 1 "incomplete: [0-9]+ of 415 worms undelivered after 10 cycles \(--max-cycles 10\)" simulate wormhole --max-cycles 10

# ---- Clear errors ----------------------------------------------------------------------------
expect 2 "unknown command 'foo'; commands: list, verify" foo
expect 2 "unknown construct command 'bar'; construct commands: hypercube-paths" construct bar
expect 2 "$corpus: error: is a directory" simulate aapc --check "$corpus"
expect 2 "ledger.json: error: schedule: key 'n' not found" simulate aapc --check "$corpus/ledger.json"

# ---- Resource limits -------------------------------------------------------------------------
start=$(date +%s)
expect 2 "--S: dim\(S\) = 29, 2\^29 nodes; at most dim [0-9]+" \
  construct migration --S '*****************************0' --T '*****************************1'
steps=$(python3 -c "print(' '.join(f'{n}:(0,{n-1})' for n in range(3, 5003)))")
expect 2 "--steps: 5000 steps; at most 100" construct itm --steps "$steps"
[ $(( $(date +%s) - start )) -le 5 ] && passes=$((passes+1)) || fail "the size limits took more than 5 s to refuse"
# search --seconds 1 stops within about a second, at the standard budget.
start=$(date +%s%N)
expect 0 "no counterexample" search metacube.thm2.disjoint --reading repaired --seconds 1
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -le 3000 ] && passes=$((passes+1)) || fail "search --seconds 1 took $ms ms"

echo "io_test: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
