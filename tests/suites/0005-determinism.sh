#!/bin/sh
# Determinism: the same scenario and seed give byte-identical output —
# every file of the result folder and stdout — masking only the two
# host-dependent values of result.json (wall_seconds, events_per_second);
# with or without a terminal; with --iterations; with the scheduler's load
# balancing moving tasks.  A different seed gives different numbers.
. tests/suites/0000-cli.inc
cli_init "$1" 0005-determinism

SMALL=scenarios/synthetic-small.ini

# same A B: every file of two folders equal (after masking), none missing
same() {
	mask_host "$1"
	mask_host "$2"
	diff -r "$1" "$2" >"$TMP/diff" 2>&1
}

"$SP" run "$SMALL" --out "$TMP/a" >"$TMP/a.out"
"$SP" run "$SMALL" --out "$TMP/b" >"$TMP/b.out"
if same "$TMP/a" "$TMP/b"; then ok "same seed: every file identical"
else cat "$TMP/diff"; ko "same seed: every file identical"; fi
sed "s|$TMP/a|DIR|" "$TMP/a.out" >"$TMP/a.out2"
sed "s|$TMP/b|DIR|" "$TMP/b.out" >"$TMP/b.out2"
check "same seed: stdout identical" "cmp '$TMP/a.out2' '$TMP/b.out2'"
check "the unmasked part is most of result.json" "[ \$(grep -c MASKED '$TMP/a/result.json') = 2 ]"

if command -v script >/dev/null 2>&1; then
	SLOWPATH_PROGRESS_INTERVAL=0 script -qec "'$SP' run '$SMALL' --out '$TMP/t' >/dev/null" /dev/null \
		>"$TMP/tty.txt" 2>&1
	mask_host "$TMP/t"
	check "a terminal shows the progress line" "[ \$(grep -o 'events/s' '$TMP/tty.txt' | wc -l) -ge 12 ]"
	check "and changes nothing in the folder" "diff -r '$TMP/a' '$TMP/t'"
fi

"$SP" run "$SMALL" --out "$TMP/i1" --iterations 2 >/dev/null
"$SP" run "$SMALL" --out "$TMP/i2" --iterations 2 >/dev/null
mask_host "$TMP/i1"
mask_host "$TMP/i2"
check "--iterations: identical folders" "diff -r '$TMP/i1' '$TMP/i2'"
check "--iterations: iteration 1 is the plain run" "diff -r -x scenario.ini '$TMP/a' '$TMP/i1/iter-1'"

"$SP" run "$SMALL" --out "$TMP/c" --seed 2 >/dev/null
mask_host "$TMP/c"
check "other seed: other tps" "[ \"\$(grep '^  \"tps\"' '$TMP/a/result.json')\" != \"\$(grep '^  \"tps\"' '$TMP/c/result.json')\" ]"
check "other seed: other tps.csv and latencies" "! cmp -s '$TMP/a/tps.csv' '$TMP/c/tps.csv' &&
	[ \"\$(sed -n '/latency_ms/,/}/p' '$TMP/a/result.json')\" != \"\$(sed -n '/latency_ms/,/}/p' '$TMP/c/result.json')\" ]"
check "--iterations: iteration 2 used seed+1" "diff -r '$TMP/c/tps.csv' '$TMP/i1/iter-2/tps.csv'"

# The debugfs-wbt monitor (a device with wbt_lat) is as deterministic as
# the rest, and a branch without changes continues it as the plain run
# writes it (the branch's copy of the prefix's samples, then its own).
W="--set device:md0.wbt_lat=2ms --set duration=3s --set sample_interval=1s"
# shellcheck disable=SC2086
"$SP" run scenarios/pgbench-small.ini $W --out "$TMP/w1" >/dev/null
# shellcheck disable=SC2086
"$SP" run scenarios/pgbench-small.ini $W --out "$TMP/w2" >/dev/null
if [ -s "$TMP/w1/debugfs-wbt" ] && same "$TMP/w1" "$TMP/w2"; then ok "wbt_lat: every file identical, debugfs-wbt too"
else cat "$TMP/diff"; ko "wbt_lat: every file identical, debugfs-wbt too"; fi
# shellcheck disable=SC2086
"$SP" run scenarios/pgbench-small.ini $W --branch-at 1s --branch base --out "$TMP/wb" >/dev/null
check "wbt_lat: a branch without changes writes the plain run's debugfs-wbt" \
	"cmp '$TMP/w1/debugfs-wbt' '$TMP/wb/base/debugfs-wbt'"
check "a branch without changes writes the plain run's proc-diskstats" \
	"[ -s '$TMP/w1/proc-diskstats' ] && cmp '$TMP/w1/proc-diskstats' '$TMP/wb/base/proc-diskstats'"

# The scheduler's balancing ([kernel] periodic_balance, on by default
# under the preemption models) with wake-ups kept on their previous CPU
# ([machine] llc_cpus=1): it moves tasks, and two runs are identical.
B="--set kernel.preempt=none --set machine.llc_cpus=1 --set duration=3s"
# shellcheck disable=SC2086
"$SP" run scenarios/pgbench-small.ini $B --out "$TMP/b1" >/dev/null
# shellcheck disable=SC2086
"$SP" run scenarios/pgbench-small.ini $B --out "$TMP/b2" >/dev/null
if grep -Eq '"balance_moves_per_tx": 0\.0*[1-9]' "$TMP/b1/result.json" && same "$TMP/b1" "$TMP/b2"; then
	ok "balancing, llc_cpus=1: tasks moved, every file identical"
else cat "$TMP/diff" 2>/dev/null; ko "balancing, llc_cpus=1: tasks moved, every file identical"; fi

cli_done
