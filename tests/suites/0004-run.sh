#!/bin/sh
# `slowpath run`: the result folder's files and their shape, --iterations,
# --scale, the progress line (only on a terminal), and run-time errors
# (exit 2 and nothing written for a bad scenario, exit 1 for an unwritable
# folder).
. tests/suites/0000-cli.inc
cli_init "$1" 0004-run

SMALL=scenarios/synthetic-small.ini
R=$TMP/r
"$SP" run "$SMALL" --out "$R" >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
check "run exits 0, quiet on stderr" "[ $rc = 0 ] && [ ! -s '$TMP/stderr' ]"
check "summary line on stdout" "grep -Eqx '$R: [0-9.]+ tps, latency p50 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms' '$TMP/stdout'"
check "every file of the folder" "for f in result.json scenario.ini tps.csv locks.csv profile.json proc-vmstat \
	proc-buddyinfo proc-pagetypeinfo proc-zoneinfo proc-meminfo; do [ -s '$R'/\$f ] || exit 1; done"
check "latency-hist.csv: buckets in order, counts summing to the transactions" "
	head -n 1 '$R/latency-hist.csv' | grep -qx 'lo_ns,hi_ns,count' &&
	awk -F, 'BEGIN { hi = -1 } NR > 1 { if (\$1 + 0 > \$2 + 0 || \$1 + 0 <= hi || \$3 + 0 < 1) bad = 1; hi = \$2 + 0; n += \$3 }
		END { if (bad) exit 1; print n }' '$R/latency-hist.csv' >'$TMP/hist_n' &&
	grep -qx \"  \\\"transactions\\\": \$(cat '$TMP/hist_n'),\" '$R/result.json'"
check "no temporary files left" "[ -z \"\$(ls '$R' | grep '\.tmp$')\" ]"
check "result.json keys in the documented order" "grep -E '^  \"[a-z_]+\":' '$R/result.json' |
	sed -E 's/^  \"([a-z_]+)\".*/\1/' | tr '\n' ' ' | grep -qx 'schema source scenario policy seed scale \
iteration virtual_seconds measure_seconds wall_seconds events events_per_second vmstat vmstat_end \
transactions tps latency_ms per_million_written figures machine '"
check "result.json values" "grep -qx '  \"seed\": 1,' '$R/result.json' &&
	grep -qx '  \"scale\": \"1/1\",' '$R/result.json' &&
	grep -qx '  \"virtual_seconds\": 12.0,' '$R/result.json' &&
	grep -qx '  \"measure_seconds\": 10.0,' '$R/result.json' &&
	grep -Eqx '  \"events\": [1-9][0-9]*,' '$R/result.json' &&
	grep -Eqx '  \"tps\": [1-9][0-9.]*,' '$R/result.json' &&
	grep -Eqx '    \"p99\": [0-9.]+,' '$R/result.json' &&
	grep -Eqx '    \"pgalloc_normal\": -?[0-9]+,' '$R/result.json' &&
	grep -qx '    \"cpus\": 4,' '$R/result.json'"
check "tps.csv: one row per tps_interval after ramp_time" "[ \$(wc -l <'$R/tps.csv') = 11 ] &&
	head -n 1 '$R/tps.csv' | grep -qx 'interval_end_s,tps,lat_avg_ms,lat_max_ms' &&
	sed -n 2p '$R/tps.csv' | grep -q '^3.000,' && tail -n 1 '$R/tps.csv' | grep -q '^12.000,'"
check "monitors: a sample every second from 0 to 12" "for f in '$R'/proc-*; do
	[ \$(grep -c '^time: ' \"\$f\") = 13 ] && head -n 1 \"\$f\" | grep -qx 'time: 0' &&
	grep '^time: ' \"\$f\" | tail -n 1 | grep -qx 'time: 12' || exit 1; done"
check "monitors hold the /proc texts" "sed -n 2p '$R/proc-buddyinfo' | grep -q '^Node 0, zone ' &&
	sed -n 2p '$R/proc-vmstat' | grep -q '^nr_free_pages [0-9]'"
check "locks.csv lists the workload's locks" "head -n 1 '$R/locks.csv' | grep -qx 'name,acquisitions,contended,wait_ns,hold_ns' &&
	grep -Eq '^synthetic.lock0,[1-9][0-9]*,' '$R/locks.csv' && grep -Eq '^synthetic.lock1,' '$R/locks.csv'"
check "profile.json: kinds with a tree" "grep -q '\"schema\": \"slowpath-profile/1\"' '$R/profile.json' &&
	grep -q '\"kind\": \"synthetic\"' '$R/profile.json' && grep -q '\"tasks\": 16' '$R/profile.json' &&
	grep -q '\"name\": \"compute\"' '$R/profile.json' && grep -q '\"name\": \"io\"' '$R/profile.json'"

check "no debugfs-wbt without writeback throttling" "[ ! -e '$R/debugfs-wbt' ]"
# debugfs-wbt (docs/pagecache.md "Writeback throttling"): pgbench-small's
# two-member md0 with the kernel's 2-ms target; per sample a header and a
# line per member, the sums zero at 0 and never falling, a mean depth
# between samples inside the controller's range (1 to 3/4 of 128) and no
# more time at the largest depth than passed.
"$SP" run scenarios/pgbench-small.ini --set device:md0.wbt_lat=2ms --set duration=3s \
	--set sample_interval=1s --out "$TMP/wbt" >/dev/null 2>"$TMP/stderr"
check "debugfs-wbt: a sample per monitor sample, a line per member" "
	[ \$(grep -c '^time: ' '$TMP/wbt/debugfs-wbt') = \$(grep -c '^time: ' '$TMP/wbt/proc-vmstat') ] &&
	[ \$(grep -c '^time: ' '$TMP/wbt/debugfs-wbt') = 4 ] &&
	[ \$(grep -c '^# device member wb_normal wb_background inflight curr_win_nsec min_lat_nsec unknown_cnt scale_step max_depth waiting lat_ok lat_unknown lat_unknown_writes lat_exceeded depth_ms scaled_max_ms throttled throttled_us\$' '$TMP/wbt/debugfs-wbt') = 4 ] &&
	[ \$(grep -c '^md0 [01] ' '$TMP/wbt/debugfs-wbt') = 8 ] &&
	sed -n 3,4p '$TMP/wbt/debugfs-wbt' | tr '\n' ' ' |
		grep -qx 'md0 0 8 4 0 0 2000000 0 0 16 0 0 0 0 0 0 0 0 0 md0 1 8 4 0 0 2000000 0 0 16 0 0 0 0 0 0 0 0 0 '"
check "debugfs-wbt: sums grow, mean depth and time at the largest depth in range" "
	awk '/^time: / { t = \$2; next } /^md0 / { k = \$2
		if (k in last) { dt = (t - lt[k]) * 1000
			for (c = 12; c <= 19; c++) if (\$c + 0 < v[k, c]) bad = 1
			d = (\$16 - v[k, 16]) / dt; if (d < 1 || d > 96) bad = 1
			if (\$17 - v[k, 17] > dt) bad = 1
			moved += \$12 + \$13 + \$14 + \$15 - v[k, 12] - v[k, 13] - v[k, 14] - v[k, 15] }
		last[k] = 1; lt[k] = t; for (c = 12; c <= 19; c++) v[k, c] = \$c + 0 }
		END { exit bad || !moved }' '$TMP/wbt/debugfs-wbt'"

# proc-diskstats (docs/results.md): /proc/diskstats' 20 columns for md0
# (major 9) and its two members (259); counters never fall, io_ticks grow
# by at most the time passed, no member has more in flight than the
# requests a sample could hold, and the members' completed sectors cover
# md0's (a bio's pieces complete no later than it does).  compare turns it
# into iostat -x rows.
check "proc-diskstats: a line per disk in the kernel's layout" "
	[ \$(grep -c '^time: ' '$TMP/wbt/proc-diskstats') = 4 ] &&
	sed -n 2,4p '$TMP/wbt/proc-diskstats' | awk '{ print \$1, \$2, \$3, NF }' | tr '\n' ' ' |
		grep -qx '9 0 md0 20 259 0 md0-0 20 259 1 md0-1 20 '"
check "proc-diskstats: counters grow, io_ticks within time, members cover md0" "
	awk '/^time: / { if (n) check(); t = \$2; n = 0; ms = 0; next }
		{ n++; for (c = 4; c <= 20; c++) if (c != 12 && \$c + 0 < v[\$3, c]) bad = 1
		  if (\$3 in lt && \$13 - v[\$3, 13] > (t - lt[\$3]) * 1000) bad = 1
		  if (\$3 == \"md0\") md = \$10; else ms += \$10
		  lt[\$3] = t; for (c = 4; c <= 20; c++) v[\$3, c] = \$c + 0 }
		function check() { if (ms < md) bad = 1 }
		END { check(); exit bad || v[\"md0\", 8] == 0 }' '$TMP/wbt/proc-diskstats'"
"$SP" compare "$TMP/wbt" >"$TMP/cmp.txt" 2>&1
check "compare: iostat rows from proc-diskstats" "grep -Eq '^Iostat md0 w/s +[1-9]' '$TMP/cmp.txt' &&
	grep -Eq '^Iostat md0-1 aqu-sz +[0-9]' '$TMP/cmp.txt'"

# report's disk plots: per interval the busiest disk's aqu-sz and
# w_await; over the run (no ramp_time) their aqu-sz averages to compare's
"$SP" report "$TMP/wbt" --plots "$TMP/wbtp" --no-gnuplot >/dev/null 2>&1
check "report: disk-aqu-sz per interval averages to compare's aqu-sz" "
	[ \$(grep -vc '^#' '$TMP/wbtp/disk-aqu-sz-1.dat') = 3 ] && [ -s '$TMP/wbtp/disk-w-await-1.dat' ] &&
	m=\$(awk '!/^#/ { s += \$2; n++ } END { printf \"%.2f\", s / n }' '$TMP/wbtp/disk-aqu-sz-1.dat') &&
	grep -Eq \"^Iostat md0 aqu-sz +\$m\\\$\" '$TMP/cmp.txt'"

check "report: wbt-inflight is debugfs-wbt's inflight, mean per member" "
	awk '/^time: / { if (n) printf \"%s %g\\n\", t, s / n; t = \$2; s = 0; n = 0; next }
		/^md0 / { s += \$5; n++ } END { printf \"%s %g\\n\", t, s / n }' '$TMP/wbt/debugfs-wbt' >'$TMP/wi.exp' &&
	grep -v '^#' '$TMP/wbtp/wbt-inflight-1.dat' | cmp -s - '$TMP/wi.exp' && [ \$(wc -l <'$TMP/wi.exp') = 4 ]"

# trace-counts (docs/results.md): the eleven tracepoints in the recorder's
# order in every sample, counts from 0 at time 0 that never fall, and
# three that the kernel fires where it counts a /proc/vmstat event or the
# model a sim_ counter, equal to them over the run: a direct reclaim per
# allocstall, a kswapd wake-up per pageoutrun (balance_pgdat), an extfrag
# per claimed or stolen fallback block.  compare and report rate them.
# (costly-noretry shrunk as suite 6002 runs it, for the debug build)
"$SP" run scenarios/costly-noretry.ini --scale 1/64 --set global.duration=2s --set global.ramp_time=500ms \
	--out "$TMP/tp" >/dev/null 2>"$TMP/stderr"
check "trace-counts: the eleven tracepoints per sample, from 0, never falling" "
	[ \$(grep -c '^time: ' '$TMP/tp/trace-counts') = \$(grep -c '^time: ' '$TMP/tp/proc-vmstat') ] &&
	awk '/^time: / { if (n && n != 11) bad = 1; n = 0; s++; next }
		{ n++; if (s == 1 && \$2 != 0) bad = 1; if (\$2 + 0 < v[\$1]) bad = 1; v[\$1] = \$2 + 0; order = order \$1 \" \" }
		END { if (n != 11) bad = 1; exit bad }' '$TMP/tp/trace-counts' &&
	sed -n 2,12p '$TMP/tp/trace-counts' | cut -d' ' -f1 | tr '\n' ' ' | grep -qx 'kmem:mm_page_alloc \
kmem:mm_page_free kmem:mm_page_alloc_zone_locked kmem:mm_page_pcpu_drain kmem:mm_page_alloc_extfrag \
compaction:mm_compaction_begin vmscan:mm_vmscan_direct_reclaim_begin vmscan:mm_vmscan_wakeup_kswapd \
vmscan:mm_vmscan_kswapd_wake filemap:mm_filemap_add_to_page_cache \
filemap:mm_filemap_delete_from_page_cache '"
check "trace-counts: direct reclaims, kswapd wakes and fallbacks equal their vmstat counters" "
	awk 'FNR == 1 { f++ } /^time: / { next }
		f == 1 { tp[\$1] = \$2 }
		f == 2 && \$1 ~ /^(allocstall_|pageoutrun\$|sim_rmqueue_(claim|steal)\$)/ {
			if (!(\$1 in first)) first[\$1] = \$2; last[\$1] = \$2 }
		END { for (k in last) { d = last[k] - first[k]
				if (k ~ /^allocstall_/) stall += d; else if (k == \"pageoutrun\") kw = d; else fb += d }
			exit !(stall > 0 && kw > 0 && fb > 0 &&
			       tp[\"vmscan:mm_vmscan_direct_reclaim_begin\"] == stall &&
			       tp[\"vmscan:mm_vmscan_kswapd_wake\"] == kw && tp[\"kmem:mm_page_alloc_extfrag\"] == fb) }' \
		'$TMP/tp/trace-counts' '$TMP/tp/proc-vmstat'"
# the page cache's churn in it: folios added and deleted (reclaim,
# truncation)
check "trace-counts: page-cache folios added and deleted in costly-noretry's churn" "
	awk '\$1 == \"filemap:mm_filemap_add_to_page_cache\" { a = \$2 }
		\$1 == \"filemap:mm_filemap_delete_from_page_cache\" { d = \$2 }
		END { exit !(a > 0 && d > 0) }' '$TMP/tp/trace-counts'"
"$SP" compare "$TMP/tp" --json >"$TMP/tp.json" 2>&1
"$SP" report "$TMP/tp" --plots "$TMP/tpp" --no-gnuplot >/dev/null 2>&1
check "compare and report: tracepoint rates from trace-counts" "
	jq -e '.tracepoints | length == 11' '$TMP/tp.json' >/dev/null &&
	awk '/^time: / { t = \$2; next } \$1 == \"kmem:mm_page_pcpu_drain\" {
		if (seen) printf \"%s %g\\n\", t, (\$2 - p) / (t - pt); seen = 1; p = \$2; pt = t }' \
		'$TMP/tp/trace-counts' >'$TMP/pd.exp' &&
	grep -v '^#' '$TMP/tpp/pcpu-drain-1.dat' | cmp -s - '$TMP/pd.exp' && [ -s '$TMP/pd.exp' ] &&
	awk '\$2 > 0 { n++ } END { exit !n }' '$TMP/pd.exp'"
check "report: pagecache-add is filemap:mm_filemap_add_to_page_cache's rate" "
	awk '/^time: / { t = \$2; next } \$1 == \"filemap:mm_filemap_add_to_page_cache\" {
		if (seen) printf \"%s %g\\n\", t, (\$2 - p) / (t - pt); seen = 1; p = \$2; pt = t }' \
		'$TMP/tp/trace-counts' >'$TMP/pa.exp' &&
	grep -v '^#' '$TMP/tpp/pagecache-add-1.dat' | cmp -s - '$TMP/pa.exp' &&
	awk '\$2 > 0 { n++ } END { exit !n }' '$TMP/pa.exp' && [ -s '$TMP/tpp/pagecache-delete-1.dat' ]"
# proc-stat (docs/results.md): a sample per vmstat sample; the cpu line's
# ten columns, their CPU lines, the time they add up to (every CPU's
# whole span, less the ticks each column's truncation loses), and the
# report's cpu-busy plot worked out again from it
check "proc-stat: per sample, its columns add up to the CPUs' time" "
	[ \$(grep -c '^time: ' '$TMP/tp/proc-stat') = \$(grep -c '^time: ' '$TMP/tp/proc-vmstat') ] &&
	awk '/^time: / { t = \$2; next } \$1 ~ /^cpu[0-9]+\$/ { n[t]++ }
		\$1 == \"cpu\" { if (NF != 11) bad = 1; s = 0; for (i = 2; i <= 11; i++) s += \$i; tot[t] = s }
		\$1 == \"ctxt\" { if (\$2 + 0 < c) bad = 1; c = \$2 + 0 }
		END { for (t in tot) { want = n[t] * t * 100; if (tot[t] > want || tot[t] < want - 6) bad = 1 }
			exit bad || c == 0 }' '$TMP/tp/proc-stat'"
check "report: cpu-busy is proc-stat's busy CPUs per interval" "
	awk '/^time: / { t = \$2; next } \$1 == \"cpu\" { b = \$2 + \$3 + \$4 + \$7 + \$8 + \$9
		if (seen) printf \"%s %g\\n\", t, (b - pb) / 100 / (t - pt); seen = 1; pb = b; pt = t }' \
		'$TMP/tp/proc-stat' >'$TMP/cb.exp' &&
	grep -v '^#' '$TMP/tpp/cpu-busy-1.dat' | cmp -s - '$TMP/cb.exp' &&
	awk '\$2 > 0 { n++ } END { exit !n }' '$TMP/cb.exp' && [ -s '$TMP/tpp/cpu-kernel-1.dat' ] &&
	jq -e '[.cpu[] | select(.name == \"cpus_busy\")] | length == 1' '$TMP/tp.json' >/dev/null"
# a recording from before the recorder counted them: no such plots
"$SP" report docs/calibration/runs/local-real-s50-c8-tp --plots "$TMP/oldp" --no-gnuplot >/dev/null 2>&1
check "report: no page-cache plots for a recording without their tracepoints" "
	[ -s '$TMP/oldp/pcpu-drain-1.dat' ] && [ ! -e '$TMP/oldp/pagecache-add-1.dat' ] &&
	[ ! -e '$TMP/oldp/pagecache-add.gp' ]"

"$SP" run "$SMALL" --out "$TMP/q" --set sample_interval=250ms --set duration=2s --set ramp_time=0 >/dev/null
check "monitor times with decimals" "grep '^time: ' '$TMP/q/proc-vmstat' | sed -n '1p;2p;9p' | tr '\n' ' ' |
	grep -qx 'time: 0.000 time: 0.250 time: 2.000 '"

"$SP" run "$SMALL" --out "$TMP/it" --iterations 3 --seed 7 >"$TMP/stdout"
check "--iterations: iter-K folders and the aggregate" "for k in 1 2 3; do
	grep -qx \"  \\\"seed\\\": \$((6 + k)),\" '$TMP'/it/iter-\$k/result.json &&
	grep -qx \"  \\\"iteration\\\": \$k,\" '$TMP'/it/iter-\$k/result.json || exit 1; done &&
	grep -qx '  \"iterations\": 3,' '$TMP/it/result.json' && grep -qx '  \"seed\": 7,' '$TMP/it/result.json' &&
	grep -q '\"aggregate\"' '$TMP/it/result.json' && [ \$(wc -l <'$TMP/stdout') = 3 ]"

"$SP" run "$SMALL" --out "$TMP/sc" --scale 1/4 >/dev/null
check "--scale 1/4 in the result" "grep -qx '  \"scale\": \"1/4\",' '$TMP/sc/result.json' &&
	grep -qx '    \"cpus\": 1,' '$TMP/sc/result.json' &&
	grep -qx '    \"memory_bytes\": 268435456,' '$TMP/sc/result.json' && grep -q '\"tasks\": 4' '$TMP/sc/profile.json'"

if command -v script >/dev/null 2>&1; then
	SLOWPATH_PROGRESS_INTERVAL=0 script -qec "'$SP' run '$SMALL' --out '$TMP/tty' >/dev/null" /dev/null \
		>"$TMP/tty.txt" 2>&1
	check "progress line on a terminal" "grep -q '12.0/12.0 s virtual, [0-9.]* M events/s, ETA [0-9]*:[0-9][0-9]' '$TMP/tty.txt' &&
		tail -c 4 '$TMP/tty.txt' | od -c | grep -q 'K'"
	# one kept line per tps_interval (1 s here), pgbench -P style; its TPS
	# and mean latency are those of tps.csv's row for the same interval
	tr '\r' '\n' <"$TMP/tty.txt" | sed 's/^.*progress: /progress: /' | grep '^progress: ' >"$TMP/kept.txt"
	check "a kept progress line per tps_interval" "[ \$(wc -l <'$TMP/kept.txt') = 12 ] &&
		grep -Eq '^progress: 12\.0 s, [0-9.]+ tps, lat [0-9.]+ ms, allocstall [0-9]+, compact_stall [0-9]+; host [0-9.e+]+x real time, ETA [0-9]+:[0-9][0-9]\$' '$TMP/kept.txt'"
	check "kept lines agree with tps.csv" "awk -F, 'NR > 1 { printf \"progress: %.1f s, %.1f tps, lat %.3f ms\\n\", \$1, \$2, \$3 }' '$TMP/tty/tps.csv' >'$TMP/want.txt' &&
		sed -E 's/, allocstall.*//' '$TMP/kept.txt' | tail -n 10 >'$TMP/got.txt' && diff '$TMP/want.txt' '$TMP/got.txt'"
	SLOWPATH_PROGRESS_INTERVAL=0 "$SP" run "$SMALL" --out "$TMP/notty" >/dev/null 2>"$TMP/notty.txt"
	check "no progress line when stderr is not a terminal" "[ ! -s '$TMP/notty.txt' ]"
else
	ko "progress line on a terminal (script(1) missing)"
fi

printf '[global]\nduration=3s\n[machine]\nmemory=1g\nzones=DMA:1g,Normal:rest\ncpus=2\n' >"$TMP/idle.ini"
"$SP" run "$TMP/idle.ini" --out "$TMP/idle" >"$TMP/idle.out"
# the kernel threads of machine_start(): kswapd, kcompactd (slow path) and the vmstat workers
check "no workload: no transactions, no tps.csv, only the kernel threads in the profile" "grep -qx '$TMP/idle: 3.000 s simulated, [0-9]* events' '$TMP/idle.out' &&
	[ ! -e '$TMP/idle/tps.csv' ] && ! grep -q '\"tps\"' '$TMP/idle/result.json' &&
	[ -s '$TMP/idle/proc-vmstat' ] && [ \$(grep -c '\"kind\":' '$TMP/idle/profile.json') = 3 ] &&
	grep -q '\"kind\": \"vmstat\"' '$TMP/idle/profile.json' &&
	grep -q '\"kind\": \"kswapd\"' '$TMP/idle/profile.json' &&
	grep -q '\"kind\": \"kcompactd\"' '$TMP/idle/profile.json'"

# run-time errors
printf '[machine]\nmemory=1g\nzones=DMA:2g,Normal:rest\n' >"$TMP/zones.ini"
expect "machine the model rejects" 2 "$TMP/zones.ini:1: [machine]: zones add up to more than memory (1073741824 bytes)" \
	"$SP" run "$TMP/zones.ini" --out "$TMP/none1"
printf '[synthetic]\nio_share=5%%\n\ndevice=md9\n' >"$TMP/dev.ini"
expect "workload names a missing device" 2 "$TMP/dev.ini:4: device 'md9' does not exist (no [device md9] section)" \
	"$SP" run "$TMP/dev.ini" --out "$TMP/none2"
check "nothing written for a bad scenario" "[ ! -e '$TMP/none1' ] && [ ! -e '$TMP/none2' ]"
# memory=8t is valid but needs 32 GiB of bookkeeping (16 bytes per 4 KiB
# page): a host with less refuses it cleanly, naming that figure (it once
# aborted with "BUG ... out of memory").  Hosts with more skip this.
host_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null)
if [ -n "$host_kib" ] && [ "$host_kib" -lt 33554432 ]; then
	printf '[global]\nduration=1ms\n[machine]\nmemory=8t\nzones=Normal:rest\ncpus=2\n' >"$TMP/8t.ini"
	"$SP" run "$TMP/8t.ini" --out "$TMP/none3" >"$TMP/out" 2>"$TMP/err"
	check "memory=8t on a small host: exit 2, the bookkeeping named" "[ $? = 2 ] && [ ! -e '$TMP/none3' ] &&
		grep -q \"^$TMP/8t.ini:3: \\[machine\\]: memory=8796093022208: the model's bookkeeping for it needs 32.0 GiB of host memory (mem_map: 16 bytes per 4 KiB page) and this host has \" '$TMP/err'"
	check "memory=8t passes check (the host is run's business)" "'$SP' check '$TMP/8t.ini' >/dev/null"
fi
expect "unwritable folder" 1 "slowpath run: /proc/slowpath-test.tmp: No such file or directory" \
	"$SP" run "$SMALL" --out /proc/slowpath-test
expect "--iterations 0" 2 "--iterations '0': expected a whole number from 1 to 10000" \
	"$SP" run "$SMALL" --iterations 0
expect "--iterations x" 2 "--iterations 'x': expected a whole number from 1 to 10000" \
	"$SP" run "$SMALL" --iterations x

cli_done
