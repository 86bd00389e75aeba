#!/bin/sh
# slowpath-shares.sh DIR... — the page cache's allocation slow path as a
# share of all CPU, as the linux-mm report of the case quotes it from perf
# (docs/calibration.md "The slow path's share of the CPU"): one Markdown
# table row per result folder with a profile.json.
#
# The report's call chain is pwrite64 → xfs_file_buffered_write → … →
# filemap_alloc_folio → alloc_pages → __alloc_pages_slowpath, with
# __alloc_pages_direct_compact → compact_zone and __drain_all_pages →
# drain_pages_zone below it.  Here each is the cpu + spin time of the
# profile's subtree (every task kind), counted where a ksys_pwrite64 and a
# filemap_alloc_folio are among its callers:
#
#   slow path    __alloc_pages_slowpath's subtree
#   compaction   compact_zone's subtrees inside it
#   drains       drain_all_pages' subtrees inside it
#   refills      rmqueue_bulk below filemap_alloc_folio outside the slow
#                path (the fast path's refills of the per-CPU lists), and
#                of that the spin on zone->lock
#
# Each as a share of the machine's capacity (CPUs × measured seconds) and,
# after the slash, of the busy time (every task's cpu + spin).
#
#   scripts/slowpath-shares.sh docs/calibration/runs/full-idx-none-1200
set -eu
. "$(dirname "$0")/result-lib.sh"
need_files "$0" "result.json profile.json scenario.ini" "$@"

echo "| run | simulated s | busy | slow path | compaction | drains | refills | refills' spin |"
echo "|---|---|---|---|---|---|---|---|"
for d in "$@"; do
	cpus=$(awk -F= '/^\[/ { s = $0 } s == "[machine]" && $1 == "cpus" { print $2 }' "$d/scenario.ini")
	[ -n "$cpus" ] || { echo "$0: $d/scenario.ini: no [machine] cpus" >&2; exit 2; }
	secs=$(jq -r '.measure_seconds' "$d/result.json")
	jq -r --arg run "$(basename "$d")" --argjson cpus "$cpus" --argjson secs "$secs" '
	  def t: .self.cpu + .self.spin;
	  def total: t + ([.children[]? | total] | add // 0);
	  def spin_total: .self.spin + ([.children[]? | spin_total] | add // 0);
	  # walk(below pwrite; below filemap_alloc_folio): [slow path, compaction,
	  # drains, refills, their spin] in ns; a slow path is not searched for refills
	  def walk(pw; fa):
	    if .name == "__alloc_pages_slowpath" and pw and fa then
	      [total,
	       ([.. | objects | select(.name? == "compact_zone")] | map(total) | add // 0),
	       ([.. | objects | select(.name? == "drain_all_pages")] | map(total) | add // 0),
	       0, 0]
	    elif .name == "rmqueue_bulk" and pw and fa then
	      [0, 0, 0, total, spin_total]
	    else
	      (pw or .name == "ksys_pwrite64") as $pw
	      | (fa or .name == "filemap_alloc_folio") as $fa
	      | reduce (.children[]? | walk($pw; $fa)) as $c
	          ([0, 0, 0, 0, 0]; [range(5) as $i | .[$i] + $c[$i]])
	    end;
	  def busy: [.. | objects | select(has("self")) | .self.cpu + .self.spin] | add;
	  ([.kinds[].root | busy] | add) as $busy
	  | (reduce (.kinds[].root | walk(false; false)) as $c
	       ([0, 0, 0, 0, 0]; [range(5) as $i | .[$i] + $c[$i]])) as $v
	  | [$run, $secs, $busy, $cpus * $secs * 1e9] + $v | @tsv
' "$d/profile.json" |
	awk -F'\t' '
	function pct(x) { return sprintf("%.3f / %.3f %%", x / cap * 100, x / busy * 100) }
	{ busy = $3; cap = $4
	  printf "| %s | %d | %.1f %% | %s | %s | %s | %s | %s |\n", $1, $2, busy / cap * 100,
		 pct($5), pct($6), pct($7), pct($8), pct($9) }'
done
