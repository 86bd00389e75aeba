#!/bin/sh
# Result folders that can be trusted and repeated: the seed is
# written as the unsigned number it is, a scenario path that is not UTF-8
# is escaped (not null), and compare reads both back; DIR/scenario.ini
# repeats the run byte for byte; a re-run replaces a folder whole and a
# stopped run leaves the old one alone.
. tests/suites/0000-cli.inc
cli_init "$1" 0007-result-folders

cat >"$TMP/q.ini" <<'INI'
[global]
duration=20ms
sample_interval=10ms
tps_interval=10ms

[machine]
memory=64m
zones=Normal:rest
cpus=2

[synthetic]
tasks=2
INI

# Seeds are u64: 2^64-1 was written as -1 and 2^63 as a negative number.
"$SP" run "$TMP/q.ini" --seed 18446744073709551615 --out "$TMP/max" >/dev/null 2>"$TMP/err"
check "seed 2^64-1 written unsigned" "grep -qx '  \"seed\": 18446744073709551615,' '$TMP/max/result.json'"
"$SP" run "$TMP/q.ini" --seed 0x8000000000000000 --iterations 2 --out "$TMP/it" >/dev/null 2>"$TMP/err"
check "seed 2^63 in iterations and the aggregate" "grep -qx '  \"seed\": 9223372036854775808,' '$TMP/it/result.json' &&
	grep -qx '  \"seed\": 9223372036854775809,' '$TMP/it/iter-2/result.json'"
check "compare reads big seeds" "'$SP' compare '$TMP/max' '$TMP/it' >/dev/null"
expect "--seed above 2^64-1" 2 "--seed '18446744073709551616': number '18446744073709551616' for 'seed' is too large" \
	"$SP" run "$TMP/q.ini" --seed 18446744073709551616 --out "$TMP/none"

# A scenario path in Latin-1: its byte 0xe9 is written as \xe9.
latin=$(printf '%s/caf\351.ini' "$TMP")
cp "$TMP/q.ini" "$latin"
"$SP" run "$latin" --out "$TMP/latin" >/dev/null 2>"$TMP/err"
check "non-UTF-8 scenario path escaped" "grep -F -qx '  \"scenario\": \"$TMP/caf\\\\xe9.ini\",' '$TMP/latin/result.json'"

# The folder reproduces itself: scenario.ini is the resolved scenario
# (--set, --scale and the seed applied) with the version and the command;
# running it gives the same folder (14 files) byte for byte, host times and the
# scenario path aside.
SMALL=scenarios/synthetic-small.ini
"$SP" run "$SMALL" --scale 1/4 --set duration=3s --set ramp_time=1s --seed 42 --out "$TMP/orig" >/dev/null
check "scenario.ini: version, command, seed, resolved keys" "
	grep -Eqx '; version: slowpath [0-9]+\.[0-9]+.* \(commit ([0-9a-f]+(-dirty)?|unknown)\)' '$TMP/orig/scenario.ini' &&
	grep -qx '; command: slowpath run $SMALL --scale 1/4 --set duration=3s --set ramp_time=1s --seed 42 --out $TMP/orig' '$TMP/orig/scenario.ini' &&
	grep -qx '; seed: 42' '$TMP/orig/scenario.ini' && grep -qx 'seed=42' '$TMP/orig/scenario.ini' &&
	grep -qx 'applied_scale=4' '$TMP/orig/scenario.ini' && grep -qx 'duration=3s' '$TMP/orig/scenario.ini' &&
	grep -qx 'cpus=1' '$TMP/orig/scenario.ini' && grep -qx 'lat_mean=400us' '$TMP/orig/scenario.ini'"
"$SP" run "$TMP/orig/scenario.ini" --out "$TMP/again" >/dev/null
norm() {
	for f in "$1"/*; do
		case $f in
		*/result.json) sed -E '/^  "(wall_seconds|events_per_second|scenario)":/d' "$f" ;;
		*/scenario.ini) grep -v '^; ' "$f" ;;
		*) cat "$f" ;;
		esac >"$2/$(basename "$f")"
	done
}
mkdir "$TMP/n1" "$TMP/n2"
norm "$TMP/orig" "$TMP/n1"
norm "$TMP/again" "$TMP/n2"
check "running DIR/scenario.ini reproduces the folder" "[ \$(ls '$TMP/n1' | wc -l) = 14 ] && diff -r '$TMP/n1' '$TMP/n2'"

# Re-running into an existing folder replaces it whole: no stale tps.csv
# from a run with transactions when the new run has none, no old
# iteration beside new ones.
printf '[global]\nduration=20ms\nsample_interval=10ms\n[machine]\nmemory=64m\nzones=Normal:rest\ncpus=2\n' >"$TMP/idle.ini"
"$SP" run "$TMP/q.ini" --out "$TMP/re" --iterations 3 >/dev/null
"$SP" run "$TMP/idle.ini" --out "$TMP/re" >/dev/null
check "a re-run replaces the folder whole" "[ ! -e '$TMP/re/tps.csv' ] && [ ! -e '$TMP/re/iter-1' ] &&
	[ -s '$TMP/re/result.json' ] && [ ! -e '$TMP/re.tmp' ] && ! grep -q '\"iterations\"' '$TMP/re/result.json'"
# A run stopped midway leaves the old folder as it was and no partial
# folder compare would read.
"$SP" run "$TMP/q.ini" --out "$TMP/stop" --iterations 2 >/dev/null
cp -R "$TMP/stop" "$TMP/stop.before"
timeout -s INT 1 "$SP" run "$SMALL" --set duration=100000s --out "$TMP/stop" --iterations 3 >/dev/null 2>&1
check "a stopped run leaves the old folder untouched" "diff -r '$TMP/stop.before' '$TMP/stop' &&
	! '$SP' compare '$TMP/stop.tmp' >/dev/null 2>&1"
# What is not a result folder is not replaced.
mkdir "$TMP/mine" && echo keep >"$TMP/mine/notes.txt"
expect "a folder that is not a result folder" 2 "slowpath run: '$TMP/mine' exists and is not a result folder (no result.json or branches.ini); remove it or choose another --out" \
	"$SP" run "$TMP/q.ini" --out "$TMP/mine"
check "... and it is kept" "[ -s '$TMP/mine/notes.txt' ]"

cli_done
