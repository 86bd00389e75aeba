#!/bin/sh
# The checkpoint dips of pgbench result folders as one Markdown table
# (docs/calibration.md): mean TPS, p99, the mean 10-s TPS in the last
# minute before a checkpoint starts and in the first minute after it
# (their ratio, and the lowest interval's), the share of the run's whole
# intervals below half the before-rate (the published runs: about half),
# stall counters per million pages written, s_lock sleeps per second and
# WALWriteLock's busy share.
#
#   scripts/checkpoint-dips.sh DIR...
#
# The dip share is result.json's checkpoint_dip_share; folders written
# before that figure existed get it from tps.csv by the same rule (every
# whole interval, 0 TPS included; a shorter last one left out).  A figure
# a run lacks is "-".
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 DIR..." >&2; exit 2; }
for d in "$@"; do
	[ -f "$d/result.json" ] || { echo "$0: $d: no result.json" >&2; exit 2; }
done
. scripts/result-lib.sh

# fig DIR KEY FORMAT: a figure, or "-" when the run has none (or 0: the
# checkpoint figures are 0 when no checkpoint started)
fig() {
	jq -r --arg k "$2" '.figures[$k] // "-" | if . == 0 then "-" else . end' "$1/result.json" |
		awk -v f="$3" '{ if ($0 == "-") print "-"; else printf f "\n", $0 }'
}

# dip_share DIR: the figure, else from tps.csv and tps_before_checkpoint
dip_share() {
	s=$(jq -r '.figures.checkpoint_dip_share // empty' "$1/result.json")
	if [ -n "$s" ]; then
		printf '%.3f\n' "$s"
		return
	fi
	b=$(jq -r '.figures.tps_before_checkpoint // 0' "$1/result.json")
	if [ ! -f "$1/tps.csv" ] || awk -v b="$b" 'BEGIN { exit !(b <= 0) }'; then
		echo -
		return
	fi
	# whole intervals: as long as the second row's (the last may be shorter)
	awk -F, -v b="$b" 'BEGIN { n = 0 } NR > 1 { end[n] = $1; tps[n++] = $2 }
		END { iv = n > 1 ? end[1] - end[0] : 0
		      for (i = 0; i < n; i++) if (i == 0 || end[i] - end[i - 1] >= iv - 1e-6) { w++; d += (tps[i] < b / 2) }
		      printf "%.3f\n", (w ? d / w : 0) }' "$1/tps.csv"
}

echo "| run | TPS | p99 ms | last minute before a checkpoint | first minute after | ratio (lowest) | dip share | allocstall /M | compact_stall /M | s_lock sleeps /s | WALWriteLock busy % |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for d in "$@"; do
	secs=$(jget "$d" "" measure_seconds)
	printf '| %s | %.0f | %.1f | %s | %s | %s (%s) | %s | %.0f | %.0f | %s | %s |\n' "$(basename "$d")" \
		"$(jget "$d" "" tps)" "$(jget "$d" latency_ms p99)" \
		"$(fig "$d" tps_before_checkpoint %.0f)" "$(fig "$d" tps_checkpoint_first_minute %.0f)" \
		"$(fig "$d" checkpoint_tps_ratio %.3f)" "$(fig "$d" checkpoint_tps_lowest_ratio %.3f)" \
		"$(dip_share "$d")" \
		"$(jget "$d" per_million_written allocstall)" "$(jget "$d" per_million_written compact_stall)" \
		"$(jq -r --arg s "$secs" 'if .figures.s_lock_delays == null or ($s | tonumber) == 0 then "-"
			else (.figures.s_lock_delays / ($s | tonumber) | floor | tostring) end' "$d/result.json")" \
		"$(fig "$d" wal_write_lock_busy %.1f)"
done
echo "(/M: per million pages written back, nr_written)"
