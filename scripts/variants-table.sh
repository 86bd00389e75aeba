#!/bin/sh
# The policy-variant table of docs/slowpath.md §11: scenarios/costly-noretry.ini
# at full size under each of the eleven page-allocator variants, one row
# per variant with the whole-run counters that tell them apart (the
# simulated effect of each variant on a costly page-cache attempt that
# misses the free lists; docs/slowpath.md §3).
#
#   scripts/variants-table.sh [SLOWPATH [OUTDIR]]
#
# SLOWPATH defaults to ./slowpath (make slowpath), OUTDIR to a temporary
# directory that is removed afterwards.  About 0.3 s of host time per
# variant with the release build.
set -eu
cd "$(dirname "$0")/.."
SP=${1:-./slowpath}
[ -x "$SP" ] || { echo "$0: $SP: not an executable (make slowpath)" >&2; exit 2; }
if [ $# -ge 2 ]; then
	OUT=$2
	mkdir -p "$OUT"
else
	OUT=$(mktemp -d)
	trap 'rm -rf "$OUT"' EXIT
fi
. scripts/result-lib.sh

POLICIES="baseline pre-large-chunks iomap-opportunistic filemap-costly-noreclaim noretry-skip-drain
	noretry-no-compaction noretry-nonblocking kcompactd-background slowpath-entry-noreclaim
	filemap-noreclaim-above-min filemap-first-attempt-noretry"

echo "| variant | costly NORETRY entries | compact_stall | allocstall_movable | pgscan_direct | drains after reclaim (costly) | V4 hand-offs |"
echo "|---|---|---|---|---|---|---|"
v() {	# COUNTER: its whole-run value in the run of policy $p
	jget "$OUT/$p" vmstat_end "$1"
}
for p in $POLICIES; do
	"$SP" run scenarios/costly-noretry.ini --policy "$p" --out "$OUT/$p" >/dev/null
	echo "| $p | $(v sim_costly_noretry) | $(v compact_stall) | $(v allocstall_movable) |" \
		"$(v pgscan_direct) | $(v sim_direct_drain) ($(v sim_direct_drain_costly)) | $(v sim_policy_kcompactd) |"
done
