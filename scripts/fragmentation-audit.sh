#!/bin/sh
# How fragmented free memory was in a run, and who paid for it: the
# figures of the fragmentation audit in docs/calibration.md ("Free memory
# and the costly attempts at full scale"), one column per result folder,
# as a Markdown table.
#
#   scripts/fragmentation-audit.sh DIR...
#
# Every figure comes from DIR/result.json (the measured phase's vmstat
# deltas, vmstat_end, per_million_written) except the last two rows,
# which read the last sample of DIR/proc-buddyinfo (the stored
# calibration runs have no monitors: "-").  Pageblocks are order 9
# (4 KiB pages, pageblock_order = HUGETLB_PAGE_ORDER), so free blocks of
# order 9 and 10 are whole free pageblocks.  `slowpath compare --orders`
# has the attempts order by order.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR..." >&2; exit 2; }
for d in "$@"; do
	[ -f "$d/result.json" ] || { echo "$0: $d: no result.json" >&2; exit 2; }
done

# num DIR JQ-EXPR: a number out of DIR/result.json (0 when absent)
num() {
	jq -r "($2) // 0" "$1/result.json"
}

# row LABEL FUNCTION: one table row, FUNCTION DIR printing each cell
row() {
	label=$1 fn=$2
	shift 2
	printf '| %s |' "$label"
	for d in $DIRS; do
		printf ' %s |' "$($fn "$d")"
	done
	printf '\n'
}

costly_sum() {		# DIR COUNTER: the counter summed over orders 4..10
	jq -r --arg c "$2" '[range(4; 11) as $o | (.vmstat["sim_" + $c + "_order" + ($o | tostring)] // 0)] | add' \
		"$1/result.json"
}
pct() {			# A B: 100 * A / B with two decimals, "-" when B is 0
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f %%", 100 * a / b; else printf "-" }'
}
intfmt() {
	awk -v v="$1" 'BEGIN { printf "%.0f", v }'
}

c_tps() { intfmt "$(num "$1" .tps)"; }
c_costly() { intfmt "$(costly_sum "$1" pagecache_attempt)"; }
c_costly_sp() { pct "$(costly_sum "$1" slowpath)" "$(costly_sum "$1" pagecache_attempt)"; }
c_costly_fb() {
	a=$(costly_sum "$1" pagecache_attempt)
	pct "$(awk -v a="$a" -v g="$(costly_sum "$1" pagecache_alloc)" 'BEGIN { print a - g }')" "$a"
}
c_pm() { awk -v v="$(num "$1" ".per_million_written.$2")" 'BEGIN { printf "%.1f", v }'; }
c_allocstall() { c_pm "$1" allocstall; }
c_compact() { c_pm "$1" compact_stall; }
c_drain() { c_pm "$1" sim_drain_all_pages; }
c_claim() { intfmt "$(num "$1" .vmstat.sim_rmqueue_claim)"; }
c_steal() { intfmt "$(num "$1" .vmstat.sim_rmqueue_steal)"; }
c_refused() { intfmt "$(num "$1" .vmstat.sim_claim_refused)"; }
c_kswapd() { pct "$(num "$1" .vmstat.pgsteal_kswapd)" "$(num "$1" .vmstat.pgscan_kswapd)"; }
c_scan_per_stall() {
	s=$(num "$1" '[.vmstat | to_entries[] | select(.key | startswith("allocstall_")) | .value] | add')
	awk -v p="$(num "$1" .vmstat.pgscan_direct)" -v s="$s" \
		'BEGIN { if (s > 0) printf "%.0f", p / s; else printf "-" }'
}
c_slab_end() {
	intfmt "$(num "$1" '.vmstat_end.nr_slab_reclaimable + .vmstat_end.nr_slab_unreclaimable')"
}
c_pt_end() { intfmt "$(num "$1" .vmstat_end.nr_page_table_pages)"; }
c_free_end() { intfmt "$(num "$1" .vmstat_end.nr_free_pages)"; }
# the last proc-buddyinfo sample: free pages in order-9 and order-10 blocks
# over all free pages, every zone
buddy_last() {
	[ -f "$1/proc-buddyinfo" ] || { echo "-"; return; }
	awk '/^time:/ { n = 0; whole = 0; all = 0; next }
	     /^Node/ { for (i = 5; i <= NF; i++) { p = $i * 2 ^ (i - 5); all += p; if (i - 5 >= 9) whole += p } }
	     END { if (all > 0) printf "%.0f of %.0f (%.1f %%)", whole, all, 100 * whole / all; else printf "-" }' \
		"$1/proc-buddyinfo"
}
c_whole() { buddy_last "$1"; }

DIRS="$*"
printf '| figure |'
for d in $DIRS; do printf ' %s |' "$(basename "$d")"; done
printf '\n|---|'
for d in $DIRS; do printf -- '---|'; done
printf '\n'
row "TPS" c_tps
row "costly page-cache folio attempts (orders 4-10)" c_costly
row "... that entered the slow path" c_costly_sp
row "... that fell back to a smaller order" c_costly_fb
row "allocstall per M pages written" c_allocstall
row "compact_stall per M pages written" c_compact
row "drain_all_pages per M pages written" c_drain
row "pageblocks claimed whole (__rmqueue_fallback)" c_claim
row "single pages stolen" c_steal
row "claims refused" c_refused
row "kswapd efficiency (pgsteal/pgscan)" c_kswapd
row "direct reclaim: folios scanned per stall" c_scan_per_stall
row "slab pages at the end" c_slab_end
row "page-table pages at the end" c_pt_end
row "free pages at the end (vmstat)" c_free_end
row "free pages in whole pageblocks, last buddyinfo sample" c_whole
