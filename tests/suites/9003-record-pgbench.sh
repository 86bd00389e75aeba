#!/bin/sh
# 9003 — the real workload under the recorder: scenarios/real/pgbench-local
# runs PostgreSQL's pgbench simple-update for 10 s on a throwaway cluster
# under `slowpath record`; the result folder must hold pgbench's numbers and
# the kernel's, and they must be plausible: TPS > 0, transactions > 0, the
# latency object, a per-second tps.csv, nr_written delta > 0 (commits are
# fsync'ed, so the page cache is written back), the command's exit status 0;
# and the CPU probe's figures (three rounds of 3 s of one client before the
# recording, medians): TPS and the server's and pgbench's CPU per
# transaction, positive and plausible, and the same on one CPU (more than
# one CPU only); the wait-event sampler's own CPU;
# and the disk probe's (fio, 1 s per job): six positive figures; and the
# wake-up probe's, the IPIs per transaction and the machine's CPU per
# transaction, present; and PostgreSQL's own view of the run: the server's
# and pgbench's CPU per transaction positive, pg_stat_wal's syncs per
# transaction positive and the mean sync time positive, WAL bytes per
# transaction positive, full-page images per transaction and the HOT share
# of pgbench_accounts' updates (0-100 %) present, the recycled WAL and the
# WAL since the last REDO point at the start present, the buffers the
# checkpointer, the bgwriter and the backends wrote present, the heap and
# index blocks of pgbench_accounts read per transaction present, the wait-event
# sampler's samples (about 100 a second) whose shares sum to 100 %, with
# ClientRead among them, and the same per second in waits.csv: 9 to 12
# rows a second apart, the first ending within 1 s of the first
# transaction's start, each summing to 100 %, cpu and client_clientread
# among the columns; and pg_stat_wal per second in wal.csv: the model's
# columns, 8 to 12 rows a second apart, records and syncs in them, and
# bytes summing to between half and all of the run's; and the server's and
# pgbench's context switches per transaction (/proc/PID/status over the
# run's middle), the server's voluntary ones at least three (a backend
# sleeps on each statement it waits for), the rest present.
# Without PostgreSQL binaries the suite says "skipped" and counts nothing
# as passed.  CI installs PostgreSQL (scripts/install-deps.sh).
#
#   tests/suites/9003-record-pgbench.sh BUILD_DIR
build=${1:?usage: $0 BUILD_DIR}
cd "$(dirname "$0")/../.." || exit 1
. tests/suites/record-lib.sh

# A real PostgreSQL run costs ~40 s whichever build records it: it runs in
# `make check`; under the sanitizer build the recorder's code is exercised
# by 9001 and 9002 (CI time).
skip_in_san 9003-record-pgbench

SLOWPATH_RECORD=$RECORD_CMD SLOWPATH_PROBE="$build/slowpath probe" scenarios/real/pgbench-local --seconds 10 --probe-seconds 3 --disk-probe-seconds 1 \
	--out "$tmp/pg" \
	>"$tmp/log" 2>&1
rc=$?
if [ $rc = 77 ]; then
	grep 'skipped' "$tmp/log"
	# run-tests.sh shows only the summary line of a passing program: say it there
	echo "9003-record-pgbench(skipped,no-postgresql): 0 passed, 0 failed"
	exit 0
fi

r=$tmp/pg/result.json
key() { sed -n "s/^  \"$1\": \(.*\),\$/\1/p" "$r"; }
vm() { sed -n "/^  \"vmstat\": {/,/^  }/s/^    \"$1\": \(-\{0,1\}[0-9]*\),\{0,1\}\$/\1/p" "$r"; }
positive() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }

[ $rc = 0 ] && [ -f "$r" ]
check harness-ran $?
[ -f "$r" ] || { cat "$tmp/log"; echo "9003-record-pgbench: $pass passed, $((fail + 6)) failed"; exit 1; }
[ "$(key source)" = '"recorded"' ] && [ "$(key exit_status)" = 0 ]
check recorded-command-succeeded $?
tps=$(key tps)
tx=$(key transactions)
positive "$tps" && positive "$tx" && awk -v t="$tps" 'BEGIN { exit !(t < 1000000) }'
check tps-plausible $?
grep -q '^    "p99": [0-9.]*,$' "$r" && grep -q '^    "avg": [0-9.]*,$' "$r"
check latency-present $?
written=$(vm nr_written)
positive "$written"
check nr_written-delta-positive $?
[ "$(head -n 1 "$tmp/pg/tps.csv")" = "interval_end_s,tps,lat_avg_ms,lat_max_ms" ] &&
	[ "$(wc -l <"$tmp/pg/tps.csv")" = 11 ] && [ "$(grep -c '^time: ' "$tmp/pg/proc-vmstat")" -ge 10 ]
check series-and-monitors $?
# the CPU probe's figures: one client for 3 s before the recording
probe() { sed -n "s/^    \"probe_$1\": \([0-9.eE+-]*\),\{0,1\}\$/\1/p" "$r"; }
awk -v s="$(probe seconds)" 'BEGIN { exit !(s == 3) }' && positive "$(probe tps)" && positive "$(probe server_cpu_us_per_tx)" &&
	positive "$(probe client_cpu_us_per_tx)" &&
	awk -v s="$(probe server_cpu_us_per_tx)" -v c="$(probe client_cpu_us_per_tx)" \
		'BEGIN { exit !(s < 100000 && c < 100000) }'
check cpu-probe-figures $?
positive "$(probe disk_read_lat_us)" && positive "$(probe disk_read_p99_us)" &&
	positive "$(probe disk_flush_us)" && positive "$(probe disk_write_iops)" &&
	positive "$(probe disk_write_mbps)" && positive "$(probe disk_write_lat_us)"
check disk-probe-figures $?
# the wake-up probe (slowpath probe wakeup) and the IPIs counted from
# /proc/interrupts: present, non-negative; a wake-up across CPUs costs
# more CPU than one on the same CPU costs nothing
nonneg() { awk -v v="$1" 'BEGIN { exit !(v != "" && v + 0 >= 0) }'; }
pct() { awk -v v="$1" 'BEGIN { exit !(v != "" && v + 0 >= 0 && v + 0 <= 100) }'; }
positive "$(probe wake_local_us)" && nonneg "$(probe wake_ipi_us)" &&
	nonneg "$(probe idle_exit_us)" && nonneg "$(probe ipis_per_tx)" &&
	nonneg "$(sed -n 's/^    "ipis_per_tx": \([0-9.eE+-]*\),\{0,1\}$/\1/p' "$r")" &&
	positive "$(sed -n 's/^    "machine_cpu_us_per_tx": \([0-9.eE+-]*\),\{0,1\}$/\1/p' "$r")" &&
	nonneg "$(sed -n 's/^    "machine_steal_us_per_tx": \([0-9.eE+-]*\),\{0,1\}$/\1/p' "$r")"
check wake-probe-figures $?
# the one-CPU probe (server and pgbench on CPU 0): its three figures, on a
# machine with more than one CPU; none on one CPU
if [ "$(getconf _NPROCESSORS_ONLN)" -gt 1 ]; then
	positive "$(probe pinned_tps)" && positive "$(probe pinned_server_cpu_us_per_tx)" &&
		positive "$(probe pinned_client_cpu_us_per_tx)"
else
	[ -z "$(probe pinned_tps)" ]
fi
check one-cpu-probe-figures $?
# the duty probe (slowpath probe duty): its CPUs, its sleep, and for one
# process its loops a second and an idle share in 0..100
awk -v a="$(probe duty_cpus)" -v b="$(nproc)" 'BEGIN { exit !(a != "" && a == b) }' && positive "$(probe duty_sleep_us)" &&
	positive "$(probe duty_1_loops_per_s)" && pct "$(probe duty_1_idle_pct)"
check duty-probe-figures $?
# the CPUs sharing a last-level cache (sysfs cacheinfo): a whole number
# from 1 to the machine's CPUs
awk -v v="$(probe llc_cpus)" -v n="$(getconf _NPROCESSORS_CONF)" \
	'BEGIN { exit !(v != "" && v == int(v) && v >= 1 && v <= n) }'
check llc-figure $?
# the wait-event sampler's own backend: its CPU, a share of one CPU
# between 0 and 100 %, below the whole server's per transaction
nonneg "$(sed -n 's/^    "sampler_cpu_us_per_tx": \([0-9.eE+-]*\),\{0,1\}$/\1/p' "$r")" &&
	pct "$(sed -n 's/^    "sampler_cpu_pct": \([0-9.eE+-]*\),\{0,1\}$/\1/p' "$r")" &&
	awk -v a="$(sed -n 's/^    "sampler_cpu_us_per_tx": \([0-9.eE+-]*\),\{0,1\}$/\1/p' "$r")" \
	    -v b="$(sed -n 's/^    "server_cpu_us_per_tx": \([0-9.eE+-]*\),\{0,1\}$/\1/p' "$r")" \
	    'BEGIN { exit !(a < b) }'
check sampler-cpu-figures $?
# PostgreSQL's view: the per-side CPU, pg_stat_wal, the wait events
# (result.json writes a number below 1e-4 in exponent notation, as %.15g
# does: a run with few full-page images has fpi_per_tx 6e-05)
fig() { sed -n "s/^    \"$1\": \([0-9.eE+-]*\),\{0,1\}\$/\1/p" "$r"; }
# each figure with the test it must pass; a failure names them all
figs='server_cpu_us_per_tx positive
client_cpu_us_per_tx positive
wal_syncs_per_tx positive
wal_sync_ms_avg positive
wal_writes_per_tx nonneg
wal_bytes_per_tx positive
fpi_per_tx nonneg
accounts_heap_blocks_added nonneg
wal_recycled_mb nonneg
wal_since_redo_mb nonneg
wal_cached_pct pct
checkpoint_buffers_written nonneg
bgwriter_buffers_written nonneg
backend_writes_per_tx nonneg
accounts_heap_reads_per_tx nonneg
accounts_pkey_reads_per_tx nonneg
server_nonvoluntary_csw_per_tx nonneg
client_voluntary_csw_per_tx positive
client_nonvoluntary_csw_per_tx nonneg'
rc=0
while read -r k test; do
	$test "$(fig $k)" || rc=1
done <<EOF
$figs
EOF
# scale 1 (1 639 blocks) takes several updates per block in 10 s: most
# are HOT once the first one's old version is pruned, unless a session
# holds the xmin horizon back (the sampler once did: 0 %)
awk -v h="$(fig accounts_hot_update_pct)" 'BEGIN { exit !(h != "" && h >= 30 && h <= 100) }' || rc=1
# a transaction's backend sleeps at least once per statement it waits
# for (simple-update: five), less what a sample window's edges cut
awk -v v="$(fig server_voluntary_csw_per_tx)" 'BEGIN { exit !(v != "" && v >= 3) }' || rc=1
[ $rc = 0 ] || for k in $(printf '%s\n' "$figs" | cut -d' ' -f1) accounts_hot_update_pct server_voluntary_csw_per_tx; do
	echo "  $k: '$(fig $k)'"
done
check server-client-and-wal-figures $rc
awk -v n="$(fig wait_samples)" 'BEGIN { exit !(n >= 500 && n <= 1100) }' &&
	positive "$(fig wait_client_clientread_pct)" &&
	sed -n 's/^    "wait_[a-z0-9_]*_pct": \([0-9.eE+-]*\),\{0,1\}$/\1/p' "$r" |
	awk '{ s += $1; n++ } END { exit !(n >= 2 && s > 99.999 && s < 100.001) }'
check wait-event-shares $?
w=$(dirname "$r")/waits.csv
head -n 1 "$w" 2>/dev/null | grep -q '^interval_end_s,.*cpu' &&
	head -n 1 "$w" | grep -q ',client_clientread\(,\|$\)' &&
	awk -F, 'NR > 1 { s = 0; for (i = 2; i <= NF; i++) s += $i
			  if (s < 99.99 || s > 100.01) bad = 1
			  if (NR == 2 && ($1 <= 0 || $1 > 1)) bad = 1
			  if (NR > 2 && ($1 - p < 0.999 || $1 - p > 1.001)) bad = 1
			  p = $1; n++ }
		 END { exit !(n >= 9 && n <= 12 && !bad) }' "$w"
check wait-event-series $?
# wal.csv: pg_stat_wal per second, the model's columns, rows a whole
# number of seconds apart (the sampler writes a row at each second of the
# clock it reaches; one starved past a whole second, as on a loaded host,
# skips that second's row); its bytes are differences of a growing counter that the
# figure's total includes, so they sum to at most the run's (and most of
# it: the rows miss at most the second before the first and after the
# last)
w=$(dirname "$r")/wal.csv
[ "$(head -n 1 "$w" 2>/dev/null)" = \
  "interval_end_s,wal_records,wal_fpi,wal_bytes,wal_buffers_full,wal_write,wal_sync,wal_write_time,wal_sync_time" ] &&
	awk -F, -v total="$(awk -v b="$(fig wal_bytes_per_tx)" -v t="$tx" 'BEGIN { print b * t }')" '
		NR > 1 { if (NF != 9) bad = 1
			 d = $1 - p; k = int(d + 0.5)
			 if (NR > 2 && (k < 1 || d - k > 0.001 || k - d > 0.001)) bad = 1
			 p = $1; n++; rec += $2; bytes += $4; syncs += $7 }
		END { exit !(n >= 8 && n <= 12 && !bad && rec > 0 && syncs > 0 &&
			     bytes >= 0.5 * total && bytes <= 1.001 * total) }' "$w"
check wal-series $?
echo "pgbench: tps $tps, transactions $tx, nr_written delta $written pages;" \
     "probe: $(probe tps) tps, CPU per tx $(probe server_cpu_us_per_tx) us server," \
     "$(probe client_cpu_us_per_tx) us client"
[ $fail = 0 ] || cat "$tmp/log"
summary 9003-record-pgbench
