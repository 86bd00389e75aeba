#!/bin/sh
# scenarios/large-writes.ini: per-order page-cache allocation counters for
# aligned 8 KiB, 64 KiB and 1 MiB buffered writes match docs/pagecache.md's
# write-size-to-order rule, computed here from
# count= and write_sizes=, not copied from a run:
#   6.12: order log2(size/4 KiB) once per write (8k -> 1, 64k -> 4, 1m -> 8)
#   6.6:  the same, except that order 1 becomes two order-0 folios
#   pre-large-chunks (P0): one order-0 folio per page, nothing above order 0
. tests/suites/5000-pagecache.inc
cli_init "$1" 5002-large-writes

SCN=scenarios/large-writes.ini
scale_init 4	# the writer's count and sizes do not scale: the numbers stay
COUNT=$(ini_get $SCN writer count)
SIZES=$(ini_get $SCN writer write_sizes)
NSIZES=$(echo "$SIZES" | tr ',' '\n' | wc -l)
PER=$((COUNT / NSIZES))

# expected counts per order, for one kernel/policy
expect_orders() {	# MODE -> "o0 o1 ... o9"
	for o in 0 1 2 3 4 5 6 7 8 9; do
		n=0
		for sz in $(echo "$SIZES" | tr ',' ' '); do
			pages=$(( $(bytes "$sz") / 4096 ))
			ord=0; p=$pages
			while [ $p -gt 1 ]; do p=$((p / 2)); ord=$((ord + 1)); done
			case $1 in
			p0) [ $o = 0 ] && n=$((n + PER * pages)) ;;
			k66) if [ $ord = 1 ]; then [ $o = 0 ] && n=$((n + PER * 2)); else [ $o = $ord ] && n=$((n + PER)); fi ;;
			*) [ $o = $ord ] && n=$((n + PER)) ;;
			esac
		done
		printf '%s ' $n
	done
}

got_orders() {	# DIR KIND(attempt|alloc)
	for o in 0 1 2 3 4 5 6 7 8 9; do
		printf '%s ' "$(vmstat_end "$1" sim_pagecache_${2}_order$o)"
	done
}

run_case() {	# CASE MODE ARGS... (not $name: check() sets that)
	cn=$1; mode=$2; shift 2
	"$SP" run $SCN $SCALE_ARGS --out "$TMP/$cn" "$@" >/dev/null 2>"$TMP/err"
	want=$(expect_orders $mode)
	check "$cn: run exits 0 with $COUNT writes, none failed" "[ -s '$TMP/$cn/result.json' ] && [ ! -s '$TMP/err' ] &&
		[ '$(figure "$TMP/$cn" writes)' = '$COUNT' ] && [ '$(figure "$TMP/$cn" write_errors)' = 0 ]"
	got=$(got_orders "$TMP/$cn" attempt)
	check "$cn: attempts per order 0..9 = $want(got $got)" "[ '$got' = '$want' ]"
	got=$(got_orders "$TMP/$cn" alloc)
	check "$cn: obtained per order 0..9 = $want(got $got)" "[ '$got' = '$want' ]"
}

run_case k612 k612
run_case k2026 k612 --set policy.kernel=2026
run_case k66 k66 --set policy.kernel=6.6
run_case p0 p0 --policy pre-large-chunks
got=$(vmstat_end "$TMP/k612" nr_dirtied)
check "every written page was dirtied once: $((PER * (2 + 16 + 256))) (got $got)" "[ '$got' = '$((PER * (2 + 16 + 256)))' ]"

"$SP" run $SCN $SCALE_ARGS  --out "$TMP/det1" >/dev/null 2>&1
"$SP" run $SCN $SCALE_ARGS  --out "$TMP/det2" >/dev/null 2>&1
check "two runs are byte-identical (result.json less wall-clock keys)" "for f in '$TMP'/det1/*; do
	b=\$(basename \"\$f\"); grep -v 'wall_seconds\\|events_per_second\\|^; command: ' \"\$f\" >'$TMP/a' &&
	grep -v 'wall_seconds\\|events_per_second\\|^; command: ' '$TMP/det2/'\"\$b\" >'$TMP/b' && cmp -s '$TMP/a' '$TMP/b' || exit 1; done"

cli_done
