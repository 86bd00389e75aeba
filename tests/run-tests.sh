#!/bin/sh
# Runs every test against one build flavour and prints the total as the
# last line: "N passed, N failed".
#
#   tests/run-tests.sh build/dbg
#
# Test programs: build/<flavour>/tests/test_* (unit tests), then every
# executable tests/suites/*.sh (golden, determinism, CLI error paths, ...),
# each called with the build directory.  Every program must end its output
# with a line "<name>: N passed, M failed".
set -u
build=${1:?usage: tests/run-tests.sh BUILD_DIR}
total_pass=0
total_fail=0
failed_progs=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_one() {
	name=$1; shift
	"$@" >"$log" 2>&1
	rc=$?
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

for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "$(basename "$t")" "$t"
done
for s in tests/suites/*.sh; do
	[ -x "$s" ] || continue
	run_one "$(basename "$s")" "$s" "$build"
done
[ -n "$failed_progs" ] && echo "failing:$failed_progs"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
