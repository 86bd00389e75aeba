#!/bin/sh
# No side effects in assertions: a build with every check compiled out
# (SIM_DEBUG=0, build/ndbg) gives byte-identical results to the checked
# build under test (SIM_DEBUG=3 runs mm_check after every event).  The
# scenarios cover private anonymous faults (do_anonymous_page), THP
# faults, page-table pages, the page cache, writeback and the PostgreSQL
# model.  Before the fix two SIM_ASSERT(filemap_add_folio(...) == 0) in
# memory.c dropped the insertion at SIM_DEBUG=0.
. tests/suites/0000-cli.inc
cli_init "$1" 0010-debug-levels

NDBG=build/ndbg/slowpath
if [ ! -x "$NDBG" ]; then
	ko "$NDBG missing (make check builds it)"
	cli_done
	exit 1
fi


# both NAME SCENARIO ARGS...: run both builds, compare every file
both() {
	name=$1; sc=$2; shift 2
	"$SP" run "$sc" --out "$TMP/$name-chk" "$@" >/dev/null 2>"$TMP/$name.err1"
	r1=$?
	"$NDBG" run "$sc" --out "$TMP/$name-ndbg" "$@" >/dev/null 2>"$TMP/$name.err0"
	r0=$?
	mask_host "$TMP/$name-chk"
	mask_host "$TMP/$name-ndbg"
	if [ $r1 = 0 ] && [ $r0 = 0 ] && diff -r "$TMP/$name-chk" "$TMP/$name-ndbg" >"$TMP/diff" 2>&1; then
		ok "$name: SIM_DEBUG=0 and the checked build agree byte for byte"
	else
		echo "  exit $r1 / $r0"; head -n 20 "$TMP/diff"; cat "$TMP/$name.err1" "$TMP/$name.err0" | head -5
		ko "$name: SIM_DEBUG=0 and the checked build agree byte for byte"
	fi
}

both synthetic scenarios/synthetic-small.ini
both fork scenarios/fork-pagetables.ini --scale 1/8
both fork-thp scenarios/fork-pagetables.ini --scale 1/8 --set /sys/kernel/mm/transparent_hugepage/enabled=always
both pgbench scenarios/pgbench-small.ini --set duration=2s
both large-writes scenarios/large-writes.ini --set duration=2s

cli_done
