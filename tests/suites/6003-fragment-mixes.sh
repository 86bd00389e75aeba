#!/bin/sh
# The fragmenter's mixes (src/workload/fragment.c), each alone and
# together, on a 64 MiB machine for 250 ms (2 tasks, 1 ms interval: 250
# intervals each).  Expected values follow from the options, not from a
# previous run:
#   kernel, capped       allocated = live = tasks x kernel_max; all order-0
#                        (pgalloc_normal = allocated)
#   kernel, lifetime     allocated = tasks x kernel_pages x intervals, and
#                        pages die: live < allocated / 2 (a 100 ms mean
#                        lifetime in a 250 ms run)
#   cache, reads         read = tasks x cache_bytes x intervals, nothing
#                        dirtied; files (256 MiB) larger than memory make
#                        kswapd reclaim (pgscan_kswapd > 0)
#   cache, 50 % writes   both reads and writes, read + written = the total,
#                        pages dirtied and written back
#   highorder            attempts = tasks x intervals / every; on an
#                        unfragmented machine all succeed, pgalloc_normal =
#                        attempts x 2^order, no compaction
#   all three, thp       fragmented: some order-9 GFP_TRANSHUGE attempts
#                        fail (success < 100 %) after direct compaction
#                        (compact_stall > 0)
#   all three, thp-light the same mix with GFP_TRANSHUGE_LIGHT, which may
#                        not reclaim or compact: compact_stall = 0 and fewer
#                        successes than with thp
# and two runs of the full mix are byte-identical.
. tests/suites/5000-pagecache.inc
cli_init "$1" 6003-fragment-mixes

cat >"$TMP/f.ini" <<'INI'
[global]
description=fragmenter mixes
duration=250ms
sample_interval=250ms
tps_interval=250ms

[machine]
memory=64m
zones=Normal:rest
cpus=2

[device d0]
members=1
iops=20000
lat_mean=100us
lat_p99=200us
flush=100us
size=16g

[fragment]
tasks=2
interval=1ms
cache_device=d0
cache_files=4
cache_file_size=32m
INI
TASKS=2
INTERVALS=250

# vmstat delta of the measured window
delta() {
	awk -v n="\"$2\":" '/^  "vmstat": \{/ { inv = 1; next } inv && /^  }/ { exit } inv && $1 == n { gsub(/,/, "", $2); print $2; exit }' "$1/result.json"
}
# a figure with its decimals
figx() {
	awk -v n="\"$2\":" '/"figures"/ { inf = 1 } inf && $1 == n { gsub(/,/, "", $2); print $2; exit }' "$1/result.json"
}
run() {
	out=$1
	shift
	"$SP" run "$TMP/f.ini" "$@" --out "$TMP/$out" >/dev/null 2>"$TMP/$out.err"
	check "$out: run exits 0" "[ -s '$TMP/$out/result.json' ] && [ ! -s '$TMP/$out.err' ]"
}

run k1 --set kernel_pages=4 --set kernel_max=600
want=$((TASKS * 600))
check "kernel capped: allocated = live = tasks x kernel_max = $want" \
	"[ '$(figure "$TMP/k1" fragment_kernel_allocated)' = $want ] && [ '$(figure "$TMP/k1" fragment_kernel_live)' = $want ]"
check "kernel capped: all of them order-0 (pgalloc_normal = $want)" "[ '$(delta "$TMP/k1" pgalloc_normal)' = $want ]"
check "kernel capped: no cache I/O, no high-order attempts" \
	"[ '$(figure "$TMP/k1" fragment_cache_read_mib)' = 0 ] && [ '$(figure "$TMP/k1" fragment_highorder_attempts)' = 0 ]"

run k2 --set kernel_pages=4 --set kernel_lifetime=100ms
want=$((TASKS * 4 * INTERVALS))
live=$(figure "$TMP/k2" fragment_kernel_live)
check "kernel with lifetimes: allocated = tasks x pages x intervals = $want" \
	"[ '$(figure "$TMP/k2" fragment_kernel_allocated)' = $want ]"
check "kernel with lifetimes: pages die (live $live < $((want / 2)))" "[ '$live' -gt 0 ] && [ '$live' -lt $((want / 2)) ]"

run c1 --set cache_bytes=256k
want=$(awk -v t=$TASKS -v i=$INTERVALS 'BEGIN { print t * i / 4 }')	# 256 KiB = 1/4 MiB per interval
check "cache reads: read = tasks x cache_bytes x intervals = $want MiB" \
	"awk -v a='$(figx "$TMP/c1" fragment_cache_read_mib)' -v b=$want 'BEGIN { exit !(a == b) }'"
check "cache reads: nothing dirtied or written" \
	"[ '$(delta "$TMP/c1" nr_dirtied)' = 0 ] && [ '$(figure "$TMP/c1" fragment_cache_written_mib)' = 0 ]"
check "cache reads: files larger than memory make kswapd reclaim" "[ '$(delta "$TMP/c1" pgscan_kswapd)' -gt 0 ]"

run c2 --set cache_bytes=256k --set cache_write_share=50%
check "cache 50% writes: reads and writes add up to $want MiB, both > 0" \
	"awk -v r='$(figx "$TMP/c2" fragment_cache_read_mib)' -v w='$(figx "$TMP/c2" fragment_cache_written_mib)' -v b=$want \
		'BEGIN { exit !(r > 0 && w > 0 && r + w == b) }'"
check "cache 50% writes: pages dirtied and written back" \
	"[ '$(delta "$TMP/c2" nr_dirtied)' -gt 0 ] && [ '$(delta "$TMP/c2" nr_written)' -gt 0 ]"

run h1 --set highorder_every=10
want=$((TASKS * INTERVALS / 10))
check "highorder: attempts = tasks x intervals / every = $want" "[ '$(figure "$TMP/h1" fragment_highorder_attempts)' = $want ]"
check "highorder: all succeed on an unfragmented machine" "[ '$(figure "$TMP/h1" fragment_highorder_success)' = 100 ]"
check "highorder: pgalloc_normal = attempts x 512 = $((want * 512)), no compaction" \
	"[ '$(delta "$TMP/h1" pgalloc_normal)' = $((want * 512)) ] && [ '$(delta "$TMP/h1" compact_stall)' = 0 ]"

MIX="--set kernel_pages=8 --set kernel_lifetime=5s --set cache_bytes=256k --set highorder_every=10"
# shellcheck disable=SC2086
run x1 $MIX --set highorder_gfp=thp
s1=$(figx "$TMP/x1" fragment_highorder_success)
check "mix, thp: some attempts fail ($s1 % succeed) after direct compaction ($(delta "$TMP/x1" compact_stall) stalls)" \
	"awk -v s='$s1' 'BEGIN { exit !(s < 100) }' && [ '$(delta "$TMP/x1" compact_stall)' -gt 0 ]"
# shellcheck disable=SC2086
run x2 $MIX --set highorder_gfp=thp-light
s2=$(figx "$TMP/x2" fragment_highorder_success)
check "mix, thp-light: no compaction, fewer successes ($s2 % < $s1 %)" \
	"[ '$(delta "$TMP/x2" compact_stall)' = 0 ] && awk -v a='$s2' -v b='$s1' 'BEGIN { exit !(a < b) }'"
# shellcheck disable=SC2086
run x1b $MIX --set highorder_gfp=thp
check "mix: two runs are byte-identical (less wall-clock keys)" "for f in '$TMP'/x1/*; do
	b=\$(basename \"\$f\"); grep -v 'wall_seconds\\|events_per_second\\|^; command: ' \"\$f\" >'$TMP/a' &&
	grep -v 'wall_seconds\\|events_per_second\\|^; command: ' '$TMP/x1b/'\"\$b\" >'$TMP/b' && cmp -s '$TMP/a' '$TMP/b' || exit 1; done"

cli_done
