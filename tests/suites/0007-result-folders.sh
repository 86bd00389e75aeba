#!/bin/sh
# Result folders that can be trusted and repeated (issue 15): the seed is
# written as the unsigned number it is, a scenario path that is not UTF-8
# is escaped (not null), and compare reads both back.
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

cli_done
