#!/bin/sh
# 9006 — the host's CPU and disk in a local twin: scripts/twin-costs.sh on a
# recording made with scenarios/real/pgbench-local's CPU and disk probes
# (tests/fixtures/results/recorded-pgbench-probe: its result.json, whose
# figures probe_server_cpu_us_per_tx and probe_client_cpu_us_per_tx are
# what one client and its server spent per transaction on the recorded
# host, and probe_disk_*, fio's figures there).  Expect the script to
# print the five device options with fio's figures (the flush less the
# write-out at depth 1, here the read latency), `fs=ext4-nojournal` when
# the recording says its file system is one, `machine.llc_cpus` when it
# has probe_llc_cpus (a bad one exits 2), the recycled WAL the
# run found and the WAL since its last REDO point (301.5 MB: 308 736 KiB;
# both added to a copy of the fixture), which the twin then has
# (`slowpath check`), and the four cost options, each a positive whole
# number of ns; a one-client run of the twin with them,
# made here and read from its profile.json independently of the script,
# to charge the server and pgbench within 3 % of the recorded CPU per
# transaction (the costs it did not set were not touched: the twin without
# the options charges more than 3 % away); and bad input — a recording
# without the probe, a folder that does not exist, too few arguments — to
# exit with status 2 and a message.  A second fixture with the wake-up
# probe and fio's write job (recorded-pgbench-wake) must give idle_exit as
# measured, a flush of fdatasync less the 8 KiB write, and a
# wake_ipi that makes the twin's one-client IPI CPU the host's, and land
# on its recorded CPU the same way; with the one-CPU probe's figures added,
# a switch_refill that puts the twin on one CPU on the recorded CPU of that
# probe.  The twin runs at --scale 1/32 and its
# probe for 1 simulated second (TWIN_COSTS_SECONDS), as the checked builds
# check every mm operation.  Skipped in the sanitizer build: the script's
# work is shell, and its runs are what 9004 runs.
#
#   tests/suites/9006-twin-costs.sh BUILD_DIR
build=${1:?usage: $0 BUILD_DIR}
cd "$(dirname "$0")/../.." || exit 1
. tests/suites/record-lib.sh

skip_in_san 9006-twin-costs

# the fixture, with the WAL its run found recycled, the WAL since the
# last REDO point and the share of it cached (figures wal_recycled_mb,
# wal_since_redo_mb and wal_cached_pct, which newer recordings have) added
fx=$tmp/probe
mkdir "$fx" && jq '.figures.wal_recycled_mb = 976 | .figures.wal_since_redo_mb = 301.5 |
	.figures.wal_cached_pct = 99.237' \
	tests/fixtures/results/recorded-pgbench-probe/result.json \
	>"$fx/result.json"
scn=scenarios/pgbench-local-s50.ini
export SLOWPATH="$build/slowpath"
TWIN_COSTS_SECONDS=1 scripts/twin-costs.sh "$fx" "$scn" --scale 1/32 >"$tmp/sets" 2>"$tmp/err"
check exit-0 $?
cat "$tmp/err"
sets=$(cat "$tmp/sets")
echo "$sets" | grep -Eq '^--set device\.lat_mean=[0-9.]+us --set device\.lat_p99=[0-9.]+us --set device\.flush=[0-9.]+us --set device\.iops=[1-9][0-9]* --set device\.bandwidth=[1-9][0-9]* --set pgbench\.wal_recycled=976m --set pgbench\.wal_since_redo=308736k --set pgbench\.wal_cached=99\.2% --set costs\.pg_tx_cpu=[1-9][0-9]* --set costs\.pgbench_client_stmt=[1-9][0-9]* --set costs\.tcp_loopback_send=[1-9][0-9]* --set costs\.tcp_recv=[1-9][0-9]*$'
check twelve-options $?
# the device options are fio's figures as recorded, and the twin takes them
# shellcheck disable=SC2086
"$build/slowpath" check "$scn" $sets >"$tmp/resolved"
us() { jq -r --arg k "probe_disk_$1" '.figures[$k] * 1000 | round' "$fx/result.json"; }
grep -qx "lat_mean=$(us read_lat_us)ns" "$tmp/resolved" && grep -qx "lat_p99=$(us read_p99_us)ns" "$tmp/resolved" &&
	grep -qx "flush=$(jq -r '.figures | (.probe_disk_flush_us - (.probe_disk_write_lat_us // .probe_disk_read_lat_us)) * 1000 | round' "$fx/result.json")ns" "$tmp/resolved" &&
	grep -qx "iops=$(jq -r '.figures.probe_disk_write_iops | round' "$fx/result.json")" "$tmp/resolved"
check device-from-fio $?

# the file system as recorded: probe_disk_fs_ext4_nojournal=1 gives
# [device] fs=ext4-nojournal, a recording without it (or 0) none
fx4=$tmp/probe-ext4
mkdir "$fx4" && jq '.figures.probe_disk_fs_ext4_nojournal = 1' "$fx/result.json" >"$fx4/result.json"
TWIN_COSTS_SECONDS=1 scripts/twin-costs.sh "$fx4" "$scn" --scale 1/32 >"$tmp/sets4" 2>/dev/null
grep -q -- '--set device\.fs=ext4-nojournal' "$tmp/sets4" && ! grep -q 'device\.fs' "$tmp/sets"
check fs-from-probe $?

# the CPUs per last-level cache as recorded: probe_llc_cpus=1 gives
# [machine] llc_cpus=1, a recording without it none; 0 or a non-number
# exits 2 naming the figure
fxl=$tmp/probe-llc
mkdir "$fxl" && jq '.figures.probe_llc_cpus = 1' "$fx/result.json" >"$fxl/result.json"
TWIN_COSTS_SECONDS=1 scripts/twin-costs.sh "$fxl" "$scn" --scale 1/32 >"$tmp/setsl" 2>/dev/null
grep -q -- '--set machine\.llc_cpus=1 ' "$tmp/setsl" && ! grep -q 'llc_cpus' "$tmp/sets"
check llc-from-probe $?
jq '.figures.probe_llc_cpus = 0' "$fx/result.json" >"$fxl/result.json"
TWIN_COSTS_SECONDS=1 scripts/twin-costs.sh "$fxl" "$scn" --scale 1/32 >/dev/null 2>"$tmp/errl"
[ $? = 2 ] && grep -q "probe_llc_cpus '0' is not a positive whole number" "$tmp/errl"
check llc-zero-exit-2 $?

fig() { jq -r --arg k "$1" '.figures[$k]' "$fx/result.json"; }
# per_tx DIR: server and client CPU per transaction (us) of a run
per_tx() {
	jq -r --argjson tx "$(jq -r .transactions "$1/result.json")" '
		def cpu: [.root | .. | objects | .self? | objects | (.cpu + .spin)] | add;
		([.kinds[] | select(.kind == "backend" or .kind == "checkpointer" or
				    .kind == "bgwriter" or .kind == "walwriter") | cpu] | add) as $s |
		([.kinds[] | select(.kind == "pgbench") | cpu] | add) as $c |
		"\($s / $tx / 1000) \($c / $tx / 1000)"' "$1/profile.json"
}
within() {	# within MEASURED RECORDED PERCENT
	awk -v m="$1" -v r="$2" -v p="$3" 'BEGIN { d = (m - r) / r * 100; if (d < 0) d = -d; exit !(d <= p) }'
}
one_client="--scale 1/32 --set pgbench.clients=1 --set pgbench.threads=1 --set duration=1s"
# shellcheck disable=SC2086
"$build/slowpath" run "$scn" $one_client $sets --out "$tmp/with" >/dev/null 2>&1 &&
	"$build/slowpath" run "$scn" $one_client --out "$tmp/without" >/dev/null 2>&1
check probe-runs $?
with=$(per_tx "$tmp/with")
without=$(per_tx "$tmp/without")
rs=$(fig probe_server_cpu_us_per_tx)
rc=$(fig probe_client_cpu_us_per_tx)
echo "recorded $rs $rc; twin with the options $with; without $without (us per transaction: server, client)"
within "${with% *}" "$rs" 3 && within "${with#* }" "$rc" 3
check lands-on-the-recorded-cpu $?
! within "${without% *}" "$rs" 3 && ! within "${without#* }" "$rc" 3
check twin-alone-does-not $?

# with the wake-up probe (tests/fixtures/results/recorded-pgbench-wake:
# probe_wake_ipi_us, probe_idle_exit_us, probe_ipis_per_tx): idle_exit as
# measured, and wake_ipi such that the twin's IPI CPU per one-client
# transaction (its own IPI count times wake_ipi) is the host's (the
# host's count times the measured cost), within 3 %; the CPU fit holds
# with them
# (the twin keeps its 2 CPUs: --scale divides them too, so 64 / 32;
# one CPU sends no IPI)
fw=tests/fixtures/results/recorded-pgbench-wake
two_cpus="--scale 1/32 --set machine.cpus=64"
# shellcheck disable=SC2086
TWIN_COSTS_SECONDS=1 scripts/twin-costs.sh "$fw" "$scn" $two_cpus >"$tmp/wsets" 2>"$tmp/werr"
check wake-exit-0 $?
cat "$tmp/werr"
wsets=$(cat "$tmp/wsets")
wfig() { jq -r --arg k "$1" '.figures[$k]' "$fw/result.json"; }
opt() { echo "$wsets" | tr ' ' '\n' | sed -n "s/^costs\.$1=//p"; }
[ "$(opt idle_exit)" = "$(awk -v v="$(wfig probe_idle_exit_us)" 'BEGIN { printf "%.0f", v * 1000 }')" ]
check idle-exit-as-measured $?
# this recording has fio's 8 KiB write job: the flush is fdatasync less it
[ "$(echo "$wsets" | tr ' ' '\n' | sed -n 's/^device\.flush=//p')" = \
  "$(awk -v f="$(wfig probe_disk_flush_us)" -v w="$(wfig probe_disk_write_lat_us)" 'BEGIN { printf "%.3fus", f - w }')" ]
check flush-less-the-write $?
# shellcheck disable=SC2086
"$build/slowpath" run "$scn" $two_cpus --set pgbench.clients=1 --set pgbench.threads=1 --set duration=1s \
	$wsets --out "$tmp/wwith" >/dev/null 2>&1
check wake-probe-run $?
within "$(awk -v w="$(opt wake_ipi)" -v n="$(jq -r .figures.wake_ipis_per_tx "$tmp/wwith/result.json")" \
	'BEGIN { print w * n / 1000 }')" \
	"$(awk -v c="$(wfig probe_wake_ipi_us)" -v n="$(wfig probe_ipis_per_tx)" 'BEGIN { print c * n }')" 3
check twin-ipi-cpu-is-the-hosts $?
wwith=$(per_tx "$tmp/wwith")
echo "with the wake-up probe: recorded $(wfig probe_server_cpu_us_per_tx) $(wfig probe_client_cpu_us_per_tx); twin $wwith"
within "${wwith% *}" "$(wfig probe_server_cpu_us_per_tx)" 3 && within "${wwith#* }" "$(wfig probe_client_cpu_us_per_tx)" 3
check wake-lands-on-the-recorded-cpu $?

# with the one-CPU probe (probe_pinned_*, added to a copy of the wake-up
# fixture: the server's and pgbench's CPU 30 % above the two-CPU probe's):
# a switch_refill option, a positive whole number of ns, and the twin on
# one CPU with the options charging the server and pgbench within 3 % of
# the recorded sum; without the one-CPU figures, no switch_refill
fp=$tmp/pinned
mkdir "$fp" && jq '.figures.probe_pinned_tps = 1500 |
	.figures.probe_pinned_server_cpu_us_per_tx = .figures.probe_server_cpu_us_per_tx * 1.3 |
	.figures.probe_pinned_client_cpu_us_per_tx = .figures.probe_client_cpu_us_per_tx * 1.3' \
	"$fw/result.json" >"$fp/result.json"
# shellcheck disable=SC2086
TWIN_COSTS_SECONDS=1 scripts/twin-costs.sh "$fp" "$scn" $two_cpus >"$tmp/psets" 2>"$tmp/perr"
check pinned-exit-0 $?
cat "$tmp/perr"
psets=$(cat "$tmp/psets")
refill=$(echo "$psets" | tr ' ' '\n' | sed -n 's/^costs\.switch_refill=//p')
case $refill in [1-9]*) ! echo "$refill" | grep -q '[^0-9]' ;; *) false ;; esac &&
	! echo "$wsets" | grep -q switch_refill
check switch-refill-option $?
# shellcheck disable=SC2086
"$build/slowpath" run "$scn" $two_cpus --set pgbench.clients=1 --set pgbench.threads=1 --set duration=1s \
	$psets --set machine.cpus=1 --out "$tmp/pwith" >/dev/null 2>&1
check pinned-probe-run $?
pwith=$(per_tx "$tmp/pwith")
pfig() { jq -r --arg k "$1" '.figures[$k]' "$fp/result.json"; }
echo "one CPU: recorded $(pfig probe_pinned_server_cpu_us_per_tx) + $(pfig probe_pinned_client_cpu_us_per_tx); twin $pwith"
within "$(echo "$pwith" | awk '{ print $1 + $2 }')" \
	"$(awk -v s="$(pfig probe_pinned_server_cpu_us_per_tx)" -v c="$(pfig probe_pinned_client_cpu_us_per_tx)" \
		'BEGIN { print s + c }')" 3
check pinned-lands-on-the-recorded-cpu $?

# with the busy-CPU wake-up figures (added to a copy of the wake-up
# fixture: 12.5 us and 0.6 IPIs per message, the fixture's wake_ipi_us
# 22.2): wake_remote_busy 0 (12.5 - 13.32 is negative); with 0.1 IPIs,
# 12.5 - 0.1 x 22.2 = 10.28 us; and none without the figures; with
# probe_tcp_remote_us 2.5, tcp_remote 2500 ns, none without
fb=$tmp/busy
mkdir "$fb" && jq '.figures.probe_wake_busy_us = 12.5 | .figures.probe_wake_busy_ipis = 0.6' \
	"$fw/result.json" >"$fb/result.json"
# shellcheck disable=SC2086
TWIN_COSTS_SECONDS=1 scripts/twin-costs.sh "$fb" "$scn" $two_cpus >"$tmp/bsets" 2>/dev/null &&
	[ "$(tr ' ' '\n' <"$tmp/bsets" | sed -n 's/^costs\.wake_remote_busy=//p')" = 0 ] &&
	jq '.figures.probe_wake_busy_ipis = 0.1' "$fw/result.json" >"$fb/r" &&
	jq '.figures.probe_wake_busy_us = 12.5' "$fb/r" >"$fb/result.json" &&
	TWIN_COSTS_SECONDS=1 scripts/twin-costs.sh "$fb" "$scn" $two_cpus >"$tmp/bsets" 2>/dev/null &&
	[ "$(tr ' ' '\n' <"$tmp/bsets" | sed -n 's/^costs\.wake_remote_busy=//p')" = 10280 ] &&
	! echo "$wsets" | grep -q wake_remote_busy &&
	jq '.figures.probe_tcp_remote_us = 2.5' "$fb/result.json" >"$fb/r" && mv "$fb/r" "$fb/result.json" &&
	TWIN_COSTS_SECONDS=1 scripts/twin-costs.sh "$fb" "$scn" $two_cpus >"$tmp/bsets" 2>/dev/null &&
	[ "$(tr ' ' '\n' <"$tmp/bsets" | sed -n 's/^costs\.tcp_remote=//p')" = 2500 ] &&
	! echo "$wsets" | grep -q tcp_remote
check wake-remote-busy-option $?

scripts/twin-costs.sh tests/fixtures/results/recorded-pgbench-local "$scn" >/dev/null 2>"$tmp/e1"
[ $? = 2 ] && grep -q "no figure 'probe_seconds'" "$tmp/e1"
check no-probe-exit-2 $?
scripts/twin-costs.sh "$tmp/nonexistent" "$scn" >/dev/null 2>"$tmp/e2"
[ $? = 2 ] && grep -q "result.json: no such file" "$tmp/e2"
check missing-folder-exit-2 $?
scripts/twin-costs.sh "$fx" >/dev/null 2>"$tmp/e3"
[ $? = 2 ] && grep -q "usage:" "$tmp/e3"
check usage-exit-2 $?

summary 9006-twin-costs
