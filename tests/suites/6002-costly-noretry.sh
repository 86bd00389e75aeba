#!/bin/sh
# scenarios/costly-noretry.ini under every policy variant: the
# mechanism differences docs/slowpath.md, policy variants predicts, read from each
# run's result.json (whole-run counters).  The scenario runs shrunk
# (--scale 1/64: 32 MiB, one CPU, one writer, one fragmenter) for 2 s so
# the debug build — which runs mm_check() after every mm operation,
# kernel threads included — stays quick; the fragmented state and the
# failing costly attempts are the same in miniature.
#
#   baseline                    compact_stall > 0 and drains after direct
#                               reclaim of costly attempts
#   noretry-nonblocking (V6),   costly NORETRY attempts were made, and
#   slowpath-entry-noreclaim    none compacted or reclaimed directly
#   (V5)
#   noretry-no-compaction (Vb)  compact_stall = 0, direct reclaim > 0
#   noretry-skip-drain (Va)     costly compaction > 0, no drain after a
#                               costly attempt's reclaim
#   kcompactd-background (V4)   kcompactd handed off, no costly direct work
#   pre-large-chunks (P0)       no costly page-cache request at all
#   iomap-opportunistic (V1),   costly attempts without direct reclaim: no
#   filemap-costly-noreclaim    costly compaction stall
#   (V2), filemap-noreclaim-
#   above-min (V3a)
#   filemap-first-attempt-      the first attempt keeps its slow path:
#   noretry (V3b)               costly compaction stalls
. tests/suites/5000-pagecache.inc
cli_init "$1" 6002-costly-noretry

SCN=scenarios/costly-noretry.ini
POLICIES="baseline pre-large-chunks iomap-opportunistic filemap-costly-noreclaim noretry-skip-drain
	noretry-no-compaction noretry-nonblocking kcompactd-background slowpath-entry-noreclaim
	filemap-noreclaim-above-min filemap-first-attempt-noretry"

v() {	# POLICY COUNTER -> whole-run value
	vmstat_end "$TMP/$1" "$2"
}

costly_attempts() {	# POLICY -> page-cache attempts of orders 4..9
	n=0
	for o in 4 5 6 7 8 9; do
		n=$((n + $(v "$1" sim_pagecache_attempt_order$o)))
	done
	echo $n
}

for p in $POLICIES; do
	"$SP" run $SCN --scale 1/64 --set global.duration=2s --set global.ramp_time=500ms --policy "$p" \
		--out "$TMP/$p" >/dev/null 2>"$TMP/err-$p"
	check "$p: the run exits 0 and writes result.json" \
		"[ -s '$TMP/$p/result.json' ] && [ ! -s '$TMP/err-$p' ]"
done

b_stall=$(v baseline compact_stall); b_drain=$(v baseline sim_direct_drain_costly)
check "baseline: compact_stall > 0 ($b_stall), drains from costly attempts > 0 ($b_drain)" \
	"[ $b_stall -gt 0 ] && [ $b_drain -gt 0 ]"

for p in noretry-nonblocking slowpath-entry-noreclaim; do
	a=$(v $p sim_costly_noretry); s=$(v $p sim_compact_stall_costly); r=$(v $p sim_direct_reclaim_costly)
	check "$p: $a costly NORETRY attempts, no direct compaction ($s) or reclaim ($r) from them" \
		"[ $a -gt 0 ] && [ $s = 0 ] && [ $r = 0 ] && [ $(v $p sim_policy_noreclaim) = $a ]"
done

s=$(v noretry-no-compaction compact_stall); r=$(v noretry-no-compaction allocstall_movable)
check "noretry-no-compaction: compact_stall = 0 ($s), direct reclaim > 0 ($r)" "[ $s = 0 ] && [ $r -gt 0 ]"

s=$(v noretry-skip-drain sim_compact_stall_costly); d=$(v noretry-skip-drain sim_direct_drain_costly)
check "noretry-skip-drain: costly compaction > 0 ($s), no drains from costly attempts ($d)" \
	"[ $s -gt 0 ] && [ $d = 0 ]"

k=$(v kcompactd-background sim_policy_kcompactd); s=$(v kcompactd-background sim_compact_stall_costly)
r=$(v kcompactd-background sim_direct_reclaim_costly)
check "kcompactd-background: $k hand-offs to kcompactd, no costly compaction ($s) or reclaim ($r)" \
	"[ $k -gt 0 ] && [ $s = 0 ] && [ $r = 0 ]"

c=$(costly_attempts pre-large-chunks); n=$(v pre-large-chunks sim_costly_noretry)
check "pre-large-chunks: no costly page-cache requests ($c attempts, $n slow paths)" "[ $c = 0 ] && [ $n = 0 ]"
check "baseline makes costly page-cache requests ($(costly_attempts baseline))" "[ $(costly_attempts baseline) -gt 0 ]"

for p in iomap-opportunistic filemap-costly-noreclaim filemap-noreclaim-above-min; do
	s=$(v $p sim_compact_stall_costly); c=$(costly_attempts $p)
	check "$p: $c costly attempts, none stalls in compaction ($s)" "[ $c -gt 0 ] && [ $s = 0 ]"
done
s=$(v filemap-first-attempt-noretry sim_compact_stall_costly)
check "filemap-first-attempt-noretry: the first attempt keeps its costly compaction ($s)" "[ $s -gt 0 ]"

cli_done
