#!/bin/sh
# 9007 — `slowpath probe wakeup` on this machine: with two CPUs it prints
# exactly its figures (wake_local_us, wake_ipi_us, idle_exit_us,
# wake_busy_us, wake_busy_ipis where /proc/interrupts has RES lines, and
# tcp_remote_us),
# each a non-negative number, wake_local_us positive, and exits 0; with
# one CPU allowed (taskset) it exits 2 saying so; an unknown probe, a bad
# --round-trips and an unknown option exit 2 with a message.  `slowpath
# probe rmap` prints its three figures, the costs non-negative numbers,
# and refuses a bad --processes; `slowpath probe switch` its five (mm_slots
# 0 or 2..9), and refuses a bad --messages; `slowpath probe duty` on one
# CPU (taskset) runs one and two processes and prints duty_cpus=1,
# duty_spin_us=200, duty_sleep_us, and per count its loops a second, idle
# share (0..100) and run-queue delay (where /proc/self/schedstat exists),
# and refuses a bad --seconds.  scripts/wake-placement.sh counts a
# hand-made perf script excerpt's wake-ups by kind.  No figure is compared with a time: the
# machine's speed is not the test's.
#
#   tests/suites/9007-probe-wakeup.sh BUILD_DIR
build=${1:?usage: $0 BUILD_DIR}
cd "$(dirname "$0")/../.." || exit 1
. tests/suites/record-lib.sh
sp=$build/slowpath

if [ "$(nproc)" -ge 2 ]; then
	"$sp" probe wakeup --round-trips 300 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cat "$tmp/out"
	want="wake_local_us wake_ipi_us idle_exit_us wake_busy_us "
	grep -q '^ *RES:' /proc/interrupts 2>/dev/null && want="${want}wake_busy_ipis "
	want="${want}tcp_remote_us "
	[ $rc = 0 ] && [ "$(cut -d= -f1 "$tmp/out" | tr '\n' ' ')" = "$want" ] &&
		awk -F= '$2 !~ /^[0-9]+(\.[0-9]+)?$/ { bad = 1 } $1 == "wake_local_us" && $2 + 0 <= 0 { bad = 1 }
			 END { exit bad }' "$tmp/out"
	check figures $?
else
	echo "9007: one CPU here: the two-CPU probe is not run"
fi
if command -v taskset >/dev/null; then
	taskset -c 0 "$sp" probe wakeup --round-trips 10 >/dev/null 2>"$tmp/e0"
	[ $? = 2 ] && grep -q "needs two CPUs" "$tmp/e0"
	check one-cpu-exit-2 $?
fi
"$sp" probe nosuch >/dev/null 2>"$tmp/e1"
[ $? = 2 ] && grep -q "unknown probe nosuch" "$tmp/e1"
check unknown-probe-exit-2 $?
"$sp" probe wakeup --round-trips 0x10 >/dev/null 2>"$tmp/e2"
[ $? = 2 ] && grep -q "round-trips: '0x10'" "$tmp/e2"
check bad-round-trips-exit-2 $?
"$sp" probe wakeup --fast >/dev/null 2>"$tmp/e3"
[ $? = 2 ] && grep -q "unknown option '--fast'" "$tmp/e3"
check unknown-option-exit-2 $?
"$sp" probe >/dev/null 2>"$tmp/e4"
[ $? = 2 ] && grep -q "which probe" "$tmp/e4"
check no-probe-exit-2 $?

"$sp" probe rmap --processes 16 >"$tmp/r" 2>"$tmp/re"
rc=$?
cat "$tmp/r"
[ $rc = 0 ] && [ "$(cut -d= -f1 "$tmp/r" | tr '\n' ' ')" = "rmap_processes rmap_vma_ns rmap_pte_ns " ] &&
	grep -qx 'rmap_processes=16' "$tmp/r" &&
	awk -F= '$2 !~ /^[0-9]+(\.[0-9]+)?$/ { bad = 1 } END { exit bad }' "$tmp/r"
check rmap-three-figures $?
"$sp" probe rmap --processes 0 >/dev/null 2>"$tmp/e5"
[ $? = 2 ] && grep -q "processes: '0'" "$tmp/e5"
check rmap-bad-processes-exit-2 $?

"$sp" probe switch --messages 200 >"$tmp/s" 2>"$tmp/se"
rc=$?
cat "$tmp/s"
[ $rc = 0 ] && [ "$(cut -d= -f1 "$tmp/s" | tr '\n' ' ')" = \
  "switch_thread_us switch_process_us mm_switch_us mm_switch_miss_us mm_slots " ] &&
	awk -F= '$2 !~ /^[0-9]+(\.[0-9]+)?$/ { bad = 1 }
		 $1 == "mm_slots" && ($2 !~ /^[0-9]+$/ || ($2 != 0 && ($2 < 2 || $2 > 9))) { bad = 1 }
		 END { exit bad }' "$tmp/s"
check switch-five-figures $?
"$sp" probe switch --messages x >/dev/null 2>"$tmp/e6"
[ $? = 2 ] && grep -q "messages: 'x'" "$tmp/e6"
check switch-bad-messages-exit-2 $?

if command -v taskset >/dev/null; then
	taskset -c 0 "$sp" probe duty --seconds 1 >"$tmp/d" 2>"$tmp/de"
	rc=$?
	cat "$tmp/d"
	want="duty_cpus duty_spin_us duty_spread duty_sleep_us"
	for k in 1 2; do
		want="$want duty_${k}_loops_per_s duty_${k}_idle_pct"
		[ -r /proc/self/schedstat ] && want="$want duty_${k}_delay_us"
	done
	duty_ok() {	# duty_ok FILE SPREAD: the keys in order, sane values
		[ "$(cut -d= -f1 "$1" | tr '\n' ' ')" = "$want " ] &&
			grep -qx 'duty_cpus=1' "$1" && grep -qx 'duty_spin_us=200' "$1" &&
			grep -qx "duty_spread=$2" "$1" &&
			awk -F= '$2 !~ /^[0-9]+(\.[0-9]+)?$/ { bad = 1 }
				 $1 ~ /loops_per_s|sleep_us/ && $2 + 0 <= 0 { bad = 1 }
				 $1 ~ /idle_pct/ && $2 + 0 > 100 { bad = 1 }
				 END { exit bad }' "$1"
	}
	[ $rc = 0 ] && duty_ok "$tmp/d" 0
	check duty-figures $?
	# --spread pins each process to a CPU of the probe's set: on one
	# CPU the same figures, marked
	taskset -c 0 "$sp" probe duty --spread --seconds 1 >"$tmp/d2" 2>"$tmp/de2" &&
		duty_ok "$tmp/d2" 1
	check duty-spread-figures $?
fi
"$sp" probe duty --seconds 0 >/dev/null 2>"$tmp/e7"
[ $? = 2 ] && grep -q "seconds: '0'" "$tmp/e7"
check duty-bad-seconds-exit-2 $?

# scripts/wake-placement.sh on a hand-made perf script excerpt: four
# wake-ups between postgres and pgbench, one of each kind it counts but a
# third CPU, one by a kworker (not counted unless named), two migrations,
# one idle stretch of 180 us on CPU 1;
# input without a sched_waking event exits 2 with a message
fx=tests/fixtures/perf/sched-script.txt
scripts/wake-placement.sh <"$fx" >"$tmp/wp" &&
	printf 'on_prev_ran_prev 1\non_prev_ran_other 1\nelsewhere_ran_prev 1\nelsewhere_ran_waker 1\nelsewhere_ran_other 0\nmigrations 2\nidle_stretches 1\nidle_stretch_mean_us 180.0\n' |
	cmp -s - "$tmp/wp"
check wake-placement-counts $?
scripts/wake-placement.sh kworker/0:1 postgres <"$fx" >"$tmp/wp2" &&
	grep -qx 'on_prev_ran_prev 1' "$tmp/wp2" && grep -qx 'on_prev_ran_other 1' "$tmp/wp2" &&
	grep -qx 'elsewhere_ran_waker 0' "$tmp/wp2"
check wake-placement-comms $?
echo 'not perf output' | scripts/wake-placement.sh >/dev/null 2>"$tmp/wpe"
[ $? = 2 ] && grep -q 'no sched:sched_waking event' "$tmp/wpe"
check wake-placement-bad-input-exit-2 $?

summary 9007-probe-wakeup
