#!/bin/sh
# The PostgreSQL + pgbench workload end to end on scenarios/pgbench-small.ini
# (16 clients on a 256 MiB machine): a run writes what a pgbench result
# needs (TPS per interval, latency percentiles, vmstat deltas, stall
# counters per million nr_written, the workload's figures), repeats byte
# for byte, takes huge_pages=on from the hugetlb pool (fewer page tables),
# and reports bad set-ups as errors.  scenarios/pgbench-m8g.ini parses at
# full scale and at --scale 1/16 with the documented scaling.
. tests/suites/5000-pagecache.inc
cli_init "$1" 7010-pgbench-run

SCN=scenarios/pgbench-small.ini
# the release build runs past two checkpoints; debug and sanitizer builds
# (an invariant check after every event) a few seconds
case $BUILD in
*rel*) DUR=70s ;;
*) DUR=2s ;;
esac

"$SP" run $SCN --set duration=$DUR --out "$TMP/a" >"$TMP/a.out" 2>"$TMP/err"
check "run exits 0, quiet on stderr" "[ -s '$TMP/a/result.json' ] && [ ! -s '$TMP/err' ]"
check "summary line with tps and latency" "grep -Eq ' [1-9][0-9.]* tps, latency p50 [0-9.]+ ms' '$TMP/a.out'"
check "latency percentiles in result.json" "grep -Eq '^    \"p99\": [0-9.]+,' '$TMP/a/result.json'"
check "stall counters per million nr_written" "grep -q '\"per_million_written\"' '$TMP/a/result.json' &&
	grep -Eq '\"nr_written\": [1-9]' '$TMP/a/result.json'"
check "vmstat deltas: faults and page tables" "grep -Eq '^    \"pgfault\": [1-9]' '$TMP/a/result.json' &&
	grep -Eq '^    \"nr_page_table_pages\": [1-9]' '$TMP/a/result.json'"
for f in pagetables_share pagetables_share_peak buffer_hit_ratio fpi_per_tx wal_mb_per_s \
	 commits_per_flush backend_writes_per_tx wal_write_kib_avg; do
	check "figure $f" "grep -q '\"$f\":' '$TMP/a/result.json'"
done
check "no read, write or fault errors" "[ '$(figure "$TMP/a" read_errors)' = 0 ] &&
	[ '$(figure "$TMP/a" write_errors)' = 0 ] && [ '$(figure "$TMP/a" fault_errors)' = 0 ]"
check "TPS per 5 s interval in tps.csv" "head -n 1 '$TMP/a/tps.csv' | grep -qx 'interval_end_s,tps,lat_avg_ms,lat_max_ms' &&
	sed -n 2p '$TMP/a/tps.csv' | grep -Eq '^(2|5).000,[1-9]'"
check "task kinds: backend, checkpointer, bgwriter, walwriter" "for k in backend checkpointer bgwriter walwriter; do
	grep -q \"\\\"kind\\\": \\\"\$k\\\"\" '$TMP/a/profile.json' || exit 1; done"
check "WALWriteLock's sleepers show under XLogFlush" "grep -q '\"name\": \"XLogFlush\"' '$TMP/a/profile.json'"
case $BUILD in
*rel*)
	check "two checkpoints in 70 s with checkpoint_timeout=30s" "[ '$(figure "$TMP/a" checkpoints)' = 1 ] ||
		[ '$(figure "$TMP/a" checkpoints)' = 2 ]"
	check "the checkpoint wrote buffers" "[ '$(figure "$TMP/a" checkpoint_buffers_written)' -gt 0 ]" ;;
esac

"$SP" run $SCN --set duration=$DUR --out "$TMP/b" >/dev/null 2>&1
for d in a b; do
	sed -E 's/^( *"(wall_seconds|events_per_second)": )[^,]*(,?)$/\1"MASKED"\3/' "$TMP/$d/result.json" >"$TMP/$d.json"
done
check "same seed: result.json, tps.csv and monitors identical" "cmp '$TMP/a.json' '$TMP/b.json' &&
	cmp '$TMP/a/tps.csv' '$TMP/b/tps.csv' && cmp '$TMP/a/proc-vmstat' '$TMP/b/proc-vmstat'"

# The process image (image_regions, default 22): a PTE page per 2 MiB
# region in each of the 20 processes (16 backends, checkpointer, bgwriter,
# walwriter, postmaster), and at most two upper-level tables more each.
"$SP" run $SCN --set duration=$DUR --set image_regions=0 --out "$TMP/i" >/dev/null 2>"$TMP/err"
pt_img=$(vmstat_end "$TMP/a" nr_page_table_pages)
pt_off=$(vmstat_end "$TMP/i" nr_page_table_pages)
check "image_regions=22: 20 x 22 to 20 x 24 page-table pages more ($pt_img against $pt_off)" \
	"[ ! -s '$TMP/err' ] && [ $((pt_img - pt_off)) -ge 440 ] && [ $((pt_img - pt_off)) -le 480 ]"

# huge_pages=on against 4 KiB mappings, both without the image's tables
"$SP" run $SCN --set duration=$DUR --set huge_pages=on --set vm.nr_hugepages=64 --set image_regions=0 \
	--out "$TMP/h" >/dev/null 2>"$TMP/err"
check "huge_pages=on runs on the hugetlb pool" "[ ! -s '$TMP/err' ] && [ '$(figure "$TMP/h" huge_pages_used)' = 1 ]"
pt_on=$(vmstat_end "$TMP/h" nr_page_table_pages)
check "huge_pages=on: fewer page-table pages ($pt_on < $pt_off / 2)" "[ $((pt_on * 2)) -lt $pt_off ]"

expect "huge_pages=on without a pool is an error" 2 \
	"$SCN:26: [pgbench]: huge_pages=on needs 41 free hugetlb pages for 81 MiB of shared memory, the pool has 0 (set vm.nr_hugepages)" \
	"$SP" run $SCN --set huge_pages=on --out "$TMP/x"
check "nothing written for it" "[ ! -e '$TMP/x' ]"
expect "an unknown device is an error" 2 \
	"--set 'pgbench.device=nvme9': device 'nvme9' does not exist (no [device nvme9] section)" \
	"$SP" run $SCN --set pgbench.device=nvme9 --out "$TMP/x"

M8G=scenarios/pgbench-m8g.ini
"$SP" check $M8G >"$TMP/full.txt"
check "pgbench-m8g.ini parses: 1024 clients, scale 8470, 96 CPUs, 384 GiB" "grep -qx 'clients=1024' '$TMP/full.txt' &&
	grep -qx 'scale=8470' '$TMP/full.txt' && grep -qx 'cpus=96' '$TMP/full.txt' && grep -qx 'memory=384g' '$TMP/full.txt'"
"$SP" check $M8G --scale 1/16 >"$TMP/s16.txt"
check "--scale 1/16: clients kept, the rest divided" "grep -qx 'clients=1024' '$TMP/s16.txt' &&
	grep -qx 'scale=529' '$TMP/s16.txt' && grep -qx 'cpus=6' '$TMP/s16.txt' &&
	grep -qx 'wal_segment_size=4m' '$TMP/s16.txt' && grep -qx 'segment_size=64m' '$TMP/s16.txt' &&
	grep -qx 'wal_buffers=4m' '$TMP/s16.txt' && grep -qx 'max_wal_size=32g' '$TMP/s16.txt' &&
	grep -qx 'wal_recycled=16g' '$TMP/s16.txt'"

# [global] fault_model=drawn (docs/engine.md "Drawn faults"): the buffer
# pool's per-process present bits replaced by per-region counts and a
# draw.  It needs a window of at least 128 MiB, so the full-scale file at
# 1/32 for 5 s, which takes too long with a check after every event: the
# debug and sanitizer runs use the unchecked build (build/ndbg, which suite
# 0010 keeps byte-identical to the checked one); test_memory checks the
# drawn model's invariants in the checked builds.
FAST=$SP
case $BUILD in *rel*) ;; *) FAST=build/ndbg/slowpath ;; esac
for d in de1 de2 ex; do
	fm=drawn; [ $d = ex ] && fm=exact
	"$FAST" run $M8G --scale 1/32 --set duration=5s --set global.fault_model=$fm --out "$TMP/$d" \
		>/dev/null 2>&1
	sed -E 's/^( *"(wall_seconds|events_per_second)": )[^,]*(,?)$/\1"MASKED"\3/' "$TMP/$d/result.json" \
		>"$TMP/$d.json"
done
check "fault_model=drawn: same seed, identical result.json, tps.csv and monitors" \
	"cmp '$TMP/de1.json' '$TMP/de2.json' && cmp '$TMP/de1/tps.csv' '$TMP/de2/tps.csv' &&
	cmp '$TMP/de1/proc-vmstat' '$TMP/de2/proc-vmstat'"
check "fault_model=drawn is in the result folder's scenario.ini" \
	"grep -qx 'fault_model=drawn' '$TMP/de1/scenario.ini'"
fd=$(vmstat_end "$TMP/de1" pgfault); fx=$(vmstat_end "$TMP/ex" pgfault)
pd=$(vmstat_end "$TMP/de1" nr_page_table_pages); px=$(vmstat_end "$TMP/ex" nr_page_table_pages)
check "fault_model=drawn draws: other pgfault than exact ($fd, $fx), within 5 %" \
	"[ $fd != $fx ] && [ $((fd * 100)) -ge $((fx * 95)) ] && [ $((fd * 100)) -le $((fx * 105)) ]"
check "fault_model=drawn: page-table pages within 5 % of exact ($pd, $px)" \
	"[ $((pd * 100)) -ge $((px * 95)) ] && [ $((pd * 100)) -le $((px * 105)) ]"

# wal_cached: the start's WAL segments (1 current + wal_recycled=32m of
# 4-MiB segments = 9 files, 9216 pages) in the page cache as 8-KiB folios
# at time 0, so that the run's WAL writes find them and allocate less
t0() { awk -v k="$2" '/^time: /{ f = $2 == "0" } f && $1 == k { print $2 }' "$1/proc-vmstat"; }
for w in 0 100 50; do
	"$SP" run $SCN --set duration=$DUR --set sample_interval=1s --set pgbench.wal_cached=$w% \
		--out "$TMP/wc$w" >/dev/null 2>"$TMP/err"
done
a0=$(t0 "$TMP/wc0" pgalloc_normal); a1=$(t0 "$TMP/wc100" pgalloc_normal); ah=$(t0 "$TMP/wc50" pgalloc_normal)
o0=$(t0 "$TMP/wc0" sim_pagecache_attempt_order1); o1=$(t0 "$TMP/wc100" sim_pagecache_attempt_order1)
check "wal_cached=100%: 9216 more pages at time 0, as 4608 order-1 folios ($((a1 - a0)), $((o1 - o0)))" \
	"[ $((a1 - a0)) = 9216 ] && [ $((o1 - o0)) = 4608 ]"
check "wal_cached=50%: between, about half ($((ah - a0)))" \
	"[ $((ah - a0)) -gt 4000 ] && [ $((ah - a0)) -lt 5200 ]"
run_attempts() {	# page-cache folio attempts after time 0
	jq '[.vmstat | to_entries[] | select(.key | test("^sim_pagecache_attempt_order")) | .value] | add' \
		"$1/result.json"
}
check "wal_cached=100%: fewer page-cache allocations in the run ($(run_attempts "$TMP/wc100") < $(run_attempts "$TMP/wc0"))" \
	"[ $(run_attempts "$TMP/wc100") -lt $(run_attempts "$TMP/wc0") ]"
check "wal_cached is in the result folder's scenario.ini" "grep -qx 'wal_cached=50%' '$TMP/wc50/scenario.ini'"

cli_done
