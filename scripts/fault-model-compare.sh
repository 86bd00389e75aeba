#!/bin/sh
# fault-model-compare.sh LABEL EXACT_DIRS DRAWN_DIRS — one Markdown table
# row per figure comparing result folders of the exact fault model with
# those of fault_model=drawn (docs/engine.md "Drawn faults"): the exact
# runs' range over their seeds, the drawn runs' range, and whether every
# drawn value lies inside the exact range ("yes"), or by how much the
# drawn mean differs from the exact mean when it does not.  EXACT_DIRS and
# DRAWN_DIRS are comma-separated lists of result folders (one per seed).
#
#   scripts/fault-model-compare.sh "1/4, 400 s, baseline" \
#       out/e1,out/e2,out/e3 out/d1,out/d2,out/d3
#
# Figures: TPS, p99 latency, the checkpoint ratio, every per-million stall
# counter of result.json, page-table pages and pgfault at the end.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 LABEL EXACT_DIRS DRAWN_DIRS" >&2; exit 2; }
label=$1
exact=$(echo "$2" | tr ',' ' ')
drawn=$(echo "$3" | tr ',' ' ')
for d in $exact $drawn; do
	[ -f "$d/result.json" ] || { echo "$0: $d: no result.json" >&2; exit 2; }
done

# values FILTER DIRS: one value per folder
values() {
	f=$1
	shift
	for d in "$@"; do
		jq -r "$f // \"-\"" "$d/result.json"
	done
}

echo "| $label | exact (seeds) | drawn (seeds) | drawn inside the exact range |"
echo "|---|---|---|---|"
for fig in 'tps:.tps' 'p99 ms:.latency_ms.p99' 'checkpoint ratio:.figures.checkpoint_tps_ratio' \
	   'allocstall /M:.per_million_written.allocstall' 'compact_stall /M:.per_million_written.compact_stall' \
	   'compact_fail /M:.per_million_written.compact_fail' \
	   'compact_success /M:.per_million_written.compact_success' \
	   'pgscan_direct /M:.per_million_written.pgscan_direct' \
	   'pgsteal_direct /M:.per_million_written.pgsteal_direct' \
	   'drain_all_pages /M:.per_million_written.sim_drain_all_pages' \
	   'nr_page_table_pages (end):.vmstat_end.nr_page_table_pages' 'pgfault (end):.vmstat_end.pgfault'; do
	name=${fig%%:*}
	filter=${fig#*:}
	# shellcheck disable=SC2086
	e=$(values "$filter" $exact | tr '\n' ' ')
	# shellcheck disable=SC2086
	w=$(values "$filter" $drawn | tr '\n' ' ')
	awk -v name="$name" -v e="$e" -v w="$w" 'BEGIN {
		ne = split(e, ev, " "); nw = split(w, wv, " ")
		for (i = 1; i <= ne; i++) if (ev[i] == "-") { printf "| %s | - | - | - |\n", name; exit }
		for (i = 1; i <= nw; i++) if (wv[i] == "-") { printf "| %s | - | - | - |\n", name; exit }
		emin = emax = ev[1]; es = 0
		for (i = 1; i <= ne; i++) { if (ev[i] < emin) emin = ev[i]; if (ev[i] > emax) emax = ev[i]; es += ev[i] }
		wmin = wmax = wv[1]; ws = 0
		for (i = 1; i <= nw; i++) { if (wv[i] < wmin) wmin = wv[i]; if (wv[i] > wmax) wmax = wv[i]; ws += wv[i] }
		fmt = (emax >= 1000) ? "%.0f" : (emax >= 10 ? "%.1f" : "%.3f")
		er = (ne > 1) ? sprintf(fmt "–" fmt, emin, emax) : sprintf(fmt, emin)
		wr = (nw > 1) ? sprintf(fmt "–" fmt, wmin, wmax) : sprintf(fmt, wmin)
		if (wmin >= emin && wmax <= emax)
			verdict = "yes"
		else if (es == 0)
			verdict = "no"
		else
			verdict = sprintf("no (mean %+.1f %%)", 100 * (ws / nw - es / ne) / (es / ne))
		printf "| %s | %s | %s | %s |\n", name, er, wr, verdict
	}'
done
