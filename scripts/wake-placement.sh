#!/bin/sh
# wake-placement.sh — where a machine's kernel runs woken tasks, from a
# `perf sched record` (docs/calibration.md "Periodic balancing and the
# last-level cache"): the evidence for a twin's [machine] llc_cpus.
#
#   perf sched record -a -o perf.data -- sleep 2    # while the workload runs
#   perf script -i perf.data -F comm,pid,cpu,time,event,trace |
#       scripts/wake-placement.sh [COMM...]
#
# Reads perf script's lines on stdin.  A sched_waking event fires on the
# waker's CPU and names the wakee's previous CPU (target_cpu); the CPU of
# the wakee's next sched_switch in is where it ran.  Counts the wake-ups
# of tasks named COMM (default: postgres pgbench) made by tasks of those
# names, by where the waker was and where the wakee ran:
#
#   on_prev_ran_prev      the waker on the wakee's previous CPU, ran there
#   on_prev_ran_other     ... ran on another CPU (an idle CPU was sought)
#   elsewhere_ran_prev    the waker on another CPU, the wakee ran on its
#                         previous CPU
#   elsewhere_ran_waker   ... ran on the waker's CPU (wake_affine)
#   elsewhere_ran_other   ... ran on a third CPU
#   migrations            sched_migrate_task events, all tasks
#   idle_stretches        stretches of the idle task (swapper) between two
#                         sched_switch events on a CPU, all CPUs
#   idle_stretch_mean_us  their mean length (the model's figure of the
#                         same name, per transaction in idle_stretches_per_tx)
#
# One `name value` line each.  Exit 2 with a message when the input has no
# sched_waking event (not perf script output of a sched record).
awk -v comms="${*:-postgres pgbench}" '
BEGIN {
	n = split(comms, c, " ")
	for (i = 1; i <= n; i++)
		want[c[i]] = 1
}
function field(s, k,  m) {
	if (match(s, " " k "=[^ ]*"))
		return substr(s, RSTART + length(k) + 2, RLENGTH - length(k) - 2)
	return ""
}
{
	# COMM PID [CPU] TIME: sched:EVENT: FIELDS
	ev = ""; cpu = -1; t = -1
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^\[[0-9]+\]$/ && cpu < 0)
			cpu = substr($i, 2, length($i) - 2) + 0
		if ($i ~ /^[0-9]+\.[0-9]+:$/ && t < 0)
			t = substr($i, 1, length($i) - 1) + 0
		if ($i ~ /^sched:sched_[a-z_]+:$/) {
			ev = substr($i, 7, length($i) - 7)
			break
		}
	}
	if (ev == "" || cpu < 0)
		next
	line = " " $0
	if (ev == "sched_waking") {
		wakings++
		if (!want[$1] || !want[field(line, "comm")])
			next
		pid = field(line, "pid")
		waker[pid] = cpu
		prev[pid] = field(line, "target_cpu") + 0
		pending[pid] = 1
	} else if (ev == "sched_switch") {
		if (field(line, "prev_comm") ~ /^swapper/ && (cpu in idle_from)) {
			stretches++
			stretch_s += t - idle_from[cpu]
			delete idle_from[cpu]
		}
		if (field(line, "next_comm") ~ /^swapper/)
			idle_from[cpu] = t
		pid = field(line, "next_pid")
		if (!(pid in pending))
			next
		delete pending[pid]
		if (waker[pid] == prev[pid])
			k = cpu == prev[pid] ? "on_prev_ran_prev" : "on_prev_ran_other"
		else
			k = cpu == prev[pid] ? "elsewhere_ran_prev" : cpu == waker[pid] ? "elsewhere_ran_waker" : "elsewhere_ran_other"
		count[k]++
	} else if (ev == "sched_migrate_task") {
		migrations++
	}
}
END {
	if (!wakings) {
		print "wake-placement.sh: no sched:sched_waking event on stdin (perf script of a perf sched record?)" > "/dev/stderr"
		exit 2
	}
	split("on_prev_ran_prev on_prev_ran_other elsewhere_ran_prev elsewhere_ran_waker elsewhere_ran_other", keys, " ")
	for (i = 1; i <= 5; i++)
		printf "%s %d\n", keys[i], count[keys[i]]
	printf "migrations %d\n", migrations
	printf "idle_stretches %d\n", stretches
	printf "idle_stretch_mean_us %.1f\n", stretches ? 1e6 * stretch_s / stretches : 0
}'
