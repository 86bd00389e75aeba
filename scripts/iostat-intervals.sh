#!/bin/sh
# iostat -x per interval from a result folder's proc-diskstats, as one
# Markdown table (docs/calibration.md): for each interval [T, T + STEP)
# from FROM to TO (seconds since the folder's first sample, so a
# recording's epoch stamps work too), the array's writes per second, kB
# per write, average queue (aqu-sz) and ms per write (w_await), then its
# members' mean aqu-sz, mean w_await and mean %util: the disks whose
# names match MEMBERS, an extended regular expression (default
# "^DEVICE-[0-9]+$", a simulated run's names; on a machine, e.g.
# "^nvme([1-9]|1[0-2])n1$").  Both ends must be sample times.
#
#   scripts/iostat-intervals.sh DIR FROM TO STEP [DEVICE [MEMBERS]]   (DEVICE: md0)
#
# The ms columns wrap at 2^32 in the kernel: a fall there counts as one wrap.
# Exit 2 on bad usage, a folder without proc-diskstats, or an interval
# end that is not a sample time.
set -eu
[ $# -ge 4 ] && [ $# -le 6 ] || { echo "usage: $0 DIR FROM TO STEP [DEVICE [MEMBERS]]" >&2; exit 2; }
dir=$1 from=$2 to=$3 step=$4 dev=${5:-md0}
members=${6:-^$dev-[0-9]+\$}
f=$dir/proc-diskstats
[ -f "$f" ] || { echo "$0: $f: no such file" >&2; exit 2; }
for n in "$from" "$to" "$step"; do
	case $n in '' | *[!0-9]*) echo "$0: '$n': not a whole number of seconds" >&2; exit 2 ;; esac
done
[ "$step" -gt 0 ] && [ "$to" -gt "$from" ] || { echo "$0: want FROM < TO and STEP > 0" >&2; exit 2; }
awk -v from="$from" -v to="$to" -v step="$step" -v dev="$dev" -v mre="$members" -v f="$f" '
	/^time: / { if (t0 == "") t0 = $2; t = $2 - t0; seen[t] = 1; next }
	{ key = t SUBSEP $3
	  w[key] = $8; s[key] = $10; ms[key] = $11; io[key] = $13; q[key] = $14
	  if ($3 ~ mre && $3 != dev) member[$3] = 1 }
	function d(a, name, b, c) { return a[b SUBSEP name] - a[c SUBSEP name] }
	# the ms columns are unsigned int in the kernel: a fall is one wrap at 2^32
	function dm(a, name, b, c,   v) { v = d(a, name, b, c); return v < 0 ? v + 4294967296 : v }
	END {
		print "| interval (s) | " dev " w/s | kB per write | aqu-sz | w_await ms | members: aqu-sz | w_await ms | %util |"
		print "|---|---|---|---|---|---|---|---|"
		for (a = from; a < to; a += step) {
			b = a + step
			if (!(a in seen) || !(b in seen)) {
				printf "%s: no sample at %s s\n", f, ((a in seen) ? b : a) > "/dev/stderr"
				exit 2
			}
			if (((b SUBSEP dev) in w) == 0) {
				printf "%s: no disk %s at %s s\n", f, dev, b > "/dev/stderr"
				exit 2
			}
			nw = d(w, dev, b, a)
			n = 0; mq = 0; mw = 0; mn = 0; mu = 0
			for (m in member) {
				n++
				mq += dm(q, m, b, a) / 1000 / step
				mw += dm(ms, m, b, a); mn += d(w, m, b, a)
				mu += dm(io, m, b, a) / 10 / step
			}
			printf "| %d–%d | %.0f | %s | %.1f | %s | %s | %s | %s |\n", a, b, nw / step,
				(nw > 0 ? sprintf("%.1f", d(s, dev, b, a) / 2 / nw) : "-"),
				dm(q, dev, b, a) / 1000 / step,
				(nw > 0 ? sprintf("%.2f", dm(ms, dev, b, a) / nw) : "-"),
				(n ? sprintf("%.1f", mq / n) : "-"),
				(mn > 0 ? sprintf("%.2f", mw / mn) : "-"),
				(n ? sprintf("%.0f", mu / n) : "-")
		}
	}' "$f"
