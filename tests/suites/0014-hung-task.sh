#!/bin/sh
# The hung-task detector ([sysctl] kernel.hung_task_*): a device whose
# every I/O takes 3 s leaves the synthetic workload's tasks in block I/O
# for longer than a 1-s timeout, so the run prints khungtaskd's reports
# on stderr with where each task sleeps, stops printing after
# hung_task_warnings of them, and counts every one in the figure
# hung_task_detect_count; the default run counts none, 0 switches the
# detector (and its figure) off, and the check changes no result.
# The hard-lockup detector (kernel.watchdog_thresh): a cost override that
# holds zone->lock for a second per page leaves other CPUs spinning for
# longer than 10 s, each reported once with where it spins.
. tests/suites/0000-cli.inc
cli_init "$1" 0014-hung-task

slow="--set device:md0.lat_mean=3s --set device:md0.lat_p99=3s"
fig() { jq -r ".figures.hung_task_detect_count // \"none\"" "$1/result.json" 2>/dev/null | sed 's/\.0*$//'; }

check "a slow device's waiters are reported" "'$SP' run scenarios/synthetic-small.ini $slow \
	--set sysctl.kernel.hung_task_timeout_secs=1 --out '$TMP/slow' 2>'$TMP/slow.err' &&
	grep -Eq '^\[ +2\.000000\] INFO: task synthetic/0:[0-9]+ blocked for more than 1 seconds\.$' '$TMP/slow.err' &&
	grep -Eq '^\[ +2\.000000\]  io$' '$TMP/slow.err'"
check "ten are printed, then a note" "[ \$(grep -c 'INFO: task' '$TMP/slow.err') -eq 10 ] &&
	grep -q 'Future hung task reports are suppressed, see sysctl kernel.hung_task_warnings' '$TMP/slow.err'"
n=$(fig "$TMP/slow")
check "every report is counted ($n)" "[ '$n' -gt 10 ]"
check "no limit prints them all" "'$SP' run scenarios/synthetic-small.ini $slow \
	--set sysctl.kernel.hung_task_timeout_secs=1 --set sysctl.kernel.hung_task_warnings=-1 \
	--out '$TMP/all' 2>'$TMP/all.err'"
n=$(fig "$TMP/all")
check "... and counts what it prints" "[ \$(grep -c 'INFO: task' '$TMP/all.err') = '$n' ]"
check "the default run reports none" "'$SP' run scenarios/synthetic-small.ini --out '$TMP/def' \
	2>'$TMP/def.err' && ! grep -q 'INFO: task' '$TMP/def.err'"
check "... and its figure is 0" "[ '$(fig "$TMP/def")' = 0 ]"
check "timeout 0 is off" "'$SP' run scenarios/synthetic-small.ini $slow \
	--set sysctl.kernel.hung_task_timeout_secs=0 --out '$TMP/off' 2>'$TMP/off.err' &&
	! grep -q 'INFO: task' '$TMP/off.err'"
check "... with no figure" "[ '$(fig "$TMP/off")' = none ]"
check "the checks change no result" "jq -S 'del(.wall_seconds, .events_per_second, .figures.hung_task_detect_count)' \
	'$TMP/slow/result.json' >'$TMP/a.json' && jq -S 'del(.wall_seconds, .events_per_second, .figures)' \
	'$TMP/off/result.json' >'$TMP/b.json' && jq -S 'del(.figures)' '$TMP/a.json' | diff - '$TMP/b.json' &&
	diff '$TMP/slow/tps.csv' '$TMP/off/tps.csv'"
check "a bad value is file:line" "printf '[sysctl]\nkernel.hung_task_warnings=-2\n' >'$TMP/bad.ini' &&
	{ '$SP' check '$TMP/bad.ini' 2>'$TMP/bad.err'; [ \$? -eq 2 ]; } && grep -q 'bad.ini:2:' '$TMP/bad.err'"
lockfig() { jq -r ".figures.hard_lockup_count // \"none\"" "$1/result.json" 2>/dev/null | sed 's/\.0*$//'; }
check "the default run has no lockup" "[ '$(lockfig "$TMP/def")' = 0 ]"
check "spinning 15 s on zone->lock is a hard lockup" "'$SP' run scenarios/pgbench-small.ini \
	--set costs.buddy_page=1000000000 --set duration=20s --out '$TMP/lk' 2>'$TMP/lk.err' &&
	grep -Eq '^\[ +15\.000000\] watchdog: Watchdog detected hard LOCKUP on cpu [0-9]+$' '$TMP/lk.err' &&
	grep -Eq 'Comm: backend/[0-9]+ \(spinning for 15\.000 s\)$' '$TMP/lk.err' &&
	grep -Eq '^\[ +15\.000000\]  rmqueue_bulk$' '$TMP/lk.err'"
n=$(lockfig "$TMP/lk")
check "... counted once per CPU and episode ($n)" "[ \$(grep -c 'hard LOCKUP' '$TMP/lk.err') = '$n' ] &&
	[ '$n' -ge 1 ] && [ '$n' -le 4 ]"
check "watchdog_thresh=0 is off" "'$SP' run scenarios/pgbench-small.ini --set costs.buddy_page=1000000000 \
	--set duration=20s --set sysctl.kernel.watchdog_thresh=0 --out '$TMP/lk0' 2>'$TMP/lk0.err' &&
	! grep -q LOCKUP '$TMP/lk0.err'"
check "... with no figure" "[ '$(lockfig "$TMP/lk0")' = none ]"
cli_done
