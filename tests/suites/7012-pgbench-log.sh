#!/bin/sh
# pgbench's per-transaction log ([pgbench] log, sampling_rate) and
# scripts/pgbench-stalls.sh on it.  On scenarios/pgbench-small.ini: with
# log=on the result folder gets pgbench_log, one line per measured
# transaction in pgbench -l's six-field format, latencies
# that give result.json's maximum; every other file of the folder is the
# same as without the log, byte for byte (result.json but its host-time
# fields); a second run writes the same log; sampling_rate=25% writes a
# share near a quarter and again moves nothing else; ramp_time leaves
# the ramp's transactions out as the statistics do; a log that cannot be
# written fails the run (status 1, the message, no folder).  The script
# counts the log's transactions, finds shared stalls only where clients
# stall together (a hand-made log), and refuses bad input with status 2
# and file:line.
. tests/suites/5000-pagecache.inc
cli_init "$1" 7012-pgbench-log

SCN=scenarios/pgbench-small.ini
case $BUILD in
*rel*) DUR=6s ;;
*) DUR=1s ;;
esac

"$SP" run $SCN --set duration=$DUR --out "$TMP/off" >/dev/null 2>&1
"$SP" run $SCN --set duration=$DUR --set pgbench.log=on --out "$TMP/on" >/dev/null 2>"$TMP/err"
check "log=on: run exits quietly, pgbench_log written" "[ -s '$TMP/on/result.json' ] && [ ! -s '$TMP/err' ] &&
	[ -s '$TMP/on/pgbench_log' ]"
tx=$(jq -r .transactions "$TMP/on/result.json")
check "one line per measured transaction ($tx)" "[ \$(wc -l <'$TMP/on/pgbench_log') = '$tx' ]"
check "six whole numbers a line, script 0, time_us below 10^6" "awk 'NF != 6 || \$4 != 0 || \$6 >= 1000000 { exit 1 }
	{ for (i = 1; i <= 6; i++) if (\$i !~ /^[0-9]+\$/) exit 1 }' '$TMP/on/pgbench_log'"
check "each client numbers its transactions from 0 up" "awk '\$2 != n[\$1]++ { exit 1 }' '$TMP/on/pgbench_log'"
max_us=$(awk '$3 > m { m = $3 } END { print m }' "$TMP/on/pgbench_log")
check "the longest logged latency is result.json's max ($max_us us)" "jq -e --argjson m $max_us \
	'(.latency_ms.max * 1000 | floor) == \$m' '$TMP/on/result.json' >/dev/null"
same_folders() {
	for d in "$1" "$2"; do
		sed -E 's/^( *"(wall_seconds|events_per_second)": )[^,]*(,?)$/\1"MASKED"\3/' "$d/result.json" >"$d.masked"
	done
	cmp -s "$1.masked" "$2.masked" || return 1
	for f in "$1"/*; do
		b=$(basename "$f")
		case $b in result.json|scenario.ini|pgbench_log) continue ;; esac
		cmp -s "$f" "$2/$b" || return 1
	done
}
same_folders "$TMP/off" "$TMP/on"
check "the log moves no result: every other file as without it" "[ $? = 0 ]"
"$SP" run $SCN --set duration=$DUR --set pgbench.log=on --out "$TMP/on2" >/dev/null 2>&1
check "same seed, same log" "cmp '$TMP/on/pgbench_log' '$TMP/on2/pgbench_log'"

"$SP" run $SCN --set duration=$DUR --set pgbench.log=on --set pgbench.sampling_rate=25% \
	--out "$TMP/s25" >/dev/null 2>&1
n25=$(wc -l <"$TMP/s25/pgbench_log")
check "sampling_rate=25%: $n25 of $tx lines, 20-30 %" "[ $((n25 * 100)) -ge $((tx * 20)) ] && [ $((n25 * 100)) -le $((tx * 30)) ]"
same_folders "$TMP/off" "$TMP/s25"
check "sampling moves no result either" "[ $? = 0 ]"

"$SP" run $SCN --set duration=$DUR --set ramp_time=500ms --set pgbench.log=on --out "$TMP/ramp" >/dev/null 2>&1
check "ramp_time: only the measured transactions, none ending before 0.5 s" "
	[ \$(wc -l <'$TMP/ramp/pgbench_log') = \$(jq -r .transactions '$TMP/ramp/result.json') ] &&
	awk '\$5 == 0 && \$6 < 500000 { exit 1 }' '$TMP/ramp/pgbench_log'"

# A write that fails (the file size limit, its signal ignored, so write()
# gets EFBIG): the run fails and leaves no folder that looks complete.
sh -c "trap '' XFSZ; ulimit -f 64; exec '$SP' run $SCN --set duration=$DUR --set pgbench.log=on --out '$TMP/full'" \
	>/dev/null 2>"$TMP/err"
rc=$?
check "a log that cannot be written: status 1, the message, no folder (rc $rc)" "[ $rc = 1 ] &&
	grep -q 'pgbench_log' '$TMP/err' && [ ! -e '$TMP/full' ] && [ ! -e '$TMP/full.tmp' ]"

# scripts/pgbench-stalls.sh
scripts/pgbench-stalls.sh "$TMP/on/pgbench_log" >"$TMP/st" 2>"$TMP/err"
check "pgbench-stalls.sh reads the log: $tx transactions" "[ ! -s '$TMP/err' ] &&
	grep -q '^transactions $tx, latency ms: p50 ' '$TMP/st' && grep -q '^in shared stalls: ' '$TMP/st'"
# four clients; two stalls shared by three and four of them (>= 3 of 4),
# and one client's own slow transaction
cat >"$TMP/hand.log" <<'EOF'
0 0 1000 0 10 000000
1 0 1000 0 10 001000
2 0 1000 0 10 002000
3 0 1000 0 10 003000
0 1 9000 0 10 500000
1 1 9000 0 10 500200
2 1 9000 0 10 500400
3 1 1000 0 10 600000
0 2 9000 0 11 000000
1 2 9000 0 11 000100
2 2 9000 0 11 000200
3 2 9000 0 11 000300
3 3 9000 0 11 500000
EOF
scripts/pgbench-stalls.sh -t 5 "$TMP/hand.log" >"$TMP/st" 2>"$TMP/err"
check "hand-made log: 2 shared stalls holding 7 transactions, 1 of a client alone" "[ ! -s '$TMP/err' ] &&
	grep -q '^tail: latency >= 5.00 ms, 8 transactions; 4 clients, a shared stall is >= 3 of them' '$TMP/st' &&
	grep -q '^in shared stalls: 7 transactions (87.5 %), 2 stalls' '$TMP/st' &&
	grep -q '^a client alone: 1 transactions (12.5 %)' '$TMP/st'"
printf '0 0 1000 0 10 000000\n0 1 x 0 10 5\n' >"$TMP/bad.log"
scripts/pgbench-stalls.sh "$TMP/bad.log" >/dev/null 2>"$TMP/err"
rc=$?
check "a line that is not pgbench's: status 2 with file:line (rc $rc)" "[ $rc = 2 ] && grep -q 'bad.log:2: ' '$TMP/err'"
scripts/pgbench-stalls.sh "$TMP/none.log" >/dev/null 2>&1
check "a missing file: status 2" "[ $? = 2 ]"
scripts/pgbench-stalls.sh -t abc "$TMP/hand.log" >/dev/null 2>&1
check "-t not a number: status 2" "[ $? = 2 ]"
: >"$TMP/empty.log"
scripts/pgbench-stalls.sh "$TMP/empty.log" >/dev/null 2>&1
check "no transaction: status 2" "[ $? = 2 ]"
cli_done
