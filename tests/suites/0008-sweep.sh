#!/bin/sh
# `slowpath sweep` on this machine: the cells and the aggregate, the same
# bytes whatever -j, a column's seeds are the iterations of `run
# --iterations`, resuming (complete cells skipped, damaged or stale ones
# redone), a crashed cell fails alone, an interrupted sweep leaves no cell
# that looks complete and is not, --list/--json, the Slurm scripts
# (written, not submitted: 0009 submits them), and bad sweep files and
# options (file:line: message, exit 2, nothing written).
. tests/suites/0000-cli.inc
cli_init "$1" 0008-sweep

SMALL=scenarios/synthetic-small.ini
M="--policy baseline,noretry-nonblocking --seeds 1-2 --set vm.watermark_scale_factor=10,100 --no-plots"
AGG="compare.txt compare-lkp.txt compare.json report.html"

"$SP" sweep $SMALL $M --out "$TMP/a" -j2 >"$TMP/a.out" 2>"$TMP/a.err"
rc=$?
check "sweep -j2 exits 0, quiet on stderr" "[ $rc = 0 ] && [ ! -s '$TMP/a.err' ]"
check "one folder per cell, the aggregate beside them" "
	[ \$(ls -d '$TMP'/a/cells/*/seed-* | wc -l) = 8 ] &&
	[ -s '$TMP/a/cells/baseline+vm.watermark_scale_factor=100/seed-2/result.json' ] &&
	[ -s '$TMP/a/cells/noretry-nonblocking+vm.watermark_scale_factor=10/seed-1/sweep-cell.ini' ] &&
	for f in $AGG sweep.ini; do [ -s '$TMP/a/'\$f ] || exit 1; done &&
	[ -z \"\$(find '$TMP/a' -name '*.tmp')\" ]"
check "the cell ran with its policy, seed and setting" "
	grep -q '\"policy\": \"noretry-nonblocking\"' '$TMP/a/cells/noretry-nonblocking+vm.watermark_scale_factor=100/seed-2/result.json' &&
	grep -q '\"seed\": 2,' '$TMP/a/cells/noretry-nonblocking+vm.watermark_scale_factor=100/seed-2/result.json' &&
	grep -qx 'set=vm.watermark_scale_factor=100' '$TMP/a/cells/noretry-nonblocking+vm.watermark_scale_factor=100/seed-2/sweep-cell.ini'"
check "compare.json: four columns of two iterations each" "
	[ \$(jq '.results | length' '$TMP/a/compare.json') = 4 ] &&
	[ \"\$(jq -c '[.results[].iterations]' '$TMP/a/compare.json')\" = '[2,2,2,2]' ] &&
	jq -r '.results[0].path' '$TMP/a/compare.json' | grep -qx 'cells/baseline+vm.watermark_scale_factor=10'"
"$SP" sweep $SMALL $M --out "$TMP/b" -j1 >/dev/null 2>&1
check "the aggregate is the same bytes with -j1" "for f in $AGG; do cmp '$TMP/a/'\$f '$TMP/b/'\$f || exit 1; done"
"$SP" run $SMALL --iterations 2 --seed 1 --policy baseline --set vm.watermark_scale_factor=10 \
	--out "$TMP/iter" >/dev/null 2>&1
"$SP" compare --json "$TMP/iter" >"$TMP/iter.json" 2>/dev/null
check "a column's statistics = run --iterations over its seeds" "
	[ \"\$(jq -c '[.metrics[] | .results[0]]' '$TMP/iter.json')\" = \"\$(jq -c '[.metrics[] | .results[0]]' '$TMP/a/compare.json')\" ]"

# Resuming
touch "$TMP/a/cells/baseline+vm.watermark_scale_factor=10/seed-1/mark"
"$SP" sweep $SMALL $M --out "$TMP/a" >"$TMP/out1" 2>&1
check "a re-run skips every complete cell" "grep -q '8 cells (4 columns x 2 seeds), 8 complete, 0 to run' '$TMP/out1' &&
	[ -e '$TMP/a/cells/baseline+vm.watermark_scale_factor=10/seed-1/mark' ]"
C=$TMP/a/cells/baseline+vm.watermark_scale_factor=100
rm "$C/seed-1/result.json"
sed -i 's/"seed": 2,/"seed": 3,/' "$C/seed-2/result.json"
sed -i 's/^set=.*/set=vm.watermark_scale_factor=7/' "$TMP/a/cells/noretry-nonblocking+vm.watermark_scale_factor=10/seed-1/sweep-cell.ini"
mkdir "$TMP/a/cells/noretry-nonblocking+vm.watermark_scale_factor=100/seed-1.tmp"
rm -r "$TMP/a/cells/noretry-nonblocking+vm.watermark_scale_factor=100/seed-1"
rm "$TMP/a/compare.txt"
"$SP" sweep $SMALL $M --out "$TMP/a" >"$TMP/out2" 2>&1
check "damaged, mismatched and missing cells are redone, the rest kept" "
	grep -q '8 cells (4 columns x 2 seeds), 4 complete, 4 to run' '$TMP/out2' &&
	[ -e '$TMP/a/cells/baseline+vm.watermark_scale_factor=10/seed-1/mark' ] &&
	[ -z \"\$(find '$TMP/a' -name '*.tmp' -o -name '*.stale-*')\" ]"
check "and the aggregate is what it was" "for f in $AGG; do cmp '$TMP/a/'\$f '$TMP/b/'\$f || exit 1; done"

# A crashed cell fails alone (SIGKILL: under ASan a SIGSEGV is caught and
# becomes exit 1); an interrupted sweep leaves nothing half-done
# that looks complete.  Cells of 150 s of virtual time take about a second.
L="--policy baseline --seeds 1-4 --set global.duration=150s --no-plots -j2"
setsid "$SP" sweep $SMALL $L --out "$TMP/c" >"$TMP/c.out" 2>"$TMP/c.err" &
sweep_pid=$!
child=""
for i in $(seq 1 100); do
	child=$(pgrep -P "$sweep_pid" | head -n 1)
	[ -n "$child" ] && break
	sleep 0.05
done
[ -n "$child" ] && kill -KILL "$child"
wait "$sweep_pid"
rc=$?
check "a cell killed by a signal: the sweep goes on, reports it, exits 1" "[ $rc = 1 ] &&
	grep -q 'failed: killed by signal 9; see ' '$TMP/c.err' &&
	grep -q '1 of 4 cells failed; no aggregate written' '$TMP/c.err' &&
	[ \$(ls -d '$TMP'/c/cells/baseline/seed-? | wc -l) = 3 ] && [ ! -e '$TMP/c/compare.txt' ]"
rm -rf "$TMP/c/cells"
setsid "$SP" sweep $SMALL $L --out "$TMP/c" >"$TMP/c.out" 2>"$TMP/c.err" &
sweep_pid=$!
for i in $(seq 1 100); do
	[ -n "$(pgrep -P "$sweep_pid")" ] && break
	sleep 0.05
done
sleep 0.3
kill -KILL -"$sweep_pid"
wait "$sweep_pid" 2>/dev/null
check "an interrupted sweep: every cell under its final name is complete" "
	for d in \$(ls -d '$TMP'/c/cells/baseline/seed-* | grep -v '\.tmp\$'); do
		[ -s \$d/result.json ] && [ -s \$d/sweep-cell.ini ] && [ -s \$d/tps.csv ] || exit 1; done"
"$SP" sweep $SMALL $L --out "$TMP/c" >"$TMP/c.out" 2>"$TMP/c.err"
rc=$?
check "and the next run completes it" "[ $rc = 0 ] && [ \$(ls -d '$TMP'/c/cells/baseline/seed-* | wc -l) = 4 ] &&
	[ -s '$TMP/c/compare.txt' ] && [ -z \"\$(find '$TMP/c' -name '*.tmp')\" ]"

# Status for scripts
"$SP" sweep $SMALL $M --out "$TMP/a" --list >"$TMP/list" 2>&1
check "--list: every cell and whether it is complete" "[ \$(wc -l <'$TMP/list') = 8 ] &&
	grep -qx '0 complete $TMP/a/cells/baseline+vm.watermark_scale_factor=10/seed-1' '$TMP/list'"
rm "$TMP/a/cells/baseline/"* 2>/dev/null
rm "$C/seed-1/sweep-cell.ini"
"$SP" sweep $SMALL $M --out "$TMP/a" --json >"$TMP/json" 2>"$TMP/json.err"
check "--json: one JSON object per line, cells done/running/left" "[ ! -s '$TMP/json.err' ] &&
	jq -e . '$TMP/json' >/dev/null && head -n 1 '$TMP/json' | jq -e '.event == \"start\" and .left == 1 and .done == 7' &&
	grep '\"event\": \"done\"' '$TMP/json' | jq -e '.cell == 2 and .left == 0 and .running == 0' &&
	tail -n 1 '$TMP/json' | jq -e '.event == \"collected\" and .done == 8'"

# The sweep file
cat >"$TMP/s.ini" <<EOF
; two policies x two seeds x two settings
[sweep]
scenario=$PWD/$SMALL
policies = baseline, noretry-nonblocking   ; inline comment
seeds=1-2
set=vm.watermark_scale_factor=10,100
EOF
"$SP" sweep "$TMP/s.ini" --no-plots --out "$TMP/f" >/dev/null 2>&1
check "a sweep file gives the same cells" "for d in \$(cd '$TMP/a/cells' && ls -d */seed-*); do
	[ -s '$TMP/f/cells/'\$d/result.json ] || exit 1; done"
mkdir -p "$TMP/rel"
printf '[sweep]\nscenario=../../../%s/%s\npolicies=all\n' "$PWD" "$SMALL" >"$TMP/rel/s.ini"
check "policies=all: a column per policy; scenario relative to the sweep file" "
	'$SP' sweep '$TMP/rel/s.ini' --list --out '$TMP/g' >'$TMP/o' 2>&1 &&
	[ \$(wc -l <'$TMP/o') = \$('$SP' policies | tail -n +2 | grep -vc '^ ') ]"

# Slurm scripts (0009 submits them to a real Slurm)
"$SP" sweep $SMALL $M --out "$TMP/a" --slurm --partition short --account mm --time 1:00:00 \
	--sbatch-extra '--qos=low' --sbatch-extra '#SBATCH --nice=5' >"$TMP/o" 2>&1
rm -r "$C"
"$SP" sweep $SMALL $M --out "$TMP/a" --slurm --partition short --account mm --time 1:00:00 \
	--sbatch-extra '--qos=low' >"$TMP/o" 2>&1
S=$TMP/a/slurm/cells.sbatch
check "--slurm: an array task per cell left, one CPU, memory from the estimate" "
	grep -qx '#SBATCH --array=2-3' '$S' && grep -qx '#SBATCH --cpus-per-task=1' '$S' &&
	grep -Eqx '#SBATCH --mem=2[0-9]{2}M' '$S' && grep -qx '#SBATCH --partition=short' '$S' &&
	grep -qx '#SBATCH --account=mm' '$S' && grep -qx '#SBATCH --time=1:00:00' '$S' &&
	grep -qx '#SBATCH --qos=low' '$S' && grep -qx \"#SBATCH --chdir=\$PWD\" '$S' &&
	grep -q 'sweep --cell \"\$SLURM_ARRAY_TASK_ID\" ' '$S' &&
	grep -q \"sweep --collect '$TMP/a' --no-plots\" '$TMP/a/slurm/collect.sbatch' &&
	grep -q 'sbatch --dependency=afterok:' '$TMP/o'"
"$SP" sweep scenarios/pgbench-m8g.ini --policy baseline --out "$TMP/m" --slurm >"$TMP/o" 2>&1
check "--mem for the full-scale case covers its measured 4.3 GB, from the machine's arrays" "
	m=\$(sed -n 's/^#SBATCH --mem=\([0-9]*\)M\$/\1/p' '$TMP/m/slurm/cells.sbatch'); [ \"\$m\" -ge 6200 ] && [ \"\$m\" -le 8192 ]"
"$SP" sweep --cell 3 "$TMP/a" >"$TMP/o" 2>&1
check "--cell K DIR runs one cell (what an array task does)" "[ -s '$C/seed-2/result.json' ] && [ ! -e '$C/seed-1' ]"
expect "--collect of an incomplete sweep: exit 1, nothing written" 1 \
"slowpath sweep: cell 2 is not complete: $TMP/a/cells/baseline+vm.watermark_scale_factor=100/seed-1
slowpath sweep: 1 of 8 cells are not complete; no aggregate written (run the sweep again to redo them)" \
	"$SP" sweep --collect "$TMP/a" --no-plots

# Bad input: file:line: message, exit 2, no folder
bad() {
	name=$1; msg=$2; shift 2
	printf "$@" >"$TMP/bad.ini"
	expect "$name" 2 "$msg" "$SP" sweep "$TMP/bad.ini" --out "$TMP/nothing"
}
bad "unknown key" "$TMP/bad.ini:3: unknown key 'seed' (scenario, policies, seeds, scale, set)" \
	'[sweep]\nscenario=%s\nseed=1\n' "$PWD/$SMALL"
bad "bad seed range" "$TMP/bad.ini:3: seeds '3-1': '3-1' is not a range A-B of whole numbers with A <= B" \
	'[sweep]\nscenario=%s\nseeds=3-1\n' "$PWD/$SMALL"
bad "unknown policy" "$TMP/bad.ini:4: policies: unknown policy 'fast' (\`slowpath policies\` lists them)" \
	'[sweep]\nscenario=%s\n\npolicies=baseline,fast\n' "$PWD/$SMALL"
bad "a bad set value, at its line" "$TMP/bad.ini:3: --set 'vm.defrag_mode=x': invalid boolean 'x' for 'vm.defrag_mode' (use 1/0, true/false, yes/no or on/off)" \
	'[sweep]\nscenario=%s\nset=vm.defrag_mode=0,x\n' "$PWD/$SMALL"
bad "an unknown set key" "$TMP/bad.ini:3: --set 'vm.nope=1': unknown key 'vm.nope' (no section of the scenario has it)" \
	'[sweep]\nscenario=%s\nset=vm.nope=1,2\n' "$PWD/$SMALL"
bad "a key swept twice" "$TMP/bad.ini:4: set 'vm.defrag_mode=1': key 'vm.defrag_mode' is already swept (put every value in one list)" \
	'[sweep]\nscenario=%s\nset=vm.defrag_mode=0\nset=vm.defrag_mode=1\n' "$PWD/$SMALL"
bad "an empty list item" "$TMP/bad.ini:3: seeds '1,,2': empty item in the list" \
	'[sweep]\nscenario=%s\nseeds=1,,2\n' "$PWD/$SMALL"
bad "no scenario" "$TMP/bad.ini: [sweep] has no scenario= (the scenario file to sweep)" '[sweep]\nseeds=1\n'
bad "another section" "$TMP/bad.ini:2: unknown section '[global]' (a sweep file has one [sweep] section)" \
	'[sweep]\n[global]\n'
bad "a missing scenario, at its line" "$TMP/bad.ini:2: $TMP/nope.ini: cannot read scenario: No such file or directory" \
	'[sweep]\nscenario=nope.ini\n'
expect "-j 0" 2 "slowpath sweep: -j '0': expected a whole number from 1 to 4096" "$SP" sweep $SMALL -j 0
expect "--seeds on the command line" 2 "slowpath sweep: --seeds 'a': 'a' is not a whole number" \
	"$SP" sweep $SMALL --seeds a
expect "unknown option" 2 "slowpath sweep: unknown option '--nope' (see slowpath sweep --help)" \
	"$SP" sweep $SMALL --nope
expect "no argument" 2 "slowpath sweep: missing SWEEP.ini or SCENARIO (see slowpath sweep --help)" "$SP" sweep
check "nothing written for bad input" "[ ! -e '$TMP/nothing' ]"
check "slowpath --help lists sweep" "'$SP' --help | grep -q '^  sweep '"
cli_done
