# Sourced by scripts/demo.sh and scripts/calibration.sh: reading numbers
# out of a result folder's result.json (docs/results.md) without a JSON
# tool — the file is written by slowpath with one key per line, two-space
# indentation, so a line-oriented read is exact.
#
# jget DIR SECTION KEY: the number under KEY in the top-level object
# SECTION of DIR/result.json (SECTION "" = the top level); 0 when absent.
jget() {
	awk -v sec="$2" -v key="\"$3\":" '
		sec == "" && /^  "/ && $1 == key { gsub(/,/, "", $2); print $2; found = 1; exit }
		sec != "" && $0 ~ "^  \"" sec "\": \\{" { ins = 1; next }
		ins && /^  }/ { ins = 0 }
		ins && $1 == key { gsub(/,/, "", $2); print $2; found = 1; exit }
		END { if (!found) print 0 }
	' "$1/result.json"
}
