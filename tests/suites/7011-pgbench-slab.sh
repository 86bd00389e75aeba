#!/bin/sh
# The slab allocator model ([kernel] slab=on, src/mm/slub.c) under the
# PostgreSQL + pgbench workload with the local client (loopback TCP
# connections): the result folder gets proc-slabinfo (the kernel's
# version 2.1 layout), the backends' processes and the connections fill
# their caches (16 clients: 32 TCP socks, 16 backends + the postmaster and
# three auxiliary processes), nr_slab_unreclaimable and
# nr_slab_reclaimable move in vmstat, two runs agree byte for byte, and
# with slab=off (the default) there is no proc-slabinfo.
. tests/suites/5000-pagecache.inc
cli_init "$1" 7011-pgbench-slab

SCN=scenarios/pgbench-small.ini
case $BUILD in
*rel*) DUR=10s ;;
*) DUR=1s ;;
esac

"$SP" run $SCN --set duration=$DUR --set client=local --set kernel.slab=on --out "$TMP/a" >/dev/null 2>"$TMP/err"
check "slab=on run exits 0, quiet on stderr" "[ -s '$TMP/a/result.json' ] && [ ! -s '$TMP/err' ]"
check "proc-slabinfo: version 2.1 header" "head -n 1 '$TMP/a/proc-slabinfo' | grep -qx 'slabinfo - version: 2.1' &&
	sed -n 2p '$TMP/a/proc-slabinfo' | grep -q '^# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\$'"
check "no temporary file left" "[ ! -e '$TMP/a/proc-slabinfo.tmp' ]"
check "TCP: 32 socks (both ends of 16 connections), 13 per order-3 slab on 4 CPUs" \
	"grep -Eq '^TCP +32 +39 +2368 +13 +8 : tunables +0 +0 +0 : slabdata +3 +3 +0\$' '$TMP/a/proc-slabinfo'"
check "task_struct: 20 processes (postmaster, 3 auxiliary, 16 backends)" \
	"grep -Eq '^task_struct +20 ' '$TMP/a/proc-slabinfo'"
check "dentry and xfs_inode in use" "grep -Eq '^dentry +[1-9]' '$TMP/a/proc-slabinfo' &&
	grep -Eq '^xfs_inode +[1-9]' '$TMP/a/proc-slabinfo'"
check "skbs allocated and freed: skbuff_head_cache has slabs" \
	"grep -Eq '^skbuff_head_cache +[0-9]+ +[1-9]' '$TMP/a/proc-slabinfo'"
unrecl=$(vmstat_end "$TMP/a" nr_slab_unreclaimable)
check "nr_slab_unreclaimable > 0 at the end ($unrecl)" "[ '${unrecl:-0}' -gt 0 ]"
check "nr_slab_unreclaimable > 0 in proc-vmstat" \
	"awk '\$1 == \"nr_slab_unreclaimable\" && \$2 > 0 { f = 1 } END { exit !f }' '$TMP/a/proc-vmstat'"
check "meminfo SUnreclaim > 0" "awk '\$1 == \"SUnreclaim:\" && \$2 > 0 { f = 1 } END { exit !f }' '$TMP/a/proc-meminfo'"

# the same seed twice (not under the sanitizer build: CI time; make check runs it)
case $BUILD in
*san*) ;;
*)
	"$SP" run $SCN --set duration=$DUR --set client=local --set kernel.slab=on --out "$TMP/b" >/dev/null 2>&1
	check "same seed: proc-slabinfo and proc-vmstat identical" "cmp '$TMP/a/proc-slabinfo' '$TMP/b/proc-slabinfo' &&
		cmp '$TMP/a/proc-vmstat' '$TMP/b/proc-vmstat'" ;;
esac

"$SP" run $SCN --set duration=300ms --set client=local --out "$TMP/off" >/dev/null 2>&1
check "slab=off (the default): no proc-slabinfo, no slab pages" "[ ! -e '$TMP/off/proc-slabinfo' ] &&
	[ '$(vmstat_end "$TMP/off" nr_slab_unreclaimable)' = 0 ]"

cli_done
