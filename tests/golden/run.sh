#!/bin/sh
# Golden cases (docs/design.md §7).  Each tests/golden/NNNN-name/ holds
#   cmd        one shell line, run from the repo root with $SLOWPATH (the
#              binary under test) and $OUT (an empty scratch folder) set
#   expected/  what $OUT must hold afterwards, byte for byte
# The runner saves the command's stdout, stderr and exit status as
# $OUT/stdout, $OUT/stderr and $OUT/status, masks the host-dependent values
# in every result.json ("wall_seconds", "events_per_second") and the
# version and command lines of every scenario.ini, then compares
# $OUT with expected/ (diff -r: no missing, extra or different files).
# A case folder without `cmd` is checked by its own test program (its
# README says which) and is skipped here — also by UPDATE_GOLDEN.
#
#   tests/golden/run.sh BUILD_DIR [CASE...]
#   UPDATE_GOLDEN=1 tests/golden/run.sh BUILD_DIR   rewrite expected/ (review the diff!)
set -u
build=${1:?usage: tests/golden/run.sh BUILD_DIR [CASE...]}
shift
SLOWPATH=$(cd "$(dirname "$build/slowpath")" && pwd)/slowpath
export SLOWPATH
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=$*
[ -n "$cases" ] || cases=$(ls -d tests/golden/[0-9]*/ 2>/dev/null)
for dir in $cases; do
	dir=${dir%/}
	name=$(basename "$dir")
	[ -f "$dir/cmd" ] || continue
	OUT=$tmp/$name
	export OUT
	rm -rf "$OUT"
	mkdir -p "$OUT"
	sh -c "$(cat "$dir/cmd")" >"$tmp/stdout" 2>"$tmp/stderr"
	echo $? >"$OUT/status"
	mv "$tmp/stdout" "$OUT/stdout"
	mv "$tmp/stderr" "$OUT/stderr"
	find "$OUT" -name result.json | while read -r f; do
		sed -E 's/^( *"(wall_seconds|events_per_second)": )[^,]*(,?)$/\1"MASKED"\3/' "$f" >"$f.m" &&
			mv "$f.m" "$f"
	done
	find "$OUT" -name scenario.ini | while read -r f; do
		sed -E 's/^; (version|command): .*/; \1: MASKED/' "$f" >"$f.m" && mv "$f.m" "$f"
	done
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		rm -rf "$dir/expected"
		cp -R "$OUT" "$dir/expected"
		echo "ok   $name (updated)"
		pass=$((pass + 1))
	elif diff -r -u "$dir/expected" "$OUT" >"$tmp/diff" 2>&1; then
		echo "ok   $name"
		pass=$((pass + 1))
	else
		head -n 80 "$tmp/diff" | sed "s|$tmp/||g"
		echo "FAIL $name"
		fail=$((fail + 1))
	fi
done
echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
