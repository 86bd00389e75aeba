#!/bin/sh
# The first calibration's tables of docs/calibration.md, from result folders:
# where the model without the recalibration's mechanisms lands on each
# published figure of the case (docs/references.md), and how TPS at
# --scale 1/N compares with full scale.  scripts/landing.sh makes the
# current table, for runs of the case with every mechanism on.
#
#   scripts/calibration.sh [--run] [--scales "16 8 4"] DIR
#
# DIR holds full-baseline, full-noretry-nonblocking, full-pre-large-chunks
# and full-huge (scenarios/pgbench-m8g-mechanisms-off.ini at full scale,
# 1200 s, under those policies; full-huge is the baseline with
# huge_pages=on and the pool pgbench-m8g-hugepages.ini sets), and
# sN-baseline for each N of --scales (--scale 1/N).
# --run makes them first, two runs at a time ($JOBS), each a few minutes
# to ~50 minutes of host time at full scale.  Missing folders are shown
# as "-".  The tables are Markdown: the figures, the scaled runs, and the
# mechanism behind the full-scale runs (stall counters, checkpoint dip).
set -eu
cd "$(dirname "$0")/.."
SP=${SLOWPATH:-./slowpath}
RUN=0
SCALES="16 8 4"
while [ $# -gt 1 ]; do
	case $1 in
	--run) RUN=1; shift ;;
	--scales) SCALES=$2; shift 2 ;;
	*) echo "usage: $0 [--run] [--scales \"16 8 4\"] DIR" >&2; exit 2 ;;
	esac
done
[ $# = 1 ] || { echo "usage: $0 [--run] [--scales \"16 8 4\"] DIR" >&2; exit 2; }
DIR=$1
. scripts/result-lib.sh

if [ "$RUN" = 1 ]; then
	mkdir -p "$DIR"
	{
		OFF=scenarios/pgbench-m8g-mechanisms-off.ini
		echo "full-baseline $OFF --policy baseline"
		echo "full-huge $OFF --policy baseline --set sysctl.vm.nr_hugepages=50669 --set pgbench.huge_pages=on"
		echo "full-noretry-nonblocking $OFF --policy noretry-nonblocking"
		echo "full-pre-large-chunks $OFF --policy pre-large-chunks"
		for n in $SCALES; do echo "s$n-baseline $OFF --policy baseline --scale 1/$n"; done
	} | while read -r name args; do
		# shellcheck disable=SC2086
		echo "$SP run $args --out $DIR/$name >$DIR/$name.log 2>&1"
	done | xargs -P "${JOBS:-2}" -I{} sh -c '{}'
fi

have() { [ -f "$DIR/$1/result.json" ]; }
val() { if have "$1"; then jget "$DIR/$1" "$2" "$3"; else echo -; fi; }
# row FIGURE PUBLISHED MODEL FORMAT: the error is (model - published) / published
row() {
	if [ "$3" = - ]; then
		printf '| %s | %s | - | - |\n' "$1" "$2"
	else
		awk -v f="$1" -v p="$2" -v m="$3" -v fmt="$4" 'BEGIN {
			printf "| %s | " fmt " | " fmt " | %+.1f %% |\n", f, p, m, 100 * (m - p) / p
		}'
	fi
}

echo "| figure (the 2026 thread) | published | model | error |"
echo "|---|---|---|---|"
row "baseline TPS (unpatched)" 70000 "$(val full-baseline "" tps)" "%.0f"
row "noretry-nonblocking TPS" 155000 "$(val full-noretry-nonblocking "" tps)" "%.0f"
row "huge_pages=on TPS (pg_tx_cpu set from it)" 188000 "$(val full-huge "" tps)" "%.0f"
row "pre-large-chunks TPS" 135000 "$(val full-pre-large-chunks "" tps)" "%.0f"
if have full-baseline && have full-noretry-nonblocking; then
	row "noretry-nonblocking / baseline" 2.214 \
		"$(awk -v a="$(val full-noretry-nonblocking "" tps)" -v b="$(val full-baseline "" tps)" 'BEGIN { print a / b }')" "%.3f"
else
	row "noretry-nonblocking / baseline" 2.214 - "%.3f"
fi
row "page tables, % of RAM (baseline, end of run)" 40 "$(val full-baseline figures pagetables_share)" "%.1f"
row "checkpoint TPS / between-checkpoint TPS (baseline)" 0.333 "$(val full-baseline figures checkpoint_tps_ratio)" "%.3f"

echo
echo "| run | TPS | TPS x N | vs full scale | host time |"
echo "|---|---|---|---|---|"
full=$(val full-baseline "" tps)
for n in 1 $SCALES; do
	if [ "$n" = 1 ]; then name=full-baseline; else name=s$n-baseline; fi
	have "$name" || { printf '| %s | - | - | - | - |\n' "$name"; continue; }
	awk -v name="$name" -v n="$n" -v t="$(jget "$DIR/$name" "" tps)" -v f="$full" \
	    -v w="$(jget "$DIR/$name" "" wall_seconds)" 'BEGIN {
		vs = (f == "-" || f == 0) ? "-" : sprintf("%+.1f %%", 100 * (t * n - f) / f)
		printf "| %s | %.0f | %.0f | %s | %.0f s |\n", name, t, t * n, vs, w
	}'
done

echo
echo "| full-scale run | TPS | p99 ms | allocstall /M | compact_stall /M | drain_all_pages /M | pgscan_direct /M | checkpoint ratio (lowest) | page tables % |"
echo "|---|---|---|---|---|---|---|---|---|"
for name in full-baseline full-noretry-nonblocking full-pre-large-chunks full-huge; do
	have "$name" || { printf '| %s | - | - | - | - | - | - | - | - |\n' "$name"; continue; }
	d=$DIR/$name
	printf '| %s | %.0f | %.1f | %.0f | %.0f | %.0f | %.0f | %.3f (%.3f) | %.1f |\n' "$name" \
		"$(jget "$d" "" tps)" "$(jget "$d" latency_ms p99)" \
		"$(jget "$d" per_million_written allocstall)" "$(jget "$d" per_million_written compact_stall)" \
		"$(jget "$d" per_million_written sim_drain_all_pages)" "$(jget "$d" per_million_written pgscan_direct)" \
		"$(jget "$d" figures checkpoint_tps_ratio)" "$(jget "$d" figures checkpoint_tps_lowest_ratio)" \
		"$(jget "$d" figures pagetables_share)"
done
echo "(/M: per million pages written back, nr_written)"
