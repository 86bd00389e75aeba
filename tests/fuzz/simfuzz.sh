#!/bin/sh
# The simulation fuzzer (issue 15 item 11): valid but extreme scenarios,
# one per seed from tests/fuzz/simfuzz_gen.c (tiny machines, runs of a
# few milliseconds, every workload kind, keys at the edges of their
# ranges, zero costs), each run by BUILD's slowpath with a time limit.
#
#   tests/fuzz/simfuzz.sh BUILD_DIR SECONDS FIRST_SEED WORK_DIR
#
# Seeds FIRST_SEED, FIRST_SEED+1, ... are run until SECONDS have passed,
# or, with SIMFUZZ_COUNT=N, exactly N seeds whatever the time (the CI smoke
# must not depend on the machine's speed).
# A run passes when it exits 0 (a result) or 2 (refused with a message);
# it fails on a time-limit hit (a hang), a signal, a sanitizer report, a
# BUG, or exit status 1.  Each failure leaves WORK_DIR/seed-N.ini (the
# reproducer: `slowpath run WORK_DIR/seed-N.ini`) and seed-N.err, and is
# printed with its scenario.  Prints "ok   seed N" / "FAIL seed N" lines and
# ends with "simfuzz: N passed, M failed"; nothing is written outside
# WORK_DIR.
set -u
build=${1:?usage: tests/fuzz/simfuzz.sh BUILD_DIR SECONDS FIRST_SEED WORK_DIR}
secs=${2:?seconds}
seed=${3:?first seed}
work=${4:?work dir}
limit=${SIMFUZZ_LIMIT:-20}	# seconds per run; a 3 ms run takes well under 1 s
gen=$build/tests/simfuzz-gen
sp=$build/slowpath
for f in "$gen" "$sp"; do
	if [ ! -x "$f" ]; then
		echo "simfuzz: $f missing"
		echo "simfuzz: 0 passed, 1 failed"
		exit 1
	fi
done
mkdir -p "$work"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
pass=0 fail=0 refused=0
end=$(($(date +%s) + secs))
first=$seed
count=${SIMFUZZ_COUNT:-0}
while if [ "$count" -gt 0 ]; then [ $((seed - first)) -lt "$count" ]; else [ "$(date +%s)" -lt "$end" ]; fi; do
	ini=$work/seed-$seed.ini
	if ! "$gen" "$seed" >"$ini" 2>"$work/seed-$seed.err"; then
		fail=$((fail + 1))
		echo "FAIL seed $seed: the generator found no valid scenario"
		cat "$work/seed-$seed.err"
		seed=$((seed + 1))
		continue
	fi
	timeout -k 5 "$limit" "$sp" run "$ini" --out "$work/out" >/dev/null 2>"$work/seed-$seed.err"
	rc=$?
	why=""
	case $rc in
	0) ;;
	2) refused=$((refused + 1)) ;;
	124|137) why="time limit of ${limit}s hit (a hang?)" ;;
	*) why="exit status $rc" ;;
	esac
	if [ -z "$why" ] && grep -qE 'ERROR: AddressSanitizer|runtime error:|BUG at|LeakSanitizer' \
		"$work/seed-$seed.err"; then
		why="sanitizer report or BUG"
	fi
	if [ -n "$why" ]; then
		fail=$((fail + 1))
		echo "FAIL seed $seed: $why; reproduce: $sp run $ini"
		sed 's/^/  | /' "$ini"
		head -n 30 "$work/seed-$seed.err" | sed 's/^/  ! /'
	else
		pass=$((pass + 1))
		rm -f "$ini" "$work/seed-$seed.err"
	fi
	rm -rf "$work/out"
	seed=$((seed + 1))
done
echo "simfuzz: seeds $first..$((seed - 1)), $refused of them refused at run time (exit 2)"
echo "simfuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
