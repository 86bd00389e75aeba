#!/bin/sh
# The O_DIRECT pin-accounting case (docs/fio.md): scenarios/fio-odirect-pin.ini
# run under each FOLL_PIN accounting mode of the simulated kernel (96 CPUs,
# threshold 125; memory and run length cut so a debug build takes seconds).
# Checks the IOPS-per-CPU ordering, and that each measured difference in
# CPU time per I/O is what the cost table predicts:
#
#   nostat - none   = atomic_local + smp_mb           (FOLL_PIN's bias add + barrier)
#   percpu - nostat = 2 percpu_add                   (one per pin, one per unpin)
#   node   - nostat = 2 percpu_cmpxchg + 4 atomic_shared / (t + 1)
#                     + contention: spin per I/O + spin_handoff x line waits per I/O
#
# within TOL ns: the measured window ends where the run stops, possibly
# inside a job's unsynced stretch of work, which leaves up to one batch of
# I/Os per job without its CPU time; across the modes that error mostly
# cancels and stays far below TOL (see docs/fio.md for the figures).
. tests/suites/0000-cli.inc
cli_init "$1" 7001-fio-pin

SCN=scenarios/fio-odirect-pin.ini
TOL=0.3
MODES="none nostat percpu node"
for m in $MODES; do
	"$SP" run "$SCN" --out "$TMP/$m" --set foll_pin_accounting=$m --set machine.memory=24g \
		--set duration=6ms --set ramp_time=2ms >"$TMP/$m.out" 2>"$TMP/$m.err"
	check "run with foll_pin_accounting=$m" "[ $? = 0 ] && [ -s '$TMP/$m/result.json' ] && [ ! -s '$TMP/$m.err' ]"
done

# fig MODE NAME: a figure (or the first vmstat counter of that name) of a run
fig() { sed -n "s/^    \"$2\": \\([-0-9.e+]*\\),\\{0,1\\}\$/\\1/p" "$TMP/$1/result.json" | head -n 1; }
# cost ROW: ns of a cost-table row
cost() { "$SP" costs | awk -v r="$1" '$1 == r { print $2; exit }'; }
# near A B: |A - B| <= TOL (prints both)
near() { awk -v a="$1" -v b="$2" -v t="$TOL" 'BEGIN { d = a - b; if (d < 0) d = -d;
	printf "measured %.3f, predicted %.3f, |diff| %.3f (tolerance %s)\n", a, b, d, t; exit !(d <= t) }'; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
# verify NAME CMD...: like check, for shell functions (run in this shell);
# what CMD prints is shown either way
verify() {
	name=$1; shift
	if "$@" >"$TMP/out" 2>&1; then ok "$name"; else ko "$name"; fi
	sed 's/^/  /' "$TMP/out"
}
ordered() { gt "$1" "$2" && gt "$2" "$3" && gt "$3" "$4"; }

T=$(fig node vmstat_node_threshold)
check "node threshold from the machine: 125 (96 CPUs, Normal zone >= 16 GiB)" "[ '$T' = 125.0 ]"
check "one page pinned (or referenced) per 4 KiB I/O" "for m in $MODES; do
	[ \"\$(sed -n 's/^    \"pins_per_io\": \\([0-9.]*\\),\$/\\1/p' '$TMP'/\$m/result.json)\" = 1.0 ] || exit 1; done"
verify "IOPS per CPU: none > nostat > percpu > node" ordered "$(fig none iops_per_cpu)" \
	"$(fig nostat iops_per_cpu)" "$(fig percpu iops_per_cpu)" "$(fig node iops_per_cpu)"

c_none=$(fig none cpu_ns_per_io); c_nostat=$(fig nostat cpu_ns_per_io)
c_percpu=$(fig percpu cpu_ns_per_io); c_node=$(fig node cpu_ns_per_io)
pred=$(awk -v l="$(cost atomic_local)" -v b="$(cost smp_mb)" 'BEGIN { print l + b }')
verify "nostat - none = atomic_local + smp_mb" near "$(awk -v a=$c_nostat -v b=$c_none 'BEGIN{print a-b}')" $pred
pred=$(awk -v p="$(cost percpu_add)" 'BEGIN { print 2 * p }')
verify "percpu - nostat = 2 percpu_add" near "$(awk -v a=$c_percpu -v b=$c_nostat 'BEGIN{print a-b}')" $pred
pred=$(awk -v c="$(cost percpu_cmpxchg)" -v s="$(cost atomic_shared)" -v h="$(cost spin_handoff)" \
	-v t="$T" -v sp="$(fig node spin_ns_per_io)" -v w="$(fig node line_waits_per_io)" \
	'BEGIN { print 2 * c + 4 * s / (t + 1) + sp + h * w }')
verify "node - nostat = 2 percpu_cmpxchg + 4 atomic_shared / (t + 1) + contention" \
	near "$(awk -v a=$c_node -v b=$c_nostat 'BEGIN{print a-b}')" $pred
awk -v n="$(fig node iops_per_cpu)" -v s="$(fig nostat iops_per_cpu)" -v z="$(fig none iops_per_cpu)" \
	'BEGIN { printf "  node vs nostat: %+.2f %% IOPS per CPU; node vs none: %+.2f %%\n", 100 * (n / s - 1), 100 * (n / z - 1) }'

check "nr_foll_pin_acquired/released move under node and percpu only" "for m in node percpu; do
	a=\$(sed -n 's/^    \"nr_foll_pin_acquired\": \\([0-9]*\\),\$/\\1/p' '$TMP'/\$m/result.json | head -n 1)
	r=\$(sed -n 's/^    \"nr_foll_pin_released\": \\([0-9]*\\),\$/\\1/p' '$TMP'/\$m/result.json | head -n 1)
	[ \"\$a\" -gt 100000 ] && [ \"\$r\" -gt 100000 ] || exit 1; done &&
	for m in none nostat; do grep -qx '    \"nr_foll_pin_acquired\": 0,' '$TMP'/\$m/result.json || exit 1; done"
check "folds only under node" "[ $(fig node folds_per_second) != 0.0 ] && [ $(fig percpu folds_per_second) = 0.0 ] &&
	[ $(fig nostat folds_per_second) = 0.0 ]"
check "the shared vmstat lines in locks.csv under node" "grep -Eq '^pgdat->vm_stat\\[32\\.\\.39\\],[1-9]' '$TMP/node/locks.csv' &&
	grep -Eq '^vm_node_stat\\[32\\.\\.39\\],[1-9]' '$TMP/node/locks.csv' && ! grep -q 'vm_node_stat' '$TMP/nostat/locks.csv'"
check "mod_node_page_state in the profile under node only" "grep -q '\"name\": \"mod_node_page_state\"' '$TMP/node/profile.json' &&
	! grep -q '\"name\": \"mod_node_page_state\"' '$TMP/nostat/profile.json'"
cli_done
