#!/bin/sh
# pcp-churn.sh [-s STEP] DIR... — how many pages move between the per-CPU
# lists and the buddy lists, against the pages allocated, per STEP
# simulated seconds (default 60) of each result folder's proc-vmstat
# (docs/engine.md "A whole run's profile"): one Markdown table per folder.
#
#   allocated      pgalloc_normal + pgalloc_dma (the pages handed out)
#   refilled       sim_pcp_refill_pages (rmqueue_bulk: buddy -> pcp lists)
#   drained        sim_drain_pages (drain_all_pages: pcp lists -> buddy)
#   other frees    sim_pcp_free_bulk_pages - sim_drain_pages
#                  (free_pcppages_bulk over high, and decay_pcp_high)
#   drains         sim_drain_all_pages calls
#   moved / alloc  (refilled + bulk-freed) / allocated
#
# Each page moved costs the host a miss on its struct page (and on its
# buddy's when freed), so the moves are where a run's host time goes in
# the dips.  Only the lines named above and the "time:" lines are read, so
# a proc-vmstat cut down to them gives the same table.
#
#   scripts/pcp-churn.sh -s 120 docs/engine/whole-run
set -eu
. "$(dirname "$0")/result-lib.sh"
step=60
if [ "${1:-}" = "-s" ]; then
	[ $# -ge 2 ] || { echo "usage: $0 [-s STEP] DIR..." >&2; exit 2; }
	step=$2
	shift 2
	case $step in
	''|*[!0-9]*|0) echo "$0: -s $step: not a whole number of seconds above 0" >&2; exit 2 ;;
	esac
fi
need_files "$0" "proc-vmstat" "$@"

for d in "$@"; do
	echo "$(basename "$d"), every $step s:"
	echo
	awk -v step="$step" -v file="$d/proc-vmstat" '
	function ratio(x, y) { return y > 0 ? sprintf("%.1f", x / y) : "–" }
	function row(lo, hi) {
		alloc = v["pgalloc_normal"] + v["pgalloc_dma"] - p["pgalloc_normal"] - p["pgalloc_dma"]
		refill = v["sim_pcp_refill_pages"] - p["sim_pcp_refill_pages"]
		drained = v["sim_drain_pages"] - p["sim_drain_pages"]
		bulk = v["sim_pcp_free_bulk_pages"] - p["sim_pcp_free_bulk_pages"]
		printf "| %d–%d | %.1f M | %.1f M | %.1f M | %.1f M | %d | %s |\n", lo, hi,
		       alloc / 1e6, refill / 1e6, drained / 1e6, (bulk - drained) / 1e6,
		       v["sim_drain_all_pages"] - p["sim_drain_all_pages"],
		       ratio(refill + bulk, alloc)
		for (k in v)
			p[k] = v[k]
	}
	BEGIN {
		need["pgalloc_normal"]; need["pgalloc_dma"]; need["sim_pcp_refill_pages"]
		need["sim_drain_pages"]; need["sim_pcp_free_bulk_pages"]; need["sim_drain_all_pages"]
		print "| simulated s | allocated | refilled | drained | other frees | drains | moved / alloc |"
		print "|---|---|---|---|---|---|---|"
	}
	/^time: / {
		if (n && t == 0)		# the set-up: the first interval starts after it
			for (k in v)
				p[k] = v[k]
		else if (n && t % step == 0 && t > last) {
			row(last, t)
			last = t
		}
		t = $2 + 0; n++; next
	}
	$1 in need { v[$1] = $2 + 0; seen[$1] = 1 }
	END {
		for (k in need)
			if (!(k in seen)) {
				printf("%s: no %s lines\n", file, k) > "/dev/stderr"
				exit 2
			}
		if (n && t > last)
			row(last, t)
		printf "| all, set-up included | %.1f M | %.1f M | %.1f M | %.1f M | %d | %s |\n",
		       (v["pgalloc_normal"] + v["pgalloc_dma"]) / 1e6, v["sim_pcp_refill_pages"] / 1e6,
		       v["sim_drain_pages"] / 1e6,
		       (v["sim_pcp_free_bulk_pages"] - v["sim_drain_pages"]) / 1e6,
		       v["sim_drain_all_pages"],
		       ratio(v["sim_pcp_refill_pages"] + v["sim_pcp_free_bulk_pages"],
			     v["pgalloc_normal"] + v["pgalloc_dma"])
	}' "$d/proc-vmstat"
	echo
done
