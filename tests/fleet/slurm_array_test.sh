#!/usr/bin/env bash
# The fleet recipe (README "Fleet scale") on a one-node Slurm cluster on localhost:
# the eight DLRM ranks as a job array (tests/fleet/sollens_rank.sbatch), their per-rank files
# merged with DuckDB (tests/fleet/merge_ranks.mjs), and the merged straggler table, collective
# skews and nccl_long checked against `sollens report DIR` in one process.
# Starts munged (a generated key), slurmctld and slurmd from a slurm.conf in a
# temporary folder, on free ports, and stops them at the end. Exits 77 (skipped) where
# Slurm, munge or DuckDB is missing, or the cluster does not come up.
# usage: slurm_array_test.sh SOLLENS FIXTURES_DIR
set -u
sollens=$(realpath "$1")
fixtures=$(realpath "$2")
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
skip() { echo "SKIPPED: $*"; exit 77; }

for tool in munged mungekey slurmctld slurmd sbatch sinfo node; do
  command -v "$tool" >/dev/null || skip "no $tool (bash .ci/dev.sh setup installs slurm-wlm and munge)"
done
[[ $(id -u) -eq 0 ]] || skip "slurmd runs jobs as root here: run as root"
(cd "$repo" && node -e "import('@duckdb/node-api')" 2>/dev/null) || skip "no @duckdb/node-api (npm ci)"

tmp=$(mktemp -d /tmp/sollens-slurm.XXXXXX)
chmod 755 "$tmp"
stop_daemons() {
  local pidfile
  for pidfile in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
    [[ -s $pidfile ]] && kill "$(cat "$pidfile")" 2>/dev/null
  done
  sleep 1
  rm -rf "$tmp"
}
trap stop_daemons EXIT

# --- the cluster --------------------------------------------------------------------
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/logs"
chmod 700 "$tmp/munge"
mungekey --create --keyfile="$tmp/munge/munge.key" || skip "mungekey failed"
/usr/sbin/munged --force --socket="$tmp/munge/munge.socket" --key-file="$tmp/munge/munge.key" \
  --log-file="$tmp/munge/munged.log" --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" ||
  skip "munged did not start"
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
cat >"$tmp/slurm.conf" <<CONF
ClusterName=sollens
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF" || skip "slurmctld did not start: $(tail -n 3 "$tmp/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" || skip "slurmd did not start: $(tail -n 3 "$tmp/slurmd.log" 2>/dev/null)"
for _ in $(seq 60); do
  [[ $(sinfo -h -o %t 2>/dev/null) == idle ]] && break
  sleep 0.5
done
[[ $(sinfo -h -o %t 2>/dev/null) == idle ]] || skip "the node did not come up: $(sinfo 2>&1 | tail -n 2)"

# --- the recipe ---------------------------------------------------------------------
failed=0
fail() { echo "FAILED: $*"; failed=1; }
dlrm=$fixtures/traces/param-dlrm-v100-8rank
ls "$dlrm"/worker*.json.gz >"$tmp/traces.txt"
[[ $(wc -l <"$tmp/traces.txt") == 8 ]] || fail "expected 8 DLRM ranks"
timeout 300 sbatch --array=0-7 --wait --output="$tmp/logs/%a.out" \
  "$repo/tests/fleet/sollens_rank.sbatch" "$tmp/traces.txt" "$tmp/fleet" "$sollens" >/dev/null ||
  { fail "the job array failed"; tail -n 5 "$tmp"/logs/*.out; exit 1; }
[[ $(ls "$tmp/fleet/rank-summaries" | wc -l) == 8 ]] || fail "not 8 rank summaries: $(ls "$tmp/fleet/rank-summaries")"
(cd "$repo" && node tests/fleet/merge_ranks.mjs "$tmp/fleet/rank-summaries" "$tmp/merged") || fail "merge failed"
"$sollens" report "$dlrm" --out "$tmp/in-process" --no-xlsx --no-json >/dev/null 2>&1 || fail "in-process report failed"

compare() { (cd "$repo" && node tests/fleet/compare_tables.mjs "$tmp/in-process/$1.csv" "$tmp/merged/$1.csv" "${@:2}") || fail "$1 differs"; }
compare straggler_summary
compare nccl_implicit_sync --key collective_id
compare nccl_long --key rank,collective_id
# The straggler is rank 7 (tests/cli/ranks_test.sh): the merge must not just be empty.
[[ $(sed -n 2p "$tmp/merged/straggler_summary.csv" | cut -d, -f1) == 7 ]] || fail "merged straggler is not rank 7"
[[ $failed == 0 ]] && echo "slurm_array_test: 8 ranks through sbatch --array, merged tables equal the in-process ones"
exit $failed
