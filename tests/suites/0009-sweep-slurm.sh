#!/bin/sh
# `slowpath sweep --submit` against a real Slurm: a single-node cluster
# (munged, slurmctld, slurmd; slurm.conf written here into a temporary
# folder, free ports) runs a 4-cell sweep of scenarios/synthetic-small.ini
# as a job array plus the collect job (afterok), and the aggregate must be
# the same bytes as the local -j2 sweep of the same matrix.  Everything it
# started is stopped at the end.  Needs root and Debian's slurm-wlm and
# munge (scripts/install-deps.sh); where they are missing or the daemons
# cannot start, the suite says so and counts nothing: a skip is not a pass.
. tests/suites/0000-cli.inc
cli_init "$1" 0009-sweep-slurm

skip() {
	echo "skip: $1"
	echo "$SUITE: 0 passed, 0 failed"
	exit 0
}
for p in munged slurmctld slurmd sbatch squeue scontrol; do
	command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
		skip "$p not installed (scripts/install-deps.sh installs slurm-wlm and munge)"
done
[ "$(id -u)" = 0 ] || skip "the Slurm daemons need root here (CI runs as root)"
PATH=$PATH:/usr/sbin

C=$TMP/cluster
mkdir -p "$C/munge" "$C/state" "$C/spool"
chmod 700 "$C" "$C/munge"
cleanup() {
	for f in "$C/slurmd.pid" "$C/slurmctld.pid" "$C/munge/munged.pid"; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	sleep 0.5
	for f in "$C/slurmd.pid" "$C/slurmctld.pid" "$C/munge/munged.pid"; do
		[ -s "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

# Two free TCP ports next to each other.
port_free() { ! ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }
P=""
for try in $(seq 1 50); do
	p=$((20000 + ($$ * 7 + try * 131) % 30000))
	port_free "$p" && port_free $((p + 1)) && { P=$p; break; }
done
[ -n "$P" ] || skip "no free TCP ports found"

mungekey --create --keyfile="$C/munge/munge.key" >/dev/null 2>&1 ||
	dd if=/dev/urandom of="$C/munge/munge.key" bs=128 count=1 2>/dev/null
chmod 400 "$C/munge/munge.key"
munged --force --key-file="$C/munge/munge.key" --socket="$C/munge/sock" \
	--pid-file="$C/munge/munged.pid" --seed-file="$C/munge/seed" --log-file="$C/munge/log" ||
	skip "munged does not start here: $(tail -n 1 "$C/munge/log" 2>/dev/null)"

H=$(hostname -s)
CPUS=2
cat >"$C/slurm.conf" <<EOF
ClusterName=slowpathtest
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$P
SlurmdPort=$((P + 1))
AuthType=auth/munge
AuthInfo=socket=$C/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$C/state
SlurmdSpoolDir=$C/spool
SlurmctldPidFile=$C/slurmctld.pid
SlurmdPidFile=$C/slurmd.pid
SlurmctldLogFile=$C/slurmctld.log
SlurmdLogFile=$C/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MinJobAge=600
NodeName=$H NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=2000 State=UNKNOWN
PartitionName=sweep Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$C/slurm.conf"
slurmctld -f "$SLURM_CONF" >"$C/ctld.out" 2>&1 || skip "slurmctld does not start here: $(tail -n 2 "$C/ctld.out")"
slurmd -f "$SLURM_CONF" >"$C/d.out" 2>&1 || skip "slurmd does not start here: $(tail -n 2 "$C/d.out")"
up=""
for i in $(seq 1 60); do
	sinfo -h -o '%t' 2>/dev/null | grep -Eq '^idle' && { up=1; break; }
	sleep 0.5
done
[ -n "$up" ] || skip "the node did not come up: $(tail -n 2 "$C/slurmd.log" 2>/dev/null)"
ok "a single-node cluster is up (munged, slurmctld, slurmd)"

M="scenarios/synthetic-small.ini --policy baseline,noretry-nonblocking --seeds 1-2 --no-plots"
"$SP" sweep $M --out "$TMP/slurm" --submit --partition sweep --time 10 >"$TMP/sub" 2>&1
rc=$?
check "--submit: a job array and a collect job after it" "[ $rc = 0 ] &&
	grep -Eq 'submitted job array [0-9]+ \(4 cells, [0-9]+ MiB each\) and collect job [0-9]+ \(afterok:[0-9]+\)' '$TMP/sub' &&
	grep -Eqx 'array [0-9]+' '$TMP/slurm/slurm/jobs' && grep -Eqx 'collect [0-9]+' '$TMP/slurm/slurm/jobs'" ||
	cat "$TMP/sub"
collect=$(sed -n 's/^collect //p' "$TMP/slurm/slurm/jobs" 2>/dev/null)
array=$(sed -n 's/^array //p' "$TMP/slurm/slurm/jobs" 2>/dev/null)
# Wait (at most 90 s) for the collect job to leave the queue.
for i in $(seq 1 180); do
	[ -n "$collect" ] || break
	[ -z "$(squeue -h -j "$collect","$array" 2>/dev/null)" ] && break
	sleep 0.5
done
check "the array and the collect job ran and left the queue" "[ -n '$collect' ] &&
	[ -z \"\$(squeue -h -j '$collect,$array' 2>/dev/null)\" ] && [ -s '$TMP/slurm/compare.json' ]" || {
	squeue 2>&1 | head -n 5
	tail -n 5 "$C/slurmctld.log" "$TMP"/slurm/logs/*.log 2>/dev/null
}
check "each cell ran as its own array task" "for k in 0 1 2 3; do
	grep -q 'tps, latency' '$TMP/slurm/logs/cell-'\$k.log || exit 1; done &&
	grep -q 'aggregate of 4 cells' '$TMP/slurm/logs/collect.log'"

"$SP" sweep $M --out "$TMP/local" -j2 >/dev/null 2>&1
check "the aggregate is the same bytes as the local -j2 sweep" "for f in compare.txt compare-lkp.txt compare.json report.html; do
	cmp '$TMP/local/'\$f '$TMP/slurm/'\$f || exit 1; done"
"$SP" sweep $M --out "$TMP/slurm" --submit >"$TMP/sub2" 2>&1
check "a complete sweep resubmitted: only the collect job" "grep -Eq 'every cell is complete; submitted collect job [0-9]+' '$TMP/sub2'"
cli_done
