#!/bin/sh
# [policy] switch keys and presets (docs/policies.md).
#
#   - a scenario that composes keys onto a preset (preset=baseline plus
#     noretry_skip_drain=1; preset=slowpath-entry-noreclaim plus
#     thisnode_exempt=1) gives, byte for byte, the folder of the named
#     preset that sets the same keys (noretry-skip-drain, noretry-
#     nonblocking), except the scenario path, the policy label in
#     result.json and the preset line in scenario.ini; and the composed
#     key changes the run (it differs from its preset's run);
#   - a key the scenario sets wins over --policy's preset;
#   - the run's scenario.ini records the resolved keys and reproduces the
#     run; result.json names the preset plus the keys that differ;
#   - an unknown key or a bad value is file:line with exit status 2;
#   - `slowpath policies` lists each preset's keys, `slowpath policies
#     NAME` prints one preset as a [policy] section that reproduces it;
#   - a sweep varies a switch with a set line and resumes.
. tests/suites/5000-pagecache.inc
cli_init "$1" 6004-policy-keys

SCN=scenarios/costly-noretry.ini
RUN="--scale 1/64 --set global.duration=2s --set global.ramp_time=500ms"

# with_policy FILE LINES...: the scenario with its [policy] preset line
# replaced by LINES (joined by \n)
with_policy() {
	out=$1; shift
	sed "s/^preset=baseline\$/$(printf '%s\\n' "$@" | sed 's/\\n$//')/" "$SCN" >"$out"
}
# same_run A B: the folders agree except what names the input
same_run() {
	for d in "$1" "$2"; do
		mask_host "$d"
		sed -E -e 's/^( *"(scenario|policy)": ).*/\1"MASKED",/' "$d/result.json" >"$d/r" &&
			mv "$d/r" "$d/result.json"
		sed -E 's/^preset=.*/preset=MASKED/' "$d/scenario.ini" >"$d/s" && mv "$d/s" "$d/scenario.ini"
	done
	diff -r "$1" "$2"
}
policy_of() { sed -nE 's/^ *"policy": "(.*)",?$/\1/p' "$1/result.json"; }

for p in baseline noretry-skip-drain noretry-nonblocking slowpath-entry-noreclaim; do
	"$SP" run $SCN $RUN --policy $p --out "$TMP/$p" >/dev/null 2>&1
done
with_policy "$TMP/va.ini" "preset=baseline" "noretry_skip_drain=1"
"$SP" run "$TMP/va.ini" $RUN --out "$TMP/va" >/dev/null 2>&1
with_policy "$TMP/v6.ini" "preset=slowpath-entry-noreclaim" "thisnode_exempt=1"
"$SP" run "$TMP/v6.ini" $RUN --out "$TMP/v6" >/dev/null 2>&1

# yes_if CMD...: "yes" if the command succeeds (for check's string tests)
yes_if() { if "$@" >/dev/null 2>&1; then echo yes; else echo no; fi; }

labels="$(policy_of "$TMP/va") $(policy_of "$TMP/v6") $(policy_of "$TMP/noretry-skip-drain")"
check "result.json names the preset and the keys that differ ($labels)" "[ '$labels' = \
	'baseline+noretry_skip_drain=1 slowpath-entry-noreclaim+thisnode_exempt=1 noretry-skip-drain' ]"
keys="$(ini_get "$TMP/va/scenario.ini" policy noretry_skip_drain)"
for k in preset costly_noretry_noreclaim thisnode_exempt noretry_skip_drain; do
	keys="$keys $(ini_get "$TMP/noretry-nonblocking/scenario.ini" policy $k)"
done
check "scenario.ini records the resolved keys ($keys)" "[ '$keys' = '1 noretry-nonblocking 1 1 0' ]"
"$SP" run "$TMP/va/scenario.ini" --out "$TMP/va-again" >/dev/null 2>&1
cp -r "$TMP/va" "$TMP/va-m"
for d in "$TMP/va-m" "$TMP/va-again"; do
	mask_host "$d"
	sed -E 's/^( *"scenario": ).*/\1"MASKED",/' "$d/result.json" >"$d/r" && mv "$d/r" "$d/result.json"
done
check "the composed run's scenario.ini reproduces it" "diff -r '$TMP/va-m' '$TMP/va-again'"
"$SP" run "$TMP/va.ini" $RUN --policy noretry-nonblocking --out "$TMP/keywins" >/dev/null 2>&1
label=$(policy_of "$TMP/keywins")
check "a key the scenario sets wins over --policy's preset ($label)" \
	"[ '$label' = 'noretry-nonblocking+noretry_skip_drain=1' ]"

cp -r "$TMP/baseline" "$TMP/baseline-m"
cp -r "$TMP/va" "$TMP/va-b"
check "the composed key changes the run (baseline+noretry_skip_drain=1 is not baseline)" \
	"[ $(yes_if same_run "$TMP/va-b" "$TMP/baseline-m") = no ]"
check "preset=baseline + noretry_skip_drain=1 is noretry-skip-drain, byte for byte" \
	"[ $(yes_if same_run "$TMP/va" "$TMP/noretry-skip-drain") = yes ]"
check "preset=slowpath-entry-noreclaim + thisnode_exempt=1 is noretry-nonblocking, byte for byte" \
	"[ $(yes_if same_run "$TMP/v6" "$TMP/noretry-nonblocking") = yes ]"

printf '[policy]\npreset=baseline\nnoretry_skip_drian=1\n' >"$TMP/typo.ini"
expect "unknown key: file:line, exit 2" 2 \
	"$TMP/typo.ini:3: unknown key 'noretry_skip_drian' in [policy] (did you mean 'noretry_skip_drain'?)" \
	"$SP" check "$TMP/typo.ini"
printf '[policy]\nfilemap_rule=sometimes\n' >"$TMP/enum.ini"
expect "bad value: file:line, exit 2" 2 \
	"$TMP/enum.ini:2: invalid value 'sometimes' for 'filemap_rule' (expected one of: noretry_above_min, costly_noreclaim, noreclaim_above_min, first_attempt_noretry)" \
	"$SP" check "$TMP/enum.ini"
printf '[policy]\nthisnode_exempt=maybe\n' >"$TMP/bool.ini"
expect "bad boolean: file:line, exit 2" 2 \
	"$TMP/bool.ini:2: invalid boolean 'maybe' for 'thisnode_exempt' (use 1/0, true/false, yes/no or on/off)" \
	"$SP" check "$TMP/bool.ini"
expect "slowpath policies NAME: unknown name, exit 2" 2 \
	"slowpath policies: unknown policy 'fastest' (\`slowpath policies\` lists them)" "$SP" policies fastest

"$SP" policies >"$TMP/list"
check "slowpath policies lists each preset's keys" "
	grep -A1 '^noretry-nonblocking ' '$TMP/list' | tail -n 1 | grep -q '^ *costly_noretry_noreclaim=1 thisnode_exempt=1\$' &&
	grep -A1 '^filemap-costly-noreclaim ' '$TMP/list' | tail -n 1 | grep -q '^ *filemap_rule=costly_noreclaim\$' &&
	grep -A1 '^baseline ' '$TMP/list' | tail -n 1 | grep -q 'none'"
# the preset printed as a section, with its preset line pointing at
# baseline, is the same policy: every key is explicit
"$SP" policies noretry-nonblocking | sed 's/^preset=.*/preset=baseline/' >"$TMP/sec.ini"
"$SP" check "$TMP/sec.ini" | sed -n '/^\[policy\]/,/^\[/p' | grep -v '^preset=' >"$TMP/a"
: >"$TMP/empty.ini"
"$SP" check "$TMP/empty.ini" --policy noretry-nonblocking |
	sed -n '/^\[policy\]/,/^\[/p' | grep -v '^preset=' >"$TMP/b"
check "slowpath policies NAME prints every key of the preset" \
	"[ \$(grep -c = '$TMP/sec.ini') = 9 ] && diff '$TMP/a' '$TMP/b'"

# a sweep varies a switch on top of a preset; its cells count as complete
# on a second run (result.json's policy is the preset plus the key)
sed -e 's/^duration=.*/duration=1s/' -e 's/^ramp_time=.*/ramp_time=0/' $SCN >"$TMP/short.ini"
SW="--policy baseline --seeds 1 --set policy.noretry_skip_drain=0,1 --scale 1/64 --no-plots"
"$SP" sweep "$TMP/short.ini" $SW --out "$TMP/sw" >/dev/null 2>&1
"$SP" sweep "$TMP/short.ini" $SW --out "$TMP/sw" >"$TMP/sw.out" 2>&1
sw_label=$(policy_of "$TMP/sw/cells/baseline+policy.noretry_skip_drain=1/seed-1")
check "a sweep's set= line varies a switch ($sw_label); a re-run finds every cell complete" "
	[ '$sw_label' = 'baseline+noretry_skip_drain=1' ] &&
	grep -q '2 cells (2 columns x 1 seeds), 2 complete, 0 to run' '$TMP/sw.out'"

cli_done
