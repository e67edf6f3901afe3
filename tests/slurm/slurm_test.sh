#!/usr/bin/env bash
# `topocheck plan --slurm` on a real one-node Slurm cluster started here (ctest slurm_plan, label slurm):
#  1. munged, slurmctld and slurmd from Debian's slurm-wlm and munge, with a generated slurm.conf in a
#     temporary folder (no cgroups: proctrack/linuxproc, task/none; root; ports from this PID);
#  2. the plan of a small sweep (metacube.thm2.length and .disjoint at the quick budget, 4 shards)
#     submitted held; array task 2 is cancelled, the rest released: shards 1, 3, 4 run and the
#     merge, whose afterok can no longer be met, is cancelled with them (DependencyParameters=kill_invalid_depend);
#  3. submit.sh again: only shard 2 runs (the others' reports keep their times), then the merge;
#  4. the merged verdicts and counterexamples equal an unsharded verify's (compare.py);
#  5. the cluster is shut down (also on failure).
# Skipped (exit 77) when the Slurm or munge programs are missing.
# Usage: slurm_test.sh TOPOCHECK CORPUS
set -uo pipefail
tc="$1"; corpus="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for p in munged mungekey slurmctld slurmd sbatch squeue scancel scontrol; do
  command -v "$p" >/dev/null || { echo "SKIP: $p not found (the launcher installs slurm-wlm and munge)"; exit 77; }
done
work=$(mktemp -d /tmp/topocheck-slurm.XXXXXX)
chmod 755 "$work"
export SLURM_CONF="$work/slurm.conf"
cleanup() {
  scontrol shutdown >/dev/null 2>&1
  sleep 1
  for f in slurmd slurmctld munged; do [ -f "$work/run/$f.pid" ] && kill "$(cat "$work/run/$f.pid")" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$work"/log/*.log "$work"/plan/logs/*; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done; exit 1; }

mkdir -p "$work"/{state,spool,log,run}
mungekey -c -k "$work/munge.key" >/dev/null 2>&1 || fail "mungekey"
chmod 600 "$work/munge.key"
munged --force --key-file="$work/munge.key" --socket="$work/run/munge.socket" --pid-file="$work/run/munged.pid" \
       --log-file="$work/log/munged.log" --seed-file="$work/run/munge.seed" || fail "munged did not start"
host=$(hostname)
port=$((20000 + ($$ % 20000)))
cat > "$SLURM_CONF" <<CONF
ClusterName=topocheck
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$work/run/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
DependencyParameters=kill_invalid_depend
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
for _ in $(seq 30); do sinfo -h -o %t 2>/dev/null | grep -q idle && break; sleep 1; done
sinfo -h -o %t | grep -q idle || fail "the node did not come up idle: $(sinfo 2>&1)"
echo "cluster up: $host, ports $port-$((port + 1))"

# Waits until the queue is empty (at most 5 minutes).
drain() {
  for _ in $(seq 300); do [ -z "$(squeue -h 2>/dev/null)" ] && return 0; sleep 1; done
  fail "the queue did not drain: $(squeue)"
}

claims=(metacube.thm2.length metacube.thm2.disjoint)
plan="$work/plan"
"$tc" --corpus "$corpus" plan "${claims[@]}" --budget quick --shards 4 --slurm --time 00:10:00 --out "$plan" > "$work/plan.out" 2>&1 ||
  fail "plan --slurm: $(cat "$work/plan.out")"
grep -q "bash .*submit.sh" "$work/plan.out" || fail "plan does not print the submit command: $(cat "$work/plan.out")"
out=$(bash "$plan/submit.sh" --hold) || fail "submit.sh --hold: $out"
echo "$out"
array=$(echo "$out" | sed -n 's/.*job array \([0-9]*\).*/\1/p')
[ -n "$array" ] || fail "no array job id in: $out"
scancel "${array}_2" || fail "scancel ${array}_2"
scontrol release "$array" || fail "scontrol release $array"
drain
for i in 1 3 4; do [ -f "$plan/shard-$i.json" ] || fail "shard $i did not run"; done
[ -e "$plan/shard-2.json" ] && fail "shard 2 ran although its task was cancelled"
[ -e "$plan/merged.json" ] && fail "the merge ran although shard 2 was cancelled"
stamps=$(stat -c %Y.%N "$plan"/shard-{1,3,4}.json)
[ "$("$tc" plan --out "$plan" --missing)" = "2" ] || fail "plan --missing does not say 2"
"$tc" plan --out "$plan" --merge > /dev/null 2> "$work/merge.err" && fail "merge succeeded with shard 2 missing"
grep -q "shard-2.json: missing" "$work/merge.err" || fail "merge does not name shard 2: $(cat "$work/merge.err")"

sleep 1
out=$(bash "$plan/submit.sh") || fail "submit.sh again: $out"
echo "$out"
echo "$out" | grep -q "^shards 2: job array" || fail "the second submission is not shard 2 alone: $out"
drain
[ -f "$plan/shard-2.json" ] || fail "shard 2 did not run on resubmission"
[ "$(stat -c %Y.%N "$plan"/shard-{1,3,4}.json)" = "$stamps" ] || fail "shards 1, 3, 4 were run again"
[ -f "$plan/merged.json" ] || fail "the merge did not run: $(cat "$plan/logs/merge.out" 2>/dev/null)"

"$tc" --corpus "$corpus" verify "${claims[@]}" --budget quick --json "$work/whole.json" > /dev/null 2>&1
python3 "$here/compare.py" "$plan/merged.json" "$work/whole.json" || fail "the merged report differs from the unsharded one"
echo "slurm_plan: ok (4 shards, one cancelled and resubmitted alone, merged = unsharded)"
