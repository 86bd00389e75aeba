#!/bin/sh
# `slowpath report --html`: one self-contained page with the comparison,
# the attribution and the plots.  Checked without a browser here: no
# script, every src/href is a data: URI or an in-page anchor, the parts
# are there, the same folders give the same bytes, usage errors give 2.
# 8005 opens the page in headless Chromium.
. tests/suites/8000-report.inc
rpt_init "$1" 8004-report-html

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "skip: gnuplot not installed"
	rpt_done
	exit $?
fi
$RPT report "$FIX/base" "$FIX/nonblocking" "$FIX/single" "$FIX/recorded" --html "$TMP/r1.html" \
	>"$TMP/out" 2>&1 && ok "report written" || { cat "$TMP/out"; ko "report written"; }
$RPT report "$FIX/base" "$FIX/nonblocking" "$FIX/single" "$FIX/recorded" --html "$TMP/r2.html" \
	>"$TMP/out" 2>&1
cmp -s "$TMP/r1.html" "$TMP/r2.html" && ok "deterministic" || ko "deterministic"
[ ! -e "$TMP/r1.html.tmp" ] && ok "no temporary left" || ko "no temporary left"

P=$TMP/r1.html
if ! grep -qi '<script' "$P" &&
   [ -z "$(grep -oE '(src|href)="[^"]*"' "$P" | grep -vE '^(src|href)="(data:|#)')" ]; then
	ok "self-contained"
else
	grep -oE '(src|href)="[^"]*"' "$P" | grep -vE '^(src|href)="(data:|#)' | head -n 5
	ko "self-contained"
fi
n=$(grep -c '<img alt=' "$P")
[ "$n" -eq 11 ] && ok "eleven plots embedded" || { echo "  $n plots"; ko "eleven plots embedded"; }
if grep -q '<td class="sig better">\*' "$P" && grep -q 'Ops Compaction cost' "$P" &&
   grep -q 'base &#8594;\|base → nonblocking' "$P" && grep -q 'LWLockAcquire WALWriteLock' "$P"; then
	ok "comparison, significance and attribution present"
else
	ko "comparison, significance and attribution present"
fi
# The summary repeats the comparison's key rows verbatim (the same cells
# of the same model), after the plots and before the full table.
sed -n '/<h2 id="summary">/,/<\/table>/p' "$P" | grep '^<tr><td>Hmean</td><td>tps</td>' >"$TMP/sum_tps"
sed -n '/<h2 id="compare">/,/<\/details>/p' "$P" | grep '^<tr><td>Hmean</td><td>tps</td>' >"$TMP/cmp_tps"
line() { grep -n "$1" "$P" | head -n 1 | cut -d: -f1; }
if [ -s "$TMP/sum_tps" ] && cmp -s "$TMP/sum_tps" "$TMP/cmp_tps" &&
   [ "$(line 'id="summary"')" -lt "$(line 'id="compare"')" ] &&
   sed -n '/<h2 id="summary">/,/<\/table>/p' "$P" | grep -q '<td colspan="2">Per-M-written allocstall</td>' &&
   ! sed -n '/<h2 id="summary">/,/<\/table>/p' "$P" | grep -q '<td>Min</td>'; then
	ok "summary: the key rows, as in the comparison, first"
else
	ko "summary: the key rows, as in the comparison, first"
fi
# Plots come first; the full table is folded.
if [ "$(line 'id="plots"')" -lt "$(line 'id="summary"')" ] &&
   [ "$(line '<img alt=')" -lt "$(line 'id="summary"')" ] &&
   sed -n '/<h2 id="compare">/{n;p}' "$P" | grep -q '^<details><summary>Every row'; then
	ok "plots first, the full table in <details>"
else
	ko "plots first, the full table in <details>"
fi
# The page's comparison is the text table (compare --all), cell for cell,
# once the markup is taken out and runs of blanks are squeezed.
squeeze() { sed -e 's/  */ /g' -e 's/^ //' -e 's/ $//' -e '/^$/d'; }
sed -n '/<h2 id="compare">/,/<\/details>/p' "$P" | sed '1,2d;$d' |
	sed -e '/^<\/*table/d' -e 's/<\/t[dh]><t[dh][^>]*>/ /g' -e 's/<[^>]*>//g' \
	-e 's/&gt;/>/g' -e 's/&lt;/</g' -e 's/&quot;/"/g' -e 's/&amp;/\&/g' | squeeze >"$TMP/fromhtml.txt"
$RPT compare --all "$FIX/base" "$FIX/nonblocking" "$FIX/single" "$FIX/recorded" | squeeze >"$TMP/cmp.txt"
diff -u "$TMP/cmp.txt" "$TMP/fromhtml.txt" >"$TMP/d" && ok "html table = text table" ||
	{ head -n 20 "$TMP/d"; ko "html table = text table"; }
# A significant change of a metric without a direction (a figure) is
# marked, but coloured neither better nor worse.
cp -r "$FIX/nonblocking" "$TMP/pt"
for i in 1 2 3; do
	sed -i 's/^  "pagetables_share": \([0-9]*\)\./  "pagetables_share": 5\1./' "$TMP/pt/iter-$i/result.json"
done
$RPT report "$FIX/base" "$TMP/pt" --html "$TMP/pt.html" --no-plots >"$TMP/out" 2>&1
if grep '^<tr><td>Amean</td><td>pagetables_share</td>' "$TMP/pt.html" | grep -q '<td class="sig">\*' &&
   ! grep '<td>pagetables_share</td>' "$TMP/pt.html" | grep -Eq 'better|worse' &&
   grep '^<tr><td>Amean</td><td>latency_p99_ms</td>' "$TMP/pt.html" | grep -q 'class="sig better"'; then
	ok "a significant figure is not coloured as better or worse"
else
	grep '<td>pagetables_share</td>' "$TMP/pt.html" | head -n 3
	ko "a significant figure is not coloured as better or worse"
fi

$RPT report "$FIX/recorded" --html "$TMP/rec.html" --no-plots >"$TMP/out" 2>&1 &&
	grep -q 'No result carries a profile' "$TMP/rec.html" && ok "recorded only, no plots" ||
	ko "recorded only, no plots"
SLOWPATH=$RPT scripts/demo-report.sh -o "$TMP/demo/index.html" "$FIX/base" "$FIX/nonblocking" \
	>"$TMP/demo.out" 2>&1
if [ "$(cat "$TMP/demo.out")" = "report: $TMP/demo/index.html" ] && [ -s "$TMP/demo/index.html" ] &&
   [ -s "$TMP/demo/plots/tps.svg" ]; then
	ok "scripts/demo-report.sh"
else
	cat "$TMP/demo.out"
	ko "scripts/demo-report.sh"
fi
expect_status "no --html" 2 "give --html OUT" $RPT report "$FIX/base"
expect_status "no folder" 2 "no result folder" $RPT report --html "$TMP/x.html"
expect_status "bad folder" 2 "nosuch: no result.json" $RPT report "$TMP/nosuch" --html "$TMP/x.html"
[ ! -e "$TMP/x.html" ] && ok "nothing written on error" || ko "nothing written on error"

# Output paths (issue 15 items 3, 4): an empty one is a usage error (it
# once overflowed a heap buffer), a directory is refused, and what is not
# a regular file -- a FIFO, a device, a symbolic link -- is written in
# place, never replaced by a regular file (as root, /dev/full once was).
expect_status "empty --html" 2 "--html needs a non-empty path" $RPT report "$FIX/base" --html ''
mkdir "$TMP/adir"
expect_status "--html DIR" 2 "is a directory" $RPT report "$FIX/base" --html "$TMP/adir" --no-plots
mkfifo "$TMP/fifo"
timeout 60 cat "$TMP/fifo" >"$TMP/fromfifo" &
timeout 60 $RPT report "$FIX/base" --html "$TMP/fifo" --no-plots >"$TMP/out" 2>&1
wait
if [ -p "$TMP/fifo" ] && grep -q '</html>' "$TMP/fromfifo" && [ ! -e "$TMP/fifo.tmp" ]; then
	ok "a FIFO stays a FIFO"
else
	ko "a FIFO stays a FIFO"
fi
# Device nodes: copies of /dev/null and /dev/full made here (root only),
# so a regression cannot replace the real ones.
if mknod "$TMP/null" c 1 3 2>/dev/null && mknod "$TMP/full" c 1 7 2>/dev/null; then
	$RPT report "$FIX/base" --html "$TMP/null" --no-plots >"$TMP/out" 2>&1 && [ -c "$TMP/null" ] &&
		ok "a device stays a device" || { cat "$TMP/out"; ko "a device stays a device"; }
	expect_status "a full device: the write error is reported" 1 "$TMP/full: write error" \
		$RPT report "$FIX/base" --html "$TMP/full" --no-plots
	[ -c "$TMP/full" ] && ok "a full device stays a device" || ko "a full device stays a device"
fi
: >"$TMP/target.html"
ln -s target.html "$TMP/link.html"
$RPT report "$FIX/base" --html "$TMP/link.html" --no-plots >"$TMP/out" 2>&1
[ -L "$TMP/link.html" ] && grep -q '</html>' "$TMP/target.html" && ok "a symlink is written through" ||
	ko "a symlink is written through"
rpt_done
