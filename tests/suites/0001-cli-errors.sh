#!/bin/sh
# Bad input on the command line and in scenario files: every case exits
# with status 2, prints exactly one precise line on stderr ("file:line:
# message" for scenario files) and nothing on stdout.
. tests/suites/0000-cli.inc
cli_init "$1" 0001-cli-errors

S=$TMP/s.ini
printf '[global]\nduration=10s\n' >"$S"

w() { printf "$2" >"$TMP/$1"; }

w unknown.ini '[global]\nseed=1\ndurtion=10s\n'
expect "unknown key" 2 "$TMP/unknown.ini:3: unknown key 'durtion' in [global] (did you mean 'duration'?)" \
	"$SP" check "$TMP/unknown.ini"
w badvalue.ini '[sysctl]\nvm.watermark_scale_factor=ten\n'
expect "bad value" 2 "$TMP/badvalue.ini:2: invalid number 'ten' for 'vm.watermark_scale_factor' (expected a decimal or 0x hexadecimal integer)" \
	"$SP" check "$TMP/badvalue.ini"
w range.ini '[device md0]\n\nchunk=2g\n'
expect "out-of-range size" 2 "$TMP/range.ini:3: size '2g' for 'chunk' is out of range (4k..1g)" \
	"$SP" check "$TMP/range.ini"
w range2.ini '[sysctl]\nvm.watermark_scale_factor=5000\n'
expect "out-of-range number" 2 "$TMP/range2.ini:2: number '5000' for 'vm.watermark_scale_factor' is out of range (1..3000)" \
	"$SP" check "$TMP/range2.ini"
w include.ini '[global]\ninclude=presets/none.ini\n'
expect "missing include" 2 "$TMP/include.ini:2: cannot include '$TMP/presets/none.ini': No such file or directory" \
	"$SP" check "$TMP/include.ini"
w env.ini '[global]\ndescription=${SLOWPATH_TEST_UNSET_VAR}\n'
expect "unset \${ENV}" 2 "$TMP/env.ini:2: environment variable 'SLOWPATH_TEST_UNSET_VAR' is not set" \
	env -u SLOWPATH_TEST_UNSET_VAR "$SP" check "$TMP/env.ini"
w section.ini '\n[machines]\n'
expect "unknown section" 2 "$TMP/section.ini:2: unknown section '[machines]'" "$SP" check "$TMP/section.ini"
w dup.ini '[global]\nseed=1\nseed=2\n'
expect "duplicate key" 2 "$TMP/dup.ini:3: duplicate key 'seed' in [global] (first set at $TMP/dup.ini:2)" \
	"$SP" check "$TMP/dup.ini"
w syntax.ini '[global]\nseed 1\n'
expect "not key=value" 2 "$TMP/syntax.ini:2: expected 'key=value' or '[section]', found 'seed 1'" \
	"$SP" check "$TMP/syntax.ini"
w ramp.ini '[global]\nduration=10s\nramp_time=10s\n'
expect "ramp_time >= duration" 2 "$TMP/ramp.ini:3: ramp_time (10s) must be shorter than duration (10s)" \
	"$SP" check "$TMP/ramp.ini"
w policy.ini '[policy]\npreset=fastest\n'
expect "unknown policy in file" 2 "$TMP/policy.ini:2: unknown policy 'fastest' (\`slowpath policies\` lists them)" \
	"$SP" check "$TMP/policy.ini"
w lat.ini '[device d]\nlat_mean=1ms\nlat_p99=500us\n'
expect "device latency" 2 "$TMP/lat.ini:3: lat_p99 must be 0 (constant latency) or at least lat_mean" \
	"$SP" check "$TMP/lat.ini"
expect "missing scenario file" 2 "$TMP/nope.ini: cannot read scenario: No such file or directory" \
	"$SP" check "$TMP/nope.ini"

# --set
expect "--set unknown key" 2 "--set 'vm.defrag=1': unknown key 'vm.defrag' (no section of the scenario has it)" \
	"$SP" check "$S" --set vm.defrag=1
expect "--set bad value" 2 "--set 'vm.defrag_mode=2': invalid boolean '2' for 'vm.defrag_mode' (use 1/0, true/false, yes/no or on/off)" \
	"$SP" check "$S" --set vm.defrag_mode=2
expect "--set without =" 2 "--set 'vm.defrag_mode': expected 'key=value'" "$SP" check "$S" --set vm.defrag_mode
expect "--set absent section" 2 "--set 'device:md0.iops=5': the scenario has no section [device md0]" \
	"$SP" check "$S" --set device:md0.iops=5
expect "--set bad size" 2 "--set 'costs.buddy_merge=fast': invalid cost 'fast' for 'buddy_merge' (expected nanoseconds, a decimal with at most 3 fraction digits)" \
	"$SP" check "$S" --set costs.buddy_merge=fast
expect "--set value needed" 2 "slowpath check: option '--set' needs a value (see slowpath check --help)" \
	"$SP" check "$S" --set

# --scale, --policy, --seed, --iterations, options
expect "--scale not 1/N" 2 "--scale '4': expected 1/N, for example 1/8" "$SP" check "$S" --scale 4
expect "--scale 1/0" 2 "--scale '1/0': N must be a whole number from 1 to 1000000" "$SP" check "$S" --scale 1/0
w scale.ini '[device d]\nmembers=1\ntotal_iops=3\n'
expect "--scale shrinks to nothing" 2 "--scale 1/4: [device d]: total_iops or total_bandwidth would become 0" \
	"$SP" check "$TMP/scale.ini" --scale 1/4
expect "--policy unknown" 2 "--policy 'fastest': unknown policy (\`slowpath policies\` lists them)" \
	"$SP" check "$S" --policy fastest
expect "--seed not a number" 2 "--seed '-1': number '-1' for 'seed' must not be negative" "$SP" check "$S" --seed -1
expect "unknown option" 2 "slowpath check: unknown option '--frob' (see slowpath check --help)" "$SP" check "$S" --frob
expect "run-only option for check" 2 "slowpath check: unknown option '--out' (see slowpath check --help)" \
	"$SP" check "$S" --out x
expect "missing scenario" 2 "slowpath check: missing SCENARIO (see slowpath check --help)" "$SP" check
expect "two scenarios" 2 "slowpath check: unexpected argument '$S' (see slowpath check --help)" "$SP" check "$S" "$S"
expect "unknown command" 2 "slowpath: unknown command 'frob' (see slowpath --help)" "$SP" frob
expect "costs takes no argument" 2 "slowpath costs: unexpected argument 'x' (see slowpath costs --help)" "$SP" costs x

# more tasks than the host can give a stack (two mappings each, against
# vm.max_map_count less 4096 for everything else) is refused before the run
# at the key that sets the count; one task fewer is accepted
maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 65530)
limit=$(((maps - 4096) / 2))
n=$((limit + 1 - 6))		# + 2 CPUs' vmstat workers, kswapd, kcompactd, a flusher pair
if [ "$n" -le 1000000 ]; then
	w tasks.ini "[global]\nduration=1ms\n[machine]\nmemory=64m\ncpus=2\nzones=Normal:rest\n[synthetic]\ntasks=$n\n"
	msg="$TMP/tasks.ini:8: $((limit + 1)) tasks in all (kernel threads included), but this host can give at most $limit a stack: each is two mappings with its guard page and vm.max_map_count is $maps; lower 'tasks' or raise vm.max_map_count"
	expect "tasks beyond vm.max_map_count (check)" 2 "$msg" "$SP" check "$TMP/tasks.ini"
	expect "tasks beyond vm.max_map_count (run)" 2 "$msg" "$SP" run "$TMP/tasks.ini" --out "$TMP/tasks"
	check "no result folder for it" "test ! -e '$TMP/tasks'"
	check "one task fewer passes check" "'$SP' check --set tasks=$((n - 1)) '$TMP/tasks.ini' >/dev/null"
	check "pgbench clients are counted" "! '$SP' check scenarios/pgbench-small.ini --set \
		pgbench.clients=100000 2>'$TMP/pgerr' >/dev/null && grep -q \"lower 'clients'\" '$TMP/pgerr' ||
		[ $maps -ge 204096 ]"
else
	echo "ok   tasks beyond vm.max_map_count: skipped, vm.max_map_count=$maps allows over a million"
fi

cli_done
