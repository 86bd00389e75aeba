#!/bin/sh
# Golden tests of the plot data read from the monitors (mmtests layout:
# "time: <seconds>" then the /proc file's text) of a simulated folder with
# iterations and a recorded folder with epoch time stamps: TPS, latency
# quantiles, stall rates from proc-vmstat, free pages per order from
# proc-buddyinfo, migratetype shares from proc-pagetypeinfo, and the
# gnuplot scripts.  Then gnuplot itself (SVG + PNG, same bytes twice) and
# monitor errors reported at the line of the whole file.
. tests/suites/8000-report.inc
rpt_init "$1" 8003-plots

$RPT report "$FIX/base" "$FIX/recorded" --plots "$TMP/p" --no-gnuplot >"$TMP/out" 2>&1
status=$?
[ "$status" -eq 0 ] && ok "plot data written" || { cat "$TMP/out"; ko "plot data written"; }
(cd "$TMP/p" && for f in $(ls | sort); do echo "== $f"; cat "$f"; done) >"$TMP/plots.txt"
golden 8003-plot-data.txt "$TMP/plots.txt"

# The layout itself: every monitor sample starts with "time: " and the
# simulated ones step by the sample interval from 0.
bad=0
for f in "$FIX"/base/iter-*/proc-* "$FIX"/recorded/proc-*; do
	head -n 1 "$f" | grep -Eq '^time: [0-9]+(\.[0-9]+)?$' || { echo "  $f"; bad=1; }
done
for f in "$FIX"/base/iter-1/proc-vmstat "$FIX"/base/iter-1/proc-buddyinfo; do
	[ "$(grep '^time: ' "$f" | tr '\n' ' ')" = "time: 0 time: 10 time: 20 time: 30 time: 40 time: 50 time: 60 time: 70 " ] ||
		{ echo "  $f: sample times"; bad=1; }
done
[ "$bad" -eq 0 ] && ok "monitor layout" || ko "monitor layout"

# Buddyinfo: order-o free pages = count << o summed over zones; the first
# sample of the recorded fixture (real 6.18 capture) at order 10:
# (3 + 568 + 4055) << 10 = 4737024.
if grep -A13 '^== buddyinfo-heatmap-2.dat' "$TMP/plots.txt" | grep -q '^0 1 10 4737024$'; then
	ok "buddyinfo order 10 of the recorded capture"
else
	ko "buddyinfo order 10 of the recorded capture"
fi

if command -v gnuplot >/dev/null 2>&1; then
	$RPT report "$FIX/base" "$FIX/nonblocking" "$FIX/recorded" --plots "$TMP/g1" >"$TMP/out" 2>&1 &&
	$RPT report "$FIX/base" "$FIX/nonblocking" "$FIX/recorded" --plots "$TMP/g2" >>"$TMP/out" 2>&1
	if [ $? -eq 0 ] && [ -s "$TMP/g1/tps.svg" ] && [ -s "$TMP/g1/buddyinfo-heatmap.png" ] &&
	   [ -s "$TMP/g1/migratetype-mix.svg" ] && [ -s "$TMP/g1/latency-cdf.png" ]; then
		ok "gnuplot svg and png"
	else
		cat "$TMP/out" "$TMP/g1/gnuplot.log" 2>/dev/null | head -n 20
		ko "gnuplot svg and png"
	fi
	same=1
	for f in "$TMP"/g1/*.svg "$TMP"/g1/*.png; do
		cmp -s "$f" "$TMP/g2/$(basename "$f")" || { echo "  differs: $(basename "$f")"; same=0; }
	done
	[ "$same" -eq 1 ] && ok "plots deterministic" || ko "plots deterministic"
else
	echo "skip gnuplot runs: gnuplot not installed"
fi

# A broken sample: the error names the line in the whole monitor file.
mkdir -p "$TMP/bm"
cp "$FIX/single/result.json" "$FIX/single/tps.csv" "$TMP/bm/"
sed '8s/.*/Node 0, zone    DMA32  lots of free pages/' "$FIX/single/proc-buddyinfo" >"$TMP/bm/proc-buddyinfo"
expect_status "bad buddyinfo sample" 2 "bm/proc-buddyinfo:8:" \
	$RPT report "$TMP/bm" --plots "$TMP/bmp" --no-gnuplot
sed '40s/ [0-9]*$/ many/' "$FIX/single/proc-vmstat" >"$TMP/bm/proc-vmstat"
rm "$TMP/bm/proc-buddyinfo"
expect_status "bad vmstat sample" 2 "bm/proc-vmstat:40:" \
	$RPT report "$TMP/bm" --plots "$TMP/bmp" --no-gnuplot
rpt_done
