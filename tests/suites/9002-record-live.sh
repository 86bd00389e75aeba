#!/bin/sh
# 9002 — `slowpath record` on this machine's real /proc: a short --duration
# recording, a non-root recording (where /proc/pagetypeinfo is root-only
# and must be listed as missing, not fatal), and SIGTERM to the recorder
# (the command's whole process group is stopped, the folder is complete).
# No test here measures time; they only wait for things to happen.
#
#   tests/suites/9002-record-live.sh BUILD_DIR
build=${1:?usage: $0 BUILD_DIR}
cd "$(dirname "$0")/../.." || exit 1
. tests/suites/record-lib.sh

key() {		# FILE KEY: the value of a top-level scalar key of result.json
	sed -n "s/^  \"$2\": \(.*\),\$/\1/p" "$1"
}

# 1. --duration: samples at 0, 0.25, 0.5, 0.75, 1.0 s of real time
record --duration 1s --interval 250ms --out "$tmp/d" 2>"$tmp/d.err"
rc=$?
ok=1
[ $rc = 0 ] && [ -f "$tmp/d/result.json" ] || ok=0
[ "$(key "$tmp/d/result.json" samples)" = 5 ] || ok=0
[ "$(grep -c '^time: ' "$tmp/d/proc-vmstat")" = 5 ] || ok=0
[ "$(key "$tmp/d/result.json" source)" = '"recorded"' ] || ok=0
[ "$(key "$tmp/d/result.json" kernel_release)" = "\"$(cat /proc/sys/kernel/osrelease)\"" ] || ok=0
grep -q '"nr_free_pages": ' "$tmp/d/result.json" || ok=0
[ $ok = 1 ] || { cat "$tmp/d.err"; head -c 600 "$tmp/d/result.json" 2>/dev/null; }
check duration-recording $((1 - ok))

# 1b. proc-stat: a sample per interval, each with the "cpu" line first (10
#     tick columns on this kernel), a cpuN line per online CPU and ctxt;
#     the "cpu" line's ticks grow at every sample, and over the second
#     from the first to the last by about USER_HZ per online CPU (all
#     ten columns but guest and guest_nice, which user and nice include)
hz=$(getconf CLK_TCK)
awk -v hz="$hz" '
	function end_sample() {
		if (!s) return
		if (first != 1 || !ctxt || ncpu < 1) bad = 1
		if (s > 1 && sum <= prev) bad = 1
		if (s == 1) sum1 = sum
		prev = sum; cpus = ncpu
	}
	/^time: / { end_sample(); s++; n = 0; first = 0; ctxt = 0; ncpu = 0; sum = 0; next }
	{ n++ }
	n == 1 && $1 == "cpu" && NF == 11 { first = 1; for (i = 2; i <= 9; i++) sum += $i }
	$1 ~ /^cpu[0-9]+$/ { ncpu++ }
	$1 == "ctxt" { ctxt = 1 }
	END {
		end_sample()
		d = prev - sum1
		if (bad || s != 5 || d < 0.5 * hz * cpus || d > 1.5 * hz * cpus) {
			printf "samples %d, ticks %d over 1 s on %d CPUs\n", s, d, cpus; exit 1
		}
	}' "$tmp/d/proc-stat"
check proc-stat-per-sample $?

# 2. unreadable files are listed, not fatal: as an unprivileged user
#    /proc/pagetypeinfo (mode 0400) cannot be read
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir "$tmp/u"
	chown nobody "$tmp/u"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		$RECORD_CMD --duration 0.5s --interval 250ms --out "$tmp/u" 2>"$tmp/u.err"
	rc=$?
	ok=1
	[ $rc = 0 ] && [ -f "$tmp/u/result.json" ] || ok=0
	grep -q '"/proc/pagetypeinfo: Permission denied (3 of 3 samples)"' "$tmp/u/result.json" || ok=0
	[ ! -e "$tmp/u/proc-pagetypeinfo" ] || ok=0
	[ -s "$tmp/u/proc-vmstat" ] || ok=0
	[ $ok = 1 ] || { cat "$tmp/u.err"; sed -n '/missing/,$p' "$tmp/u/result.json" 2>/dev/null; }
	check unprivileged-missing-pagetypeinfo $((1 - ok))
elif [ ! -r /proc/pagetypeinfo ]; then
	record --duration 0.5s --interval 250ms --out "$tmp/u" 2>"$tmp/u.err"
	grep -q '"/proc/pagetypeinfo: Permission denied' "$tmp/u/result.json" 2>/dev/null
	check unprivileged-missing-pagetypeinfo $?
else
	echo "skip unprivileged-missing-pagetypeinfo (root without setpriv)"
fi

# 2b. tracepoint counts: with tracefs ids and perf events readable (root)
#     trace-counts has the eleven tracepoints in every sample, never falling
#     (sample 1 counts what fired between opening and reading them), and the command's 64 MiB of touched anonymous memory shows
#     as page allocations and frees; as nobody it is listed as missing
#     with the id file's path and nothing else changes
if [ -r /sys/kernel/tracing/events/kmem/mm_page_alloc/id ] ||
   [ -r /sys/kernel/debug/tracing/events/kmem/mm_page_alloc/id ]; then
	record --interval 250ms --out "$tmp/tp" -- \
		sh -c 'head -c 64m /dev/zero | tail -c 1 >/dev/null; sleep 0.3' 2>"$tmp/tp.err"
	ok=1
	[ -s "$tmp/tp/trace-counts" ] || ok=0
	awk '/^time: / { if (s && n != 11) bad = 1; n = 0; s++; next }
		{ n++; if ($2 + 0 < v[$1]) bad = 1; v[$1] = $2 + 0 }
		END { exit bad || n != 11 || v["kmem:mm_page_alloc"] < 1000 || v["kmem:mm_page_free"] < 1000 }' \
		"$tmp/tp/trace-counts" || ok=0
	[ $ok = 1 ] || { cat "$tmp/tp.err"; tail -n 10 "$tmp/tp/trace-counts" 2>/dev/null; }
	check tracepoint-counts-live $((1 - ok))
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		mkdir "$tmp/tpu"
		chown nobody "$tmp/tpu"
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			$RECORD_CMD --duration 0.5s --interval 250ms --out "$tmp/tpu" 2>/dev/null
		grep -Eq '"/sys/kernel(/debug)?/tracing/events/kmem/mm_page_alloc/id: Permission denied \(3 of 3 samples\)"' \
			"$tmp/tpu/result.json" && [ ! -e "$tmp/tpu/trace-counts" ] && [ -s "$tmp/tpu/proc-vmstat" ]
		check tracepoint-counts-unprivileged-missing $?
	fi
else
	echo "skip tracepoint-counts-live (no readable tracefs ids: not root, or no tracefs)"
fi

# 3. SIGTERM to the recorder: the command and its children get SIGTERM,
#    the folder is complete, the recorder exits 143
marker=$tmp/started
# (not the `record` function: $! must be the recorder, not a subshell)
$RECORD_CMD --interval 100ms --out "$tmp/t" -- sh -c ": >$marker; sleep 9$$ & wait" 2>"$tmp/t.err" &
rpid=$!
i=0
while [ ! -e "$marker" ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
sleep 0.3	# a few samples
kill -TERM $rpid
wait $rpid
rc=$?
ok=1
[ $rc = 143 ] || ok=0
[ -f "$tmp/t/result.json" ] || ok=0
[ "$(key "$tmp/t/result.json" exit_status)" = 143 ] || ok=0
ls "$tmp/t"/*.tmp >/dev/null 2>&1 && ok=0
# nothing of the command's group is left running (from /proc: no procps
# needed; a zombie waiting for init does not count)
for st in /proc/[0-9]*/stat; do
	pdir=${st%/stat}
	[ "$(tr '\0' ' ' <"$pdir/cmdline" 2>/dev/null)" = "sleep 9$$ " ] || continue
	state=$(sed 's/.*) \(.\).*/\1/' "$st" 2>/dev/null)
	[ -n "$state" ] && [ "$state" != Z ] && ok=0
done
[ $ok = 1 ] || { echo "rc=$rc"; cat "$tmp/t.err"; }
check sigterm-keeps-recording $((1 - ok))

summary 9002-record-live
