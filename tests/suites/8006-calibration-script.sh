#!/bin/sh
# scripts/calibration.sh (docs/calibration.md's tables) on hand-made result
# folders: the fixture `single` (135 210.5 TPS, which %.0f rounds half to
# even; page tables 39.32 % of RAM; 3.25 s of host time) as the full-scale
# baseline and as a 1/4 run, nothing else.  Rows with a folder show the
# model value and (model - published) / published, rows without one show
# "-"; the scale table multiplies by N; bad usage exits 2.  Then the
# tables of docs/calibration.md against its committed runs.
. tests/suites/8000-report.inc
rpt_init "$1" 8006-calibration-script

mkdir -p "$TMP/cal"
cp -r "$FIX/single" "$TMP/cal/full-baseline"
cp -r "$FIX/single" "$TMP/cal/s4-baseline"
if scripts/calibration.sh --scales "4 2" "$TMP/cal" >"$TMP/out.md" 2>"$TMP/err"; then
	ok "exits 0 with some folders missing"
else
	ko "exits 0 with some folders missing"
fi
check_line() {
	if grep -qxF "$2" "$TMP/out.md"; then ok "$1"; else ko "$1: no line '$2'"; cat "$TMP/out.md"; fi
}
check_line "baseline TPS and its error" "| baseline TPS (unpatched) | 70000 | 135210 | +93.2 % |"
check_line "page tables' share and its error" "| page tables, % of RAM (baseline, end of run) | 40.0 | 39.3 | -1.7 % |"
check_line "a missing run is '-'" "| noretry-nonblocking TPS | 155000 | - | - |"
check_line "a ratio needing a missing run is '-'" "| noretry-nonblocking / baseline | 2.214 | - | - |"
check_line "1/4 run: TPS x 4 against full scale" "| s4-baseline | 135210 | 540842 | +300.0 % | 3 s |"
check_line "a missing scaled run is '-'" "| s2-baseline | - | - | - | - |"
if scripts/calibration.sh >/dev/null 2>&1; then ko "no DIR: exit 2"; else
	[ $? = 2 ] && ok "no DIR: exit 2" || ko "no DIR: exit 2"
fi
if scripts/calibration.sh --bogus x "$TMP/cal" >/dev/null 2>&1; then ko "unknown option: exit 2"; else
	[ $? = 2 ] && ok "unknown option: exit 2" || ko "unknown option: exit 2"
fi

# docs/calibration.md's tables are what the script prints from the
# committed result folders of the calibration runs, line for line.
scripts/calibration.sh --scales "16 8 4 2" docs/calibration/runs >"$TMP/doc.md" 2>&1
missing=0
while IFS= read -r l; do
	[ -z "$l" ] && continue
	grep -qxF -- "$l" docs/calibration.md || { echo "  not in docs/calibration.md: $l"; missing=$((missing + 1)); }
done <"$TMP/doc.md"
[ "$missing" = 0 ] && [ "$(grep -c '^| full-[a-z-]* | [0-9]' "$TMP/doc.md")" = 5 ] &&
	ok "docs/calibration.md tables = the committed runs" || ko "docs/calibration.md tables = the committed runs"
rpt_done
