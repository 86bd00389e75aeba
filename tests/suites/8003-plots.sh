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

# Per-CPU lists: the recorded capture's Normal zone lists two CPUs whose
# pagesets "high:" sum to 20162 and "count:" to 18437 (the fixture's
# zoneinfo, every sample): means 10081 and 9218.5 per CPU.
exp=$(awk '/zone +Normal/ { n = 1; next } /^Node/ { n = 0 }
	n && $1 == "high:" { h += $2 } n && $1 == "count:" { c += $2 } n && $1 == "cpu:" { k++ }
	/^time: / && k { exit } END { print h / k, c / k }' "$FIX/recorded/proc-zoneinfo")
got=$(awk 'FNR == 2 { printf "%s%s", (NR > 2 ? " " : ""), $2 }' "$TMP/p/pcp-high-2.dat" "$TMP/p/pcp-count-2.dat")
if [ "$got" = "10081 9218.5" ] && [ "$exp" = "$got" ]; then
	ok "per-CPU lists of the recorded capture"
else
	echo "  got '$got', fixture '$exp'"
	ko "per-CPU lists of the recorded capture"
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

# --plot: a vmstat counter over time (an event counter as a rate, an nr_*
# level as its value) and a figure as a bar per set; an unknown name is
# refused before anything is written.
$RPT report "$FIX/base" "$FIX/recorded" --plots "$TMP/x" --no-gnuplot \
	--plot pgsteal_kswapd,nr_free_pages --plot pagetables_share >"$TMP/out" 2>&1
# the recorded set's first rate: (second - first sample) / their time apart
want=$(awk '/^time: / { n++; t[n] = $2 } $1 == "pgsteal_kswapd" { v[n] = $2 }
	END { printf "%.6g", (v[2] - v[1]) / (t[2] - t[1]) }' "$FIX/recorded/proc-vmstat")
if [ -s "$TMP/x/vmstat-pgsteal_kswapd-1.dat" ] && [ -s "$TMP/x/vmstat-nr_free_pages.gp" ] &&
   grep -q "^plot 'vmstat-pgsteal_kswapd-1.dat'" "$TMP/x/vmstat-pgsteal_kswapd.gp" &&
   grep -q "load 'vmstat-nr_free_pages.gp'" "$TMP/x/plots.gp" &&
   grep -q "load 'figure-pagetables_share.gp'" "$TMP/x/plots.gp" &&
   grep -q '^1 "base" 39.5533$' "$TMP/x/figure-pagetables_share.dat" &&
   grep -q '^2 "recorded" NaN$' "$TMP/x/figure-pagetables_share.dat" &&
   [ "$(sed -n 2p "$TMP/x/vmstat-pgsteal_kswapd-2.dat" | cut -d' ' -f2)" = "$want" ] &&
   [ ! -e "$TMP/p/vmstat-pgsteal_kswapd.gp" ]; then
	ok "--plot adds a counter's and a figure's plot"
else
	cat "$TMP/out"; ls "$TMP/x" | head -n 40
	ko "--plot adds a counter's and a figure's plot"
fi
# the level is the sampled value, not a rate
if [ "$(sed -n 2p "$TMP/x/vmstat-nr_free_pages-2.dat" | cut -d' ' -f2)" = \
     "$(awk '/^time: / { n++ } n == 2 && $1 == "nr_free_pages" { print $2; exit }' "$FIX/recorded/proc-vmstat")" ]; then
	ok "--plot nr_free_pages: the level at each sample"
else
	ko "--plot nr_free_pages: the level at each sample"
fi
expect_status "--plot unknown" 2 "--plot 'nosuch': no vmstat counter or figure of that name" \
	$RPT report "$FIX/base" --plots "$TMP/y" --no-gnuplot --plot pgfault,nosuch
[ ! -e "$TMP/y" ] && ok "--plot unknown: nothing written" || ko "--plot unknown: nothing written"
expect_status "--plot empty name" 2 "bad --plot 'pgfault,'" \
	$RPT report "$FIX/base" --plots "$TMP/y" --plot pgfault,
expect_status "--plot without a value" 2 "option '--plot' needs a value" \
	$RPT report "$FIX/base" --plots "$TMP/y" --plot

# The latency CDF of a simulated run is its whole latency-hist.csv: one
# point per bucket (and the step up from 0), at the bucket's upper bound,
# ending at 1; a set of 2 iterations pools both histograms.
SP=$BUILD/slowpath
if "$SP" run scenarios/synthetic-small.ini --set duration=3s --set ramp_time=1s --out "$TMP/h1" \
	>/dev/null 2>&1 &&
   "$SP" run scenarios/synthetic-small.ini --set duration=3s --set ramp_time=1s --iterations 2 \
	--out "$TMP/h2" >/dev/null 2>&1 &&
   $RPT report "$TMP/h1" "$TMP/h2" "$FIX/single" --plots "$TMP/hp" --no-gnuplot >"$TMP/out" 2>&1; then
	buckets=$(($(wc -l <"$TMP/h1/latency-hist.csv") - 1))
	last_hi=$(tail -n 1 "$TMP/h1/latency-hist.csv" | cut -d, -f2)
	if [ "$(($(wc -l <"$TMP/hp/latency-cdf-1.dat") - 2))" = "$buckets" ] &&
	   tail -n 1 "$TMP/hp/latency-cdf-1.dat" | grep -qx "$(awk -v h="$last_hi" 'BEGIN { printf "%.6g", h / 1e6 }') 1.000000" &&
	   sed -n 2p "$TMP/hp/latency-cdf-1.dat" | grep -q ' 0.000000$' &&
	   tail -n 1 "$TMP/hp/latency-cdf-2.dat" | grep -q ' 1.000000$' &&
	   grep -q "latency-cdf-1.dat' using 1:2 with steps" "$TMP/hp/latency-cdf.gp" &&
	   grep -q "latency-cdf-3.dat' using 1:2 with linespoints" "$TMP/hp/latency-cdf.gp" &&
	   [ "$(wc -l <"$TMP/hp/latency-cdf-3.dat")" = 5 ]; then
		ok "latency CDF from latency-hist.csv (quantiles where a folder has none)"
	else
		head -n 5 "$TMP/hp/latency-cdf-1.dat"; cat "$TMP/out"
		ko "latency CDF from latency-hist.csv (quantiles where a folder has none)"
	fi
	# pooled: the second set's CDF at a bucket = both iterations' counts up to it
	pooled=$(cat "$TMP/h2"/iter-*/latency-hist.csv | awk -F, '$1 != "lo_ns" { c[$1] += $3; n += $3 }
		END { for (k in c) if (k + 0 < m || m == "") m = k + 0; printf "%.6f", c[m] / n }')
	first=$(sed -n 3p "$TMP/hp/latency-cdf-2.dat" | cut -d' ' -f2)
	[ "$pooled" = "$first" ] && ok "latency CDF pools the iterations ($first)" ||
		ko "latency CDF pools the iterations ($first, want $pooled)"
else
	cat "$TMP/out"
	ko "latency CDF from latency-hist.csv"
fi
mkdir -p "$TMP/bh"
cp "$FIX/single/result.json" "$TMP/bh/"
printf 'lo_ns,hi_ns,count\n100,199,3\n150,299,1\n' >"$TMP/bh/latency-hist.csv"
expect_status "latency-hist.csv out of order" 2 "bh/latency-hist.csv:3: bucket 150..299 out of order" \
	$RPT report "$TMP/bh" --plots "$TMP/bhp" --no-gnuplot

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

# waits.csv (a pgbench run's wait events per interval): a stacked panel
# per set, the columns summed left to right; a folder without the file
# has no panel; a malformed file is refused at its line.
mkdir -p "$TMP/bw"
cp "$FIX/single/result.json" "$FIX/single/tps.csv" "$TMP/bw/"
printf 'interval_end_s,cpu,client_clientread,lwlock_walwrite\n10.000,20.0000,70.0000,10.0000\n20.000,25.5000,14.5000,60.0000\n' \
	>"$TMP/bw/waits.csv"
$RPT report "$FIX/single" "$TMP/bw" --plots "$TMP/bwp" --no-gnuplot >"$TMP/out" 2>&1
if [ "$(cat "$TMP/bwp/wait-events-2.dat" 2>/dev/null)" = "# time then cumulative % of the backends' time: cpu client_clientread lwlock_walwrite
10 20 90 100
20 25.5 40 100" ] && [ ! -e "$TMP/bwp/wait-events-1.dat" ] &&
   grep -q "^set multiplot layout 1,1 title 'Where the backends'' time went, by wait event (waits.csv)'" \
	"$TMP/bwp/wait-events.gp" &&
   grep -q "wait-events-2.dat' using 1:2:3 with filledcurves lc 2 title 'client_clientread'" "$TMP/bwp/wait-events.gp" &&
   grep -q "load 'wait-events.gp'" "$TMP/bwp/plots.gp"; then
	ok "waits.csv: a stacked panel of the wait events"
else
	cat "$TMP/out" "$TMP/bwp/wait-events-2.dat" 2>/dev/null
	ko "waits.csv: a stacked panel of the wait events"
fi
printf 'end,cpu\n10,100\n' >"$TMP/bw/waits.csv"
expect_status "waits.csv header" 2 "bw/waits.csv:1: header does not start 'interval_end_s,'" \
	$RPT report "$TMP/bw" --plots "$TMP/bwq" --no-gnuplot
printf 'interval_end_s,cpu,Bad\n10,100,0\n' >"$TMP/bw/waits.csv"
expect_status "waits.csv event name" 2 "bw/waits.csv:1: invalid wait event name 'Bad'" \
	$RPT report "$TMP/bw" --plots "$TMP/bwq" --no-gnuplot
printf 'interval_end_s,cpu\n10,100\n10,100\n' >"$TMP/bw/waits.csv"
expect_status "waits.csv time" 2 "bw/waits.csv:3: interval_end_s 10 does not increase" \
	$RPT report "$TMP/bw" --plots "$TMP/bwq" --no-gnuplot
printf 'interval_end_s,cpu\n10,-1\n' >"$TMP/bw/waits.csv"
expect_status "waits.csv negative share" 2 "bw/waits.csv:2: field 2: expected a number >= 0 in '10,-1'" \
	$RPT report "$TMP/bw" --plots "$TMP/bwq" --no-gnuplot

# wal.csv (pg_stat_wal per interval): WAL MB/s and images per second, one
# line per set; an interval's length is the time since the row before,
# the first row's the second's; a folder without the file has no line; a
# file without wal_bytes is refused.
rm "$TMP/bw/waits.csv"
printf 'interval_end_s,wal_records,wal_fpi,wal_bytes\n1.5,10,400,3000000\n2.5,10,200,1000000\n4.5,10,100,500000\n' \
	>"$TMP/bw/wal.csv"
$RPT report "$FIX/single" "$TMP/bw" --plots "$TMP/bwl" --no-gnuplot >"$TMP/out" 2>&1
if [ "$(cat "$TMP/bwl/wal-mb-2.dat" 2>/dev/null)" = "# wal-mb: bw
1.5 3
2.5 1
4.5 0.25" ] && [ "$(sed -n 2,4p "$TMP/bwl/wal-fpi-2.dat" 2>/dev/null | tr '\n' ' ')" = "1.5 400 2.5 200 4.5 50 " ] &&
   [ ! -e "$TMP/bwl/wal-mb-1.dat" ] &&
   grep -q "^set title 'WAL written over time (wal.csv: wal_bytes)'" "$TMP/bwl/wal-mb.gp" &&
   grep -q "load 'wal-fpi.gp'" "$TMP/bwl/plots.gp"; then
	ok "wal.csv: WAL and images per second"
else
	cat "$TMP/out" "$TMP/bwl/wal-mb-2.dat" "$TMP/bwl/wal-fpi-2.dat" 2>/dev/null
	ko "wal.csv: WAL and images per second"
fi
printf 'interval_end_s,wal_records,wal_fpi\n1,10,400\n' >"$TMP/bw/wal.csv"
expect_status "wal.csv without wal_bytes" 2 "bw/wal.csv:1: no column 'wal_bytes'" \
	$RPT report "$TMP/bw" --plots "$TMP/bwq" --no-gnuplot
printf 'interval_end_s,wal_fpi,wal_bytes\n1,10,-4\n' >"$TMP/bw/wal.csv"
expect_status "wal.csv negative count" 2 "bw/wal.csv:2: field 3: expected a number >= 0 in '1,10,-4'" \
	$RPT report "$TMP/bw" --plots "$TMP/bwq" --no-gnuplot
rpt_done
