#!/bin/sh
# scripts/calibration.sh (docs/calibration.md's tables) on hand-made result
# folders: the fixture `single` (135 210.5 TPS, which %.0f rounds half to
# even; page tables 39.32 % of RAM; 3.25 s of host time) as the full-scale
# baseline and as a 1/4 run, nothing else.  Rows with a folder show the
# model value and (model - published) / published, rows without one show
# "-"; the scale table multiplies by N; bad usage exits 2.  Then the
# tables of docs/calibration.md against its committed runs (profiles too).
. tests/suites/8000-report.inc
rpt_init "$1" 8006-calibration-script

mkdir -p "$TMP/cal"
cp -r "$FIX/single" "$TMP/cal/full-baseline"
cp -r "$FIX/single" "$TMP/cal/s4-baseline"
if scripts/calibration.sh --scales "4 2" "$TMP/cal" >"$TMP/out.md" 2>"$TMP/err"; then
	ok "exits 0 with some folders missing"
else
	ko "exits 0 with some folders missing"
fi
check_line() {
	if grep -qxF "$2" "$TMP/out.md"; then ok "$1"; else ko "$1: no line '$2'"; cat "$TMP/out.md"; fi
}
check_line "baseline TPS and its error" "| baseline TPS (unpatched) | 70000 | 135210 | +93.2 % |"
check_line "page tables' share and its error" "| page tables, % of RAM (baseline, end of run) | 40.0 | 39.3 | -1.7 % |"
check_line "a missing run is '-'" "| noretry-nonblocking TPS | 155000 | - | - |"
check_line "a ratio needing a missing run is '-'" "| noretry-nonblocking / baseline | 2.214 | - | - |"
check_line "1/4 run: TPS x 4 against full scale" "| s4-baseline | 135210 | 540842 | +300.0 % | 3 s |"
check_line "a missing scaled run is '-'" "| s2-baseline | - | - | - | - |"
if scripts/calibration.sh >/dev/null 2>&1; then ko "no DIR: exit 2"; else
	[ $? = 2 ] && ok "no DIR: exit 2" || ko "no DIR: exit 2"
fi
if scripts/calibration.sh --bogus x "$TMP/cal" >/dev/null 2>&1; then ko "unknown option: exit 2"; else
	[ $? = 2 ] && ok "unknown option: exit 2" || ko "unknown option: exit 2"
fi

# scripts/fragmentation-audit.sh on the fixture `single`: kswapd's
# efficiency is pgsteal_kswapd / pgscan_kswapd (42 743 055 / 49 688 801),
# scans per stall pgscan_direct over every allocstall_* counter, a run
# without costly attempts shows "-" for their shares, and the whole
# pageblocks are the order-9 and order-10 columns of the last buddyinfo
# sample, worked out here again with awk.
scripts/fragmentation-audit.sh "$FIX/single" >"$TMP/out.md" 2>&1
check_line "audit: kswapd efficiency" "| kswapd efficiency (pgsteal/pgscan) | 86.02 % |"
check_line "audit: no costly attempts" "| ... that entered the slow path | - |"
scan=$(jq -r '(.vmstat.pgscan_direct / ([.vmstat | to_entries[] | select(.key | startswith("allocstall_")) | .value] | add)) | round' "$FIX/single/result.json")
check_line "audit: folios scanned per direct-reclaim stall" "| direct reclaim: folios scanned per stall | $scan |"
whole=$(awk '/^time:/ { w = 0; a = 0 } /^Node/ { for (i = 5; i <= NF; i++) { a += $i * 2 ^ (i - 5); if (i >= 14) w += $i * 2 ^ (i - 5) } } END { printf "%.0f of %.0f", w, a }' "$FIX/single/proc-buddyinfo")
if grep -q "^| free pages in whole pageblocks, last buddyinfo sample | $whole (" "$TMP/out.md"; then
	ok "audit: free pages in whole pageblocks ($whole)"
else
	ko "audit: free pages in whole pageblocks: want $whole"; cat "$TMP/out.md"
fi
if scripts/fragmentation-audit.sh "$TMP/nonexistent" >/dev/null 2>&1; then ko "audit: no result.json: exit 2"; else
	[ $? = 2 ] && ok "audit: no result.json: exit 2" || ko "audit: no result.json: exit 2"
fi

# scripts/checkpoint-dips.sh on the fixture `single` given checkpoint
# figures by hand (before 100 TPS, first minute 40, ratio 0.4, lowest 0.2,
# dip share 0.25, 600 s_lock sleeps in its 60 s) and a tps.csv of 100, 40,
# 49, 50 and a partial 10: the figure's share is printed as it is; without
# it the share comes from tps.csv (40 and 49 of the 4 whole intervals are
# below 50; 50 is not, the partial last is left out; a whole last
# interval of 10 counts: 3 of 5); a run without checkpoint figures shows
# "-".
mkdir -p "$TMP/dips"
for n in fig csv; do
	cp -r "$FIX/single" "$TMP/dips/$n"
	printf 'interval_end_s,tps,lat_avg_ms,lat_max_ms\n10,100,1,1\n20,40,1,1\n30,49,1,1\n40,50,1,1\n45,10,1,1\n' \
		>"$TMP/dips/$n/tps.csv"
done
jq '.figures += {tps_before_checkpoint: 100, tps_checkpoint_first_minute: 40, checkpoint_tps_ratio: 0.4,
	checkpoint_tps_lowest_ratio: 0.2, checkpoint_dip_share: 0.25, s_lock_delays: 600, wal_write_lock_busy: 97.25}' \
	"$FIX/single/result.json" >"$TMP/dips/fig/result.json"
jq '.figures += {tps_before_checkpoint: 100, tps_checkpoint_first_minute: 40, checkpoint_tps_ratio: 0.4,
	checkpoint_tps_lowest_ratio: 0.2}' "$FIX/single/result.json" >"$TMP/dips/csv/result.json"
cp -r "$TMP/dips/csv" "$TMP/dips/whole"
printf 'interval_end_s,tps,lat_avg_ms,lat_max_ms\n10,100,1,1\n20,40,1,1\n30,49,1,1\n40,50,1,1\n50,10,1,1\n' \
	>"$TMP/dips/whole/tps.csv"
scripts/checkpoint-dips.sh "$TMP/dips/fig" "$TMP/dips/csv" "$TMP/dips/whole" "$FIX/single" >"$TMP/out.md" 2>&1
check_line "dips: the figure's share" "| fig | 135210 | 47.0 | 100 | 40 | 0.400 (0.200) | 0.250 | 17 | 28 | 10 | 97.2 |"
check_line "dips: the share from tps.csv" "| csv | 135210 | 47.0 | 100 | 40 | 0.400 (0.200) | 0.500 | 17 | 28 | - | - |"
check_line "dips: a whole last interval counts" "| whole | 135210 | 47.0 | 100 | 40 | 0.400 (0.200) | 0.600 | 17 | 28 | - | - |"
check_line "dips: no checkpoint figures" "| single | 135210 | 47.0 | - | - | - (-) | - | 17 | 28 | - | - |"
if scripts/checkpoint-dips.sh "$TMP/nonexistent" >/dev/null 2>&1; then ko "dips: no result.json: exit 2"; else
	[ $? = 2 ] && ok "dips: no result.json: exit 2" || ko "dips: no result.json: exit 2"
fi

# scripts/checkpoint-waits.sh on hand-made files: 10-s intervals to 200 s
# (a short last one to 205 s, left out), checkpoints starting at 100 s
# (done) and 190 s (running, empty cells).  Before: the intervals ending
# 50-100 s (cpu 10, clientread 90, 1000 TPS), 170, 180 s (cpu 30,
# clientread 70, 800 TPS) and 190 s (cpu 20, clientread 80, 1000 TPS);
# after: 110-160 s and 200 s (cpu 40, walwrite 60, 500 TPS); 140-160 s
# count in both windows, as in the checkpoint figures (12 intervals
# before, 7 after); the rest 10-40 s (cpu 10, clientread 90, 800 TPS).
mkdir -p "$TMP/cw/r"
printf 'start_s,write_s,sync_s,total_s,buffers_written\n100.000,60.000,1.000,61.000,42\n190.000,,,,\n' \
	>"$TMP/cw/r/checkpoints.csv"
awk 'BEGIN {
	print "interval_end_s,cpu,client_clientread,lwlock_walwrite" >"w"
	print "interval_end_s,tps,lat_avg_ms,lat_max_ms" >"t"
	for (e = 10; e <= 205; e += 10) {
		if (e > 200) e = 205
		if ((e >= 50 && e <= 100) || e == 190) { c = e == 190 ? 20 : 10; r = 100 - c; l = 0; x = 1000 }
		else if ((e >= 110 && e <= 160) || e == 200 || e == 205) { c = 40; r = 0; l = 60; x = 500 }
		else if (e == 170 || e == 180) { c = 30; r = 70; l = 0; x = 800 }
		else { c = 10; r = 90; l = 0; x = 800 }
		printf "%d.000,%d,%d,%d\n", e, c, r, l >"w"
		printf "%d.000,%d,1,1\n", e, x >"t"
	}
}' && mv w "$TMP/cw/r/waits.csv" && mv t "$TMP/cw/r/tps.csv"
scripts/checkpoint-waits.sh "$TMP/cw/r" >"$TMP/out.md" 2>&1
check_line "checkpoint waits: TPS in each window" "| TPS (20, 12, 7 intervals) | 765 | 842 | 500 |"
check_line "checkpoint waits: cpu" "| cpu | 23.0 | 21.7 | 40.0 |"
check_line "checkpoint waits: an event absent after" "| client_clientread | 56.0 | 63.3 | 0.0 |"
check_line "checkpoint waits: an event in both windows" "| lwlock_walwrite | 21.0 | 15.0 | 60.0 |"
rm "$TMP/cw/r/checkpoints.csv"
if scripts/checkpoint-waits.sh "$TMP/cw/r" >/dev/null 2>&1; then ko "checkpoint waits: no checkpoints.csv: exit 2"; else
	[ $? = 2 ] && ok "checkpoint waits: no checkpoints.csv: exit 2" || ko "checkpoint waits: no checkpoints.csv: exit 2"
fi

# The lines of FILE (blank ones aside) that docs/calibration.md lacks:
# each named on stderr, their count on stdout.
missing_lines() {	# FILE [prefix]: with "prefix", a line of FILE may begin a longer line of the doc
	n=0
	x=-x
	[ "${2:-}" = prefix ] && x=
	while IFS= read -r l; do
		[ -z "$l" ] && continue
		grep -q $x -F -- "$l" docs/calibration.md || { echo "  not in docs/calibration.md: $l" >&2; n=$((n + 1)); }
	done <"$1"
	echo "$n"
}

# doc_rows FILE N: FILE has N lines, each a line of docs/calibration.md
doc_rows() {
	[ "$(missing_lines "$1")" = 0 ] && [ "$(wc -l <"$1")" = "$2" ]
}

# docs/calibration.md's tables are what the script prints from the
# committed result folders of the calibration runs, line for line.
scripts/calibration.sh --scales "16 8 4 2" docs/calibration/runs >"$TMP/doc.md" 2>&1
missing=$(missing_lines "$TMP/doc.md")
[ "$missing" = 0 ] && [ "$(grep -c '^| full-[a-z-]* | [0-9]' "$TMP/doc.md")" = 5 ] &&
	ok "docs/calibration.md tables = the committed runs" || ko "docs/calibration.md tables = the committed runs"

# ... and so is its fragmentation audit (the re-measure with slab on).
R=docs/calibration/runs
. scripts/result-lib.sh		# jget
scripts/fragmentation-audit.sh $R/full-baseline $R/full-slab-baseline $R/full-noretry-nonblocking \
	$R/full-slab-noretry-nonblocking >"$TMP/audit.md" 2>&1
missing=$(missing_lines "$TMP/audit.md")
[ "$missing" = 0 ] && [ "$(wc -l <"$TMP/audit.md")" -ge 16 ] &&
	ok "docs/calibration.md fragmentation audit = the committed runs" ||
	ko "docs/calibration.md fragmentation audit = the committed runs"

# ... and so are the TPS rows of "The artefact removed" (the mean of the
# 10-s intervals, k TPS, of fd2f2cc's, 1ecaae3's and 07950ee's runs) and
# of "The test after a preemption" (07950ee's and fe8f8f9's).
kmean() {	# FILE FIRST_END LAST_END
	awk -F, -v a="$2" -v b="$3" 'NR > 1 && $1 >= a && $1 <= b { s += $2; n++ }
		END { if (n) printf "%.1f k", s / n / 1000 }' "$1"
}
tps_table() {	# NAME FOLDER... (each with %s for the model): the four rows
	name=$1
	shift
	for r in 'none 110 `none`, mean of the intervals ending at 110–200 s' 'none 10 `none`, 0–200 s' \
		'lazy 110 `lazy`, intervals ending at 110–200 s' 'lazy 10 `lazy`, 0–200 s'; do
		m=${r%% *}; r=${r#* }; a=${r%% *}; l="| ${r#* } |"
		for f; do l="$l $(kmean $R/$(printf "$f" $m)/tps.csv $a 200) |"; done
		printf '%s\n' "$l"
	done >"$TMP/$name.md"
	missing=$(missing_lines "$TMP/$name.md")
	[ "$missing" = 0 ] && ok "docs/calibration.md $name table = the committed runs" ||
		ko "docs/calibration.md $name table = the committed runs"
}
tps_table artefact full-spin25-%s-200 full-mech-%s-1200 full-rfrom-%s-200
tps_table switch-back-in full-rfrom-%s-200 full-loop-%s-200

# ... and the checkpoint tables of "Both changes, 720 s at full scale"
# and "Both changes, 1 200 s at full scale".
# dips_check LABEL RUN...: scripts/checkpoint-dips.sh over the stored
# RUNs gives a table every row of which docs/calibration.md has
dips_check() {
	l=$1; shift
	out="$TMP/dips-$(echo "$l" | tr -c 'a-z0-9\n' -).md"
	args=
	for r in "$@"; do args="$args $R/$r"; done
	scripts/checkpoint-dips.sh $args >"$out" 2>&1
	missing=$(missing_lines "$out")
	[ "$missing" = 0 ] && [ "$(grep -c '^| [a-z0-9-]* | [0-9]' "$out")" = $# ] &&
		ok "docs/calibration.md $l checkpoint table = the committed runs" ||
		ko "docs/calibration.md $l checkpoint table = the committed runs"
}
dips_check 720-s full-loop-none-720 full-loop-lazy-720
dips_check 1200-s full-loop-none-1200 full-loop-lazy-1200
# ... and the one of "Huge pages for 1 200 s", and of "The fix, huge
# pages and `lazy` for 1 200 s with the flusher's rule" (the current
# model's four runs)
dips_check "huge-pages 1200-s" full-idx-none-1200 full-idx-huge-1200
dips_check "flusher-rule 1200-s" full-flush-none-1200 full-flush-fix-1200 full-flush-huge-1200 \
	full-flush-lazy-1200
# ... and the two of "`lazy` at 400 ns per s_lock iteration for 1 200 s":
# the checkpoint table, and the means of the 10-s intervals by their end
# over 0-200, 200-300 and 300-1200 s with the run's TPS, when the freelist
# ran dry and the share of the machine in s_lock.
dips_check "spin-400 1200-s" full-flush-none-1200 full-spin400-none-300 full-flush-lazy-1200 \
	full-spin400-lazy-1200
# windows RUN SPLIT: "| RUN | a | b | c | t |", the means (k TPS) of the
# 10-s intervals by their end up to SPLIT s, from there to 300 s and after
# 300 s ("–" for none), and the run's TPS
windows() {
	awk -F, -v n="$1" -v sp="$2" -v t="$(jget "$R/$1" "" tps)" '
	NR > 1 { e = $1 + 0; if (e <= sp) { a += $2; na++ } else if (e <= 300) { b += $2; nb++ } else { c += $2; nc++ } }
	END { printf "| %s | %.1f k | %.1f k | %s | %.1f k |\n", n, a / na / 1000, b / nb / 1000,
		nc ? sprintf("%.1f k", c / nc / 1000) : "–", t / 1000 }' "$R/$1/tps.csv"
}
for r in full-flush-none-1200 full-spin400-none-300 full-flush-lazy-1200 full-spin400-lazy-1200; do
	printf '%s %.0f s | %.1f |\n' "$(windows "$r" 200)" "$(jget "$R/$r" figures strategy_freelist_empty_s)" \
		"$(jget "$R/$r" figures s_lock_spin_cpu_pct)"
done >"$TMP/spin400.md"
doc_rows "$TMP/spin400.md" 4 &&
	ok "docs/calibration.md spin-400 window table = the committed runs" ||
	ko "docs/calibration.md spin-400 window table = the committed runs"
# ... and the two of "The fix under `lazy` for 1 200 s": the checkpoint
# table, and the means of the 10-s intervals by their end over 0-100,
# 100-300 and 300-1200 s with the run's TPS.
dips_check "lazy-fix 1200-s" full-flush-none-1200 full-flush-fix-1200 full-flush-lazy-1200 \
	full-flush-lazyfix-1200
for r in full-flush-fix-1200 full-flush-lazyfix-1200; do windows "$r" 100; done >"$TMP/lazyfix.md"
doc_rows "$TMP/lazyfix.md" 2 &&
	ok "docs/calibration.md lazy-fix window table = the committed runs" ||
	ko "docs/calibration.md lazy-fix window table = the committed runs"
# ... and the checkpoint table of "The members' request queues at full
# scale": the stored 400-s baseline against per-member tags, then tags
# and writeback throttling.
dips_check "member-queues 400-s" full-flush-none-400 full-tags1023-none-400 full-wbt2ms-none-400
dips_check "member-queues 1200-s" full-flush-none-1200 full-wbt2ms-none-1200
# ... and the one of "`task_hot` and periodic balancing at full scale"
dips_check "balancing 400-s" full-wbt2ms-none-400 full-bal-none-400
# ... and the one of "Delayed dequeue at full scale, 400 s"
dips_check "delayed dequeue 400-s" full-bal-none-400 full-dd-none-400
# ... and of "`lazy` with delayed dequeue at full scale, 400 s"
dips_check "delayed dequeue lazy 400-s" full-dd-none-400 full-dd-lazy-400
# ... and of "`task_hot` and periodic balancing for 1 200 s", with its
# landing table (scripts/landing.sh on the run alone)
dips_check "balancing 1200-s" full-wbt2ms-none-1200 full-bal-none-1200
scripts/landing.sh --none $R/full-bal-none-1200 >"$TMP/land-bal.md" 2>&1
[ "$(missing_lines "$TMP/land-bal.md")" = 0 ] && [ "$(grep -c '^| [a-z0-9]' "$TMP/land-bal.md")" = 8 ] &&
	ok "docs/calibration.md balancing 1200-s landing table = the committed run" ||
	ko "docs/calibration.md balancing 1200-s landing table = the committed run"
# ... and of "`lazy` with `task_hot` and periodic balancing for 1 200 s",
# with the landing table's lazy rows
dips_check "lazy balancing 1200-s" full-queues-lazy-1200 full-bal-lazy-1200 full-bal-none-1200
scripts/landing.sh --none $R/full-bal-none-1200 --lazy $R/full-bal-lazy-1200 2>&1 |
	grep -i 'lazy' >"$TMP/land-lazy.md"
[ "$(missing_lines "$TMP/land-lazy.md")" = 0 ] && [ "$(grep -c '^| ' "$TMP/land-lazy.md")" = 3 ] &&
	ok "docs/calibration.md lazy balancing 1200-s landing rows = the committed runs" ||
	ko "docs/calibration.md lazy balancing 1200-s landing rows = the committed runs"
# ... and the table of "Huge pages with `task_hot` and periodic balancing,
# 400 s": the means of the 10-s intervals by their end over 0-400, 20-100
# and 100-400 s, the intervals under 100 k and the lowest, of the stored
# 1 200-s run's first 400 s and of the 400-s run.
huge400() {
	awk -F, -v n="$1" '
	NR > 1 && $1 + 0 <= 400 { e = $1 + 0; t = $2 / 1000; s += t; k++
		if (e > 20 && e <= 100) { a += t; na++ } else if (e > 100) { b += t; nb++ }
		if (t < 100) u++; if (lo == "" || t < lo) { lo = t; at = e } }
	END { printf "| %s | %.1f k | %.1f k | %.1f k | %d | %.1f k at %d s |\n", n, s / k, a / na, b / nb, u, lo, at }' "$R/$1/tps.csv"
}
for r in full-queues-huge-1200 full-bal-huge-400; do huge400 "$r"; done >"$TMP/huge400.md"
doc_rows "$TMP/huge400.md" 2 &&
	ok "docs/calibration.md huge-pages 400-s table = the committed runs" ||
	ko "docs/calibration.md huge-pages 400-s table = the committed runs"
# ... and of "The fix and huge pages with the kernel's request queues",
# with the huge-pages runs' means over 20-100 s and 100-300 s (the fit's
# window, then the collapses) as its text gives them.
dips_check "queues 1200-s" full-flush-none-1200 full-wbt2ms-none-1200 full-flush-fix-1200 \
	full-queues-fix-1200 full-flush-huge-1200 full-queues-huge-1200
fq=$(kmean "$R/full-queues-huge-1200/tps.csv" 30 100) fp=$(kmean "$R/full-flush-huge-1200/tps.csv" 30 100)
mq=$(kmean "$R/full-queues-huge-1200/tps.csv" 110 300) mp=$(kmean "$R/full-flush-huge-1200/tps.csv" 110 300)
tr '\n' ' ' <docs/calibration.md | tr -s ' ' >"$TMP/flat.md"
grep -qF "is $fq with the queues and $fp with the pool" "$TMP/flat.md" &&
	grep -qF "100–300 s averages $mq against $mp" "$TMP/flat.md" &&
	ok "docs/calibration.md queues: the huge-pages means = the committed runs" ||
	ko "docs/calibration.md queues: the huge-pages means = the committed runs ($fq $fp $mq $mp)"
# ... and of "`lazy` with the kernel's request queues", with the shares of
# the client backends' time its text quotes (the mean of a waits.csv
# column over the run's intervals).
dips_check "lazy queues 1200-s" full-flush-lazy-1200 full-flush-lazyfix-1200 full-queues-lazy-1200 \
	full-queues-lazyfix-1200
wmean() {
	awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		{ s += $k; n++ } END { printf "%.1f", s / n }' "$R/$1/waits.csv"
}
ql=$(wmean full-queues-lazy-1200 lwlock_walwrite) pl=$(wmean full-flush-lazy-1200 lwlock_walwrite)
qf=$(wmean full-queues-lazyfix-1200 lwlock_walwrite) pf=$(wmean full-flush-lazyfix-1200 lwlock_walwrite)
rl=$(wmean full-queues-lazy-1200 io_datafileread) rpl=$(wmean full-flush-lazy-1200 io_datafileread)
rf=$(wmean full-queues-lazyfix-1200 io_datafileread) rpf=$(wmean full-flush-lazyfix-1200 io_datafileread)
grep -qF "WALWriteLock ($ql % of the client backends' time against $pl % for \`lazy\`; $qf against $pf % for the fix)" "$TMP/flat.md" &&
	grep -qF "reads ($rl against $rpl %; $rf against $rpf %)" "$TMP/flat.md" &&
	ok "docs/calibration.md lazy queues: the wait shares = the committed runs" ||
	ko "docs/calibration.md lazy queues: the wait shares = the committed runs ($ql $pl $qf $pf $rl $rpl $rf $rpf)"

# ... and the window table of "Both changes, 1 200 s at full scale": the
# means (k TPS) of the 10-s intervals by their end — whole run, before the
# first checkpoint, the first 70 s after each checkpoint starts (300, 600,
# 900 s), the rest after 300 s — with the count of intervals after 300 s
# below half the 250–300 s mean.
win1200() {	# LABEL TPS.CSV
	awk -F, -v l="$1" 'NR > 1 { t[$1 + 0] = $2 }
	function m(a, b,   s, n, e) { s = 0; n = 0; for (e = a; e <= b; e += 10) if (e in t) { s += t[e]; n++ } return n ? s / n : 0 }
	END {
		ref = m(250, 300); low = n = 0; ds = dn = rs = rn = 0
		for (e = 310; e <= 1200; e += 10) {
			if (!(e in t))
				continue
			n++
			if (t[e] < ref / 2)
				low++
			if ((e - 300) % 300 >= 10 && (e - 300) % 300 <= 70) { ds += t[e]; dn++ } else { rs += t[e]; rn++ }
		}
		printf "| %s | %.1f k | %.1f k | %.1f k | %.1f k | %d of %d |\n", l, m(10, 1200) / 1000, m(110, 300) / 1000,
			dn ? ds / dn / 1000 : 0, rn ? rs / rn / 1000 : 0, low, n
	}' "$2"
}
{
	win1200 '`none`, 1ecaae3' $R/full-mech-none-1200/tps.csv
	win1200 '`none`, fe8f8f9' $R/full-loop-none-1200/tps.csv
	win1200 '`lazy`, 1ecaae3' $R/full-mech-lazy-1200/tps.csv
	win1200 '`lazy`, fe8f8f9' $R/full-loop-lazy-1200/tps.csv
} >"$TMP/win1200.md"
missing=$(missing_lines "$TMP/win1200.md")
[ "$missing" = 0 ] && ok "docs/calibration.md 1200-s window table = the committed runs" ||
	ko "docs/calibration.md 1200-s window table = the committed runs"

# ... and the tables of "What sets the dips' depth": the checkpoint table
# of the sensitivity runs, and, at the start of each run's row in the
# second table, its 10-s TPS after the checkpoint (310-400 s, k) and their
# mean.
SENS="full-flush-none-400 full-flush-none-400-seed2 full-flush-none-400-compact-half
	full-flush-none-400-free-half full-flush-none-400-free-half-seed2 full-flush-none-400-page-half"
dips_check "slow-path costs 400-s" $SENS
# after_checkpoint TPS.CSV: the 10-s TPS from 310 to 400 s (k) and their
# mean, as "15, 30, ... | 25.7"
after_checkpoint() {
	awk -F, 'NR > 1 && $1 > 300 && $1 <= 400 { s = s (n++ ? ", " : "") sprintf("%.0f", $2 / 1000); t += $2 }
		END { printf "%s | %.1f", s, t / n / 1000 }' "$1"
}
for r in $SENS; do
	echo "| $r | $(after_checkpoint "$R/$r/tps.csv") |"
done >"$TMP/dip-series.md"
missing=$(missing_lines "$TMP/dip-series.md" prefix)
[ "$missing" = 0 ] && [ "$(wc -l <"$TMP/dip-series.md")" = 6 ] &&
	ok "docs/calibration.md dip-series table = the committed runs" ||
	ko "docs/calibration.md dip-series table = the committed runs"

# ... and the tables of "The dip from one state": the checkpoint table of
# the branches, and per branch its changes (from its scenario.ini), its
# 10-s TPS from 310 to 400 s (k) and their mean, and the differences of
# its proc-vmstat between 290 and 400 s.  The unchanged branch is the
# stored whole run: their files are the same.
BR="branch290-base branch290-fix branch290-halved branch290-va branch290-vb"
dips_check "branches 400-s" $BR
for r in $BR; do
	ch=$(sed -n 's/^; branch .*(changes: \(.*\)); the command below.*/\1/p' "$R/$r/scenario.ini" | head -n 1)
	case $ch in
	*compact_migrate_scan=4*buddy_page=45*) ch="compaction, free and refill costs halved" ;;
	esac
	ser=$(after_checkpoint "$R/$r/tps.csv")
	vm=$(awk '/^time: / { t = $2; next } t == 290 { a[$1] = $2 } t == 400 { b[$1] = $2 }
		function d(k) { return b[k] - a[k] }
		END { printf "%.0f, %.0f, %.0f | %.1f / %.1f / %.1f", d("compact_stall"), d("allocstall_movable"),
			d("sim_drain_all_pages"), d("sim_drain_pages") / 1e6, d("sim_pcp_refill_pages") / 1e6,
			d("pgalloc_normal") / 1e6 }' "$R/$r/proc-vmstat")
	echo "| $r | $ch | $ser | $vm |"
done >"$TMP/branch-series.md"
missing=$(missing_lines "$TMP/branch-series.md")
[ "$missing" = 0 ] && [ "$(grep -c ' | none | ' "$TMP/branch-series.md")" = 1 ] &&
	ok "docs/calibration.md branch table = the committed runs" ||
	ko "docs/calibration.md branch table = the committed runs"
same=0
for f in tps.csv waits.csv wal.csv checkpoints.csv proc-buddyinfo; do
	cmp -s "$R/full-flush-none-400/$f" "$R/branch290-base/$f" && same=$((same + 1))
done
[ $same = 5 ] && ok "the unchanged branch is the stored whole run" ||
	ko "the unchanged branch is the stored whole run"

# ... and the table of "The dip alone": TPS from result.json, XLogWrite's
# calls and task time and the backends' spin from the profiles, which
# count from ramp_time (290 s).
grouped() { awk -v v="$1" 'BEGIN { s = sprintf("%.0f", v); o = ""
	while (length(s) > 3) { o = " " substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3) }
	print s o }'; }
# window_figures DIR: XLogWrite's calls ($calls) and task time ($xs, s)
# and the backends' spin ($bs, s) from DIR's profile
window_figures() {
	$RPT explain --focus XLogWrite "$1" >"$TMP/xw.txt" 2>&1
	calls=$(awk '$NF == "XLogWrite" { print $(NF - 1); exit }' "$TMP/xw.txt")
	xs=$(awk -v v="$(hundred_pct "$TMP/xw.txt")" 'BEGIN { print v / 1e9 }')
	$RPT explain --kind backend --time spin "$1" >"$TMP/spin.txt" 2>&1
	bs=$(awk -v v="$(hundred_pct "$TMP/spin.txt")" 'BEGIN { print v / 1e9 }')
}
tps= xw= sp= from=
for b in base fix; do
	d=$R/window290-$b
	window_figures "$d"
	[ $b = base ] && from=$(sed -n 2p "$TMP/xw.txt")
	tps="$tps | $(grouped "$(jq -r .tps "$d/result.json")")"
	xw="$xw | $(grouped "$calls"); $(printf '%.1f' "$xs") s"
	if awk -v s="$bs" 'BEGIN { exit !(s >= 1000) }'; then
		sp="$sp | $(grouped "$bs")"
	else
		sp="$sp | $(printf '%.1f' "$bs")"
	fi
	sp="$sp ($(awk -v s="$bs" 'BEGIN { printf "%.1f", s / 110 }'))"
done
{
	echo "| TPS (result.json)$tps |"
	echo "| XLogWrite calls; its task time$xw |"
	echo "| backends spinning, s (CPUs' worth)$sp |"
} >"$TMP/window.md"
missing=$(missing_lines "$TMP/window.md")
[ "$missing" = 0 ] && case $from in *', time from 290 s (ramp_time)') true ;; *) false ;; esac &&
	ok "docs/calibration.md dip-alone table = the committed profiles" ||
	ko "docs/calibration.md dip-alone table = the committed profiles"
# ... and its refill-cost table: the series after the checkpoint, the
# backends' spin and XLogWrite's calls from the profiles, the drains from
# proc-vmstat between 290 and 400 s.
for r in window290-base:90 page290-p45:45 page290-p22:22; do
	d=$R/${r%%:*}
	window_figures "$d"
	dr=$(awk '/^time: / { t = $2; next } $1 == "sim_drain_all_pages" && (t == 290 || t == 400) { v[t] = $2 }
		END { print v[400] - v[290] }' "$d/proc-vmstat")
	echo "| ${r#*:} ns | $(after_checkpoint "$d/tps.csv") | $(grouped "$bs") | $(grouped "$dr") | $(grouped "$calls") |"
done >"$TMP/refill.md"
missing=$(missing_lines "$TMP/refill.md")
[ "$missing" = 0 ] && ok "docs/calibration.md refill-cost table = the committed runs" ||
	ko "docs/calibration.md refill-cost table = the committed runs"
# ... and the table of "The per-CPU lists' size": the same columns, each
# branch named by the sysctl its scenario.ini says it wrote.
for d in window290-base sysctl290-pcp252 sysctl290-wsf100; do
	d=$R/$d
	window_figures "$d"
	ch=$(sed -n 's/^; branch .*(changes: \(.*\)); the command below.*/\1/p' "$d/scenario.ini" | head -n 1)
	dr=$(awk '/^time: / { t = $2; next } $1 == "sim_drain_all_pages" && (t == 290 || t == 400) { v[t] = $2 }
		END { print v[400] - v[290] }' "$d/proc-vmstat")
	echo "| ${ch:-none} | $(after_checkpoint "$d/tps.csv") | $(grouped "$bs") | $(grouped "$dr") | $(grouped "$calls") |"
done >"$TMP/sysctl.md"
missing=$(missing_lines "$TMP/sysctl.md")
[ "$missing" = 0 ] && [ "$(grep -c '^| vm[.]' "$TMP/sysctl.md")" = 2 ] &&
	ok "docs/calibration.md sysctl-branch table = the committed runs" ||
	ko "docs/calibration.md sysctl-branch table = the committed runs"
# ... and its table of the lists from 100 s: whole-run TPS and the first
# minute after the checkpoint (result.json), the mean of the 10-s TPS
# from 100 to 300 s, the series after the checkpoint, the drains from 300
# to 400 s (the default run's proc-vmstat is branch290-base's).
for r in "full-flush-none-400:branch290-base:auto-tuned (default)" "pcp100-pcp1245::fixed at 1 245 pages" \
	"pcp100-pcp252::fixed at 252 pages"; do
	d=$R/${r%%:*}; v=${r#*:}; v=${v%%:*}; v=$R/${v:-${r%%:*}}
	pre=$(awk -F, 'NR > 1 && $1 > 100 && $1 <= 300 { t += $2; n++ } END { printf "%.1f", t / n / 1000 }' "$d/tps.csv")
	dr=$(awk '/^time: / { t = $2; next } $1 == "sim_drain_all_pages" && (t == 300 || t == 400) { v[t] = $2 }
		END { print v[400] - v[300] }' "$v/proc-vmstat")
	echo "| ${r##*:} | $(grouped "$(jq -r .tps "$d/result.json")") | $pre |" \
		"$(grouped "$(jq -r .figures.tps_checkpoint_first_minute "$d/result.json")") |" \
		"$(after_checkpoint "$d/tps.csv") | $(grouped "$dr") |"
done >"$TMP/lists100.md"
missing=$(missing_lines "$TMP/lists100.md")
[ "$missing" = 0 ] && ok "docs/calibration.md lists-from-100-s table = the committed runs" ||
	ko "docs/calibration.md lists-from-100-s table = the committed runs"
# scripts/slowpath-shares.sh on a hand-made profile (2 CPUs, 10 s: a
# capacity of 20 s): below ksys_pwrite64 → filemap_alloc_folio a refill
# (1 s cpu, 2 s spin) and a slow path of 5 s (1 s itself, 2 s in
# compact_zone, 2 s in drain_all_pages); a slow path below a pread's
# filemap_alloc_folio (5 s) counts only in the busy time, 17 s in all.
mkdir -p "$TMP/shares"
printf '[global]\nseed=1\n[machine]\ncpus=2\nmemory=1G\n' >"$TMP/shares/scenario.ini"
echo '{"measure_seconds": 10}' >"$TMP/shares/result.json"
cat >"$TMP/shares/profile.json" <<'JSON'
{"schema": "slowpath-profile/1", "unit": "ns", "kinds": [{"kind": "backend", "tasks": 1, "root":
 {"name": "backend", "calls": 0, "self": {"cpu": 4000000000, "spin": 0}, "children": [
  {"name": "ksys_pwrite64", "calls": 1, "self": {"cpu": 0, "spin": 0}, "children": [
   {"name": "filemap_alloc_folio", "calls": 1, "self": {"cpu": 0, "spin": 0}, "children": [
    {"name": "rmqueue_bulk", "calls": 1, "self": {"cpu": 1000000000, "spin": 2000000000}, "children": []},
    {"name": "__alloc_pages_slowpath", "calls": 1, "self": {"cpu": 1000000000, "spin": 0}, "children": [
     {"name": "__alloc_pages_direct_compact", "calls": 1, "self": {"cpu": 0, "spin": 0}, "children": [
      {"name": "compact_zone", "calls": 1, "self": {"cpu": 1500000000, "spin": 500000000}, "children": []}]},
     {"name": "drain_all_pages", "calls": 1, "self": {"cpu": 1000000000, "spin": 0}, "children": [
      {"name": "drain_pages_zone", "calls": 1, "self": {"cpu": 1000000000, "spin": 0}, "children": []}]}]}]}]},
  {"name": "ksys_pread64", "calls": 1, "self": {"cpu": 0, "spin": 0}, "children": [
   {"name": "filemap_alloc_folio", "calls": 1, "self": {"cpu": 0, "spin": 0}, "children": [
    {"name": "__alloc_pages_slowpath", "calls": 1, "self": {"cpu": 5000000000, "spin": 0}, "children": []}]}]}]}}]}
JSON
scripts/slowpath-shares.sh "$TMP/shares" >"$TMP/out.md" 2>&1
check_line "slowpath-shares: the hand-made profile" \
	"| shares | 10 | 85.0 % | 25.000 / 29.412 % | 10.000 / 11.765 % | 10.000 / 11.765 % | 15.000 / 17.647 % | 10.000 / 11.765 % |"
rm "$TMP/shares/profile.json"
if scripts/slowpath-shares.sh "$TMP/shares" >/dev/null 2>&1; then ko "slowpath-shares: no profile.json: exit 2"; else
	[ $? = 2 ] && ok "slowpath-shares: no profile.json: exit 2" || ko "slowpath-shares: no profile.json: exit 2"
fi
# ... and the table of "The slow path's share of the CPU" on the committed runs.
scripts/slowpath-shares.sh $R/full-idx-none-1200 $R/full-idx-lazy-1200 $R/full-idx-fix-1200 \
	$R/full-idx-huge-1200 $R/branch290-base $R/branch290-fix $R/full-flush-none-400-seed2 \
	$R/full-slab-baseline | tail -n +3 >"$TMP/shares.md"
doc_rows "$TMP/shares.md" 8 &&
	ok "docs/calibration.md slow-path shares table = the committed runs" ||
	ko "docs/calibration.md slow-path shares table = the committed runs"
# scripts/pcp-churn.sh on a hand-made proc-vmstat: the set-up's counts
# (time 0) stay out of the first interval; 20 M allocated and 200 M
# refilled in 0-10 s; 10 M allocated, 100 M refilled and 90 M of 120 M
# bulk frees by 2 drains in 10-20 s; the last (unfinished) interval 20-25 s
# on its own.
mkdir -p "$TMP/churn"
for t in 0:5:0:0:0:0 10:25:200:0:0:0 20:35:300:90:120:2 25:36:301:90:121:2; do
	# shellcheck disable=SC2046
	set -- $(echo "$t" | tr : ' ')
	printf 'time: %s\npgalloc_dma 1000000\npgalloc_normal %s000000\nsim_drain_all_pages %s\n' "$1" "$2" "$6"
	printf 'sim_drain_pages %s000000\nsim_pcp_refill_pages %s000000\nsim_pcp_free_bulk_pages %s000000\n' \
		"$4" "$3" "$5"
done >"$TMP/churn/proc-vmstat"
scripts/pcp-churn.sh -s 10 "$TMP/churn" >"$TMP/out.md" 2>&1
check_line "pcp-churn: the first interval starts after the set-up" \
	"| 0–10 | 20.0 M | 200.0 M | 0.0 M | 0.0 M | 0 | 10.0 |"
check_line "pcp-churn: drains and the other frees" "| 10–20 | 10.0 M | 100.0 M | 90.0 M | 30.0 M | 2 | 22.0 |"
check_line "pcp-churn: the unfinished interval" "| 20–25 | 1.0 M | 1.0 M | 0.0 M | 1.0 M | 0 | 2.0 |"
check_line "pcp-churn: the whole run, set-up included" \
	"| all, set-up included | 37.0 M | 301.0 M | 90.0 M | 31.0 M | 2 | 11.4 |"
expect_status "pcp-churn: -s 0: exit 2" 2 "not a whole number" scripts/pcp-churn.sh -s 0 "$TMP/churn"
expect_status "pcp-churn: -s x: exit 2" 2 "not a whole number" scripts/pcp-churn.sh -s x "$TMP/churn"
expect_status "pcp-churn: -s without a value: exit 2" 2 "usage" scripts/pcp-churn.sh -s
grep -v '^sim_drain_pages' "$TMP/churn/proc-vmstat" >"$TMP/churn/v" && mv "$TMP/churn/v" "$TMP/churn/proc-vmstat"
expect_status "pcp-churn: a missing counter: exit 2" 2 "no sim_drain_pages lines" scripts/pcp-churn.sh "$TMP/churn"
rm "$TMP/churn/proc-vmstat"
expect_status "pcp-churn: no proc-vmstat: exit 2" 2 "no proc-vmstat" scripts/pcp-churn.sh "$TMP/churn"
# ... and the table of docs/engine.md "A whole run's profile" on the stored run.
n=0
scripts/pcp-churn.sh -s 300 docs/engine/whole-run | grep '^| [0-9a]' >"$TMP/churn.md"
while IFS= read -r l; do
	grep -qxF -- "$l" docs/engine.md || { echo "  not in docs/engine.md: $l" >&2; n=$((n + 1)); }
done <"$TMP/churn.md"
[ "$n" = 0 ] && [ "$(wc -l <"$TMP/churn.md")" = 5 ] &&
	ok "docs/engine.md pcp churn table = the stored run" || ko "docs/engine.md pcp churn table = the stored run"
# ... and the two tables of "The lists fixed for a whole run" (the stored
# default run of docs/engine/whole-run against full-pcp1245-1200; the
# churn table names its rows by the lists, so only its figures are compared).
{
	scripts/checkpoint-dips.sh docs/engine/whole-run $R/full-pcp1245-1200 | grep '^| [a-z]'
	scripts/pcp-churn.sh docs/engine/whole-run $R/full-pcp1245-1200 | grep '^| all' | cut -d'|' -f3-
} | tail -n +2 >"$TMP/lists1200.md"
missing=$(missing_lines "$TMP/lists1200.md" prefix)
[ "$missing" = 0 ] && [ "$(wc -l <"$TMP/lists1200.md")" = 4 ] &&
	ok "docs/calibration.md whole-run lists tables = the stored runs" ||
	ko "docs/calibration.md whole-run lists tables = the stored runs"
# scripts/landing.sh on hand-made folders (the fixture `single` given its
# figures by hand): a point figure's error against it, a range's from its
# nearer end or "inside", the ±15 % verdict, ratios between the runs, no
# rows for a run not given, "–" for a figure a run lacks; bad usage exits 2.
mkdir -p "$TMP/land"
mkfolder() {	# NAME TPS [FIGURES-JSON]
	cp -r "$FIX/single" "$TMP/land/$1"
	jq --argjson t "$2" --argjson f "${3:-{\}}" '.tps = $t | .figures += $f' "$FIX/single/result.json" \
		>"$TMP/land/$1/result.json"
}
mkfolder none 100000 '{"tps_before_checkpoint": 170000, "tps_checkpoint_first_minute": 40000,
	"checkpoint_dip_share": 0.25, "pagetables_share": 45}'
mkfolder lazy 51000
mkfolder fix 200000
mkfolder lazyfix 153000
scripts/landing.sh --none "$TMP/land/none" --lazy "$TMP/land/lazy" --fix "$TMP/land/fix" \
	--lazy-fix "$TMP/land/lazyfix" >"$TMP/out.md" 2>&1
check_line "landing: a point figure" \
	"| baseline TPS (PostgreSQL 17, PREEMPT_NONE behaviour) | 101 980 | 100 000 | −1.9 % | yes |"
check_line "landing: above a range, from its upper end" \
	"| 10-s TPS between checkpoints (model: the last minute before one) | 138 800–166 600 | 170 000 | +2.0 % | yes |"
check_line "landing: inside a range" \
	"| 10-s TPS during checkpoints (model: the first minute after one starts) | 37 300–55 200 | 40 000 | inside | yes |"
check_line "landing: outside ±15 %" "| dips' share of the time | about half | 0.250 | −50.0 % | no |"
check_line "landing: the page tables" "| page tables, % of RAM (model: at the end) | ≈ 40 | 45.0 | +12.5 % | yes |"
check_line "landing: the fix" \
	"| noretry-nonblocking TPS (PostgreSQL 18.4, next-20260707; model: \`none\`) | 154 977 | 200 000 | +29.1 % | no |"
check_line "landing: the fix's ratio" \
	"| noretry-nonblocking / baseline (model: PostgreSQL 17, \`none\`, for both) | 2.214 (154 977 / ≈ 70 k) | 2.000 | −9.7 % | yes |"
check_line "landing: the PostgreSQL 18.4 baseline against lazy" \
	"| baseline TPS (PostgreSQL 18.4, next-20260707; model: PostgreSQL 17, \`lazy\`) | ≈ 70 000 | 51 000 | −27.1 % | no |"
check_line "landing: the fix under lazy" \
	"| noretry-nonblocking TPS (PostgreSQL 18.4, next-20260707; model: \`lazy\`) | 154 977 | 153 000 | −1.3 % | yes |"
check_line "landing: the fix's ratio under lazy" \
	"| noretry-nonblocking / baseline (model: PostgreSQL 17, \`lazy\`, for both) | 2.214 (154 977 / ≈ 70 k) | 3.000 | +35.5 % | no |"
check_line "landing: lazy" "| \`lazy\` TPS (Linux 7.0) | 50 751 | 51 000 | +0.5 % | yes |"
check_line "landing: lazy / none" \
	"| \`lazy\` / \`none\` (Linux 7.0: PREEMPT_LAZY / PREEMPT_NONE restored) | 0.515 | 0.510 | −1.0 % | yes |"
grep -q 'huge_pages=on\|huge pages /' "$TMP/out.md" && ko "landing: no huge-pages rows without --huge" || ok "landing: no huge-pages rows without --huge"
scripts/landing.sh --none "$TMP/land/none" --lazy-fix "$TMP/land/lazyfix" >"$TMP/out.md" 2>&1
grep -q '`lazy`, for both' "$TMP/out.md" && ko "landing: no lazy ratio without --lazy" || ok "landing: no lazy ratio without --lazy"
jq 'del(.figures.checkpoint_dip_share)' "$TMP/land/none/result.json" >"$TMP/land/r" && mv "$TMP/land/r" "$TMP/land/none/result.json"
scripts/landing.sh --none "$TMP/land/none" >"$TMP/out.md" 2>&1
check_line "landing: a figure the run lacks" "| dips' share of the time | about half | – | – | – |"
expect_status "landing: no --none: exit 2" 2 "usage" scripts/landing.sh --lazy "$TMP/land/lazy"
expect_status "landing: an unknown option: exit 2" 2 "unknown option" scripts/landing.sh --none "$TMP/land/none" --bogus x
expect_status "landing: an option without a folder: exit 2" 2 "usage" scripts/landing.sh --none
expect_status "landing: a folder without result.json: exit 2" 2 "no result.json" \
	scripts/landing.sh --none "$TMP/land/none" --huge "$TMP/land/nonexistent"
# ... and the two tables of docs/calibration.md "Where the model lands now"
# on the stored runs.
{
	scripts/landing.sh --none $R/full-wbt2ms-none-1200 --lazy $R/full-queues-lazy-1200 \
		--fix $R/full-queues-fix-1200 --huge $R/full-queues-huge-1200 --lazy-fix $R/full-queues-lazyfix-1200
	scripts/landing.sh --none docs/engine/whole-run
} | grep -v '^|---\|^| figure' >"$TMP/landing.md"
doc_rows "$TMP/landing.md" 23 &&
	ok "docs/calibration.md landing tables = the stored runs" ||
	ko "docs/calibration.md landing tables = the stored runs"

# scripts/iostat-intervals.sh: sysstat's arithmetic on proc-diskstats
# per interval, checked on a hand-made folder (two members, samples at
# 0, 1, 2 s; md0 writes 100 then 300 requests of 16 sectors, members
# half each; weighted ms and io_ticks as below), then the table of
# docs/calibration.md against its stored run; bad usage exits 2.
mkdir -p "$TMP/io"
cat >"$TMP/io/proc-diskstats" <<'END'
time: 0
   9       0 md0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 259       0 md0-0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 259       1 md0-1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
time: 1
   9       0 md0 0 0 0 0 100 0 1600 200 3 500 200 0 0 0 0 0 0
 259       0 md0-0 0 0 0 0 50 0 800 100 1 400 100 0 0 0 0 0 0
 259       1 md0-1 0 0 0 0 50 0 800 60 1 200 60 0 0 0 0 0 0
time: 2
   9       0 md0 0 0 0 0 400 0 6400 800 0 1500 800 0 0 0 0 0 0
 259       0 md0-0 0 0 0 0 200 0 3200 400 0 1400 400 0 0 0 0 0 0
 259       1 md0-1 0 0 0 0 200 0 3200 300 0 1000 300 0 0 0 0 0 0
END
scripts/iostat-intervals.sh "$TMP/io" 0 2 1 >"$TMP/out.md" 2>&1
check_line "iostat intervals: the first second" "| 0–1 | 100 | 8.0 | 0.2 | 2.00 | 0.1 | 1.60 | 30 |"
check_line "iostat intervals: the second" "| 1–2 | 300 | 8.0 | 0.6 | 2.00 | 0.3 | 1.80 | 90 |"
scripts/iostat-intervals.sh "$TMP/io" 0 1 1 md0 '^md0-0$' >"$TMP/out.md" 2>&1
check_line "iostat intervals: members chosen by a pattern" "| 0–1 | 100 | 8.0 | 0.2 | 2.00 | 0.1 | 2.00 | 40 |"
# the weighted ms of md0 wraps at 2^32 between samples 0 and 1 (from
# 4294967196, 100 short of it, to 100: 200 ms in one second)
mkdir -p "$TMP/iow"
sed -e '2s/^\(   9       0 md0 0 0 0 0 0 0 0 0 0 0\) 0 /\1 4294967196 /' \
	-e '6s/ 3 500 200 / 3 500 100 /' "$TMP/io/proc-diskstats" | sed -n '1,8p' >"$TMP/iow/proc-diskstats"
scripts/iostat-intervals.sh "$TMP/iow" 0 1 1 >"$TMP/out.md" 2>&1
check_line "iostat intervals: the weighted ms wraps at 2^32" "| 0–1 | 100 | 8.0 | 0.2 | 2.00 | 0.1 | 1.60 | 30 |"
expect_status "iostat intervals: an end without a sample: exit 2" 2 "no sample at 3 s" \
	scripts/iostat-intervals.sh "$TMP/io" 0 3 1
expect_status "iostat intervals: no proc-diskstats: exit 2" 2 "no such file" \
	scripts/iostat-intervals.sh "$TMP" 0 2 1
expect_status "iostat intervals: bad usage: exit 2" 2 "usage" scripts/iostat-intervals.sh "$TMP/io" 0 2

# scripts/trace-intervals.sh: tracepoint rates per interval, on a
# hand-made trace-counts (samples at 0, 2, 4 s; a kernel without the
# compaction tracepoint): 2 000 then 6 000 allocations, 500 then 4 500
# blocks drained, over 2 s each
mkdir -p "$TMP/tc"
cat >"$TMP/tc/trace-counts" <<'END'
time: 100
kmem:mm_page_alloc 0
kmem:mm_page_pcpu_drain 0
kmem:mm_page_alloc_zone_locked 0
vmscan:mm_vmscan_direct_reclaim_begin 0
time: 102
kmem:mm_page_alloc 2000
kmem:mm_page_pcpu_drain 500
kmem:mm_page_alloc_zone_locked 1000
vmscan:mm_vmscan_direct_reclaim_begin 4
time: 104
kmem:mm_page_alloc 8000
kmem:mm_page_pcpu_drain 5000
kmem:mm_page_alloc_zone_locked 9000
vmscan:mm_vmscan_direct_reclaim_begin 4
END
scripts/trace-intervals.sh "$TMP/tc" 0 4 2 >"$TMP/out.md" 2>&1
check_line "trace intervals: the first two seconds" "| 0–2 | 1000 | 250 | 500 | 0.25 | 2 | – |"
check_line "trace intervals: the next two" "| 2–4 | 3000 | 2250 | 4000 | 0.75 | 0 | – |"
expect_status "trace intervals: an end without a sample: exit 2" 2 "no sample at 6 s" \
	scripts/trace-intervals.sh "$TMP/tc" 0 6 2
expect_status "trace intervals: no trace-counts: exit 2" 2 "no such file" \
	scripts/trace-intervals.sh "$TMP" 0 2 1
scripts/iostat-intervals.sh $R/diskstats-huge-180 100 180 10 | grep -v '^|---\|^| interval' >"$TMP/iostat.md"
doc_rows "$TMP/iostat.md" 8 &&
	ok "docs/calibration.md iostat table = the stored run" ||
	ko "docs/calibration.md iostat table = the stored run"
scripts/iostat-intervals.sh $R/diskstats-none-360 240 360 10 | grep -v '^|---\|^| interval' >"$TMP/iostat.md"
doc_rows "$TMP/iostat.md" 12 &&
	ok "docs/calibration.md baseline iostat table = the stored run" ||
	ko "docs/calibration.md baseline iostat table = the stored run"
scripts/trace-intervals.sh $R/trace-none-360 240 360 10 | grep -v '^|---\|^| interval' >"$TMP/trace.md"
doc_rows "$TMP/trace.md" 12 &&
	ok "docs/calibration.md tracepoint table = the stored run" ||
	ko "docs/calibration.md tracepoint table = the stored run"
# ... and run x's iostat rows, the machine's beside its twin's
$RPT compare --names real,model $R/local-real-s50-c8-x $R/local-model-s50-c8-x 2>&1 |
	grep -E '^Iostat vda (w/s|wkB/s|w_await|wareq-sz|f/s|f_await|aqu-sz|%util) ' >"$TMP/iox.txt"
doc_rows "$TMP/iox.txt" 8 &&
	ok "docs/calibration.md run x's iostat rows = the stored runs" ||
	ko "docs/calibration.md run x's iostat rows = the stored runs"
# ... and run y's tracepoint rows, the machine's beside its twin's
$RPT compare --names machine,twin $R/local-real-s50-c8-tp $R/local-model-s50-c8-tp 2>&1 |
	grep -E '^Tracepoint ' >"$TMP/tpy.txt"
doc_rows "$TMP/tpy.txt" 5 &&
	ok "docs/calibration.md run y's tracepoint rows = the stored runs" ||
	ko "docs/calibration.md run y's tracepoint rows = the stored runs"
got=$(for d in local-real-s50-c8-tp local-model-s50-c8-tp; do
	scripts/trace-intervals.sh $R/$d 10 150 140 | awk -F' [|] ' 'NR == 3 { printf "%s | %s | %s | %s |\n", $2, $3, $4, $5 }'
done | tr '\n' ' ')
[ "$got" = "251 | 104 | 209 | 0.41 | 216 | 0 | 216 | 0.00 | " ] &&
	grep -qxF '| machine | 251 | 104 | 209 | 0.41 |' docs/calibration.md &&
	grep -qxF '| twin | 216 | 0 | 216 | 0.00 |' docs/calibration.md &&
	ok "docs/calibration.md run y's steady-state table = the stored runs" ||
	ko "docs/calibration.md run y's steady-state table = the stored runs: $got"
# run z: run y's twin with the WAL cached as run z found it, beside the
# machine and the first twin over 10-150 s, and the fincore listings
$RPT compare --window 10-150 --names machine,twin,twin-walcached $R/local-real-s50-c8-tp \
	$R/local-model-s50-c8-tp $R/local-model-s50-c8-walcached 2>&1 |
	grep -E '^(Amean +(tps|latency_avg_ms) |Tracepoint kmem:mm_page_(alloc|free|alloc_zone_locked|pcpu_drain)/s)' \
	>"$TMP/tpz.txt"
doc_rows "$TMP/tpz.txt" 6 &&
	grep -qx 'wal_cached=99.2%' "$R/local-model-s50-c8-walcached/scenario.ini" &&
	ok "docs/calibration.md run z's twin rows = the stored runs" ||
	ko "docs/calibration.md run z's twin rows = the stored runs"
share() { awk '{ r += $1; s += $2; n++ } END { printf "%d %.1f", n, 100 * r / s }' "$1"; }
z=$R/local-real-s50-c8-z
[ "$(share $z/fincore-pg_wal-start)" = "39 99.2" ] && [ "$(share $z/fincore-pg_wal-after-trace)" = "58 99.4" ] &&
	grep -q '39 segment files were$' docs/calibration.md && grep -q '99.2 % in the page cache' docs/calibration.md &&
	grep -q 'after the trace 58 files were 99.4 % cached' docs/calibration.md &&
	ok "docs/calibration.md run z's WAL cache shares = the stored fincore listings" ||
	ko "docs/calibration.md run z's WAL cache shares = the stored fincore listings"

# run aa: the page cache's tracepoints recorded, twins with and without
# the recording's wal_cached_pct
$RPT compare --window 10-150 --names machine,twin,twin-uncached $R/local-real-s50-c8-aa \
	$R/local-model-s50-c8-aa $R/local-model-s50-c8-aa-uncached 2>&1 |
	grep -E '^(Amean +(tps|latency_avg_ms) |Tracepoint )' >"$TMP/aa.txt"
doc_rows "$TMP/aa.txt" 8 &&
	grep -qx 'wal_cached=99.5%' "$R/local-model-s50-c8-aa/scenario.ini" &&
	! grep -q '^wal_cached=[1-9]' "$R/local-model-s50-c8-aa-uncached/scenario.ini" &&
	[ "$(jq '.figures.wal_cached_pct' "$R/local-real-s50-c8-aa/result.json")" = 99.519 ] &&
	ok "docs/calibration.md run aa's rows = the stored runs" ||
	ko "docs/calibration.md run aa's rows = the stored runs"

# run ab: the per-transaction CPU table, from the recordings' figures
for r in p q r tp aa ab; do
	jq -r --arg r $r '"| \($r) | \(.kernel_release | sub("6.18.44-fc-";"")) | \(.figures.probe_wake_ipi_us * 100 | round / 100) | \(.tps | round) | \(.figures.probe_server_cpu_us_per_tx | round) | \(.figures.server_cpu_us_per_tx | round) | \(.figures.machine_cpu_us_per_tx | round) | \(if .figures.machine_steal_us_per_tx then (.figures.machine_steal_us_per_tx | round | tostring) else "–" end) |"' \
		"$R/local-real-s50-c8-$r/result.json"
done >"$TMP/ab.txt"
$RPT compare --window 10-150 $R/local-real-s50-c8-ab $R/local-model-s50-c8-ab 2>&1 |
	awk '/^Amean +tps / { printf "%s %s %s\n", $3, $6, $8 }' >"$TMP/ab-tps.txt"
doc_rows "$TMP/ab.txt" 6 &&
	[ "$(cat "$TMP/ab-tps.txt")" = "2674.89 3437.51 28.51%)" ] &&
	grep -q '3 437.5$' docs/calibration.md &&
	ok "docs/calibration.md run ab's table and TPS = the stored runs" ||
	ko "docs/calibration.md run ab's table and TPS = the stored runs: $(cat "$TMP/ab-tps.txt")"

# runs ad-aj: the probe against the run, from the recordings' figures
for rc in "ad 1" "ah 1" "ag 2" "ag 4" "af 8" "ac 8" "ai 8" "aj 8" "ae 16"; do
	set -- $rc
	jq -r --arg r "$1" '.figures as $f | def t: (. * 10 | round / 10 | tostring) as $s |
			if ($s | test("\\.")) then $s else $s + ".0" end;
		"| \($r) | \($f.clients) | \($f.probe_server_cpu_us_per_tx | t) | \($f.server_cpu_us_per_tx | t) | \(if $f.sampler_cpu_us_per_tx then ($f.sampler_cpu_us_per_tx | t) else "–" end) | \($f.probe_client_cpu_us_per_tx | t) | \($f.client_cpu_us_per_tx | t) | \(if $f.probe_pinned_server_cpu_us_per_tx then ($f.probe_pinned_server_cpu_us_per_tx + $f.probe_pinned_client_cpu_us_per_tx | t) else "–" end) |"' \
		"$R/local-real-s50-c$2-$1/result.json"
done >"$TMP/probe-run.txt"
# and the twins of af, ai, aj: TPS, busy CPU per transaction, idle
for r in af ai aj; do
	$RPT compare --all --window 10-150 $R/local-real-s50-c8-$r $R/local-model-s50-c8-$r 2>&1 |
		awk -v r=$r '/^Amean +tps / { m = $3; t = $6 } /^Cpu busy_us_per_tx/ { bm = $3; bt = $4 }
			/^Cpu iowait%/ { wm = $3; wt = $4 } /^Cpu idle%/ { im = $3; it = $4 }
			END { printf "%s %.0f %.0f %.0f %.0f %.1f %.1f\n", r, m, t, bm, bt, wm + im, wt + it }'
done >"$TMP/twins.txt"
doc_rows "$TMP/probe-run.txt" 9 &&
	[ "$(tr '\n' ' ' <"$TMP/twins.txt")" = "af 3019 5183 574 380 12.7 1.6 ai 2874 3703 606 534 12.3 1.2 aj 2764 4675 630 422 12.1 1.4 " ] &&
	grep -qx '| af (`switch_refill` 0) | 3 019 | 5 183 | +71.7 % | 574 | 380 | 12.7 % | 1.6 % |' docs/calibration.md &&
	grep -qx 'switch_refill=11713' "$R/local-model-s50-c8-ai/scenario.ini" &&
	ok "docs/calibration.md runs ad-aj: probe against run, and the twins = the stored runs" ||
	ko "docs/calibration.md runs ad-aj: probe against run, and the twins = the stored runs: $(tr '\n' ' ' <"$TMP/twins.txt")"

# runs ak-ap: the twins with and without the address-space and busy
# wake-up costs, from the stored runs
for rc in "ao 4" "ak 8" "al 8" "ap 8" "an 16"; do
	set -- $rc
	$RPT compare --all --window 10-150 $R/local-real-s50-c$2-$1 $R/local-model-s50-c$2-$1-nomm \
		$R/local-model-s50-c$2-$1 2>&1 | awk -v r=$1 -v c=$2 '
		function th(n,  s) { s = sprintf("%.0f", n); if (length(s) > 3) s = substr(s, 1, length(s) - 3) " " substr(s, length(s) - 2); return s }
		function pc(a, b,  v) { v = (b / a - 1) * 100; return sprintf("%s%.1f %%", (v < 0 ? "−" : "+"), (v < 0 ? -v : v)) }
		/^Amean +tps / { m = $3; t0 = $6; t1 = $9 }
		/^Cpu busy_us_per_tx/ { bm = $3; b0 = $4; b1 = $5 }
		/^Cpu iowait%/ { wm = $3; w1 = $5 } /^Cpu idle%/ { im = $3; i1 = $5 }
		END { printf "| %s | %d | %s | %s (%s) | %s (%s) | %.0f | %.0f / %.0f | %.1f %% | %.1f %% |\n",
			r, c, th(m), th(t0), pc(m, t0), th(t1), pc(m, t1), bm, b0, b1, wm + im, w1 + i1 }'
done >"$TMP/mm.txt"
nomm_ok=1
for d in $R/local-model-s50-c*-a[klnop]-nomm; do
	grep -qx 'mm_switch=0' "$d/scenario.ini" && grep -qx 'wake_remote_busy=0' "$d/scenario.ini" || nomm_ok=0
	grep -qx 'mm_switch=[1-9][0-9]*' "${d%-nomm}/scenario.ini" && grep -qx 'mm_slots=2' "${d%-nomm}/scenario.ini" &&
		grep -qx 'wake_remote_busy=[1-9][0-9]*' "${d%-nomm}/scenario.ini" || nomm_ok=0
done
doc_rows "$TMP/mm.txt" 5 && [ $nomm_ok = 1 ] &&
	grep -qx 'tcp_remote=1860' "$R/local-model-s50-c8-ap/scenario.ini" &&
	grep -qx 'tcp_remote=0' "$R/local-model-s50-c8-ap-notcp/scenario.ini" &&
	ok "docs/calibration.md runs ak-ap: twins with and without the switch costs = the stored runs" ||
	ko "docs/calibration.md runs ak-ap: twins with and without the switch costs = the stored runs"

# runs ao-an again and aq-as: the twins before and with newidle balancing's
# task_hot rule ([kernel] migration_cost), from the stored runs
for rc in "ao 4" "ak 8" "al 8" "ap 8" "an 16" "aq 8" "ar 16" "as 4"; do
	set -- $rc
	hf=$(jq '.figures.newidle_hot_fails_per_tx' "$R/local-model-s50-c$2-$1-hot/result.json")
	$RPT compare --all --window 10-150 $R/local-real-s50-c$2-$1 $R/local-model-s50-c$2-$1 \
		$R/local-model-s50-c$2-$1-hot 2>&1 | awk -v r=$1 -v c=$2 -v hf="$hf" '
		function th(n,  s) { s = sprintf("%.0f", n); if (length(s) > 3) s = substr(s, 1, length(s) - 3) " " substr(s, length(s) - 2); return s }
		function pc(a, b,  v) { v = (b / a - 1) * 100; return sprintf("%s%.1f %%", (v < 0 ? "−" : "+"), (v < 0 ? -v : v)) }
		/^Amean +tps / { m = $3; t0 = $6; t1 = $9 }
		/^Cpu busy_us_per_tx/ { bm = $3; b0 = $4; b1 = $5 }
		/^Cpu iowait%/ { wm = $3; w0 = $4; w1 = $5 } /^Cpu idle%/ { im = $3; i0 = $4; i1 = $5 }
		END { printf "| %s | %d | %s | %s (%s) | %s (%s) | %.0f | %.0f / %.0f | %.1f %% | %.1f / %.1f %% | %.2f |\n",
			r, c, th(m), th(t0), pc(m, t0), th(t1), pc(m, t1), bm, b0, b1, wm + im, w0 + i0, w1 + i1, hf }'
done >"$TMP/hot.txt"
hot_ok=1
for d in $R/local-model-s50-c*-a[klnopqrs]-hot; do
	grep -qx 'migration_cost=500us' "$d/scenario.ini" || hot_ok=0
	# made before the key, or with it at 0
	grep -q '^migration_cost=[1-9]' "${d%-hot}/scenario.ini" && hot_ok=0
done
doc_rows "$TMP/hot.txt" 8 && [ $hot_ok = 1 ] &&
	ok "docs/calibration.md runs ao-an: twins before and with task_hot = the stored runs" ||
	ko "docs/calibration.md runs ao-an: twins before and with task_hot = the stored runs: $(tr '\n' ' ' <"$TMP/hot.txt")"

# runs ao-as again: the twins with periodic balancing and then also with
# no shared last-level cache ([kernel] periodic_balance, [machine]
# llc_cpus=1), from the stored runs
for rc in "ao 4" "ak 8" "al 8" "ap 8" "an 16" "aq 8" "ar 16" "as 4"; do
	set -- $rc
	d=$R/local-model-s50-c$2-$1
	bm=$(jq '.figures.balance_moves_per_tx' "$d-llc/result.json")
	nk=$(jq '.figures.nohz_kicks_per_tx' "$d-llc/result.json")
	$RPT compare --all --window 10-150 $R/local-real-s50-c$2-$1 $d-hot $d-bal $d-llc 2>&1 |
		awk -v r=$1 -v c=$2 -v bm="$bm" -v nk="$nk" '
		function th(n,  s) { s = sprintf("%.0f", n); if (length(s) > 3) s = substr(s, 1, length(s) - 3) " " substr(s, length(s) - 2); return s }
		function pc(a, b,  v) { v = (b / a - 1) * 100; return sprintf("%s%.1f %%", (v < 0 ? "−" : "+"), (v < 0 ? -v : v)) }
		/^Amean +tps / { m = $3; t0 = $6; t1 = $9; t2 = $12 }
		/^Amean +latency_avg_ms / { lm = $3; l2 = $12 }
		/^Cpu iowait%/ { wm = $3; w0 = $4; w1 = $5; w2 = $6 } /^Cpu idle%/ { im = $3; i0 = $4; i1 = $5; i2 = $6 }
		END { printf "| %s | %d | %s | %s | %s | %s | %s | %.1f / %.1f / %.1f / %.1f %% | %.3f / %.3f |\n",
			r, c, th(m), pc(m, t0), pc(m, t1), pc(m, t2), pc(lm, l2), wm + im, w0 + i0, w1 + i1, w2 + i2, bm, nk }'
done >"$TMP/bal.txt"
bal_ok=1
for d in $R/local-model-s50-c*-a[klnopqrs]-bal; do
	grep -qx 'periodic_balance=1' "$d/scenario.ini" && grep -qx 'llc_cpus=0' "$d/scenario.ini" &&
		grep -qx 'periodic_balance=1' "${d%-bal}-llc/scenario.ini" &&
		grep -qx 'llc_cpus=1' "${d%-bal}-llc/scenario.ini" || bal_ok=0
	# the same fitted costs as the task_hot twin
	[ "$(grep -x 'pg_tx_cpu=[0-9]*' "$d/scenario.ini")" = "$(grep -x 'pg_tx_cpu=[0-9]*' "${d%-bal}-hot/scenario.ini")" ] || bal_ok=0
done
doc_rows "$TMP/bal.txt" 8 && [ $bal_ok = 1 ] &&
	ok "docs/calibration.md runs ao-as: twins with periodic balancing and llc_cpus=1 = the stored runs" ||
	ko "docs/calibration.md runs ao-as: twins with periodic balancing and llc_cpus=1 = the stored runs: $(tr '\n' ' ' <"$TMP/bal.txt")"

# runs ao-as again: the llc_cpus=1 twins with the util rule of idle
# balancing (PELT, src/sim/pelt.c), from the stored runs
for rc in "ao 4" "ak 8" "al 8" "ap 8" "an 16" "aq 8" "ar 16" "as 4"; do
	set -- $rc
	d=$R/local-model-s50-c$2-$1
	np=$(jq '.figures.newidle_pulls_per_tx' "$d-util/result.json")
	nu=$(jq '.figures.newidle_util_fails_per_tx' "$d-util/result.json")
	nh=$(jq '.figures.newidle_hot_fails_per_tx' "$d-util/result.json")
	$RPT compare --all --window 10-150 $R/local-real-s50-c$2-$1 $d-llc $d-util 2>&1 |
		awk -v r=$1 -v c=$2 -v np="$np" -v nu="$nu" -v nh="$nh" '
		function th(n,  s) { s = sprintf("%.0f", n); if (length(s) > 3) s = substr(s, 1, length(s) - 3) " " substr(s, length(s) - 2); return s }
		function pc(a, b,  v) { v = (b / a - 1) * 100; return sprintf("%s%.1f %%", (v < 0 ? "−" : "+"), (v < 0 ? -v : v)) }
		/^Amean +tps / { m = $3; t0 = $6; t1 = $9 }
		/^Amean +latency_avg_ms / { lm = $3; l1 = $9 }
		/^Cpu iowait%/ { wm = $3; w0 = $4; w1 = $5 } /^Cpu idle%/ { im = $3; i0 = $4; i1 = $5 }
		END { printf "| %s | %d | %s | %s | %s | %s | %.1f / %.1f / %.1f %% | %.3f / %.3f / %.3f |\n",
			r, c, th(m), pc(m, t0), pc(m, t1), pc(lm, l1), wm + im, w0 + i0, w1 + i1, np, nu, nh }'
done >"$TMP/util.txt"
util_ok=1
for d in $R/local-model-s50-c*-a[klnopqrs]-util; do
	# the -llc twin's scenario, run again by a binary with the util rule
	[ "$(grep -v '^;' "$d/scenario.ini" | sort)" = "$(grep -v '^;' "${d%-util}-llc/scenario.ini" | sort)" ] || util_ok=0
	jq -e '.figures | has("newidle_util_fails_per_tx")' "$d/result.json" >/dev/null || util_ok=0
done
doc_rows "$TMP/util.txt" 8 && [ $util_ok = 1 ] &&
	ok "docs/calibration.md runs ao-as: twins with the util rule = the stored runs" ||
	ko "docs/calibration.md runs ao-as: twins with the util rule = the stored runs: $(tr '\n' ' ' <"$TMP/util.txt")"

# the context switches per transaction on this VM: four recordings at 8
# clients (autogroup on, off, off, on) and ap's twin with and without
# RUN_TO_PARITY, from the stored runs
for rc in "csw-ag1a on" "csw-ag0a off" "csw-ag0b off" "csw-ag1b on" "twin –" "twin-nortp –"; do
	set -- $rc
	case $1 in
	twin) d=$R/local-model-s50-c8-ap-csw; real=$R/local-real-s50-c8-csw-ag1a
	      lab="twin of ap (\`run_to_parity\` on)" ;;
	twin-nortp) d=$R/local-model-s50-c8-ap-nortp; real=$R/local-real-s50-c8-csw-ag1a
	      lab="twin of ap, \`run_to_parity=off\`" ;;
	*) d=$R/local-real-s50-c8-$1; real=$d; lab="machine, \`$1\`" ;;
	esac
	cf() { jq ".figures.$1" "$d/result.json"; }
	$RPT compare --all --window 10-150 $real $d 2>&1 |
		awk -v lab="$lab" -v ag="$2" -v sv="$(cf server_voluntary_csw_per_tx)" \
		    -v sn="$(cf server_nonvoluntary_csw_per_tx)" -v cv="$(cf client_voluntary_csw_per_tx)" \
		    -v cn="$(cf client_nonvoluntary_csw_per_tx)" '
		function th(n,  s) { s = sprintf("%.0f", n); if (length(s) > 3) s = substr(s, 1, length(s) - 3) " " substr(s, length(s) - 2); return s }
		/^Amean +tps / { t = $6 }
		/^Cpu busy_us_per_tx/ { b = $4 }
		/^Cpu iowait%/ { w = $4 } /^Cpu idle%/ { i = $4 }
		END { printf "| %s | %s | %s | %.0f | %.1f %% | %.2f / %.2f | %.2f / %.2f |\n",
			lab, ag, th(t), b, w + i, sv, sn, cv, cn }'
done >"$TMP/csw.txt"
csw_ok=1
# the twins: ap's util twin run again, RUN_TO_PARITY on and off
[ "$(grep -v '^;' $R/local-model-s50-c8-ap-util/scenario.ini | grep -v '^run_to_parity=' | sort)" = \
  "$(grep -v '^;' $R/local-model-s50-c8-ap-csw/scenario.ini | grep -v '^run_to_parity=' | sort)" ] || csw_ok=0
grep -qx 'run_to_parity=1' $R/local-model-s50-c8-ap-csw/scenario.ini &&
	grep -qx 'run_to_parity=0' $R/local-model-s50-c8-ap-nortp/scenario.ini || csw_ok=0
doc_rows "$TMP/csw.txt" 6 && [ $csw_ok = 1 ] &&
	ok "docs/calibration.md context switches at 8 clients = the stored runs" ||
	ko "docs/calibration.md context switches at 8 clients = the stored runs: $(tr '\n' ' ' <"$TMP/csw.txt")"


# DELAY_DEQUEUE in the eight twins: each -util twin's scenario run again
# with the feature off (-nodd, the stored run's figures) and on (-dd),
# against the recordings, from the stored runs
for rc in "ao 4" "as 4" "ak 8" "al 8" "ap 8" "aq 8" "an 16" "ar 16"; do
	set -- $rc
	d=$R/local-model-s50-c$2-$1
	$RPT compare --all --window 10-150 $R/local-real-s50-c$2-$1 $d-nodd $d-dd 2>&1 |
		awk -v r=$1 -v c=$2 '
		function th(n,  s) { s = sprintf("%.0f", n); if (length(s) > 3) s = substr(s, 1, length(s) - 3) " " substr(s, length(s) - 2); return s }
		function pc(a, b,  v) { v = (b / a - 1) * 100; return sprintf("%s%.1f %%", (v < 0 ? "−" : "+"), (v < 0 ? -v : v)) }
		/^Amean +tps / { m = $3; t0 = $6; t1 = $9 }
		/^Cpu iowait%/ { wm = $3; w0 = $4; w1 = $5 } /^Cpu idle%/ { im = $3; i0 = $4; i1 = $5 }
		END { printf "| %s (%d) | %s | %.1f %% | %s (%s) | %.1f %% | %s (%s) | %.1f %% |\n",
			r, c, th(m), wm + im, th(t0), pc(m, t0), w0 + i0, th(t1), pc(m, t1), w1 + i1 }'
	fx() { jq ".figures.$2" "$d-$1/result.json"; }
	awk -v r=$1 -v s0="$(fx nodd server_nonvoluntary_csw_per_tx)" -v s1="$(fx dd server_nonvoluntary_csw_per_tx)" \
	    -v c0="$(fx nodd client_nonvoluntary_csw_per_tx)" -v c1="$(fx dd client_nonvoluntary_csw_per_tx)" \
	    -v b0="$(fx nodd busy_wakeup_resched_pct)" -v b1="$(fx dd busy_wakeup_resched_pct)" \
	    -v dq="$(fx dd delayed_dequeues_per_tx)" -v dw="$(fx dd delayed_wakeups_per_tx)" 'BEGIN {
		printf "| %s | %.2f / %.2f | %.2f / %.2f | %.1f / %.1f %% | %.2f | %.2f |\n",
			r, s0, s1, c0, c1, b0, b1, dq, dw }' >>"$TMP/dd-tx.txt"
done >"$TMP/dd.txt"
dd_ok=1
for d in $R/local-model-s50-c*-a[klnopqrs]-dd; do
	u=${d%-dd}
	# the -util twin's scenario with the feature on and off, the off run
	# the stored -util run's TPS
	for v in nodd dd; do
		[ "$(grep -v '^;' "$u-util/scenario.ini" | grep -v '^run_to_parity=\|^delay_dequeue=' | sort)" = \
		  "$(grep -v '^;' "$u-$v/scenario.ini" | grep -v '^run_to_parity=\|^delay_dequeue=' | sort)" ] || dd_ok=0
	done
	grep -qx 'delay_dequeue=1' "$d/scenario.ini" && grep -qx 'delay_dequeue=0' "$u-nodd/scenario.ini" || dd_ok=0
	[ "$(jq .tps "$u-util/result.json")" = "$(jq .tps "$u-nodd/result.json")" ] || dd_ok=0
done
doc_rows "$TMP/dd.txt" 8 && doc_rows "$TMP/dd-tx.txt" 8 && [ $dd_ok = 1 ] &&
	ok "docs/calibration.md delayed dequeue in the twins = the stored runs" ||
	ko "docs/calibration.md delayed dequeue in the twins = the stored runs: $(cat "$TMP/dd.txt" "$TMP/dd-tx.txt" | tr '\n' ' ')"
rpt_done
