#!/bin/sh
# The simulation fuzzer's smoke run: generated valid but
# extreme scenarios (tests/fuzz/simfuzz_gen.c), seeds 1..SIMFUZZ_SMOKE_SEEDS
# (default 40: a fixed set, so the result does not depend on the machine's
# speed; ~35 s under ASan), each under a time limit; a hang, a
# crash, a sanitizer report or a BUG fails.  It runs under the sanitizer
# build only (make check-san): that is where a finding is a finding, and CI
# pays for it once.  `make fuzz` runs it longer from a new seed.
. tests/suites/0000-cli.inc
cli_init "$1" 0011-sim-fuzz
if ! grep -q __asan_init "$SP" 2>/dev/null; then
	echo "skipped: $SP is not a sanitizer build (make check-san runs this suite)"
	cli_done
	exit 0
fi
SIMFUZZ_COUNT=${SIMFUZZ_SMOKE_SEEDS:-40} tests/fuzz/simfuzz.sh "$BUILD" 0 1 "$TMP/work" >"$TMP/log" 2>&1
rc=$?
grep -v '^ok ' "$TMP/log" | grep -v 'passed, .* failed$'
line=$(grep -E '^simfuzz: [0-9]+ passed' "$TMP/log")
PASS=$(echo "$line" | sed -E 's/simfuzz: ([0-9]+) passed.*/\1/')
FAIL=$(echo "$line" | sed -E 's/.*, ([0-9]+) failed/\1/')
[ -n "$PASS" ] || { PASS=0; FAIL=1; }
[ "$rc" -eq 0 ] || [ "$FAIL" -gt 0 ] || FAIL=1
cli_done
