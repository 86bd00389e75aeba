#!/bin/sh
# scripts/fault-model-compare.sh (docs/engine.md "Drawn faults") on
# result folders made here from the fixture `single`: three "exact" seeds
# with TPS 100, 110, 120 and pgfault 1000, 1100, 1200, three "drawn" ones
# with TPS 105, 110, 115 (inside) and pgfault 1300, 1300, 1400 (outside,
# mean 1333.3 against 1100: +21.2 %).  A figure missing from a folder is
# "-" (checkpoint ratio, 0.5 in every folder, then removed from one); a
# missing folder or wrong usage exits 2.  Then docs/engine.md's tables
# against the committed runs in docs/engine/fault-model, line for line.
. tests/suites/8000-report.inc
rpt_init "$1" 8007-fault-model-compare

# mk NAME TPS PGFAULT
mk() {
	mkdir -p "$TMP/$1"
	jq --argjson t "$2" --argjson f "$3" \
		'.tps = $t | .vmstat_end.pgfault = $f | .figures.checkpoint_tps_ratio = 0.5' \
		"$FIX/single/result.json" >"$TMP/$1/result.json"
}
mk e1 100 1000; mk e2 110 1100; mk e3 120 1200
mk d1 105 1300; mk d2 110 1300; mk d3 115 1400
if scripts/fault-model-compare.sh "test" "$TMP/e1,$TMP/e2,$TMP/e3" "$TMP/d1,$TMP/d2,$TMP/d3" \
	>"$TMP/out.md" 2>"$TMP/err"; then ok "exits 0"; else ko "exits 0"; cat "$TMP/err"; fi
check_line() {
	if grep -qxF "$2" "$TMP/out.md"; then ok "$1"; else ko "$1: no line '$2'"; cat "$TMP/out.md"; fi
}
check_line "header" "| test | exact (seeds) | drawn (seeds) | drawn inside the exact range |"
check_line "inside the range" "| tps | 100.0–120.0 | 105.0–115.0 | yes |"
check_line "outside: the mean's difference" "| pgfault (end) | 1000–1200 | 1300–1400 | no (mean +21.2 %) |"
check_line "a figure in every folder" "| checkpoint ratio | 0.500–0.500 | 0.500–0.500 | yes |"
jq 'del(.figures.checkpoint_tps_ratio)' "$TMP/d1/result.json" >"$TMP/x" && mv "$TMP/x" "$TMP/d1/result.json"
scripts/fault-model-compare.sh "test" "$TMP/e1,$TMP/e2,$TMP/e3" "$TMP/d1,$TMP/d2,$TMP/d3" >"$TMP/out.md"
check_line "a figure missing in one folder is '-'" "| checkpoint ratio | - | - | - |"
scripts/fault-model-compare.sh t "$TMP/e1" "$TMP/d2" >"$TMP/out.md"
check_line "one folder each: single values" "| tps | 100.0 | 110.0 | no (mean +10.0 %) |"
if scripts/fault-model-compare.sh t "$TMP/e1" "$TMP/nope" >/dev/null 2>&1; then ko "a missing folder: exit 2"; else
	[ $? = 2 ] && ok "a missing folder: exit 2" || ko "a missing folder: exit 2"; fi
if scripts/fault-model-compare.sh t "$TMP/e1" >/dev/null 2>&1; then ko "wrong usage: exit 2"; else
	[ $? = 2 ] && ok "wrong usage: exit 2" || ko "wrong usage: exit 2"; fi

# docs/engine.md "Drawn faults": its tables are the script's output on the
# committed runs, line for line
F=docs/engine/fault-model
doc_table() {
	scripts/fault-model-compare.sh "$@" >"$TMP/t.md" || { ko "doc table '$1': the script fails"; return; }
	missing=0
	while IFS= read -r line; do
		grep -qxF "$line" docs/engine.md || { missing=1; echo "  not in docs/engine.md: $line"; }
	done <"$TMP/t.md"
	[ $missing = 0 ] && ok "docs/engine.md has the table '$1'" || ko "docs/engine.md has the table '$1'"
}
seeds() { echo "$1/$2-s1,$1/$2-s2,$1/$2-s3"; }
# the drawn model (in docs/engine/fault-model) and its first version (v1/),
# each against the same exact runs
for v in "" v1; do
	D=$F${v:+/$v}
	L=${v:+first version, }
	doc_table "${L}full scale, 1200 s, baseline, seed 1" $F/full-1200-baseline-exact $D/full-1200-baseline-drawn
	doc_table "${L}full scale, 600 s, noretry-nonblocking, seed 1" $F/full-600-noretry-exact \
		$D/full-600-noretry-drawn
	doc_table "${L}1/16 scale, 60 s, baseline, seeds 1-3" "$(seeds $F s16-60-baseline-exact)" \
		"$(seeds $D s16-60-baseline-drawn)"
	if [ -z "$v" ]; then	# two more exact seeds, run with this version
		doc_table "1/4 scale, 400 s, baseline, exact seeds 1-5, drawn seeds 1-3" \
			"$(seeds $F q4-400-baseline-exact),$F/q4-400-baseline-exact-s4,$F/q4-400-baseline-exact-s5" \
			"$(seeds $D q4-400-baseline-drawn)"
	else
		doc_table "${L}1/4 scale, 400 s, baseline, seeds 1-3" "$(seeds $F q4-400-baseline-exact)" \
			"$(seeds $D q4-400-baseline-drawn)"
	fi
	doc_table "${L}1/4 scale, 400 s, noretry-nonblocking, seeds 1-3" "$(seeds $F q4-400-noretry-exact)" \
		"$(seeds $D q4-400-noretry-drawn)"
done
rpt_done
