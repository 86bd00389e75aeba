#!/bin/sh
# Branched runs (`slowpath run --branch-at T --branch NAME:KEY=VALUE,...`,
# docs/branches.md): a branch without changes is the plain run byte for
# byte; a branch's changes act from T on and not before; the folders do
# not depend on -j; the files say what they are; bad branches are refused
# before anything runs, naming what is wrong, and leave nothing behind.
. tests/suites/0000-cli.inc
cli_init "$1" 0015-branch

PG=scenarios/pgbench-small.ini
S="--set duration=6s --set sample_interval=1s --set tps_interval=1s"
# the regression's mechanism, small enough for debug builds (an invariant
# check after every event)
CN="scenarios/costly-noretry.ini --scale 1/64 --set duration=2s --set sample_interval=250ms --set ramp_time=500ms"

# rows of a CSV (after its header) up to and after the branch instant
upto() { awk -F, -v t="$2" 'NR > 1 && $1 + 0 <= t' "$1"; }
after() { awk -F, -v t="$2" 'NR > 1 && $1 + 0 > t' "$1"; }
# the monitor samples of proc-vmstat up to and including "time: T"
samples_upto() { awk -v t="$2" '/^time: /{ if ($2 + 0 > t) exit } { print }' "$1"; }
# check NAME: FN FILE1 T and FN FILE2 T print the same, and not nothing
# (check's commands run in a shell of their own, which knows none of the
# functions above, so they run here)
same_upto() {
	"$2" "$3" "$5" >"$TMP/upto.1"
	"$2" "$4" "$5" >"$TMP/upto.2"
	check "$1" "[ -s '$TMP/upto.1' ] && cmp '$TMP/upto.1' '$TMP/upto.2'"
}

# 1. A branch that changes nothing is the plain run: every file equal but
# the host values and the header of scenario.ini, which says it is a
# branch.
"$SP" run $PG $S --out "$TMP/plain" >"$TMP/plain.out"
"$SP" run $PG $S --branch-at 3s --branch base --branch slow:costs.pgbench_round_trip=200000 \
	--out "$TMP/br" >"$TMP/br.out" 2>"$TMP/br.err"
check "exit 0, quiet on stderr, a summary line per branch" "[ ! -s '$TMP/br.err' ] &&
	grep -q '^$TMP/br/base: .* tps' '$TMP/br.out' && grep -q '^$TMP/br/slow: .* tps' '$TMP/br.out'"
cp -r "$TMP/plain" "$TMP/p1"
cp -r "$TMP/br/base" "$TMP/b1"
mask_host "$TMP/p1"
mask_host "$TMP/b1"
for f in "$TMP/p1/scenario.ini" "$TMP/b1/scenario.ini"; do
	grep -v '^; ' "$f" >"$f.m" && mv "$f.m" "$f"
done
check "an unchanged branch is the plain run, every file" "diff -r '$TMP/p1' '$TMP/b1'"
check "no prefix folder is left" "[ ! -e '$TMP/br/.prefix' ] && [ ! -e '$TMP/br.tmp' ]"

# 2. A cost changed at the branch acts from its instant on: the samples
# and intervals up to 3 s are the plain run's, the later ones are not, and
# five round trips of 200 us instead of 50 us slow every transaction.
same_upto "tps.csv: the same up to the branch instant" upto "$TMP/plain/tps.csv" "$TMP/br/slow/tps.csv" 3
check "tps.csv: lower after it" "paste -d, '$TMP/plain/tps.csv' '$TMP/br/slow/tps.csv' |
	awk -F, 'NR > 1 && \$1 > 3 { n++; if (\$6 >= \$2) bad++ } END { exit !(n == 3 && !bad) }'"
same_upto "proc-vmstat: the prefix's samples" samples_upto "$TMP/plain/proc-vmstat" "$TMP/br/slow/proc-vmstat" 3
check "proc-vmstat: then the branch's own" "
	! cmp -s '$TMP/plain/proc-vmstat' '$TMP/br/slow/proc-vmstat' &&
	[ \$(grep -c '^time: ' '$TMP/br/slow/proc-vmstat') = \$(grep -c '^time: ' '$TMP/plain/proc-vmstat') ]"
check "the branch's scenario.ini has its cost and says it is a branch" "
	grep -qx 'pgbench_round_trip=200000' '$TMP/br/slow/scenario.ini' &&
	grep -q '^; branch slow of a branched run .*up to 3.000 s.*(changes: costs.pgbench_round_trip=200000)' '$TMP/br/slow/scenario.ini'"
check "branches.ini: the prefix's scenario and the branch list" "
	grep -qx '; branch base: no change' '$TMP/br/branches.ini' &&
	grep -qx '; branch slow: costs.pgbench_round_trip=200000' '$TMP/br/branches.ini' &&
	grep -qx 'pgbench_round_trip=50000' '$TMP/br/branches.ini'"

# 3. A policy changed at the branch (the regression's case on a small
# machine): the same up to the instant, the fix's stall counters after.
"$SP" run $CN --out "$TMP/cn" >/dev/null
"$SP" run $CN --branch-at 1s --branch fix:policy=noretry-nonblocking --branch base --out "$TMP/cb1" >/dev/null
"$SP" run $CN --branch-at 1s --branch fix:policy=noretry-nonblocking --branch base -j 2 --out "$TMP/cb2" >/dev/null
same_upto "policy: the prefix's samples" samples_upto "$TMP/cn/proc-vmstat" "$TMP/cb1/fix/proc-vmstat" 1
check "policy: the fix's preset and result label" "grep -qx 'preset=noretry-nonblocking' '$TMP/cb1/fix/scenario.ini' &&
	grep -q '\"policy\": \"noretry-nonblocking\"' '$TMP/cb1/fix/result.json'"
stall() { grep -E "^    \"$2\": " "$1/result.json" | head -n 1 | tr -dc 0-9; }
fix_stalls=$(stall "$TMP/cb1/fix" compact_stall)
base_stalls=$(stall "$TMP/cb1/base" compact_stall)
check "policy: fewer compaction stalls than the unchanged branch" "
	[ -n '$fix_stalls' ] && [ '$fix_stalls' -lt '$base_stalls' ]"
mask_host "$TMP/cb1"
mask_host "$TMP/cb2"
check "-j 2 writes the same folders as -j 1" "diff -r '$TMP/cb1' '$TMP/cb2'"
check "branches.ini was compared" "grep -q '^; command: MASKED' '$TMP/cb1/branches.ini'"

# A sysctl written at the branch instant, as sysctl -w writes it: the
# Normal zone's watermarks and per-CPU high limit are the prefix's up to
# 1 s and follow the new values after; the unchanged branch keeps them.
"$SP" run $CN --branch-at 1s --branch base --branch wsf:vm.watermark_scale_factor=1000 \
	--branch pcp:vm.percpu_pagelist_high_fraction=100000 --out "$TMP/cs" >/dev/null
# "min low high pcp-high" of the Normal zone in the sample at time T
normal_wmarks() {
	awk -v t="$2" '/^time: /{ f = ($2 + 0 == t) } f && /zone +Normal/ { z = 1 }
		z && $1 ~ /^(min|low|high)$/ && NF == 2 { w = w $2 " " }
		z && $1 == "high:" { print w $2; exit }' "$1/proc-zoneinfo"
}
same_upto "sysctl: the prefix's watermarks up to the branch instant (wsf)" normal_wmarks "$TMP/cs/base" "$TMP/cs/wsf" 1
same_upto "sysctl: the prefix's watermarks up to the branch instant (pcp)" normal_wmarks "$TMP/cs/base" "$TMP/cs/pcp" 1
same_upto "sysctl: the plain run's watermarks at the branch instant" normal_wmarks "$TMP/cs/base" "$TMP/cn" 1
read -r min low high pcp <<EOT
$(normal_wmarks "$TMP/cs/base" 1.25)
EOT
read -r wmin wlow whigh wpcp <<EOT
$(normal_wmarks "$TMP/cs/wsf" 1.25)
EOT
read -r pmin plow phigh ppcp <<EOT
$(normal_wmarks "$TMP/cs/pcp" 1.25)
EOT
check "sysctl: watermark_scale_factor=1000 widens the gaps after it ($min $low $high $pcp; $wmin $wlow $whigh $wpcp)" "
	[ -n '$pcp' ] && [ '$wmin' = '$min' ] && [ $((wlow - wmin)) -gt $((5 * (low - min))) ] && [ '$wpcp' -gt '$pcp' ]"
check "sysctl: percpu_pagelist_high_fraction shrinks the pcp high limit after it ($pcp -> $ppcp)" "
	[ -n '$pcp' ] && [ '$plow' = '$low' ] && [ '$ppcp' -lt '$pcp' ]"
check "sysctl: the branch's scenario.ini has the value" "
	grep -qx 'vm.watermark_scale_factor=1000' '$TMP/cs/wsf/scenario.ini'"
check "sysctl: the unchanged branch is the plain run" "cmp -s '$TMP/cn/proc-zoneinfo' '$TMP/cs/base/proc-zoneinfo'"

# 4. Running again into a branched run's folder replaces it.
"$SP" run $CN --branch-at 1s --branch only --out "$TMP/cb1" >/dev/null 2>"$TMP/err"
check "a branched folder is replaced whole" "[ -d '$TMP/cb1/only' ] && [ ! -e '$TMP/cb1/fix' ] && [ ! -s '$TMP/err' ]"

# 5. Bad branches: exit 2, one precise message, nothing written.
no() {
	expect "$1" 2 "$2" "$SP" run $CN --out "$TMP/none" "$@" 2>/dev/null
}
bad() {
	name=$1; msg=$2; shift 2
	expect "$name" 2 "$msg" "$SP" run $CN --out "$TMP/none" "$@"
	check "$name: nothing written" "[ ! -e '$TMP/none' ] && [ ! -e '$TMP/none.tmp' ]"
}
bad "--branch-at alone" "slowpath run: --branch-at and --branch go together (see slowpath run --help)" \
	--branch-at 1s
bad "--branch alone" "slowpath run: --branch-at and --branch go together (see slowpath run --help)" \
	--branch x
bad "instant past the end" \
	"--branch-at '2s': must lie inside the run (0 < TIME < duration=2.000 s) on a multiple of sample_interval=0.250 s" \
	--branch-at 2s --branch x
bad "instant between samples" \
	"--branch-at '1100ms': must lie inside the run (0 < TIME < duration=2.000 s) on a multiple of sample_interval=0.250 s" \
	--branch-at 1100ms --branch x
bad "instant not a time" "--branch-at 'soon': expected a time: a number with an optional ns, us, ms, s, m or h suffix" \
	--branch-at soon --branch x
bad "a name that is not a folder name" \
	"--branch '../x': the name before ':' must be letters, digits and ._+- (a folder name), not starting with '.'" \
	--branch-at 1s --branch ../x
bad "a name given twice" "--branch 'a:policy=baseline': the name 'a' is given twice" \
	--branch-at 1s --branch a --branch a:policy=baseline
bad "not KEY=VALUE" "--branch 'a:costs': 'costs' is not KEY=VALUE" --branch-at 1s --branch a:costs
bad "nothing after the colon" "--branch 'a:': nothing after ':' (a branch without changes is --branch a)" \
	--branch-at 1s --branch a:
FIXED="a branch may change only [costs], [policy] and [sysctl] keys but vm.nr_hugepages and kernel.* (the rest is fixed once the run has started)"
bad "a fixed key" "--branch 'a:kernel.preempt=full': changes [kernel] preempt; $FIXED" \
	--branch-at 1s --branch a:kernel.preempt=full
bad "the hugetlb pool" "--branch 'a:vm.nr_hugepages=640': changes [sysctl] vm.nr_hugepages; $FIXED" \
	--branch-at 1s --branch a:vm.nr_hugepages=640
bad "a detector's sysctl" \
	"--branch 'a:kernel.hung_task_timeout_secs=5': changes [sysctl] kernel.hung_task_timeout_secs; $FIXED" \
	--branch-at 1s --branch a:kernel.hung_task_timeout_secs=5
bad "a sysctl the kernel would refuse" \
	"--branch 'a:vm.percpu_pagelist_high_fraction=4': scenarios/costly-noretry.ini:31: [machine]: invalid value '4' for 'vm.percpu_pagelist_high_fraction' (0, or at least 8)" \
	--branch-at 1s --branch a:vm.percpu_pagelist_high_fraction=4
bad "an unknown policy" \
	"--branch 'a:policy=nope': --policy 'nope': unknown policy (\`slowpath policies\` lists them)" \
	--branch-at 1s --branch a:policy=nope
bad "with --iterations" "slowpath run: --branch-at cannot be combined with --iterations" \
	--branch-at 1s --branch a --iterations 2
bad "-j 0" "--jobs '0': expected a whole number from 1 to 256" --branch-at 1s --branch a -j 0
expect "a pgbench log is refused at its line" 2 \
	"--set 'pgbench.log=on': [pgbench] log: the workload writes this file during the run, which branches cannot share; --branch-at needs it off" \
	"$SP" run $PG $S --set pgbench.log=on --branch-at 3s --branch a --out "$TMP/none"
check "check takes no --branch" "! '$SP' check $CN --branch a >/dev/null 2>&1"

cli_done
