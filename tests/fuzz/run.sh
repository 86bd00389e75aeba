#!/bin/sh
# Runs libFuzzer targets.  smoke: a short run per target (CI);
# long: FUZZ_SECONDS per target, prints execution counts.
set -eu
mode=$1; shift
[ "$#" -eq 0 ] && { echo "fuzz: no targets"; exit 0; }
secs=10
[ "$mode" = long ] && secs=${FUZZ_SECONDS:-60}
for t in "$@"; do
	name=$(basename "$t")
	corpus=tests/fuzz/corpus/${name#fuzz_}
	mkdir -p build/fuzz/work-$name
	seeds=""
	[ -d "$corpus" ] && seeds=$corpus
	echo "== $name (${secs}s)"
	"$t" -max_total_time="$secs" -print_final_stats=1 build/fuzz/work-$name $seeds 2>&1 \
		| grep -E 'stat::number_of_executed_units|ERROR|SUMMARY' || true
	[ "${PIPESTATUS:-0}" = 0 ] || exit 1
done
