#!/bin/sh
# `slowpath check`: the resolved scenario parses back to itself (the
# output of check on check's output is identical), includes, ${ENV},
# --set, --policy, --seed and --scale show up in it, and the help and
# version texts exit 0.  Scenarios run rejects, check rejects with the
# same message.
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
	grep -qx 'preset=noretry-nonblocking' '$TMP/c3.ini' && grep -qx 'costly_noretry_noreclaim=1' '$TMP/c3.ini' &&
	grep -qx 'seed=77' '$TMP/c3.ini'"
check "--scale 1/4 shrinks the devices" "'$SP' check '$TMP/main.ini' --scale 1/4 >'$TMP/c4.ini' &&
	grep -qx 'members=3' '$TMP/c4.ini' && grep -qx 'iops=16000' '$TMP/c4.ini' &&
	grep -qx 'size=256g' '$TMP/c4.ini'"
check "--scale 1/8 takes the rest off per-member rates" "'$SP' check '$TMP/main.ini' --scale 1/8 \
	>'$TMP/c5.ini' && grep -qx 'members=1' '$TMP/c5.ini' && grep -qx 'iops=24000' '$TMP/c5.ini' &&
	grep -qx 'bandwidth=1500m' '$TMP/c5.ini'"
check "--scale divides the CPUs per last-level cache, at least 1" "'$SP' check '$TMP/main.ini' \
	--set machine.llc_cpus=12 --scale 1/4 | grep -qx 'llc_cpus=3' &&
	'$SP' check '$TMP/main.ini' --set machine.llc_cpus=2 --scale 1/8 | grep -qx 'llc_cpus=1' &&
	'$SP' check '$TMP/main.ini' --scale 1/8 | grep -qx 'llc_cpus=0'"
check "scaled output round-trips" "'$SP' check '$TMP/c5.ini' | cmp - '$TMP/c5.ini'"
check "scenarios/*.ini and docs/calibration/*/*.ini all check (sweep files aside)" "for f in scenarios/*.ini docs/calibration/*/*.ini; do [ -e \"\$f\" ] || continue;
	grep -q '^\[sweep\]' \"\$f\" && continue;
	'$SP' check \"\$f\" >'$TMP/x.ini' || exit 1; '$SP' check '$TMP/x.ini' | cmp - '$TMP/x.ini' || exit 1; done"

# What run rejects, check rejects too, with the same message (issue 15
# item 9): the scenario is validated in one place for both.
bad_both() {
	bname=$1; bmsg=$2; body=$3; shift 3
	printf '%b' "$body" >"$TMP/bad.ini"
	expect "check: $bname" 2 "$bmsg" "$SP" check "$TMP/bad.ini" "$@"
	expect "run: $bname" 2 "$bmsg" ${T:-} "$SP" run "$TMP/bad.ini" --out "$TMP/bad" "$@"
	[ ! -e "$TMP/bad" ] || ko "run: $bname: nothing written"
}
M='[machine]\nmemory=64m\ncpus=2\n'
bad_both "zones larger than memory" "$TMP/bad.ini:1: [machine]: zones add up to more than memory (67108864 bytes)" \
	"${M}zones=Normal:2g\n"
bad_both "two rest zones" "$TMP/bad.ini:1: [machine]: more than one 'rest' in 'zones'" \
	"${M}zones=DMA:rest,Normal:rest\n"
bad_both "zones out of order" "$TMP/bad.ini:1: [machine]: zone 'DMA' out of order in 'zones' (zones go in pfn order: DMA, DMA32, Normal, Movable, each once)" \
	"${M}zones=Normal:32m,DMA:rest\n"
bad_both "reserved too large" "$TMP/bad.ini:1: [machine]: reserved=67108864: no zone outside Movable is large enough to hold it" \
	"${M}zones=Normal:rest\nreserved=64m\n"
bad_both "[fio] names a missing device" "$TMP/bad.ini:6: device 'nvme9' does not exist (no [device nvme9] section)" \
	"${M}zones=Normal:rest\n[fio]\nfilename=nvme9\n"
bad_both "[fragment] names a missing device" "$TMP/bad.ini:7: device 'd9' does not exist (no [device d9] section)" \
	"${M}zones=Normal:rest\n[fragment]\ncache_bytes=1m\ncache_device=d9\n"
bad_both "[fio] size beyond the device" "$TMP/bad.ini:9: size=2147483648 is beyond the end of device 'd' (1073741824 bytes)" \
	"${M}zones=Normal:rest\n[device d]\nsize=1g\n[fio]\nfilename=d\nsize=2g\n"
bad_both "[synthetic] io_span beyond the device" "$TMP/bad.ini:10: io_span (2147483648 bytes) is beyond the end of device 'd' (1073741824 bytes)" \
	"${M}zones=Normal:rest\n[device d]\nsize=1g\n[synthetic]\nio_share=10%\ndevice=d\nio_span=2g\n"
# The timer tick is [machine] hz, not a cost: the old [costs] key says
# where it went; every cost row may be 0, and a zero-cost spin in
# kcompactd must still end
bad_both "[costs] jiffy moved" "$TMP/bad.ini:6: key 'jiffy' in [costs] moved: the timer tick is not a cost: it is [machine] hz (CONFIG_HZ), hz=250 for jiffy=4000000" \
	"${M}zones=Normal:rest\n[costs]\njiffy=4000000\n"
# A scenario.ini written before every policy switch became a key names the
# preset with name=: it is told where that went
bad_both "[policy] name moved" "$TMP/bad.ini:6: key 'name' in [policy] moved: it is [policy] preset (the named policy is a preset of the switch keys)" \
	"${M}zones=Normal:rest\n[policy]\nname=baseline\n"
bad_both "[machine] hz=0" "$TMP/bad.ini:5: number '0' for 'hz' is out of range (100..1000)" \
	"${M}zones=Normal:rest\nhz=0\n"
check "every cost at 0 runs" "{ printf '[global]\nduration=5ms\n${M}zones=Normal:rest\n[costs]\n'
	'$SP' costs | awk 'NR > 1 { print \$1 \"=0\" }'
	printf '[fragment]\nkernel_pages=64\nhighorder_every=2\nhighorder_order=4\n[forker]\nsize=8m\nchildren=2\nalign=2m\n'; } >'$TMP/z.ini' &&
	timeout 60 '$SP' run '$TMP/z.ini' --out '$TMP/z' >/dev/null"
check "a zero-cost spin in kcompactd ends (fuzzer seed 2)" \
	"timeout 60 '$SP' run tests/fixtures/zero-cost-spin.ini --out '$TMP/spin' >/dev/null"
# A synthetic transaction that takes no time once spun forever at time 0
# (timeout: a regression must fail, not hang the suite).
T='timeout 60'
bad_both "a transaction taking no time" "$TMP/bad.ini:7: [synthetic]: a transaction would take no virtual time (think and compute are 0, no lock is held, no I/O), so the run could never reach its duration: set think or compute above 0" \
	"[global]\nduration=1ms\n${M}zones=Normal:rest\n[synthetic]\nthink=0\ncompute=0\nlock_share=0\nio_share=0\n"
bad_both "... nor with I/O on an instant device" "$TMP/bad.ini:10: [synthetic]: a transaction would take no virtual time (think and compute are 0, no lock is held, the device has no latency or rate limit), so the run could never reach its duration: set think or compute above 0" \
	"[global]\nduration=1ms\n${M}zones=Normal:rest\n[device d]\nlat_mean=0\nlat_p99=0\n[synthetic]\nthink=0\ncompute=0\nlock_share=0\nio_share=50%\ndevice=d\n"
check "think=0 compute=0 with a held lock runs" "printf '[global]\nduration=1ms\n${M}zones=Normal:rest\n[synthetic]\nthink=0\ncompute=0\nlock_share=100%%\n' >'$TMP/lk.ini' &&
	timeout 60 '$SP' run '$TMP/lk.ini' --out '$TMP/lk' >/dev/null"

# --scale: a workload scaled to nothing is an error; the device and the
# synthetic I/O span shrink together (1/16 once aborted in bdev.c)
expect "--scale to no children" 2 "--scale 1/64: [forker]: children=32 would become 0: the run would fork nothing and measure nothing (use a scale of at most 1/32)" \
	"$SP" check scenarios/fork-pagetables.ini --scale 1/64
# At 1/64 the recycled WAL at start (4 GiB of 1-MiB segments, 64 MiB of
# device each) outgrows the 176 GiB device: refused before the run
# instead of a BUG when the writes reach the device's end
expect "--scale 1/64: the WAL at start does not fit" 2 "scenarios/pgbench-m8g.ini:$(grep -n '^\[pgbench\]' scenarios/pgbench-m8g.ini | cut -d: -f1): [pgbench]: the WAL at start (wal_recycled=4096 MiB in 1-MiB segments, each taking a 64-MiB allocation granule) does not fit on device 'md0' (176 GiB)" \
	"$SP" check scenarios/pgbench-m8g.ini --scale 1/64
# A database the device cannot hold is refused at the key, before the
# start sizes its per-block tables (scale 999999 on 4 GiB once kept a
# fuzzed run busy on 13 GB of host memory)
expect "pgbench_accounts larger than the device" 2 "--set 'pgbench.scale=100000': pgbench_accounts at scale 100000 (1387 GiB of heap) does not fit on device 'md0' (1024 GiB)" \
	"$SP" check scenarios/pgbench-small.ini --set pgbench.scale=100000
check "--scale 1/16 keeps io_span on the device" "'$SP' check scenarios/synthetic-small.ini --scale 1/16 >'$TMP/s16.ini' &&
	grep -qx 'size=4g' '$TMP/s16.ini' && grep -qx 'io_span=512m' '$TMP/s16.ini'"
check "synthetic-small --scale 1/16 runs" "'$SP' run scenarios/synthetic-small.ini --scale 1/16 --set duration=3s --set ramp_time=1s --out '$TMP/s16' >/dev/null"

# --help-keys: the option tables as a reference, every key check prints
check "--help-keys device row" "'$SP' check --help-keys device >'$TMP/hk' &&
	grep -Eq '^  lat_p99 +time +800us +us +99th-percentile' '$TMP/hk' &&
	grep -Eq '^  members +uint +1 +- +RAID0 members.*[(]range: 1[.][.]1024[)]' '$TMP/hk' &&
	head -n 1 '$TMP/hk' | grep -q '^.device NAME. '"
check "--help-keys costs rows carry unit and source" "'$SP' check --help-keys costs |
	grep -Eq '^  buddy_merge +cost +30 +ns/merge +est: '"
# (first file: --help-keys, "kind" per "[kind ...]" header; second: check's
# output; every key= of a [kind ...] section must be a row of kind)
cat >"$TMP/keys.awk" <<'AWK'
FNR == NR {
	if (/^\[/) { k = $1; sub(/^\[/, "", k); sub(/\]$/, "", k) }
	else if (/^  [^ ]/ && $1 != "key") have[k " " $1] = 1
	next
}
/^\[/ { k = $0; sub(/^\[/, "", k); sub(/[] ].*/, "", k); next }
/^[^;=]+=/ {
	key = $0; sub(/=.*/, "", key); n++
	if (!have[k " " key]) { print "missing: [" k "] " key; bad = 1 }
}
END { exit bad || !n }
AWK
"$SP" check --help-keys >"$TMP/hk.all"
for f in scenarios/reference.ini scenarios/pgbench-small.ini scenarios/fio-odirect-pin.ini \
	 scenarios/large-writes.ini scenarios/fork-pagetables.ini scenarios/synthetic-small.ini; do
	check "--help-keys lists every key check prints ($f)" "'$SP' check '$f' >'$TMP/hc.ini' &&
		awk -f '$TMP/keys.awk' '$TMP/hk.all' '$TMP/hc.ini'"
done
expect "--help-keys unknown section" 2 "slowpath check --help-keys: unknown section 'nosuch' (sections: global, machine, sysctl, policy, kernel, costs, device, synthetic, fio, writer, forker, pgbench, fragment)" \
	"$SP" check --help-keys nosuch

for c in run sweep check costs policies; do
	check "$c --help exits 0" "'$SP' $c --help | grep -q '^usage: slowpath $c'"
done
check "--help lists the commands" "'$SP' --help | grep -q '^  check ' && '$SP' help check | grep -q '^usage: slowpath check'"
check "--version" "'$SP' --version | grep -Eq '^slowpath [0-9]+\.[0-9]+'"
expect "no command" 2 "$("$SP" --help 2>&1)" "$SP"

cli_done
