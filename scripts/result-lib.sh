# Sourced by scripts/demo.sh, scripts/calibration.sh and the other
# scripts that read result folders: numbers out of a result folder's
# result.json (docs/results.md), read with jq (scripts/install-deps.sh
# installs it).
#
# jget DIR SECTION KEY: the value under KEY in the top-level object
# SECTION of DIR/result.json (SECTION "" = the top level); 0 when absent.
jget() {
	jq -r --arg s "$2" --arg k "$3" \
		'(if $s == "" then . else .[$s] end) | (.[$k]? // 0)' "$1/result.json"
}

# need_files SCRIPT FILES DIR...: exit 2 with a usage line when no DIR is
# given, or with "SCRIPT: DIR: no FILE" when a folder lacks one of FILES
# (a space-separated list).
need_files() {
	script=$1
	files=$2
	shift 2
	[ $# -ge 1 ] || { echo "usage: $script DIR..." >&2; exit 2; }
	for d in "$@"; do
		for f in $files; do
			[ -f "$d/$f" ] || { echo "$script: $d: no $f" >&2; exit 2; }
		done
	done
}
