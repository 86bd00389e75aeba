#!/bin/sh
# twin-costs.sh — this host's CPU cost per transaction and its disk, for a
# local twin, from a recording's probes (docs/record.md "The host's CPU and
# disk in the twin").
#
#   scripts/twin-costs.sh REAL_DIR SCENARIO [slowpath run options...]
#
# REAL_DIR is a result folder of scenarios/real/pgbench-local made with its
# CPU probe (figures probe_seconds, probe_server_cpu_us_per_tx and
# probe_client_cpu_us_per_tx: the CPU time one pgbench client and its
# server spent per simple-update transaction on the recorded host).
# SCENARIO is the twin (e.g. scenarios/pgbench-local-s50.ini).  The script
# runs the twin as the probe ran — one client, one pgbench thread, the
# probe's seconds — and reads the CPU time per transaction the model
# charged to the PostgreSQL processes (backend, checkpointer, bgwriter,
# walwriter) and to pgbench's threads (profile.json).  Then, with
# client=local, the client's side: pgbench's own per-statement CPU and the
# loopback TCP costs it pays (pgbench_client_stmt, tcp_loopback_send,
# tcp_recv) are scaled by one factor, recorded / model client CPU per
# transaction, so their ratios (estimates) stay and their sum is this
# host's; the backends pay the TCP costs too, so the server is measured
# again after that.  Last, the server's difference, CPU that no modelled
# step charges, moves into the cost that stands for it:
#
#   pg_tx_cpu += (recorded - model) server CPU per transaction
#
# It checks the result with a last probe run and prints, on stdout, the
# options to give the twin:
#
#   slowpath run SCENARIO $(scripts/twin-costs.sh REAL_DIR SCENARIO) --out DIR
#
# When the recording also has the disk probe (--disk-probe-seconds: the
# figures probe_disk_*), the options set the twin's one [device] from fio's
# figures first — lat_mean and lat_p99 from 8 KiB reads at depth 1, flush
# from fdatasync less an 8 KiB write at depth 1 (the write-out the twin
# charges as a write; recordings without fio's write job: less the read
# latency), iops from 4 KiB writes at depth 32, bandwidth from 1 MiB
# writes — and the probe runs use it.
#
# When it has the WAL the run found recycled (figure wal_recycled_mb) and
# the WAL since the last REDO point (wal_since_redo_mb), the options give
# the twin as much (pgbench.wal_recycled, pgbench.wal_since_redo), as much
# of it in the page cache as the machine had (wal_cached_pct:
# pgbench.wal_cached).
#
# When it also has the wake-up probe (figures probe_wake_ipi_us,
# probe_idle_exit_us and probe_ipis_per_tx, from `slowpath probe wakeup`
# and /proc/interrupts), the options set idle_exit as measured and
# wake_ipi as measured per IPI times the host's IPIs per one-client
# transaction over the twin's (a one-client run of the twin counts its
# own), and the probe runs use them.  When the probe also measured
# wake-ups onto another, busy CPU (probe_wake_busy_us and
# probe_wake_busy_ipis: two ping-pong pairs crossing two busy CPUs), the
# options set wake_remote_busy to that cost less the IPIs it sent, each at
# the measured wake_ipi (probe_wake_busy_us - probe_wake_busy_ipis x
# probe_wake_ipi_us, 0 when negative): the model charges the IPIs apart;
# with probe_tcp_remote_us (the same probe over loopback TCP: what
# crossing CPUs adds over TCP beyond pipes), tcp_remote as measured.
# When it has the switch probe (probe_mm_switch_us, probe_mm_switch_miss_us
# and probe_mm_slots, from `slowpath probe switch`), the options set
# mm_switch, mm_switch_miss and machine.mm_slots as measured, and the
# probe runs use them.
#
# When it also has the one-CPU probe (figures probe_pinned_server_cpu_us_per_tx
# and probe_pinned_client_cpu_us_per_tx: the same pgbench with the server
# and pgbench on one CPU, so that every message switches between them),
# the options set switch_refill, the cost a task pays when another task
# ran on its CPU since it last did: the twin runs that probe too (one CPU)
# at switch_refill 0 and at 10 us, and the value that puts the twin's
# server + client CPU per transaction on the recorded one, by the line
# through the two (0 when the recorded is below the first).
#
# Everything else goes to stderr.  Exit status 2 on bad input.  With
# TWIN_COSTS_SECONDS=N in the environment the model's probe runs N
# simulated seconds instead of the recording's (the test suite's shortcut).
set -eu
die() { echo "twin-costs: $*" >&2; exit 2; }
[ $# -ge 2 ] || die "usage: scripts/twin-costs.sh REAL_DIR SCENARIO [slowpath run options...]"
real=$1 scn=$2
shift 2
sp=${SLOWPATH:-$(cd "$(dirname "$0")/.." && pwd)/slowpath}
[ -x "$sp" ] || sp=slowpath
command -v jq >/dev/null || die "needs jq (apt-get install jq)"
[ -f "$real/result.json" ] || die "$real/result.json: no such file"
[ -f "$scn" ] || die "$scn: no such file"

fig() { jq -er --arg k "$1" '.figures[$k] // empty' "$real/result.json" 2>/dev/null ||
	die "$real/result.json: no figure '$1' (record with scenarios/real/pgbench-local --probe-seconds N, N > 0)"; }
secs=$(fig probe_seconds)
# TWIN_COSTS_SECONDS: the model's probe runs for this long instead (tests)
secs=${TWIN_COSTS_SECONDS:-$secs}
real_srv=$(fig probe_server_cpu_us_per_tx)
real_cli=$(fig probe_client_cpu_us_per_tx)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/twin-costs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# key SECTION NAME: a key's value in the fully resolved scenario, read
# once (`slowpath check` with the options given, the device's below)
resolve() {
	"$sp" check "$scn" "$@" >"$tmp/resolved" || die "$scn: 'slowpath check' failed"
}
key() {
	awk -v s="[$1]" -v k="$2" '/^\[/ { sec = $0 }
		sec == s && index($0, k "=") == 1 { print substr($0, length(k) + 2); found = 1 }
		END { exit !found }' "$tmp/resolved" || die "$scn: no key '$2' in [$1] of 'slowpath check'"
}

# probe OUT [options]: run the twin as the probe ran; prints
# "server_us client_us tps" per transaction
probe() {
	out=$1
	shift
	"$sp" run "$scn" "$@" --set pgbench.clients=1 --set pgbench.threads=1 \
		--set "duration=${secs}s" --out "$out" >"$out.log" 2>&1 ||
		{ cat "$out.log" >&2; die "the model's probe run failed"; }
	tx=$(jq -r '.transactions' "$out/result.json")
	tps=$(jq -r '.tps' "$out/result.json")
	[ "$tx" -gt 0 ] 2>/dev/null || die "the model's probe run made no transaction"
	jq -r --argjson tx "$tx" --argjson tps "$tps" '
		def cpu: [.root | .. | objects | .self? | objects | (.cpu + .spin)] | add;
		[.kinds[] | select(.kind == "backend" or .kind == "checkpointer" or
				   .kind == "bgwriter" or .kind == "walwriter") | cpu] as $s |
		[.kinds[] | select(.kind == "pgbench") | cpu] as $c |
		"\(($s | add) / $tx / 1000) \((($c | add) // 0) / $tx / 1000) \($tps)"' "$out/profile.json"
}

# the disk, when the recording has the disk probe: the twin's one
# [device] takes fio's figures as they are (docs/record.md)
dev=""
if jq -e '.figures.probe_disk_flush_us' "$real/result.json" >/dev/null 2>&1; then
	dev="--set device.lat_mean=$(fig probe_disk_read_lat_us)us"
	dev="$dev --set device.lat_p99=$(fig probe_disk_read_p99_us)us"
	# fio's fdatasync time is the 8 KiB write-out and the cache flush
	# together; the twin charges the write-out as a write, so its flush
	# is the rest: less the 8 KiB write latency at depth 1 (fio's write
	# job; recordings before it: the read latency at depth 1)
	w=$(jq -r '.figures.probe_disk_write_lat_us // .figures.probe_disk_read_lat_us' "$real/result.json")
	dev="$dev --set device.flush=$(awk -v f="$(fig probe_disk_flush_us)" -v w="$w" \
		'BEGIN { d = f - w; printf "%.3f", (d > 0 ? d : 0) }')us"
	dev="$dev --set device.iops=$(fig probe_disk_write_iops | awk '{ printf "%.0f", $1 }')"
	dev="$dev --set device.bandwidth=$(fig probe_disk_write_mbps | awk '{ printf "%.0f", $1 * 1e6 }')"
	# the disk's writeback throttling (queue/wbt_lat_usec; 0 = off)
	if jq -e '.figures.probe_disk_wbt_lat_us' "$real/result.json" >/dev/null 2>&1; then
		dev="$dev --set device.wbt_lat=$(fig probe_disk_wbt_lat_us | awk '{ printf "%.0f", $1 }')us"
	fi
	# ext4 without a journal: its fsync ([device] fs); 0 keeps the
	# scenario's filesystem
	if [ "$(jq -r '.figures.probe_disk_fs_ext4_nojournal // 0' "$real/result.json")" = 1 ]; then
		dev="$dev --set device.fs=ext4-nojournal"
	fi
	# shellcheck disable=SC2086
	set -- "$@" $dev
fi

# the CPUs sharing a last-level cache (figure probe_llc_cpus, sysfs
# cacheinfo; 1 when it lists none): where a wake-up may look for an idle
# CPU ([machine] llc_cpus), before any probe run, as it moves wake-ups
topo=""
if jq -e '.figures.probe_llc_cpus' "$real/result.json" >/dev/null 2>&1; then
	llc=$(fig probe_llc_cpus)
	case $llc in ''|*[!0-9]*|0) die "$real/result.json: probe_llc_cpus '$llc' is not a positive whole number" ;; esac
	topo="--set machine.llc_cpus=$llc"
	# shellcheck disable=SC2086
	set -- "$@" $topo
fi

# the WAL the run found recycled ahead of its insert position (figure
# wal_recycled_mb): the twin starts with as much, instead of zero-filling
# new segments until its first checkpoints recycle some
wal=""
if jq -e '.figures.wal_recycled_mb' "$real/result.json" >/dev/null 2>&1; then
	wal="--set pgbench.wal_recycled=$(fig wal_recycled_mb | awk '{ printf "%.0f", $1 }')m"
	# shellcheck disable=SC2086
	set -- "$@" $wal
fi
# and the WAL since the last REDO point (figure wal_since_redo_mb): the
# twin's first checkpoint comes as soon as the machine's (in KiB: a
# few MB are common, and whole MB would round them away)
if jq -e '.figures.wal_since_redo_mb' "$real/result.json" >/dev/null 2>&1; then
	redo="--set pgbench.wal_since_redo=$(fig wal_since_redo_mb | awk '{ printf "%.0f", $1 * 1024 }')k"
	# shellcheck disable=SC2086
	set -- "$@" $redo
	wal="${wal:+$wal }$redo"
fi

# and the share of those segments the machine had in its page cache
# (figure wal_cached_pct, fincore at the recording's start): the twin's
# start WAL is as much cached, so that its WAL writes allocate as the
# machine's do
if jq -e '.figures.wal_cached_pct' "$real/result.json" >/dev/null 2>&1; then
	cached="--set pgbench.wal_cached=$(fig wal_cached_pct | awk '{ printf "%.1f", $1 }')%"
	# shellcheck disable=SC2086
	set -- "$@" $cached
	wal="${wal:+$wal }$cached"
fi

# us_ns US: microseconds as whole nanoseconds
us_ns() { awk -v v="$1" 'BEGIN { printf "%.0f", v * 1000 }'; }

# what a wake-up across CPUs costs, when the recording has the wake-up
# probe (slowpath probe wakeup): idle_exit as measured; wake_ipi as
# measured per IPI, times the host's IPIs per one-client transaction
# (probe_ipis_per_tx, /proc/interrupts) over the twin's, so that the
# twin's one-client IPI CPU is the host's where its wake-up placement
# sends more or fewer IPIs than the host's kernel
wake=""
if jq -e '.figures.probe_wake_ipi_us' "$real/result.json" >/dev/null 2>&1; then
	wake="--set costs.idle_exit=$(us_ns "$(fig probe_idle_exit_us)")"
	ipi=$(us_ns "$(fig probe_wake_ipi_us)")
	# shellcheck disable=SC2086
	probe "$tmp/ipis" "$@" $wake --set costs.wake_ipi="$ipi" >/dev/null
	model_ipis=$(jq -r '.figures.wake_ipis_per_tx' "$tmp/ipis/result.json")
	host_ipis=$(fig probe_ipis_per_tx)
	ipi=$(awk -v w="$ipi" -v h="$host_ipis" -v m="$model_ipis" \
		'BEGIN { printf "%.0f", (m > 0 ? w * h / m : w) }')
	[ "$model_ipis" != 0 ] ||
		echo "twin-costs: the twin sent no IPI at one client (one CPU?): wake_ipi as measured" >&2
	echo "twin-costs: IPIs per one-client transaction: host $host_ipis, twin $model_ipis;" \
	     "wake_ipi $(fig probe_wake_ipi_us) us measured, $ipi ns in the twin" >&2
	wake="$wake --set costs.wake_ipi=$ipi"
	if jq -e '.figures.probe_wake_busy_us and .figures.probe_wake_busy_ipis' \
	      "$real/result.json" >/dev/null 2>&1; then
		busy=$(awk -v b="$(fig probe_wake_busy_us)" -v n="$(fig probe_wake_busy_ipis)" \
			-v i="$(fig probe_wake_ipi_us)" 'BEGIN { v = (b - n * i) * 1000; printf "%.0f", (v > 0 ? v : 0) }')
		echo "twin-costs: a wake-up onto another, busy CPU: $(fig probe_wake_busy_us) us" \
		     "with $(fig probe_wake_busy_ipis) IPIs; wake_remote_busy $busy ns" >&2
		wake="$wake --set costs.wake_remote_busy=$busy"
	fi
	if jq -e '.figures.probe_tcp_remote_us' "$real/result.json" >/dev/null 2>&1; then
		echo "twin-costs: a loopback TCP message read on another CPU: $(fig probe_tcp_remote_us) us more" >&2
		wake="$wake --set costs.tcp_remote=$(us_ns "$(fig probe_tcp_remote_us)")"
	fi
	# shellcheck disable=SC2086
	set -- "$@" $wake
fi

# what a switch between address spaces costs, when the recording has the
# switch probe: as measured
if jq -e '.figures.probe_mm_switch_us' "$real/result.json" >/dev/null 2>&1; then
	slots=$(fig probe_mm_slots)
	case $slots in ''|*[!0-9]*) die "$real/result.json: probe_mm_slots '$slots' is not a whole number" ;; esac
	mm="--set costs.mm_switch=$(us_ns "$(fig probe_mm_switch_us)")"
	mm="$mm --set costs.mm_switch_miss=$(us_ns "$(fig probe_mm_switch_miss_us)") --set machine.mm_slots=$slots"
	echo "twin-costs: a switch between address spaces: $(fig probe_mm_switch_us) us," \
	     "$(fig probe_mm_switch_miss_us) us more beyond $slots kept" >&2
	wake="${wake:+$wake }$mm"
	# shellcheck disable=SC2086
	set -- "$@" $mm
fi

resolve "$@"
client=$(key pgbench client)
tx_cpu=$(key costs pg_tx_cpu)
m=$(probe "$tmp/before" "$@")
sets=""
# client_sets FACTOR: the client's three costs scaled by FACTOR
base=""
for k in pgbench_client_stmt tcp_loopback_send tcp_recv; do
	base="$base $k=$(key costs "$k")"
done
client_sets() {
	for kv in $base; do
		printf ' --set costs.%s=%s' "${kv%=*}" "$(awk -v v="${kv#*=}" -v f="$1" 'BEGIN { printf "%.0f", v * f }')"
	done
}
if [ "$client" = local ]; then
	# the client's CPU per transaction is linear in the factor (the
	# scaled costs plus a fixed rest): a first run at recorded / model,
	# then the factor that the two points put on the recorded figure
	f1=$(echo "$m" | awk -v rc="$real_cli" '{ if ($2 > 0) printf "%.6f\n", rc / $2 }')
	[ -n "$f1" ] || die "the model's probe charged pgbench no CPU"
	# shellcheck disable=SC2046
	m1=$(probe "$tmp/mid1" "$@" $(client_sets "$f1"))
	f=$(echo "$m $m1" | awk -v rc="$real_cli" -v f1="$f1" '{
		f = $5 != $2 ? 1 + (rc - $2) * (f1 - 1) / ($5 - $2) : f1
		if (f <= 0) exit 1
		printf "%.6f\n", f }') ||
		die "the model's fixed client CPU alone exceeds the recorded $real_cli us per transaction"
	sets=$(client_sets "$f")
	# shellcheck disable=SC2086
	mid=$(probe "$tmp/mid" "$@" $sets)
else
	mid=$m
fi
ntc=$(echo "$mid" | awk -v rs="$real_srv" -v tc="$tx_cpu" '{ printf "%.0f", tc + (rs - $1) * 1000 }')
[ "$ntc" -gt 0 ] || die "the model already charges more server CPU per transaction ($(echo "$mid" | cut -d' ' -f1) us) than the probe measured ($real_srv us): pg_tx_cpu would be $ntc ns"
sets="--set costs.pg_tx_cpu=$ntc$sets"
# shellcheck disable=SC2086
after=$(probe "$tmp/after" "$@" $sets)
echo "$m $after" | awk -v rs="$real_srv" -v rc="$real_cli" -v rt="$(fig probe_tps)" '{
	printf "twin-costs: the probe, 1 client: CPU per transaction (us: server, client) and TPS\n"
	printf "  recorded host  %9.1f %9.1f %9.1f\n", rs, rc, rt
	printf "  model before   %9.1f %9.1f %9.1f\n", $1, $2, $3
	printf "  model after    %9.1f %9.1f %9.1f\n", $4, $5, $6
}' >&2
# the one-CPU probe: switch_refill from the server and pgbench's CPU per
# transaction when every message switches between them on one CPU
if jq -e '.figures.probe_pinned_server_cpu_us_per_tx' "$real/result.json" >/dev/null 2>&1; then
	real_pin=$(awk -v s="$(fig probe_pinned_server_cpu_us_per_tx)" \
		-v c="$(fig probe_pinned_client_cpu_us_per_tx)" 'BEGIN { printf "%.3f", s + c }')
	r1=10000
	# shellcheck disable=SC2086
	p0=$(probe "$tmp/pin0" "$@" $sets --set machine.cpus=1 --set costs.switch_refill=0)
	# shellcheck disable=SC2086
	p1=$(probe "$tmp/pin1" "$@" $sets --set machine.cpus=1 --set costs.switch_refill=$r1)
	refill=$(echo "$p0 $p1" | awk -v rp="$real_pin" -v r1="$r1" '{
		m0 = $1 + $2; m1 = $4 + $5
		r = m1 > m0 ? r1 * (rp - m0) / (m1 - m0) : 0
		printf "%.0f\n", (r > 0 ? r : 0) }')
	# shellcheck disable=SC2086
	pin=$(probe "$tmp/pin" "$@" $sets --set machine.cpus=1 --set costs.switch_refill="$refill")
	echo "$p0 $pin" | awk -v rp="$real_pin" -v rt="$(fig probe_pinned_tps)" -v r="$refill" '{
		printf "twin-costs: the one-CPU probe: server + client CPU per transaction (us) and TPS\n"
		printf "  recorded host  %9.1f %9.1f\n", rp, rt
		printf "  model at 0     %9.1f %9.1f\n", $1 + $2, $3
		printf "  model at %-5.1f %9.1f %9.1f  (switch_refill, us)\n", r / 1000, $4 + $5, $6
	}' >&2
	sets="$sets --set costs.switch_refill=$refill"
fi
sets="${dev:+$dev }${topo:+$topo }${wal:+$wal }${wake:+$wake }$sets"
echo "twin-costs: $sets" >&2
echo $sets
