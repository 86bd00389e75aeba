# Sourced by scripts/demo.sh and scripts/calibration.sh: numbers out of a
# result folder's result.json (docs/results.md), read with jq
# (scripts/install-deps.sh installs it).
#
# jget DIR SECTION KEY: the value under KEY in the top-level object
# SECTION of DIR/result.json (SECTION "" = the top level); 0 when absent.
jget() {
	jq -r --arg s "$2" --arg k "$3" \
		'(if $s == "" then . else .[$s] end) | (.[$k]? // 0)' "$1/result.json"
}
