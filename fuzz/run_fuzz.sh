#!/usr/bin/env bash
# Runs one libFuzzer target for the ctest entries of fuzz/CMakeLists.txt.
#   run_fuzz.sh run BINARY SEEDS WORK SECONDS   fuzz for SECONDS (-seed=1) from SEEDS; new inputs and
#                                               any crash land in WORK (emptied first), never in SEEDS
#   run_fuzz.sh regressions BINARY DIR          run every file of DIR once (none: passes)
# Exit status: the fuzzer's (0 clean; non-zero on a crash, a leak, a timeout or an out-of-memory).
set -euo pipefail
mode=$1 bin=$2
case "$mode" in
  run)
    seeds=$3 work=$4 seconds=$5
    rm -rf "$work"
    mkdir -p "$work/corpus" "$work/artifacts"
    cd "$work"
    # The first folder receives new inputs; the seeds are only read.
    exec "$bin" -max_total_time="$seconds" -seed=1 -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
      -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" "$seeds"
    ;;
  regressions)
    dir=$3
    shopt -s nullglob
    files=("$dir"/*)
    if [ ${#files[@]} -eq 0 ]; then echo "no regression inputs in $dir"; exit 0; fi
    exec "$bin" -timeout=10 -rss_limit_mb=2048 "${files[@]}"
    ;;
  *) echo "run_fuzz.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
