#!/bin/sh
# Workloads side by side: every pair of workload kinds,
# and two sections of one kind where the kind allows several, in one
# scenario on a small machine.  Users compose workloads (a fragmenter
# beside a database, page-cache writers beside forks); the run driver once
# handed each workload a pointer into an array it then grew with realloc,
# so the second workload's statistics were written to freed memory
# ([forker] + [writer] died with SIGFPE in wl_stats_tx).  Expect every run
# to exit 0, print its summary line and write result.json; under the
# sanitizer build (make check-san) any use after free aborts the run.
. tests/suites/0000-cli.inc
cli_init "$1" 7002-workload-pairs

# One small section body per kind; $1 is the section's name ("" for none).
section() {
	kind=$1; name=$2
	if [ -n "$name" ]; then echo "[$kind $name]"; else echo "[$kind]"; fi
	case $kind in
	synthetic) printf 'tasks=2\nthink=100us\ncompute=20us\nio_share=20%%\nio_span=64m\ndevice=d0\n' ;;
	pgbench)   printf 'device=d0\nclients=2\nscale=1\nshared_buffers=2m\nwal_buffers=256k\n'
		   printf 'wal_segment_size=1m\nmin_wal_size=2m\nmax_wal_size=8m\nwal_recycled=2m\n'
		   printf 'backend_memory=64k\n' ;;
	fio)       printf 'filename=d0\nnumjobs=2\niodepth=4\nrw=randread\nsize=64m\n' ;;
	fragment)  printf 'tasks=1\nkernel_pages=4\nkernel_max=64\nhighorder_every=4\nhighorder_order=3\n' ;;
	forker)    printf 'size=8m\nchildren=2\nalign=2m\n' ;;
	writer)    printf 'device=d0\nfile_size=2m\nwrite_sizes=8k,64k\n' ;;
	esac
	echo
}
scenario() {
	cat <<'INI'
[global]
duration=30ms
sample_interval=30ms
tps_interval=10ms

[machine]
memory=128m
zones=Normal:rest
cpus=2

[device d0]
iops=20000
lat_mean=100us
lat_p99=200us
flush=100us
size=4g

INI
}

KINDS="synthetic pgbench fio fragment forker writer"
runpair() {
	label=$1; shift
	scenario >"$TMP/$label.ini"
	for sec in "$@"; do
		section ${sec%%:*} "$(echo "$sec" | sed -n 's/^[^:]*://p')" >>"$TMP/$label.ini"
	done
	if "$SP" run "$TMP/$label.ini" --out "$TMP/$label" >"$TMP/out" 2>"$TMP/err" &&
	   [ -s "$TMP/$label/result.json" ] && grep -q "^$TMP/$label: " "$TMP/out"; then
		ok "$label"
	else
		echo "  exit status $?"
		sed 's/^/  /' "$TMP/err" | head -n 20
		ko "$label"
	fi
}

for a in $KINDS; do
	seen=0
	for b in $KINDS; do
		[ "$a" = "$b" ] && seen=1 && continue
		[ $seen = 1 ] && runpair "$a+$b" "$a" "$b"
	done
	[ "$a" = pgbench ] && continue		# one [pgbench] per scenario
	runpair "$a+$a" "$a:one" "$a:two"
done
cli_done
