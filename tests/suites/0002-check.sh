#!/bin/sh
# `slowpath check`: the resolved scenario parses back to itself (the
# output of check on check's output is identical), includes, ${ENV},
# --set, --policy, --seed and --scale show up in it, and the help and
# version texts exit 0.
. tests/suites/0000-cli.inc
cli_init "$1" 0002-check

mkdir -p "$TMP/presets"
cat >"$TMP/presets/dev.ini" <<'INI'
; a preset: a 12-volume RAID0 like the reference machine's
members=12
iops=32000
bandwidth=1000m
INI
cat >"$TMP/main.ini" <<'INI'
[global]
description=round trip of ${SP_CHECK_WORD}   ; comment
duration=2m
ramp_time=1.5s
[device md0]
include=presets/dev.ini
iops=16000            # overrides the preset
[sysctl]
vm.defrag_mode=on
/sys/kernel/mm/transparent_hugepage/enabled=never
[costs]
buddy_merge=31.25
INI
export SP_CHECK_WORD=everything

check "check succeeds" "'$SP' check '$TMP/main.ini' >'$TMP/c1.ini'"
check "check of check is identical" \
	"'$SP' check '$TMP/c1.ini' >'$TMP/c2.ini' && cmp '$TMP/c1.ini' '$TMP/c2.ini'"
check "defaults included" "grep -qx 'vm.watermark_boost_factor=15000' '$TMP/c1.ini' &&
	grep -qx 'sample_interval=1s' '$TMP/c1.ini' && grep -qx 'lat_p99=800us' '$TMP/c1.ini'"
check "values resolved" "grep -qx 'description=round trip of everything' '$TMP/c1.ini' &&
	grep -qx 'duration=2m' '$TMP/c1.ini' && grep -qx 'ramp_time=1500ms' '$TMP/c1.ini' &&
	grep -qx 'vm.defrag_mode=1' '$TMP/c1.ini' && grep -qx 'buddy_merge=31.25' '$TMP/c1.ini'"
check "include and override" "grep -qx 'members=12' '$TMP/c1.ini' && grep -qx 'iops=16000' '$TMP/c1.ini'"

check "--set, --policy, --seed" "'$SP' check '$TMP/main.ini' --set vm.defrag_mode=0 \
	--set device:md0.lat_mean=600us --policy noretry-nonblocking --seed 77 >'$TMP/c3.ini' &&
	grep -qx 'vm.defrag_mode=0' '$TMP/c3.ini' && grep -qx 'lat_mean=600us' '$TMP/c3.ini' &&
	grep -qx 'name=noretry-nonblocking' '$TMP/c3.ini' && grep -qx 'seed=77' '$TMP/c3.ini'"
check "--scale 1/4 shrinks the devices" "'$SP' check '$TMP/main.ini' --scale 1/4 >'$TMP/c4.ini' &&
	grep -qx 'members=3' '$TMP/c4.ini' && grep -qx 'iops=16000' '$TMP/c4.ini' &&
	grep -qx 'size=256g' '$TMP/c4.ini'"
check "--scale 1/8 takes the rest off per-member rates" "'$SP' check '$TMP/main.ini' --scale 1/8 \
	>'$TMP/c5.ini' && grep -qx 'members=1' '$TMP/c5.ini' && grep -qx 'iops=24000' '$TMP/c5.ini' &&
	grep -qx 'bandwidth=1500m' '$TMP/c5.ini'"
check "scaled output round-trips" "'$SP' check '$TMP/c5.ini' | cmp - '$TMP/c5.ini'"
check "scenarios/*.ini all check (sweep files aside)" "for f in scenarios/*.ini; do [ -e \"\$f\" ] || continue;
	grep -q '^\[sweep\]' \"\$f\" && continue;
	'$SP' check \"\$f\" >'$TMP/x.ini' || exit 1; '$SP' check '$TMP/x.ini' | cmp - '$TMP/x.ini' || exit 1; done"

for c in run sweep check costs policies; do
	check "$c --help exits 0" "'$SP' $c --help | grep -q '^usage: slowpath $c'"
done
check "--help lists the commands" "'$SP' --help | grep -q '^  check ' && '$SP' help check | grep -q '^usage: slowpath check'"
check "--version" "'$SP' --version | grep -Eq '^slowpath [0-9]+\.[0-9]+'"
expect "no command" 2 "$("$SP" --help 2>&1)" "$SP"

cli_done
