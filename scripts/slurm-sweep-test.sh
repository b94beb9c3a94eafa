#!/usr/bin/env bash
# The Slurm test of `linkage sweep` (issue 22): on this machine alone, start a single-node
# Slurm (munged, slurmctld and slurmd on localhost, all under a temporary directory with
# their own ports), submit the job array that `linkage sweep --emit slurm` writes for the
# example sweep, wait for it (bounded), merge the parts and check that the table is the
# same bytes (CSV and Parquet) as a local run's; then stop the daemons.
#
# Needs root (slurmd runs the tasks as the submitting user; the daemons run as root here).
# Installs Debian's slurm-wlm and munge when missing. Exit status 0 only when the tables
# match. Called by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge
fi

work=$(mktemp -d /tmp/linkage-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
	local status=$?
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	sleep 1
	for pid in "${pids[@]}"; do
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	if [ "$status" -ne 0 ]; then
		echo "== slurm test failed; daemon logs:"
		tail -n 30 "$work"/*.log 2>/dev/null || true
		tail -n 30 "$work"/out/kc/slurm-*.out 2>/dev/null || true
	fi
	rm -rf "$work"
	exit "$status"
}
trap cleanup EXIT

echo "== build linkage"
CGO_ENABLED=0 go build -o "$work/linkage" ./cmd/linkage

echo "== munge (own key and socket)"
mkdir -p "$work/munge"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
# The daemons run in the foreground as children of this script (-F, -D), so that cleanup
# stops and reaps exactly them.
munged -F --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.sock" \
	--pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/seed" &
pids+=("$!")
for _ in $(seq 50); do
	[ -S "$work/munge/munge.sock" ] && break
	sleep 0.1
done

echo "== slurm.conf for one node"
node=$(hostname -s)
cpus=$(nproc)
ctlport=$((20000 + RANDOM % 20000))
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<CONF
ClusterName=linkagetest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctlport
SlurmdPort=$((ctlport + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
# slurmd reads cgroup.conf beside slurm.conf; an empty one is enough with proctrack/linuxproc.
touch "$work/cgroup.conf"
export SLURM_CONF="$work/slurm.conf"

echo "== start slurmctld and slurmd"
slurmctld -D -i -f "$SLURM_CONF" &
pids+=("$!")
slurmd -D -f "$SLURM_CONF" -N "$node" &
pids+=("$!")
for _ in $(seq 60); do
	state=$(sinfo -h -N -o '%t' 2>/dev/null | head -n 1 || true)
	case "$state" in idle | mix | alloc) break ;; esac
	sleep 0.5
done
sinfo -N
case "$state" in idle | mix | alloc) ;; *)
	echo "node never became idle (state '$state')"
	exit 1
	;;
esac

echo "== the example sweep locally"
sweepfile=examples/sweeps/stiff-pendulum-kc.yaml
"$work/linkage" sweep "$sweepfile" --out "$work/local" --progress=false >/dev/null

echo "== the same sweep as a Slurm job array of 3 shards"
mkdir -p "$work/out"
"$work/linkage" sweep "$sweepfile" --emit slurm --shards 3 --workers 1 --out "$work/out/kc" --data-dir "$repo" \
	--linkage "$work/linkage" >"$work/sweep.sbatch"
grep -q '^#SBATCH --array=0-2$' "$work/sweep.sbatch"
jid=$(sbatch --parsable "$work/sweep.sbatch")
echo "submitted job array $jid"
deadline=$((SECONDS + 120))
while squeue -h -j "$jid" 2>/dev/null | grep -q .; do
	if [ "$SECONDS" -gt "$deadline" ]; then
		echo "job array $jid still queued or running after 120 s"
		squeue -j "$jid" || true
		exit 1
	fi
	sleep 1
done
for i in 0 1 2; do
	test -s "$work/out/kc/parts/part-0000$i-of-00003.csv" || {
		echo "shard $i wrote no part"
		exit 1
	}
done

echo "== merge and compare"
"$work/linkage" sweep merge "$sweepfile" --out "$work/out/kc"
cmp "$work/local/results.csv" "$work/out/kc/results.csv"
cmp "$work/local/results.parquet" "$work/out/kc/results.parquet"
echo "slurm sweep: the merged table of $(($(wc -l <"$work/out/kc/results.csv") - 1)) runs equals the local run's"
