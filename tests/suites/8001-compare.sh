#!/bin/sh
# Golden tests of `slowpath compare` on the hand-made fixture folders
# (tests/fixtures/results, see gen.py there): mmtests text, LKP text and
# JSON; a comparison that is significant (baseline vs noretry-nonblocking,
# ~70 k vs ~155 k TPS over 3 iterations each) and one that is not (the
# baseline against itself with other seeds); a mix with a recorded folder
# that has one sample and no TPS; bad input.
. tests/suites/8000-report.inc
rpt_init "$1" 8001-compare

# -- golden outputs
$RPT compare "$FIX/base" "$FIX/nonblocking" >"$TMP/sig.txt" 2>&1
golden 8001-compare-significant.txt "$TMP/sig.txt"
$RPT compare "$FIX/base" "$FIX/base-reseed" >"$TMP/nosig.txt" 2>&1
golden 8001-compare-not-significant.txt "$TMP/nosig.txt"
$RPT compare "$FIX/base" "$FIX/nonblocking" "$FIX/single" "$FIX/recorded" >"$TMP/mixed.txt" 2>&1
golden 8001-compare-mixed.txt "$TMP/mixed.txt"
$RPT compare --format lkp "$FIX/base" "$FIX/nonblocking" >"$TMP/lkp.txt" 2>&1
golden 8001-compare-lkp.txt "$TMP/lkp.txt"
$RPT compare --json "$FIX/base" "$FIX/nonblocking" "$FIX/recorded" >"$TMP/cmp.json" 2>&1
golden 8001-compare.json "$TMP/cmp.json"

# -- the properties the goldens are meant to show, checked directly
if grep -Eq '^Amean +tps .*\* *121\.[0-9]+%\*$' "$TMP/sig.txt" &&
   grep -Eq '^Hmean +tps .*\*' "$TMP/sig.txt"; then
	ok "significant: Amean and Hmean tps marked"
else
	ko "significant: Amean and Hmean tps marked"
fi
if grep -Eq '^(Amean|Hmean) +tps ' "$TMP/nosig.txt" &&
   ! grep -E '^(Min|Max|Amean|Hmean|Stddev|CoeffVar|BAmean)' "$TMP/nosig.txt" | grep -q '\*'; then
	ok "not significant: no marker anywhere"
else
	ko "not significant: no marker anywhere"
fi
# The single-sample columns (a plain folder; a recorded one without TPS)
# never carry a marker, and a plain folder's Stddev is 0.
if [ "$(grep -Ec '^(Amean|Hmean) ' "$TMP/mixed.txt")" -gt 0 ] &&
   ! grep -E '^(Amean|Hmean) ' "$TMP/mixed.txt" |
	grep -Evq '[0-9.]+ \( *-?[0-9.]+%\) +NaN \( +NaN%\)$' &&
   grep -Eq '^Stddev +tps .* 0\.00 \( *[-0-9.]+%\) +NaN' "$TMP/mixed.txt"; then
	ok "mixed: single-sample columns unmarked, plain folder stddev 0"
else
	ko "mixed: single-sample columns unmarked, plain folder stddev 0"
fi
if grep -q '"significant": true' "$TMP/cmp.json" && grep -q '"welch_amean": null' "$TMP/cmp.json"; then
	ok "json: significance and null for n=1"
else
	ko "json: significance and null for n=1"
fi
$RPT compare "$FIX/base" "$FIX/nonblocking" "$FIX/single" "$FIX/recorded" >"$TMP/again.txt" 2>&1
if cmp -s "$TMP/mixed.txt" "$TMP/again.txt"; then ok "deterministic"; else ko "deterministic"; fi
$RPT compare --names A,B "$FIX/base" "$FIX/nonblocking" >"$TMP/names.txt" 2>&1
if sed -n 2p "$TMP/names.txt" | grep -Eq ' A +B$'; then ok "--names"; else ko "--names"; fi

# -- bad input: file:line messages, exit status 2
mkdir -p "$TMP/bad1" "$TMP/incomplete/iter-1" "$TMP/badschema" "$TMP/badcsv" "$TMP/missingiter"
printf '{\n "schema": "slowpath-result/1",\n "source": "simulated",\n "tps": 12,\n' >"$TMP/bad1/result.json"
expect_status "truncated json" 2 "bad1/result.json:5:" $RPT compare "$TMP/bad1"
cp "$FIX/base/iter-1/result.json" "$TMP/incomplete/iter-1/"
expect_status "iterations without result.json" 2 "incomplete run" $RPT compare "$TMP/incomplete"
printf '{"schema": "other/1", "source": "simulated"}\n' >"$TMP/badschema/result.json"
expect_status "wrong schema" 2 "schema 'other/1'" $RPT compare "$TMP/badschema"
sed 's/"tps": 70120.5/"tps": "fast"/' "$FIX/base/iter-1/result.json" >"$TMP/badschema/result.json"
expect_status "tps not a number" 2 "'tps' is not a number" $RPT compare "$TMP/badschema"
printf '{"schema": "slowpath-result/1", "source": "simulated", "iterations": 2}\n' >"$TMP/missingiter/result.json"
mkdir -p "$TMP/missingiter/iter-1"
cp "$FIX/base/iter-1/result.json" "$TMP/missingiter/iter-1/"
expect_status "missing iter-2" 2 "missingiter/iter-2: no result.json" $RPT compare "$TMP/missingiter"
expect_status "unknown option" 2 "unknown option '--bogus'" $RPT compare --bogus "$FIX/base"
expect_status "names count" 2 "1 names for 2 results" $RPT compare --names A "$FIX/base" "$FIX/base"
rpt_done
