#!/bin/sh
# Runs every test against one build flavour and prints the total as the
# last line: "N passed, N failed".
#
#   tests/run-tests.sh build/dbg            (TEST_JOBS=N programs at once, default 2)
#
# Test programs: build/<flavour>/tests/test_* (unit tests), then every
# executable tests/suites/*.sh (golden, determinism, CLI error paths, ...),
# each called with the build directory.  Every program must end its output
# with a line "<name>: N passed, M failed".  Programs run TEST_JOBS at a
# time (each suite works in its own mktemp directory); their reports are
# printed in the fixed order above, whatever order they finish in.
set -u
build=${1:?usage: tests/run-tests.sh BUILD_DIR}
jobs=${TEST_JOBS:-2}
total_pass=0
total_fail=0
failed_progs=""
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The programs, one per line: NAME PROGRAM [BUILD_DIR]
for t in "$build"/tests/test_*; do
	[ -x "$t" ] && printf '%s %s\n' "$(basename "$t")" "$t"
done >"$dir/list"
for s in tests/suites/*.sh; do
	[ -x "$s" ] && printf '%s %s %s\n' "$(basename "$s")" "$s" "$build"
done >>"$dir/list"

# Run them: line K's output goes to K.log, its exit status to K.rc.  The
# programs named in tests/slow-first (the longest, slowest first) start
# before the others, so that no long one is left running alone at the
# end; the reports keep the order above.
awk 'NR == FNR { if ($1 !~ /^#/ && NF) slow[$1] = NR; next }
     { line[FNR] = FNR " " $0; if ($1 in slow) first[slow[$1]] = FNR; else rest[++nr] = FNR }
     END { for (i = 1; i <= 1000; i++) if (i in first) print line[first[i]]
           for (i = 1; i <= nr; i++) print line[rest[i]] }' tests/slow-first "$dir/list" |
	xargs -P "$jobs" -L 1 sh -c 'k=$1; shift 2; "$@" >"'"$dir"'/$k.log" 2>&1; echo $? >"'"$dir"'/$k.rc"' sh

report() {
	name=$1 log=$2 rc=$3
	line=$(grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		cat "$log"
		echo "$name: no summary line (exit status $rc)"
		total_fail=$((total_fail + 1))
		failed_progs="$failed_progs $name"
		return
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/')
	f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/')
	if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
		grep -v '^ok  ' "$log"
		[ "$f" -eq 0 ] && f=1
		failed_progs="$failed_progs $name"
	fi
	echo "$line"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

k=0
while read -r name _; do
	k=$((k + 1))
	rc=$(cat "$dir/$k.rc" 2>/dev/null || echo 127)
	report "$name" "$dir/$k.log" "$rc"
done <"$dir/list"
# a suite (NNNN-name.sh; the others are sourced libraries) without its
# executable bit would never run: it fails instead
for s in tests/suites/[0-9][0-9][0-9][0-9]-*.sh; do
	if [ ! -x "$s" ]; then
		echo "$(basename "$s"): not executable, so never run (chmod +x)"
		total_fail=$((total_fail + 1))
		failed_progs="$failed_progs $(basename "$s")"
	fi
done
[ -n "$failed_progs" ] && echo "failing:$failed_progs"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
