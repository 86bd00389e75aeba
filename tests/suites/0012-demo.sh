#!/bin/sh
# scripts/demo.sh (make demo) end to end at a tiny scale: both policies
# run (1/32: at 1/64 the recycled WAL at start no longer fits the
# scaled device, and the scenario is refused), the summary and the HTML
# report are written, and the full-scale
# table reads the stored calibration runs (docs/calibration/runs): its TPS
# column, the ratio line and the landing table on the published figures
# (scripts/landing.sh) are those folders' numbers.  It runs the
# unchecked optimised build (build/ndbg, made by check and check-san): the
# script is under test here, and 1024 backends under the invariant checker
# take minutes.
. tests/suites/0000-cli.inc
cli_init "$1" 0012-demo

DEMO_SP=build/ndbg/slowpath
[ -x "$DEMO_SP" ] || DEMO_SP=$SP
SLOWPATH=$DEMO_SP DEMO_SCALE=1/32 DEMO_DURATION=3s DEMO_OUT=$TMP/demo scripts/demo.sh >"$TMP/demo.out" 2>&1
rc=$?
check "demo exits 0 and writes both runs and the report" "[ $rc = 0 ] &&
	[ -s '$TMP/demo/baseline/result.json' ] && [ -s '$TMP/demo/noretry-nonblocking/result.json' ] &&
	[ -s '$TMP/demo/report/index.html' ]"
# The selected comparison rows come from compare.json, not from printed text.
hm=$(jq -r '.metrics[] | select(.name == "tps") | .results | map(.hmean) | @tsv' "$TMP/demo/compare.json" |
	awk -F '\t' '{ printf "%.2f +%.2f", $1, $2 }')
check "the selected rows: Hmean tps as compare.json has it" "[ -s '$TMP/demo/compare.txt' ] &&
	grep -Eq '^hmean tps +$hm ' '$TMP/demo.out'"
FULL=docs/calibration/runs
b=$(jq -r '.tps' "$FULL/full-wbt2ms-none-1200/result.json")
n=$(jq -r '.tps' "$FULL/full-queues-fix-1200/result.json")
check "the full-scale table shows the stored runs" "sed -n '/the same case at full scale/,\$p' '$TMP/demo.out' >'$TMP/full' &&
	grep -Eq \"^baseline +$(printf '%.0f' "$b") \" '$TMP/full' &&
	grep -Eq \"^noretry-nonblocking +$(printf '%.0f' "$n") \" '$TMP/full'"
h=$(jq -r '.tps' "$FULL/full-queues-huge-1200/result.json")
check "and the huge-pages run" "grep -Eq \"^baseline, huge pages +$(printf '%.0f' "$h") \" '$TMP/full'"
l=$(jq -r '.tps' "$FULL/full-queues-lazyfix-1200/result.json")
check "and the fix under lazy" "grep -Eq \"^noretry-nonblocking, preempt=lazy +$(printf '%.0f' "$l") \" '$TMP/full'"
want=$(awk -v a="$b" -v b="$n" 'BEGIN { x = (b / a - 1) * 1000; printf "%.1f", (x < 0 ? -int(-x + 0.5) : int(x + 0.5)) / 10 }')
check "and the ratio line from them" "grep -qx 'noretry-nonblocking / baseline at full scale: $want % TPS' '$TMP/full'"
# ... then where those runs land on the published figures: the lines of
# scripts/landing.sh over the same folders.
scripts/landing.sh --none "$FULL/full-wbt2ms-none-1200" --fix "$FULL/full-queues-fix-1200" \
	--huge "$FULL/full-queues-huge-1200" --lazy "$FULL/full-queues-lazy-1200" \
	--lazy-fix "$FULL/full-queues-lazyfix-1200" | grep -v '^|---\|^| figure' >"$TMP/landing"
check "and the landing table on the published figures" "[ \$(wc -l <'$TMP/landing') = 16 ] &&
	! grep -vxF -f '$TMP/full' '$TMP/landing'"
cli_done
