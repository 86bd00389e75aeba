#!/bin/sh
# Golden tests of `slowpath explain`: the perf-report-like tree of the
# baseline fixture (mean of 3 iterations), one kind with CPU time only,
# the tree rooted at one function (--focus), and the perf-diff-like
# comparison baseline vs noretry-nonblocking; a recorded folder (no
# profile) and bad profiles (a negative from_ns too) are errors with status 2.  On a short
# costly-noretry run the default ranking leaves the kernel threads' idle
# sleep out of the 100% and lists it apart.
. tests/suites/8000-report.inc
rpt_init "$1" 8002-explain

$RPT explain "$FIX/base" >"$TMP/tree.txt" 2>&1
golden 8002-explain-tree.txt "$TMP/tree.txt"
$RPT explain --kind backend --time cpu --percent-limit 0 "$FIX/base" >"$TMP/cpu.txt" 2>&1
golden 8002-explain-backend-cpu.txt "$TMP/cpu.txt"
$RPT explain "$FIX/base" --diff "$FIX/nonblocking" >"$TMP/diff.txt" 2>&1
golden 8002-explain-diff.txt "$TMP/diff.txt"
$RPT explain --time wait "$FIX/base" --diff "$FIX/nonblocking" >"$TMP/diffw.txt" 2>&1
golden 8002-explain-diff-wait.txt "$TMP/diffw.txt"

$RPT explain --kind backend --percent-limit 0 "$FIX/base" --diff "$FIX/nonblocking" >"$TMP/diffall.txt" 2>&1
golden 8002-explain-diff-backend-all.txt "$TMP/diffall.txt"
# Paths only one side has: direct compaction is gone under
# noretry-nonblocking, waking kcompactd is new.
if grep -Eq ' gone +__alloc_pages_direct_compact$' "$TMP/diffall.txt" &&
   grep -Eq '^ +\+[0-9.]+% +[0-9.]+ (ns|µs|ms|s) +new +wakeup_kcompactd$' "$TMP/diffall.txt"; then
	ok "diff marks gone and new paths"
else
	ko "diff marks gone and new paths"
fi

# Children of a node = its self + its children's: check on the backend
# root of the CPU-only tree (Children 100% while Self is small).
if sed -n 6p "$TMP/cpu.txt" | grep -Eq '^ +100\.00% +[0-9.]+% .*backend'; then
	ok "kind tree sums to 100%"
else
	ko "kind tree sums to 100%"
fi
# The slow path shrinks under noretry-nonblocking, and the diff says so.
if grep -Eq ' -9[0-9]\.[0-9]+% +__alloc_pages_slowpath$' "$TMP/diff.txt"; then
	ok "diff shows the slow path shrinking"
else
	ko "diff shows the slow path shrinking"
fi

# --focus: every call of the slow path, from both callers (backend and
# walwriter), merged under one root that is 100%.
$RPT explain --focus __alloc_pages_slowpath --percent-limit 0 "$FIX/base" >"$TMP/focus.txt" 2>&1
golden 8002-explain-focus.txt "$TMP/focus.txt"
if sed -n 6p "$TMP/focus.txt" | grep -Eq '^ +100\.00% +[0-9.]+% .* 88467\.7  __alloc_pages_slowpath$' &&
   grep -Eq '^ +[0-9.]+% .*   __alloc_pages_direct_compact$' "$TMP/focus.txt"; then
	ok "--focus roots the tree at the function, calls of both callers summed"
else
	ko "--focus roots the tree at the function, calls of both callers summed"
fi
# --focus on a name with arguments ("__alloc_pages order=4") by its first word.
if $RPT explain --focus __alloc_pages "$FIX/base" | sed -n 6p | grep -q '100.00%.*  __alloc_pages$'; then
	ok "--focus matches a node by its function name"
else
	ko "--focus matches a node by its function name"
fi
expect_status "unknown --focus" 2 "no function 'nosuch'" $RPT explain --focus nosuch "$FIX/base"
expect_status "--focus without a value" 2 \
	"slowpath explain: option '--focus' needs a value (see slowpath explain --help)" \
	$RPT explain "$FIX/base" --focus
expect_status "bad --percent-limit" 2 "bad --percent-limit '200': expected" \
	$RPT explain --percent-limit 200 "$FIX/base"

# Readable units: seconds for the backend's minutes of CPU, ms below.
if grep -Eq '^ +88\.02% +0\.45% +359\.17 s +1\.93 s ' "$TMP/tree.txt" &&
   grep -Eq ' 537\.91 ms ' "$TMP/tree.txt"; then
	ok "times in the unit that fits"
else
	ko "times in the unit that fits"
fi

# Idle waits on a (shrunk) costly-noretry run: kswapd, kcompactd,
# vmstat_update and the writers sleep most of the run between wake-ups.
# By default that sleep is not ranked: the slow path's share is larger
# than when idle waits count (--time all), and the footer lists them.
SP=$BUILD/slowpath
if "$SP" run scenarios/costly-noretry.ini --scale 1/64 --set global.duration=2s \
	--set global.ramp_time=500ms --out "$TMP/cn" >/dev/null 2>&1; then
	$RPT explain "$TMP/cn" >"$TMP/cn-work.txt" 2>&1
	$RPT explain --time all "$TMP/cn" >"$TMP/cn-all.txt" 2>&1
	$RPT explain --focus __alloc_pages_slowpath "$TMP/cn" >"$TMP/cn-slow.txt" 2>&1
	# share of the kswapd kind (its line) in each ranking
	ks_work=$(awk '/^ .*  kswapd  \[/ { sub("%", "", $1); print $1 }' "$TMP/cn-work.txt")
	ks_all=$(awk '/^ .*  kswapd  \[/ { sub("%", "", $1); print $1 }' "$TMP/cn-all.txt")
	slow=$(hundred_pct "$TMP/cn-slow.txt")
	work=$(hundred_pct "$TMP/cn-work.txt")
	all=$(hundred_pct "$TMP/cn-all.txt")
	if awk -v w="$ks_work" -v a="$ks_all" 'BEGIN { exit !(w + 0 < 5 && a + 0 > 10) }'; then
		ok "costly-noretry: kswapd's idle sleep is not ranked by default (${ks_work}% vs ${ks_all}% with --time all)"
	else
		ko "costly-noretry: kswapd's idle sleep is not ranked by default (${ks_work}% vs ${ks_all}% with --time all)"
	fi
	if awk -v s="$slow" -v w="$work" -v a="$all" 'BEGIN { exit !(s > 0 && s / w > 2 * s / a) }'; then
		ok "costly-noretry: the slow path's share of ranked time is more than twice that with idle waits"
	else
		ko "costly-noretry: the slow path's share of ranked time is more than twice that with idle waits"
	fi
	if grep -q '^# Idle waits' "$TMP/cn-work.txt" && grep -Eq '^# +[0-9.]+ (ms|s)  kswapd  \[1 task\]$' "$TMP/cn-work.txt" &&
	   ! grep -q '^# Idle waits' "$TMP/cn-all.txt" && grep -q ' idle ' "$TMP/cn-all.txt"; then
		ok "costly-noretry: idle waits listed apart (an idle column with --time all)"
	else
		ko "costly-noretry: idle waits listed apart (an idle column with --time all)"
	fi
	# The profile counts from ramp_time (0.5 s of 2 s): every task's time,
	# idle included, adds up to the 1.5 s after it, and the header says so.
	tasks=$(awk '/^ .*  \[[0-9]+ tasks?\]$/ { n += substr($(NF - 1), 2) } END { print n + 0 }' "$TMP/cn-all.txt")
	if sed -n 2p "$TMP/cn-all.txt" | grep -q ', time from 0.5 s (ramp_time)$' &&
	   awk -v a="$all" -v n="$tasks" 'BEGIN { exit !(n > 0 && a > 0.999 * n * 1.5e9 && a < 1.001 * n * 1.5e9) }'; then
		ok "costly-noretry: the profile counts from ramp_time (${tasks} tasks x 1.5 s = ${all} ns with --time all)"
	else
		ko "costly-noretry: the profile counts from ramp_time (${tasks} tasks x 1.5 s = ${all} ns with --time all)"
	fi
else
	ko "costly-noretry run"
fi

expect_status "recorded has no profile" 2 "results/recorded: no profile.json" \
	$RPT explain "$FIX/recorded"
expect_status "unknown kind" 2 "no task kind 'nosuch'" $RPT explain --kind nosuch "$FIX/base"
expect_status "bad --time" 2 "bad --time 'cpu,disk'" $RPT explain --time cpu,disk "$FIX/base"
mkdir -p "$TMP/p1" "$TMP/p2"
cp "$FIX/single/result.json" "$TMP/p1/"
cp "$FIX/single/result.json" "$TMP/p2/"
printf '{"schema": "slowpath-profile/1", "unit": "ns", "kinds": [\n {"kind": "x", "root": {"name": "x", "self": {"cpu": -5}}}]}\n' \
	>"$TMP/p1/profile.json"
expect_status "negative time" 2 "p1/profile.json: node 'x': negative 'cpu'" $RPT explain "$TMP/p1"
printf '{"schema": "slowpath-profile/1", "unit": "ns",\n "kinds": [\n  {"kind": "x", "root": {"name": "x",, }}]}\n' \
	>"$TMP/p2/profile.json"
expect_status "malformed profile" 2 "p2/profile.json:3:" $RPT explain "$TMP/p2"
printf '{"schema": "slowpath-profile/1", "unit": "ns", "from_ns": -1,\n "kinds": []}\n' >"$TMP/p2/profile.json"
expect_status "negative from_ns" 2 "p2/profile.json: 'from_ns' is negative" $RPT explain "$TMP/p2"
rpt_done
