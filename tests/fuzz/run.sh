#!/bin/sh
# Runs libFuzzer targets.  smoke: a short run per target (CI);
# long: FUZZ_SECONDS per target.  Prints each target's execution count
# and exits non-zero when any target fails (crash, leak, timeout, trap),
# leaving the reproducer in build/fuzz/<target>-crash-* and the log in
# build/fuzz/<target>.log.
set -u
mode=${1:?usage: tests/fuzz/run.sh smoke|long TARGET...}
shift
[ "$#" -eq 0 ] && { echo "fuzz: no targets"; exit 0; }
secs=10
[ "$mode" = long ] && secs=${FUZZ_SECONDS:-60}
status=0
for t in "$@"; do
	name=$(basename "$t")
	corpus=tests/fuzz/corpus/${name#fuzz_}
	work=build/fuzz/work-$name
	log=build/fuzz/$name.log
	mkdir -p "$work"
	seeds=""
	[ -d "$corpus" ] && seeds=$corpus
	echo "== $name (${secs}s)"
	# $seeds is a single path or empty: word splitting is intended.
	# shellcheck disable=SC2086
	"$t" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="build/fuzz/$name-" \
		"$work" $seeds >"$log" 2>&1
	rc=$?
	grep -E 'stat::number_of_executed_units|ERROR|SUMMARY' "$log"
	if [ "$rc" -ne 0 ]; then
		echo "$name: FAILED (exit status $rc); log: $log"
		tail -n 40 "$log"
		status=1
	fi
done
exit $status
