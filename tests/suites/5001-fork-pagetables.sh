#!/bin/sh
# scenarios/fork-pagetables.ini: nr_page_table_pages after P
# children touched every 2 MiB of an S-byte shared mapping equals the
# count computed here from size= and children= — not a copy of a run:
#   shmem:   3 + P x (3 + S/2 MiB + ceil(S/1 GiB))
#   hugetlb: 3 + P x (3 + partial) + whole  (no PTE pages; the PMD page of
#            each whole 1 GiB is shared, that of a partial GiB is not)
# with 3 the per-process baseline (the PUD, PMD and PTE page of a process's
# stack; docs/pagecache.md).  Also: children that exit free their tables,
# and a hugetlb pool too small for huge_pages=on is reported, not used.
. tests/suites/5000-pagecache.inc
cli_init "$1" 5001-fork-pagetables

SCN=scenarios/fork-pagetables.ini
scale_init 16
GIB=$((1024 * 1024 * 1024))
PMD=$((2 * 1024 * 1024))
# the forker's --scale: size/N rounded up to 2 MiB, children/N
S=$(( ( $(bytes "$(ini_get $SCN forker size)") / SCALE_N + PMD - 1) / PMD * PMD ))
P=$(( $(ini_get $SCN forker children) / SCALE_N ))
POOL=$(( $(ini_get $SCN sysctl vm.nr_hugepages) / SCALE_N ))
NGIB=$(( (S + GIB - 1) / GIB ))
FULL=$(( S / GIB ))		# whole GiBs: their PMD pages are shared
PART=$(( NGIB - FULL ))		# a partial GiB: a PMD page per process
WANT_SHMEM=$(( 3 + P * (3 + S / PMD + NGIB) ))
WANT_HUGE=$(( 3 + P * (3 + PART) + FULL ))

"$SP" run $SCN $SCALE_ARGS --out "$TMP/off" >/dev/null 2>"$TMP/err"
check "shmem run exits 0" "[ -s '$TMP/off/result.json' ] && [ ! -s '$TMP/err' ]"
got=$(vmstat_end "$TMP/off" nr_page_table_pages)
check "shmem: nr_page_table_pages = 3 + P(3 + S/2M + S/1G) = $WANT_SHMEM (got $got)" "[ '$got' = '$WANT_SHMEM' ]"
got=$(vmstat_end "$TMP/off" nr_shmem)
check "shmem: one page per 2 MiB, allocated once = $((S / PMD)) (got $got)" "[ '$got' = '$((S / PMD))' ]"
got=$(figure "$TMP/off" pgtable_pages_per_child)
check "shmem: a child owns 3 + S/2M + S/1G tables (got $got)" "[ '$got' = '$((3 + S / PMD + NGIB))' ]"

"$SP" run $SCN $SCALE_ARGS --set forker.huge_pages=on --out "$TMP/on" >/dev/null 2>"$TMP/err"
check "hugetlb run exits 0" "[ -s '$TMP/on/result.json' ] && [ ! -s '$TMP/err' ]"
got=$(vmstat_end "$TMP/on" nr_page_table_pages)
check "hugetlb: nr_page_table_pages = 3 + P(3 + partial GiB) + whole GiBs = $WANT_HUGE (got $got)" "[ '$got' = '$WANT_HUGE' ]"
got=$(figure "$TMP/on" hugetlb_used)
check "hugetlb: the segment is hugetlb" "[ '$got' = 1 ]"
check "hugetlb: meminfo shows the pool in use" "grep -q '^HugePages_Free: *$(( POOL - S / PMD ))\$' '$TMP/on/proc-meminfo'"

"$SP" run $SCN $SCALE_ARGS --set forker.exit=1 --out "$TMP/exit" >/dev/null 2>&1
got=$(vmstat_end "$TMP/exit" nr_page_table_pages)
check "children that exit free their tables: 3 left (got $got)" "[ '$got' = 3 ]"

"$SP" run $SCN $SCALE_ARGS --set forker.huge_pages=on --set vm.nr_hugepages=$((S / PMD * SCALE_N / 2)) --out "$TMP/short" >/dev/null 2>&1
check "huge_pages=on with a short pool: start_failed, nothing forked" \
	"[ '$(figure "$TMP/short" start_failed)' = 1 ] && [ '$(figure "$TMP/short" children)' = 0 ]"
"$SP" run $SCN $SCALE_ARGS --set forker.huge_pages=try --set vm.nr_hugepages=$((S / PMD * SCALE_N / 2)) --out "$TMP/try" >/dev/null 2>&1
got=$(vmstat_end "$TMP/try" nr_page_table_pages)
check "huge_pages=try with a short pool falls back to shmem ($got)" "[ '$got' = '$WANT_SHMEM' ]"

"$SP" run $SCN $SCALE_ARGS --set forker.huge_pages=on --out "$TMP/det1" >/dev/null 2>&1
"$SP" run $SCN $SCALE_ARGS --set forker.huge_pages=on --out "$TMP/det2" >/dev/null 2>&1
check "two runs are byte-identical (result.json less wall-clock keys)" "for f in '$TMP'/det1/*; do
	b=\$(basename \"\$f\"); grep -v 'wall_seconds\\|events_per_second\\|^; command: ' \"\$f\" >'$TMP/a' &&
	grep -v 'wall_seconds\\|events_per_second\\|^; command: ' '$TMP/det2/'\"\$b\" >'$TMP/b' && cmp -s '$TMP/a' '$TMP/b' || exit 1; done"

cli_done
