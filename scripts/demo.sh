#!/bin/sh
# The main job (README, `make demo`): the motivating case of the 2026 linux-mm thread, docs/references.md —
# PostgreSQL under pgbench simple-update on an m8g.24xlarge, XFS on 12 io2
# volumes, every mechanism of the recalibration on (scenarios/pgbench-m8g.ini)
# — run under the regressed kernel (baseline) and under the fix
# that went into the mm tree (noretry-nonblocking), at a scale that
# finishes in about three minutes with both runs in parallel, then the
# comparison a kernel developer came for: TPS, latency, the stall
# counters per million pages written, the page tables' share of RAM; then
# the same table for the stored full-scale runs (docs/calibration/runs);
# last, the HTML report.
#
#   scripts/demo.sh            (DEMO_SCALE=1/16 DEMO_DURATION=600s DEMO_OUT=out/demo)
#
# At 1/16 the machine has 6 CPUs and 24 GiB, the database 1/16 of 135 GiB,
# and the 1024 clients stay (docs/pgbench.md "--scale"); docs/calibration.md
# says how the figures at this scale compare with full scale.
set -eu
cd "$(dirname "$0")/.."
SP=${SLOWPATH:-./slowpath}
SCN=scenarios/pgbench-m8g.ini
SCALE=${DEMO_SCALE:-1/16}
DUR=${DEMO_DURATION:-600s}
OUT=${DEMO_OUT:-out/demo}
POLICIES="baseline noretry-nonblocking"

mkdir -p "$OUT"
echo "== $SCN --scale $SCALE, $DUR simulated, policies: $POLICIES"
pids=
for p in $POLICIES; do
	rm -rf "${OUT:?}/$p"
	"$SP" run "$SCN" --scale "$SCALE" --set "duration=$DUR" --policy "$p" --out "$OUT/$p" \
		>"$OUT/$p.log" 2>&1 &
	pids="$pids $!"
done
rc=0
for pid in $pids; do
	wait "$pid" || rc=1
done
for p in $POLICIES; do
	cat "$OUT/$p.log"
done
[ "$rc" = 0 ] || { echo "demo: a run failed (logs in $OUT)" >&2; exit 1; }

. scripts/result-lib.sh

echo
echo "== slowpath compare (selected rows, from compare.json; every row in $OUT/compare.txt)"
"$SP" compare --all --names baseline,noretry-nonblocking "$OUT/baseline" "$OUT/noretry-nonblocking" \
	>"$OUT/compare.txt"
"$SP" compare --json --names baseline,noretry-nonblocking "$OUT/baseline" "$OUT/noretry-nonblocking" \
	>"$OUT/compare.json"
# The rows a kernel developer reads first, picked by name out of the
# comparison's JSON (docs/report.md, schema slowpath-compare/1): the
# statistic, each set's value, the difference in % (positive = better).
jq -r '
	def num: if . == null then "NaN" else tostring end;
	def stat(s; n): .metrics[] | select(.name == n) |
		["\(s) \(n)"] + [.results[] | .[s] | num] + [.results[1].diff_pct[s] | num];
	stat("hmean"; "tps"), stat("amean"; "latency_p50_ms"), stat("amean"; "latency_p99_ms"),
	stat("amean"; "pagetables_share"), stat("amean"; "checkpoint_tps_ratio"),
	stat("amean"; "wal_write_kib_avg"),
	# where the backends wait, as pg_stat_activity would say (docs/pgbench.md "Wait events")
	stat("amean"; "wait_lwlock_walwrite_pct"), stat("amean"; "wait_client_clientread_pct"),
	stat("amean"; "wait_cpu_pct"),
	(.ops[] | select(.name == "Allocation stalls" or .name == "Compaction stalls" or
			 .name == "Compaction failures") | ["ops \(.name)"] + [.values[] | num]),
	(.per_million_written[] | ["per-M-written \(.name)"] + [.results[] | .amean | num] +
		[.results[1].diff_pct.amean | num]) | @tsv' "$OUT/compare.json" |
	awk -F '\t' 'function v(x) { return x == "NaN" ? x : sprintf("%.2f", x) }
		BEGIN { printf "%-36s %14s %20s %10s\n", "", "baseline", "noretry-nonblocking", "diff %" }
		{ printf "%-36s %14s %20s %10s\n", $1, v($2), v($3), $4 == "" ? "" : v($4) }'

echo
echo "== summary"
# summary_row LABEL DIR: one line of the summary table
summary_row() {
	printf '%-33s %10.0f %9.2f %9.2f %11.1f %13.1f %13.1f %11.1f\n' "$1" \
		"$(jget "$2" "" tps)" "$(jget "$2" latency_ms p50)" "$(jget "$2" latency_ms p99)" \
		"$(jget "$2" figures pagetables_share)" \
		"$(jget "$2" per_million_written allocstall)" \
		"$(jget "$2" per_million_written compact_stall)" \
		"$(jget "$2" per_million_written sim_drain_all_pages)"
}
# tps_gain LABEL A B: "LABEL: x.y % TPS", B against A to one decimal
# (61.0, not jq's 61)
tps_gain() {
	awk -v l="$1" -v a="$2" -v b="$3" 'BEGIN { x = (b / a - 1) * 1000
		printf "%s: %.1f %% TPS\n", l, (x < 0 ? -int(-x + 0.5) : int(x + 0.5)) / 10 }'
}
summary_head() {
	printf '%-33s %10s %9s %9s %11s %13s %13s %11s\n' policy TPS "p50 ms" "p99 ms" "PT % RAM" \
		"allocstall/M" "compact/M" "drains/M"
}
summary_head
for p in $POLICIES; do
	summary_row "$p" "$OUT/$p"
done
echo "(per-M: per million pages written back, nr_written; PT: page tables, NR_PAGETABLE / MemTotal)"
echo "(at --scale $SCALE each WAL flush is smaller by the scale, so the stalls differ and TPS hardly"
echo " does; full scale, where the dips are deep, against the published figures: docs/calibration.md)"

# What the full-scale model finds: the result folders of the latest
# full-scale runs of the same case
# (docs/calibration.md "Where the model lands now"; 1 200 s each, 70–95
# minutes of one core here, too long for a demonstration until the
# full-scale speed work lands).  They are read, not re-run.
FULL=docs/calibration/runs
FULL_SCN=$SCN
FULL_BASE=$FULL/full-wbt2ms-none-1200
FULL_FIX=$FULL/full-queues-fix-1200
FULL_HUGE=$FULL/full-queues-huge-1200	# baseline with huge_pages=on (hugetlb shared buffers)
FULL_LAZY=$FULL/full-queues-lazy-1200	# baseline under preempt=lazy (pgbench-m8g-lazy.ini)
FULL_LAZYFIX=$FULL/full-queues-lazyfix-1200	# noretry-nonblocking under preempt=lazy
if [ -f "$FULL_BASE/result.json" ] && [ -f "$FULL_FIX/result.json" ]; then
	echo
	echo "== the same case at full scale (96 CPUs, 384 GiB, 1200 s): stored"
	echo "   result folders in $FULL: ${FULL_BASE##*/}, ${FULL_FIX##*/}, ${FULL_HUGE##*/}, ${FULL_LAZY##*/},"
	echo "   ${FULL_LAZYFIX##*/}, made by: slowpath run $FULL_SCN [--policy noretry-nonblocking]"
	echo "   (huge pages: --set sysctl.vm.nr_hugepages=50669 --set pgbench.huge_pages=on;"
	echo "    lazy: slowpath run scenarios/pgbench-m8g-lazy.ini [--policy noretry-nonblocking])"
	summary_head
	summary_row baseline "$FULL_BASE"
	summary_row noretry-nonblocking "$FULL_FIX"
	[ -f "$FULL_HUGE/result.json" ] && summary_row "baseline, huge pages" "$FULL_HUGE"
	[ -f "$FULL_LAZY/result.json" ] && summary_row "baseline, preempt=lazy" "$FULL_LAZY"
	[ -f "$FULL_LAZYFIX/result.json" ] && summary_row "noretry-nonblocking, preempt=lazy" "$FULL_LAZYFIX"
	tps_gain "noretry-nonblocking / baseline at full scale" "$(jget "$FULL_BASE" "" tps)" \
		"$(jget "$FULL_FIX" "" tps)"
	[ -f "$FULL_HUGE/result.json" ] && tps_gain "huge pages / 4 KiB pages at full scale" \
		"$(jget "$FULL_BASE" "" tps)" "$(jget "$FULL_HUGE" "" tps)"
	jq -rn --argjson a "$(jget "$FULL_BASE" figures checkpoint_dip_share)" \
		--argjson b "$(jget "$FULL_FIX" figures checkpoint_dip_share)" \
		'"share of the 10-s intervals in a checkpoint dip: baseline \($a * 100 | round) %, noretry-nonblocking \($b * 100 | round) %"'
	echo
	echo "== where these full-scale runs land on the published figures (docs/references.md;"
	echo "   scripts/landing.sh, docs/calibration.md \"Where the model lands now\" says what each miss lacks)"
	# shellcheck disable=SC2046
	scripts/landing.sh --none "$FULL_BASE" --fix "$FULL_FIX" \
		$([ -f "$FULL_HUGE/result.json" ] && echo --huge "$FULL_HUGE") \
		$([ -f "$FULL_LAZY/result.json" ] && echo --lazy "$FULL_LAZY") \
		$([ -f "$FULL_LAZYFIX/result.json" ] && echo --lazy-fix "$FULL_LAZYFIX")
fi

echo
scripts/demo-report.sh -o "$OUT/report/index.html" "$OUT/baseline" "$OUT/noretry-nonblocking"
