#!/bin/sh
# pgbench-stalls.sh — how much of a pgbench run's latency tail is shared
# stalls, from pgbench's per-transaction log (pgbench -l: lines of
# "client_id transaction_no time script_no time_epoch time_us", the time
# in microseconds).
#
#   scripts/pgbench-stalls.sh [-t MS] [-c N] LOGFILE...
#
# A transaction is in the tail when its latency is at least MS
# milliseconds (default: the run's p99, nearest rank).  Tail transactions
# are grouped by their end: one ending within 1 ms of the previous one's
# end joins its group.  A group in which N distinct clients (default:
# three quarters of the clients in the log, rounded up) end a tail
# transaction is a shared stall — something every client waited for at
# once, such as a slow WAL flush or a stalled WALWriteLock holder — and
# the rest are a client's own.  Prints the latency percentiles, the tail's
# split, the stalls per second and the median and p90 of their longest
# latency, and the stalls' phase within a second and within 200 ms (ten
# bins each, from the first transaction's start): a periodic cause (the
# walwriter's or bgwriter's 200-ms delay, a once-a-second sampler) shows
# as one bin above the others.
#
# Exit status 2 on bad input (no file, no transaction, a line that is not
# pgbench's format).
set -eu
thr=""
need=""
usage() { echo "usage: $0 [-t MS] [-c N] LOGFILE..." >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-t) [ $# -ge 2 ] || usage; thr=$2; shift 2 ;;
	-c) [ $# -ge 2 ] || usage; need=$2; shift 2 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
for f in "$@"; do
	[ -r "$f" ] || { echo "pgbench-stalls: $f: cannot read" >&2; exit 2; }
done
case $thr in ''|*[!0-9.]*|*.*.*) [ -z "$thr" ] || { echo "pgbench-stalls: -t: not a number of ms: $thr" >&2; exit 2; } ;; esac
case $need in ''|*[!0-9]*) [ -z "$need" ] || { echo "pgbench-stalls: -c: not a whole number: $need" >&2; exit 2; } ;; esac
tmp=$(mktemp "${TMPDIR:-/tmp}/pgbench-stalls.XXXXXX")
trap 'rm -f "$tmp" "$tmp.raw" "$tmp.max"' EXIT

# end time (s), latency (ms), client: one line per transaction, by end
awk '{
	if (NF < 6 || $1 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/ || $6 !~ /^[0-9]+$/) {
		printf "pgbench-stalls: %s:%d: not a pgbench -l line\n", FILENAME, FNR > "/dev/stderr"
		bad = 1; exit 2
	}
	printf "%d.%06d %.3f %d\n", $5, $6, $3 / 1000.0, $1
} END { if (bad) exit 2 }' "$@" >"$tmp.raw" || exit 2
sort -k1,1n "$tmp.raw" >"$tmp"
[ -s "$tmp" ] || { echo "pgbench-stalls: no transaction in $*" >&2; exit 2; }

if [ -z "$thr" ]; then
	thr=$(awk '{ print $2 }' "$tmp" | sort -n | awk '{ v[NR] = $1 } END {
		r = int(0.99 * NR + 0.999999); if (r < 1) r = 1; print v[r] }')
fi

awk '{ print $2 }' "$tmp" | sort -n | awk '{ v[NR] = $1 } END {
	split("50 90 95 99 99.9", q, " ")
	printf "transactions %d, latency ms:", NR
	for (i = 1; i <= 5; i++) { r = int(q[i] / 100 * NR + 0.999999); if (r < 1) r = 1; printf " p%s %.2f", q[i], v[r] }
	printf " max %.1f\n", v[NR]
}'

nc=$(awk '{ c[$3] = 1 } END { n = 0; for (k in c) n++; print n }' "$tmp")
[ -n "$need" ] || need=$(( (3 * nc + 3) / 4 ))
awk -v thr="$thr" -v need="$need" -v nc="$nc" -v maxes="$tmp.max" '
function close_group(   n, c) {
	if (!ng) return
	n = 0
	for (c in gc) n++
	if (n >= need) {
		stalls++; stall_tx += ng
		print gmax > maxes
		ph1[int(((gstart - t0) % 1.0) / 0.1)]++
		ph2[int(((gstart - t0) % 0.2) / 0.02)]++
	} else own_tx += ng
	ng = 0; gmax = 0; delete gc
}
NR == 1 { t0 = $1 - $2 / 1000; t1 = $1 }
$1 > t1 { t1 = $1 }
$2 >= thr {
	if (ng && $1 - last > 0.001) close_group()
	if (!ng) gstart = $1
	ng++; gc[$3] = 1; last = $1; if ($2 > gmax) gmax = $2; tail++
}
END {
	close_group()
	secs = t1 - t0
	printf "tail: latency >= %.2f ms, %d transactions; %d clients, a shared stall is >= %d of them\n", thr, tail, nc, need
	if (!tail) exit 0
	printf "in shared stalls: %d transactions (%.1f %%), %d stalls, %.2f per second\n", stall_tx, 100 * stall_tx / tail, stalls, stalls / secs
	printf "a client alone: %d transactions (%.1f %%)\n", own_tx, 100 * own_tx / tail
	if (stalls) {
		printf "stall phase within 1 s (0.1-s bins):"
		for (i = 0; i < 10; i++) printf " %d", ph1[i]
		printf "\nstall phase within 200 ms (20-ms bins):"
		for (i = 0; i < 10; i++) printf " %d", ph2[i]
		printf "\n"
	}
}' "$tmp"
if [ -s "$tmp.max" ]; then
	sort -n "$tmp.max" | awk '{ v[NR] = $1 } END {
		printf "longest latency in a stall, ms: p50 %.1f p90 %.1f max %.1f\n",
			v[int(0.5 * NR + 0.999999)], v[int(0.9 * NR + 0.999999)], v[NR] }'
fi
