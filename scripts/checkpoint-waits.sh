#!/bin/sh
# Where a pgbench run's backends wait around its checkpoints, as one
# Markdown table per result folder (docs/calibration.md): each wait
# event's share of the client backends' time (waits.csv) over the whole
# run, in the last minute before each checkpoint starts and in the first
# minute after it (checkpoints.csv), the windows of the checkpoint figures
# (docs/pgbench.md: whole intervals only, every checkpoint's minutes
# pooled, an interval counted in each window it lies in, as the figures
# count it), and the TPS of the same intervals (tps.csv).  With checkpoints.csv's starts to the nanosecond
# (a simulated run since this script's commit) the windows are exactly
# those of result.json's checkpoint figures; a start rounded to the
# millisecond (300.000 for 300.00002 s) moves the interval from 300 s
# into the minute after.  Events under
# 0.1 % in all three columns are left out.
#
#   scripts/checkpoint-waits.sh DIR...
set -eu
. "$(dirname "$0")/result-lib.sh"
need_files "$0" "waits.csv checkpoints.csv tps.csv" "$@"
for d in "$@"; do
	echo "$(basename "$d"):"
	echo
	awk -F, '
		FILENAME ~ /checkpoints.csv$/ { if (FNR > 1) start[nc++] = $1; next }
		FILENAME ~ /tps.csv$/ { if (FNR > 1) tps[$1 + 0] = $2; next }
		FNR == 1 { for (c = 2; c <= NF; c++) name[c] = $c; ncol = NF; next }
		{ nr++; e[nr] = $1; for (c = 2; c <= ncol; c++) v[nr, c] = $c }
		END {
			# whole intervals: as long as the second row (the first may
			# cover a ramp, the last may be shorter)
			iv = nr > 1 ? e[2] - e[1] : e[1]
			for (r = 1; r <= nr; r++) {
				end = e[r]; lo = r > 1 ? e[r - 1] : 0
				if (end - lo < iv - 1e-6 || end - lo > iv + 1e-6) continue
				for (c = 2; c <= ncol; c++) sum["all", c] += v[r, c]
				n["all"]++; t["all"] += tps[end + 0]
				# per checkpoint, as the figures count: an interval can
				# be in the minute after one checkpoint and in the
				# minute before the next
				for (k = 0; k < nc; k++) {
					s = start[k]; w = ""
					if (lo >= s && end <= s + 60) w = "during"
					else if (end <= s && lo + 60 >= s) w = "before"
					if (w == "") continue
					for (c = 2; c <= ncol; c++) sum[w, c] += v[r, c]
					n[w]++; t[w] += tps[end + 0]
				}
			}
			printf "| wait event | whole run | last minute before a checkpoint | first minute after |\n"
			printf "|---|---|---|---|\n"
			printf "| TPS (%d, %d, %d intervals) | %.0f | %s | %s |\n", n["all"], n["before"], n["during"],
				n["all"] ? t["all"] / n["all"] : 0,
				n["before"] ? sprintf("%.0f", t["before"] / n["before"]) : "-",
				n["during"] ? sprintf("%.0f", t["during"] / n["during"]) : "-"
			for (c = 2; c <= ncol; c++) {
				a = n["all"] ? sum["all", c] / n["all"] : 0
				b = n["before"] ? sum["before", c] / n["before"] : -1
				u = n["during"] ? sum["during", c] / n["during"] : -1
				if (a < 0.1 && b < 0.1 && u < 0.1) continue
				printf "| %s | %.1f | %s | %s |\n", name[c], a,
					b < 0 ? "-" : sprintf("%.1f", b), u < 0 ? "-" : sprintf("%.1f", u)
			}
		}' "$d/checkpoints.csv" "$d/tps.csv" "$d/waits.csv"
	echo
done
