#!/bin/sh
# Builds the HTML report of result folders and prints where it is: the
# last step of `make demo` (scripts/demo.sh calls it with the demo's
# result folders, baseline first).
#
#   scripts/demo-report.sh [-o OUT.html] DIR...
#
# OUT defaults to out/report/index.html; the plots' data, gnuplot scripts,
# SVG and PNG files go to OUT's folder, in plots/.  SLOWPATH names the
# binary (default: ./slowpath beside this script's folder).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/out/report/index.html
if [ "${1:-}" = "-o" ]; then
	[ $# -ge 2 ] || { echo "usage: $0 [-o OUT.html] DIR..." >&2; exit 2; }
	out=$2
	shift 2
fi
[ $# -ge 1 ] || { echo "usage: $0 [-o OUT.html] DIR..." >&2; exit 2; }
bin=${SLOWPATH:-$root/slowpath}
if ! "$bin" report --help >/dev/null 2>&1; then
	# Until src/cli/main.c dispatches `report`, the test driver that calls
	# rpt_cmd_report() directly does the same job.
	for d in "$root/build/rel/tests/test_rpt_cli" "$root/build/dbg/tests/test_rpt_cli"; do
		[ -x "$d" ] && { bin=$d; break; }
	done
fi
outdir=$(dirname "$out")
mkdir -p "$outdir"
"$bin" report "$@" --html "$out" --plots "$outdir/plots"
case $out in
/*) echo "report: $out" ;;
*) echo "report: $(pwd)/$out" ;;
esac
