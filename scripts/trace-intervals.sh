#!/bin/sh
# The page allocator's tracepoints per interval from a result folder's
# trace-counts, as one Markdown table (docs/calibration.md): for each
# interval [T, T + STEP) from FROM to TO (seconds since the folder's first
# sample, so a recording's epoch stamps work too), hits per second of
#   allocs        kmem:mm_page_alloc (every __alloc_pages call)
#   pcp drained   kmem:mm_page_pcpu_drain (blocks from the per-CPU lists
#                 to the buddy lists)
#   zone-locked   kmem:mm_page_alloc_zone_locked (blocks off the buddy
#                 lists, most of them refilling the per-CPU lists)
#   direct reclaim  vmscan:mm_vmscan_direct_reclaim_begin
#   compaction    compaction:mm_compaction_begin
# and the blocks drained per allocation.  "–" where a sample lacks the
# tracepoint (a kernel without it).  Both ends must be sample times.
#
#   scripts/trace-intervals.sh DIR FROM TO STEP
#
# Exit 2 on bad usage, a folder without trace-counts, or an interval end
# that is not a sample time.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 DIR FROM TO STEP" >&2; exit 2; }
dir=$1 from=$2 to=$3 step=$4
f=$dir/trace-counts
[ -f "$f" ] || { echo "$0: $f: no such file" >&2; exit 2; }
for n in "$from" "$to" "$step"; do
	case $n in '' | *[!0-9]*) echo "$0: '$n': not a whole number of seconds" >&2; exit 2 ;; esac
done
[ "$step" -gt 0 ] && [ "$to" -gt "$from" ] || { echo "$0: want FROM < TO and STEP > 0" >&2; exit 2; }
awk -v from="$from" -v to="$to" -v step="$step" -v f="$f" '
	/^time: / { if (t0 == "") t0 = $2; t = $2 - t0; seen[t] = 1; next }
	{ v[t SUBSEP $1] = $2 }
	# hits per second of tracepoint n over [a, b], or "–"
	function rate(n, a, b) {
		if (!((a SUBSEP n) in v) || !((b SUBSEP n) in v)) return "–"
		return sprintf("%.0f", (v[b SUBSEP n] - v[a SUBSEP n]) / (b - a))
	}
	END {
		print "| interval (s) | allocs/s | pcp drained/s | zone-locked/s | drained per alloc | direct reclaim/s | compaction/s |"
		print "|---|---|---|---|---|---|---|"
		for (a = from; a < to; a += step) {
			b = a + step
			if (!(a in seen) || !(b in seen)) {
				printf "%s: no sample at %s s\n", f, ((a in seen) ? b : a) > "/dev/stderr"
				exit 2
			}
			al = rate("kmem:mm_page_alloc", a, b)
			dr = rate("kmem:mm_page_pcpu_drain", a, b)
			per = (al == "–" || dr == "–" || al + 0 == 0) ? "–" : sprintf("%.2f", dr / al)
			printf "| %d–%d | %s | %s | %s | %s | %s | %s |\n", a, b, al, dr,
				rate("kmem:mm_page_alloc_zone_locked", a, b), per,
				rate("vmscan:mm_vmscan_direct_reclaim_begin", a, b),
				rate("compaction:mm_compaction_begin", a, b)
		}
	}' "$f"
