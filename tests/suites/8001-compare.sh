#!/bin/sh
# Golden tests of `slowpath compare` on the hand-made fixture folders
# (tests/fixtures/results, see gen.py there): mmtests text, LKP text and
# JSON; a comparison that is significant (baseline vs noretry-nonblocking,
# ~70 k vs ~155 k TPS over 3 iterations each) and one that is not (the
# baseline against itself with other seeds); a mix with a recorded folder
# that has one sample and no TPS; bad input.  The goldens are the full
# tables (--all); by default rows equal to the baseline's and the spread
# rows of single samples are left out, and every format agrees with the
# text on the numbers.
. tests/suites/8000-report.inc
rpt_init "$1" 8001-compare

# -- golden outputs
$RPT compare --all "$FIX/base" "$FIX/nonblocking" >"$TMP/sig.txt" 2>&1
golden 8001-compare-significant.txt "$TMP/sig.txt"
$RPT compare --all "$FIX/base" "$FIX/base-reseed" >"$TMP/nosig.txt" 2>&1
golden 8001-compare-not-significant.txt "$TMP/nosig.txt"
$RPT compare --all "$FIX/base" "$FIX/nonblocking" "$FIX/single" "$FIX/recorded" >"$TMP/mixed.txt" 2>&1
golden 8001-compare-mixed.txt "$TMP/mixed.txt"
$RPT compare --all --format lkp "$FIX/base" "$FIX/nonblocking" >"$TMP/lkp.txt" 2>&1
golden 8001-compare-lkp.txt "$TMP/lkp.txt"
$RPT compare --all --json "$FIX/base" "$FIX/nonblocking" "$FIX/recorded" >"$TMP/cmp.json" 2>&1
golden 8001-compare.json "$TMP/cmp.json"

# -- the properties the goldens are meant to show, checked directly
if grep -Eq '^Amean +tps .*\* *121\.[0-9]+%\*$' "$TMP/sig.txt" &&
   grep -Eq '^Hmean +tps .*\*' "$TMP/sig.txt"; then
	ok "significant: Amean and Hmean tps marked"
else
	ko "significant: Amean and Hmean tps marked"
fi
if grep -Eq '^(Amean|Hmean) +tps ' "$TMP/nosig.txt" &&
   ! grep -E '^(Min|Max|Amean|Hmean|Stddev|CoeffVar|BAmean)' "$TMP/nosig.txt" | grep -q '\*'; then
	ok "not significant: no marker anywhere"
else
	ko "not significant: no marker anywhere"
fi
# The single-sample columns (a plain folder; a recorded one without TPS)
# never carry a marker, and a plain folder's Stddev is 0.
if [ "$(grep -Ec '^(Amean|Hmean) ' "$TMP/mixed.txt")" -gt 0 ] &&
   ! grep -E '^(Amean|Hmean) ' "$TMP/mixed.txt" |
	grep -Evq '[0-9.]+ \( *-?[0-9.]+%\) +NaN \( +NaN%\)$' &&
   grep -Eq '^Stddev +tps .* 0\.00 \( *[-0-9.]+%\) +NaN' "$TMP/mixed.txt"; then
	ok "mixed: single-sample columns unmarked, plain folder stddev 0"
else
	ko "mixed: single-sample columns unmarked, plain folder stddev 0"
fi
if grep -q '"significant": true' "$TMP/cmp.json" && grep -q '"welch_amean": null' "$TMP/cmp.json"; then
	ok "json: significance and null for n=1"
else
	ko "json: significance and null for n=1"
fi
$RPT compare --all "$FIX/base" "$FIX/nonblocking" "$FIX/single" "$FIX/recorded" >"$TMP/again.txt" 2>&1
if cmp -s "$TMP/mixed.txt" "$TMP/again.txt"; then ok "deterministic"; else ko "deterministic"; fi
$RPT compare --names A,B "$FIX/base" "$FIX/nonblocking" >"$TMP/names.txt" 2>&1
if sed -n 2p "$TMP/names.txt" | grep -Eq ' A +B$'; then ok "--names"; else ko "--names"; fi

# -- default rows: what differs or is significant
$RPT compare "$FIX/base" "$FIX/base" >"$TMP/self.txt" 2>&1
if ! grep -Eq '^(Min|Max|Amean|Hmean|Stddev|CoeffVar|BAmean-95|Ops|Per-M-written) ' "$TMP/self.txt" &&
   grep -q -- '--all prints every row' "$TMP/self.txt" &&
   [ "$($RPT compare --all "$FIX/base" "$FIX/base" | grep -c '^Amean ')" -gt 0 ]; then
	ok "a set against itself: no row differs, --all prints them"
else
	ko "a set against itself: no row differs, --all prints them"
fi
$RPT compare "$FIX/base" "$FIX/base-reseed" >"$TMP/nosig-default.txt" 2>&1
golden 8001-compare-default.txt "$TMP/nosig-default.txt"
# Every row of the default output is a row of the full table, and the
# full table's rows that are missing print the baseline's value.
grep -E '^(Min|Max|Amean|Hmean|Stddev|CoeffVar|BAmean-95) ' "$TMP/nosig-default.txt" >"$TMP/d_rows"
grep -E '^(Min|Max|Amean|Hmean|Stddev|CoeffVar|BAmean-95) ' "$TMP/nosig.txt" >"$TMP/a_rows"
grep -vxF -f "$TMP/d_rows" "$TMP/a_rows" >"$TMP/hidden_rows"
if grep -qxF -f "$TMP/a_rows" "$TMP/d_rows" && [ "$(grep -vxFc -f "$TMP/a_rows" "$TMP/d_rows")" = 0 ] &&
   awk '{ v = $(NF - 2); b = $3; if (v != b) bad++ } END { exit bad }' "$TMP/hidden_rows" &&
   grep -q '^Ops Minor Faults ' "$TMP/nosig-default.txt" &&
   ! grep -q '^Ops Kswapd efficiency %' "$TMP/nosig-default.txt"; then
	ok "default: the full table's rows minus those equal to the baseline"
else
	ko "default: the full table's rows minus those equal to the baseline"
fi
# One sample a side: Min, Max, Stddev, CoeffVar and BAmean-95 repeat
# Amean or are 0, so only Amean (and Hmean) rows are printed.
$RPT compare "$FIX/base/iter-1" "$FIX/single" >"$TMP/one.txt" 2>&1
$RPT compare --all "$FIX/base/iter-1" "$FIX/single" >"$TMP/one-all.txt" 2>&1
if grep -Eq '^Amean +tps ' "$TMP/one.txt" && grep -Eq '^Hmean +tps ' "$TMP/one.txt" &&
   ! grep -Eq '^(Min|Max|Stddev|CoeffVar|BAmean-95) ' "$TMP/one.txt" &&
   grep -Eq '^(Min|Max|Stddev) +tps ' "$TMP/one-all.txt"; then
	ok "single samples: no Min/Max/Stddev rows (--all has them)"
else
	ko "single samples: no Min/Max/Stddev rows (--all has them)"
fi
# LKP lists what changed: nothing for a set against itself.
if [ "$($RPT compare --format lkp "$FIX/base" "$FIX/base" | sed 1,4d | wc -l)" = 0 ] &&
   [ "$($RPT compare --all --format lkp "$FIX/base" "$FIX/base" | sed 1,4d | wc -l)" -gt 0 ]; then
	ok "lkp: unchanged metrics only with --all"
else
	ko "lkp: unchanged metrics only with --all"
fi

# -- one model, every format: the same numbers
$RPT compare --json "$FIX/base" "$FIX/nonblocking" >"$TMP/m.json"
$RPT compare --format lkp "$FIX/base" "$FIX/nonblocking" >"$TMP/m.lkp"
# Amean tps: base mean, new mean, difference in % (text: fields 3, 6, 8)
txt=$(awk '/^Amean +tps / { d = $8; gsub(/[*%()]/, "", d); printf "%.2f %.2f %.2f\n", $3, $6, d }' "$TMP/sig.txt")
js=$(jq -r '.metrics[] | select(.name == "tps") | .results |
	"\(.[0].amean) \(.[1].amean) \(.[1].diff_pct.amean)"' "$TMP/m.json" |
	awk '{ printf "%.2f %.2f %.2f\n", $1, $2, $3 }')
# LKP: base mean, %change, new mean (the first number after the change)
lkp=$(awk '$NF == "slowpath.tps" { for (i = 2; i < NF; i++) if ($i ~ /^[+-][0-9.]+%$/) { print $1, $i, $(i + 1); exit } }' "$TMP/m.lkp")
want_lkp=$(echo "$txt" | awk '{ printf "%.0f %+.1f%% %.0f", $1, $3, $2 }')
if [ -n "$js" ] && [ "$js" = "$txt" ] && [ "$lkp" = "$want_lkp" ]; then
	ok "json and lkp agree with the text on Amean tps ($txt)"
else
	echo "  text: $txt; json: $js; lkp: $lkp (want $want_lkp)"
	ko "json and lkp agree with the text on Amean tps ($txt)"
fi

# -- --orders: the page cache's folio orders, on two stored full-scale runs;
# the numbers are worked out again from result.json with jq
RUNS=docs/calibration/runs
$RPT compare --orders "$RUNS/full-baseline" "$RUNS/full-huge" >"$TMP/orders.txt" 2>&1
vm() { jq ".vmstat.sim_$2" "$RUNS/$1/result.json"; }
a=$(vm full-baseline pagecache_attempt_order9)
g=$(vm full-baseline pagecache_alloc_order9)
sp=$(vm full-baseline slowpath_order9)
spf=$(vm full-baseline slowpath_fail_order9)
want=$(awk -v a="$a" -v g="$g" -v s="$sp" -v f="$spf" \
	'BEGIN { printf "%d %.2f%% %d %d %.2f%%", a, 100 * (a - g) / a, s, f, 100 * s / a }')
got=$(awk '$1 == "9*" && $2 == "full-baseline" { print $3, $4, $5, $6, $7 }' "$TMP/orders.txt")
if [ -n "$a" ] && [ "$got" = "$want" ]; then
	ok "--orders: order 9 of full-baseline ($got)"
else
	echo "  got '$got', want '$want'"; cat "$TMP/orders.txt"
	ko "--orders: order 9 of full-baseline"
fi
# every order row names both runs, costly ones starred, orders ascending
rows=$(awk '$1 ~ /^[0-9]+\*?$/ { printf "%s ", $1 }' "$TMP/orders.txt")
if [ "$rows" = "0 1 2 3 4* 5* 6* 7* 8* 9* " ] &&
   [ "$(grep -c ' full-huge ' "$TMP/orders.txt")" = 10 ]; then
	ok "--orders: one row per order and run"
else
	echo "  rows: $rows"
	ko "--orders: one row per order and run"
fi
$RPT compare --orders --json "$RUNS/full-baseline" "$RUNS/full-huge" >"$TMP/orders.json" 2>&1
js=$(jq -r '.schema + " " + (.orders[] | select(.order == 9) | .results[0] |
	"\(.attempts) \(.slowpath)")' "$TMP/orders.json" 2>/dev/null)
if [ "$js" = "slowpath-orders/1 $a $sp" ]; then
	ok "--orders --json agrees with the text"
else
	echo "  json: $js"
	ko "--orders --json agrees with the text"
fi
expect_status "--orders with --shape" 2 "separate views" $RPT compare --orders --shape "$FIX/base"
expect_status "--orders with --format lkp" 2 "--orders prints text or --json, not --format lkp" \
	$RPT compare --orders --format lkp "$FIX/base"

# -- what sets the results apart: the keys of their scenario.ini that
# differ from the baseline's (real runs of the regression's small case: a
# policy preset, a sysctl over two iterations, the baseline again)
CN="scenarios/costly-noretry.ini --scale 1/64 --set duration=1s --set sample_interval=250ms --set ramp_time=250ms"
"$BUILD/slowpath" run $CN --out "$TMP/sd/base" >/dev/null
"$BUILD/slowpath" run $CN --policy noretry-nonblocking --out "$TMP/sd/fix" >/dev/null
"$BUILD/slowpath" run $CN --iterations 2 --set vm.watermark_scale_factor=100 --out "$TMP/sd/wsf" >/dev/null
$RPT compare "$TMP/sd/base" "$TMP/sd/fix" "$TMP/sd/wsf" >"$TMP/sd.txt" 2>&1
sed -n '/^Scenario keys/,$p' "$TMP/sd.txt" >"$TMP/sd.block"
cat >"$TMP/sd.want" <<'EOF2'
Scenario keys that differ from the baseline (base):
  fix [policy] preset=noretry-nonblocking (base: baseline)
  fix [policy] costly_noretry_noreclaim=1 (base: 0)
  fix [policy] thisnode_exempt=1 (base: 0)
  wsf [sysctl] vm.watermark_scale_factor=100 (base: 10)
EOF2
if cmp -s "$TMP/sd.want" "$TMP/sd.block"; then
	ok "scenario differences: each key that differs, once (not the iterations' seeds)"
else
	diff "$TMP/sd.want" "$TMP/sd.block" | sed 's/^/  /'
	ko "scenario differences: each key that differs, once (not the iterations' seeds)"
fi
$RPT compare "$TMP/sd/base" "$TMP/sd/base" "$FIX/base" >"$TMP/sd-same.txt" 2>&1
if ! grep -q '^Scenario keys' "$TMP/sd-same.txt"; then
	ok "scenario differences: none for the same scenario, none for a folder without scenario.ini"
else
	ko "scenario differences: none for the same scenario, none for a folder without scenario.ini"
fi
$RPT compare --json "$TMP/sd/base" "$TMP/sd/wsf" "$FIX/base" >"$TMP/sd.json" 2>&1
if [ "$(jq -c '[.results[] | .scenario_differences]' "$TMP/sd.json")" = \
     '[[],[{"key":"[sysctl] vm.watermark_scale_factor","value":"100","baseline_value":"10"}],null]' ]; then
	ok "scenario differences in --json"
else
	ko "scenario differences in --json"
fi

# -- --window A-B: rows over a span of each folder, worked out again here
# from tps.csv and the monitors.  A recording (its monitors' times are
# epoch seconds, its tps.csv counts from 1) and a model run.
REC=tests/fixtures/results/recorded-pgbench-local
# the window's tps, latency avg (weighted by transactions) and max from the
# 1-s intervals ending in (A, B]; a counter's growth between the first and
# last samples whose time since the first lies in [A, B]
win_tps() {
	awk -F, -v a="$2" -v b="$3" 'NR > 1 { s = NR == 2 ? 0 : prev; prev = $1
		if (s >= a && $1 <= b) { d = $1 - s; len += d; tx += $2 * d; lat += $2 * d * $3
			if ($4 > max) max = $4 } }
		END { printf "%.3f %.3f %.3f\n", tx / len, lat / tx, max }' "$1/tps.csv"
}
win_counter() {	# FOLDER MONITOR NAME A B -> growth and the samples' distance
	awk -v n="$3" -v a="$4" -v b="$5" '$1 == "time:" { t = $2; if (t0 == "") t0 = t; next }
		$1 == n { r = t - t0; if (r >= a && r <= b) { if (f == "") { f = $2; ft = t } l = $2; lt = t } }
		END { printf "%d %g\n", l - f, lt - ft }' "$1/$2"
}
$RPT compare --json --window 2-8 "$REC" >"$TMP/win-rec.json" 2>&1
got=$(jq -r '[.metrics[] | select(.name == "tps" or .name == "latency_avg_ms" or .name == "latency_max_ms") |
	.results[0].amean] | map(. * 1000 | round / 1000) | "\(.[0]) \(.[1]) \(.[2])"' "$TMP/win-rec.json" |
	awk '{ printf "%.3f %.3f %.3f\n", $1, $2, $3 }')
want=$(win_tps "$REC" 2 8)
pg=$(jq -r '.vmstat[] | select(.name == "pgalloc_normal") | .results[0].amean' "$TMP/win-rec.json")
pg_want=$(win_counter "$REC" proc-vmstat pgalloc_normal 2 8 | cut -d' ' -f1)
if [ -n "$want" ] && [ "$got" = "$want" ] && [ "$pg" = "$pg_want" ] &&
   [ "$(jq '.window' -c "$TMP/win-rec.json")" = '{"from":2,"to":8}' ] &&
   [ "$(jq '[.metrics[] | select(.name | test("p50|p95|p99"))] | length' "$TMP/win-rec.json")" = 0 ]; then
	ok "--window on a recording: tps, latency avg/max and pgalloc_normal over 2-8 s ($got; $pg)"
else
	echo "  got '$got' '$pg', want '$want' '$pg_want'"
	ko "--window on a recording: tps, latency avg/max and pgalloc_normal over 2-8 s"
fi
"$BUILD/slowpath" run scenarios/pgbench-small.ini --set duration=3s --set sample_interval=1s \
	--set tps_interval=500ms --out "$TMP/win-run" >/dev/null
$RPT compare --json --window 1-3 "$TMP/win-run" >"$TMP/win-run.json" 2>&1
set -- $(win_counter "$TMP/win-run" trace-counts kmem:mm_page_alloc 1 3)
tp_want=$(awk -v n="$1" -v d="$2" 'BEGIN { printf "%.6f", n / d }')
tp=$(jq -r '.tracepoints[] | select(.name == "kmem:mm_page_alloc/s") | .values[0]' "$TMP/win-run.json" |
	awk '{ printf "%.6f", $1 }')
got=$(jq -r '[.metrics[] | select(.name == "tps") | .results[0].amean][0]' "$TMP/win-run.json" |
	awk '{ printf "%.3f", $1 }')
want=$(win_tps "$TMP/win-run" 1 3 | cut -d' ' -f1)
if [ "$tp" = "$tp_want" ] && [ "$got" = "$want" ] && [ "$(jq '.ops | length' "$TMP/win-run.json")" -gt 0 ] &&
   [ "$(jq '[.metrics[] | select(.lkp | startswith("figures."))] | length' "$TMP/win-run.json")" = 0 ]; then
	ok "--window on a run: tps and kmem:mm_page_alloc/s over 1-3 s ($got, $tp), no figures"
else
	echo "  got '$got' '$tp', want '$want' '$tp_want'"
	ko "--window on a run: tps and kmem:mm_page_alloc/s over 1-3 s"
fi
# the Cpu rows over 1-3 s from proc-stat's "cpu" line: each column's share,
# the CPUs busy, context switches a second and busy CPU per transaction
set -- $(awk '$1 == "time:" { t = $2; if (t0 == "") t0 = t; next }
	$1 == "cpu" { r = t - t0; if (r >= 1 && r <= 3) { if (f == "") { f = $0; ft = t } l = $0; lt = t } }
	$1 == "ctxt" { r = t - t0; if (r >= 1 && r <= 3) { if (fc == "") fc = $2; lc = $2 } }
	$1 ~ /^cpu[0-9]/ && t == t0 { n++ }
	END { split(f, a); split(l, b); tot = 0
		for (i = 2; i <= 9; i++) { d[i] = b[i] - a[i]; tot += d[i] }
		busy = tot - d[5] - d[6]
		printf "%.6f %.6f %.6f %.6f %.6f %.6f %g\n", 100 * d[2] / tot, 100 * d[4] / tot,
			100 * d[6] / tot, n * busy / tot, (lc - fc) / (lt - ft), busy / 100 / (lt - ft), tot }' \
	"$TMP/win-run/proc-stat")
cpu_want="$1 $2 $3 $4 $5"
cpu_got=$(jq -r '[.cpu[] | select(.name == "user%" or .name == "system%" or .name == "iowait%" or
	.name == "cpus_busy" or .name == "ctxt/s") | .values[0]] | map(tostring) | join(" ")' "$TMP/win-run.json" |
	awk '{ printf "%.6f %.6f %.6f %.6f %.6f\n", $1, $2, $3, $4, $5 }')
tps=$(jq -r '[.metrics[] | select(.name == "tps") | .results[0].amean][0]' "$TMP/win-run.json")
per_want=$(awk -v b="$6" -v t="$tps" 'BEGIN { printf "%.3f", b / t * 1e6 }')
per_got=$(jq -r '.cpu[] | select(.name == "busy_us_per_tx") | .values[0]' "$TMP/win-run.json" |
	awk '{ printf "%.3f", $1 }')
if [ "$7" -gt 0 ] && [ "$cpu_got" = "$cpu_want" ] && [ "$per_got" = "$per_want" ]; then
	ok "--window on a run: Cpu rows from proc-stat over 1-3 s ($cpu_got; $per_got us/tx)"
else
	echo "  got '$cpu_got' '$per_got', want '$cpu_want' '$per_want'"
	ko "--window on a run: Cpu rows from proc-stat over 1-3 s"
fi
# the whole run as a window gives the default's vmstat and tracepoint rows
# (the run has no ramp: its measured phase is the whole run)
$RPT compare --json "$TMP/win-run" | jq -c '[.vmstat, .tracepoints, .iostat, .cpu]' >"$TMP/win-def"
$RPT compare --json --window 0-end "$TMP/win-run" | jq -c '[.vmstat, .tracepoints, .iostat, .cpu]' >"$TMP/win-all"
if [ -s "$TMP/win-def" ] && cmp -s "$TMP/win-def" "$TMP/win-all"; then
	ok "--window 0-end: the measured phase's vmstat, tracepoint, iostat and Cpu rows"
else
	ko "--window 0-end: the measured phase's vmstat, tracepoint, iostat and Cpu rows"
fi
$RPT compare --window 2-8 "$REC" >"$TMP/win.txt" 2>&1
if grep -q "^Window: 2-8 s after each folder's start" "$TMP/win.txt"; then
	ok "--window: the text says the span"
else
	ko "--window: the text says the span"
fi
expect_status "--window without two samples" 2 \
	"recorded-pgbench-local/tps.csv: no whole interval in the window 3.2-3.9 s" \
	$RPT compare --window 3.2-3.9 "$REC"
expect_status "--window between two monitor samples" 2 \
	"win-run/proc-vmstat: fewer than two samples in the window 1-1.9 s" \
	$RPT compare --window 1-1.9 "$TMP/win-run"
expect_status "--window not a span" 2 "slowpath compare: --window: '8-2' is not a window" \
	$RPT compare --window 8-2 "$REC"
expect_status "--window with --shape" 2 "--shape takes --shape-windows" \
	$RPT compare --window 1-2 --shape "$REC"

# -- bad input: file:line messages, exit status 2
mkdir -p "$TMP/bad1" "$TMP/incomplete/iter-1" "$TMP/badschema" "$TMP/badcsv" "$TMP/missingiter"
printf '{\n "schema": "slowpath-result/1",\n "source": "simulated",\n "tps": 12,\n' >"$TMP/bad1/result.json"
expect_status "truncated json" 2 "bad1/result.json:5:" $RPT compare "$TMP/bad1"
cp "$FIX/base/iter-1/result.json" "$TMP/incomplete/iter-1/"
expect_status "iterations without result.json" 2 "incomplete run" $RPT compare "$TMP/incomplete"
printf '{"schema": "other/1", "source": "simulated"}\n' >"$TMP/badschema/result.json"
expect_status "wrong schema" 2 "schema 'other/1'" $RPT compare "$TMP/badschema"
sed 's/"tps": 70120.5/"tps": "fast"/' "$FIX/base/iter-1/result.json" >"$TMP/badschema/result.json"
expect_status "tps not a number" 2 "'tps' is not a number" $RPT compare "$TMP/badschema"
printf '{"schema": "slowpath-result/1", "source": "simulated", "iterations": 2}\n' >"$TMP/missingiter/result.json"
mkdir -p "$TMP/missingiter/iter-1"
cp "$FIX/base/iter-1/result.json" "$TMP/missingiter/iter-1/"
expect_status "missing iter-2" 2 "missingiter/iter-2: no result.json" $RPT compare "$TMP/missingiter"
cp -r "$TMP/sd/fix" "$TMP/badscn"
printf '[policy]\npreset=baseline\nnot a key\n' >"$TMP/badscn/scenario.ini"
expect_status "a scenario.ini line of no kind" 2 \
	"badscn/scenario.ini:3: expected .section., key=value or a .;. comment (not a scenario.ini slowpath run wrote)" \
	$RPT compare "$TMP/sd/base" "$TMP/badscn"
expect_status "unknown option" 2 "unknown option '--bogus'" $RPT compare --bogus "$FIX/base"
expect_status "bad --format" 2 "slowpath compare: bad --format 'csv': expected text or lkp" \
	$RPT compare --format csv "$FIX/base"
expect_status "--names without a value" 2 \
	"slowpath compare: option '--names' needs a value (see slowpath compare --help)" \
	$RPT compare "$FIX/base" --names
expect_status "names count" 2 "1 names for 2 results" $RPT compare --names A "$FIX/base" "$FIX/base"
rpt_done
