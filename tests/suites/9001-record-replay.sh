#!/bin/sh
# 9001 — `slowpath record --proc-root` replays captured /proc files (the
# 6.18 captures arranged as samples, plus malformed, truncated and missing
# variants; tests/fixtures/proc/make-replays.sh) and must produce exactly
# the expected result folder, stderr and exit status, byte for byte.
#
#   tests/suites/9001-record-replay.sh BUILD_DIR
#   UPDATE_GOLDEN=1 tests/suites/9001-record-replay.sh BUILD_DIR   (rewrite expected/)
#
# Each case is tests/fixtures/proc/expected/<case>/ with `args` (the
# record arguments, one per line, @OUT@ for the output folder), `status`,
# `stderr` and `out/` (the result folder).  A replay reads no clock, so
# the expected files hold every key, wall_seconds included.
build=${1:?usage: $0 BUILD_DIR}
cd "$(dirname "$0")/../.." || exit 1
. tests/suites/record-lib.sh

for case_dir in tests/fixtures/proc/expected/*/; do
	name=$(basename "$case_dir")
	out=$tmp/$name/out
	mkdir -p "$tmp/$name"
	# arguments, one per line (no word splitting inside a line)
	set --
	while IFS= read -r a; do
		[ "$a" = "@OUT@" ] && a=$out
		set -- "$@" "$a"
	done <"$case_dir/args"
	record "$@" >"$tmp/$name/stdout" 2>"$tmp/$name/stderr"
	echo $? >"$tmp/$name/status"
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		rm -rf "$case_dir/out"
		[ -d "$out" ] && cp -r "$out" "$case_dir/out"
		cp "$tmp/$name/status" "$tmp/$name/stderr" "$case_dir/"
		check "updated $name" 0
		continue
	fi
	ok=1
	for f in status stderr; do
		if ! cmp -s "$case_dir/$f" "$tmp/$name/$f"; then
			echo "FAIL $name: $f differs"
			diff -u "$case_dir/$f" "$tmp/$name/$f" | head -20
			ok=0
		fi
	done
	# git cannot hold an empty folder: an expected folder that is absent
	# stands for an empty one
	[ -d "$case_dir/out" ] || [ ! -d "$out" ] || [ -n "$(ls -A "$out")" ] || rmdir "$out"
	if [ -d "$case_dir/out" ] || [ -d "$out" ]; then
		if ! diff -r "$case_dir/out" "$out" >"$tmp/$name/diff" 2>&1; then
			echo "FAIL $name: result folder differs"
			head -40 "$tmp/$name/diff"
			ok=0
		fi
	fi
	check "$name" $((1 - ok))
done

# compare's iostat rows from the replayed proc-diskstats are sysstat's
# arithmetic on the capture: vda's growth over the 2 s from sample 1 to 3.
exp=$(awk '/^time: /{k++} $3 == "vda" { w[k] = $8; s[k] = $10; q[k] = $14; u[k] = $13 }
	END { printf "%.2f %.2f %.2f %.2f", (w[3] - w[1]) / 2, (s[3] - s[1]) / 4, (q[3] - q[1]) / 2000,
		(u[3] - u[1]) / 20 }' tests/fixtures/proc/linux-6.18/monitor-proc-diskstats)
got=$("$build/slowpath" compare "$tmp/6.18-3s/out" 2>&1 | awk '
	$1 == "Iostat" && $2 == "vda" && ($3 == "w/s" || $3 == "wkB/s" || $3 == "aqu-sz" || $3 == "%util") { v[$3] = $4 }
	END { printf "%s %s %s %s", v["w/s"], v["wkB/s"], v["aqu-sz"], v["%util"] }')
[ "$got" = "$exp" ]
st=$?
[ $st = 0 ] || echo "iostat rows: got '$got', expected '$exp'"
check compare-iostat-from-replayed-diskstats $st

# The same replay twice gives the same bytes (no clock, no host state).
record --proc-root tests/fixtures/proc/replay/writeback --out "$tmp/d1" \
	--metrics-from tests/fixtures/proc/metrics/pgbench-like 2>/dev/null
record --proc-root tests/fixtures/proc/replay/writeback --out "$tmp/d2" \
	--metrics-from tests/fixtures/proc/metrics/pgbench-like 2>/dev/null
[ -f "$tmp/d1/result.json" ] && diff -r "$tmp/d1" "$tmp/d2" >/dev/null
check replay-deterministic $?

# The replayed proc-vmstat monitor is the mmtests monitor it was cut from.
cmp -s "$tmp/6.18-3s/out/proc-vmstat" tests/fixtures/proc/linux-6.18/monitor-proc-vmstat
check monitor-equals-mmtests-capture $?
cmp -s "$tmp/6.18-3s/out/proc-stat" tests/fixtures/proc/linux-6.18/monitor-proc-stat
check proc-stat-equals-capture $?

# --skip stat leaves proc-stat out and says so; /proc/stat is still read
# once for the CPU count.
record --proc-root tests/fixtures/proc/replay/6.18-3s --out "$tmp/nostat" --skip stat 2>/dev/null
[ $? = 0 ] && [ ! -e "$tmp/nostat/proc-stat" ] && [ -s "$tmp/nostat/proc-vmstat" ] &&
	grep -q '^    "stat: not recorded (--skip)"$' "$tmp/nostat/result.json" &&
	grep -q '^    "cpus": 2,$' "$tmp/nostat/result.json"
check skip-stat $?

# A command that cannot run leaves an earlier result in --out alone.
record --proc-root tests/fixtures/proc/replay/6.18-3s --out "$tmp/keep" 2>/dev/null
cp "$tmp/keep/result.json" "$tmp/keep.json"
record --proc-root tests/fixtures/proc/replay/6.18-3s --out "$tmp/keep" -- /nonexistent/cmd 2>/dev/null
[ $? = 2 ] && cmp -s "$tmp/keep/result.json" "$tmp/keep.json" && ! ls "$tmp/keep"/*.tmp >/dev/null 2>&1
check failed-start-keeps-earlier-result $?

# --metrics-from reads at most 16 MiB (it once read any file whole, a
# device like /dev/zero until memory ran out): a clean error, status 2.
yes 'tps 1' | head -c 17000000 >"$tmp/huge-metrics"
record --proc-root tests/fixtures/proc/replay/writeback --out "$tmp/big" \
	--metrics-from "$tmp/huge-metrics" 2>"$tmp/big.err"
[ $? = 2 ] && grep -qx "record: $tmp/huge-metrics: larger than 16 MiB, not a metrics file" "$tmp/big.err"
check metrics-from-size-cap $?

summary 9001-record-replay
