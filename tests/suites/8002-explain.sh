#!/bin/sh
# Golden tests of `slowpath explain`: the perf-report-like tree of the
# baseline fixture (mean of 3 iterations), one kind with CPU time only,
# and the perf-diff-like comparison baseline vs noretry-nonblocking; a
# recorded folder (no profile) and bad profiles are errors with status 2.
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
   grep -Eq '^ +\+[0-9.]+% +[0-9.]+ +new +wakeup_kcompactd$' "$TMP/diffall.txt"; then
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
rpt_done
