#!/bin/sh
# The scenario documentation keeps up with the option tables: every key of
# every section (from `slowpath check` of a scenario that has each kind of
# section) is in docs/scenario-format.md and in scenarios/reference.ini,
# and reference.ini sets every key to its default.  The documents stand on
# their own: docs/ and README.md name no file outside the repository (every
# *.md they mention exists in it; no ../ paths, no "spec §" citations of an
# outside specification), and describe the code, not who wrote it; the
# README's example output is what the commands print.
. tests/suites/0000-cli.inc
cli_init "$1" 0006-docs

printf '[device md0]\n[synthetic]\n[writer]\ndevice=md0\n[forker]\n[pgbench]\ndevice=md0\n' >"$TMP/all.ini"
"$SP" check "$TMP/all.ini" >"$TMP/all.txt"
missing_doc=""
missing_ref=""
sections=""
for line in $(grep -v '^;' "$TMP/all.txt" | tr ' ' '_'); do
	case $line in
	\[*) sections="$sections $line"; cur=$line; continue ;;
	esac
	key=${line%%=*}
	[ "$cur" = "[costs]" ] && continue	# documented as a table (slowpath costs)
	grep -qF "\`$key\`" docs/scenario-format.md || missing_doc="$missing_doc $key"
	grep -Eq "^;?$key=" scenarios/reference.ini || missing_ref="$missing_ref $key"
done
check "every key in docs/scenario-format.md" "[ -z '$missing_doc' ] || { echo 'missing:$missing_doc'; exit 1; }"
check "every key in scenarios/reference.ini" "[ -z '$missing_ref' ] || { echo 'missing:$missing_ref'; exit 1; }"
for s in $sections; do
	name=$(echo "$s" | sed -E 's/^\[([a-z]+).*/\1/')
	grep -q "^### \[$name" docs/scenario-format.md || missing_doc="$missing_doc [$name]"
done
check "every section has a heading in the docs" "[ -z '$missing_doc' ] || { echo 'missing:$missing_doc'; exit 1; }"

: >"$TMP/empty.ini"
check "reference.ini is the defaults" "'$SP' check scenarios/reference.ini >'$TMP/ref.txt' &&
	'$SP' check '$TMP/empty.ini' >'$TMP/def.txt' && diff '$TMP/def.txt' '$TMP/ref.txt'"
check "reference.ini's commented sections are the defaults too" "sed -E 's/^;(\[|[a-z_]+=)/\1/' \
	scenarios/reference.ini >'$TMP/ref2.ini' && '$SP' check '$TMP/ref2.ini' >'$TMP/ref2.txt' &&
	'$SP' check '$TMP/all.ini' | diff - '$TMP/ref2.txt'"

check "docs/cost-model.md is up to date with costs.def (make cost-model)" \
	"scripts/gen-cost-model.sh | diff -u docs/cost-model.md -"
check "docs/cost-model.md has every row of slowpath costs" "'$SP' costs | awk 'NR > 1 { print \$1, \$2 }' >'$TMP/costs' &&
	test -s '$TMP/costs' && while read -r id ns; do
		grep -qF \"| \\\`\$id\\\` | \$ns | \" docs/cost-model.md || { echo \"missing: \$id\"; exit 1; }
	done <'$TMP/costs'"

# docs/ and README.md stand alone: $TMP/standalone DIR checks DIR/docs/*.md
# and DIR/README.md, printing what it finds
cat >"$TMP/standalone" <<'EOF'
#!/bin/sh
cd "$1" || exit 2
bad=0
for m in $(grep -ohE '[A-Za-z0-9_.-]+[.]md\b' docs/*.md README.md | sort -u); do
	[ -e "docs/$m" ] || [ -e "$m" ] || { echo "names a file not in the repository: $m"; bad=1; }
done
grep -nE '[.][.]/|/work/|(^|[^a-z])shared/' docs/*.md README.md && bad=1
grep -nE 'spec §|DESIGN[.]md' docs/*.md README.md && bad=1
grep -nEi '[(][a-z -]*engineer[)]|[(]issue [0-9]+' docs/*.md README.md && bad=1
exit $bad
EOF
chmod +x "$TMP/standalone"
check "docs/ and README.md name nothing outside the repository" "'$TMP/standalone' ."
mkdir -p "$TMP/bad/docs"
echo '# ok' >"$TMP/bad/README.md"
for line in 'the brief is ../shared/DESIGN.md' 'figures from workload.md' 'as in spec §4.3' \
	    'this is done (page-cache engineer)' 'added in (issue 5)'; do
	echo "$line" >"$TMP/bad/docs/x.md"
	check "the check catches '$line'" "! '$TMP/standalone' '$TMP/bad' >/dev/null"
done

# The README's example output is real: its runs and comparison, made again
# (with the release-speed ndbg build when there is one: same output)
ROOT=$(pwd)
RSP=$ROOT/build/ndbg/slowpath
if [ ! -x "$RSP" ]; then
	case $SP in /*) RSP=$SP ;; *) RSP=$ROOT/$SP ;; esac
fi
mkdir -p "$TMP/readme/out"
check "README: the two runs print what it shows" "'$RSP' run scenarios/costly-noretry.ini --out '$TMP/readme/out/base' |
	sed 's|$TMP/readme/||' >'$TMP/readme/run' &&
	'$RSP' run scenarios/costly-noretry.ini --policy noretry-nonblocking --out '$TMP/readme/out/fix' |
	sed 's|$TMP/readme/||' >>'$TMP/readme/run' && test \$(wc -l <'$TMP/readme/run') -eq 2 &&
	while read -r l; do grep -qxF \"\$l\" README.md || { echo \"not in README: \$l\"; exit 1; }; done <'$TMP/readme/run'"
check "README: the comparison rows it shows" "cd '$TMP/readme' && '$RSP' compare out/base out/fix >cmp &&
	cd '$ROOT' && grep -E '^Per-M-written (allocstall|compact_stall|compact_fail|sim_drain_all_pages) ' README.md >'$TMP/readme/want' &&
	test \$(wc -l <'$TMP/readme/want') -eq 4 &&
	while read -r l; do grep -qxF \"\$l\" '$TMP/readme/cmp' || { echo \"not in compare: \$l\"; exit 1; }; done <'$TMP/readme/want'"

# docs/slowpath.md §11's table of the eleven variants is what
# scripts/variants-table.sh prints for the model as it is
check "docs/slowpath.md: the variant table is the model's (scripts/variants-table.sh)" \
	"scripts/variants-table.sh '$RSP' >'$TMP/variants' && test \$(wc -l <'$TMP/variants') -eq 13 &&
	while read -r l; do grep -qxF \"\$l\" docs/slowpath.md || { echo \"not in docs/slowpath.md: \$l\"; exit 1; }; done <'$TMP/variants'"

cli_done
