#!/bin/sh
# The scenario documentation keeps up with the option tables: every key of
# every section (from `slowpath check` of a scenario that has each kind of
# section) is in docs/scenario-format.md and in scenarios/reference.ini,
# and reference.ini sets every key to its default.
. tests/suites/0000-cli.inc
cli_init "$1" 0006-docs

printf '[device md0]\n[synthetic]\n[writer]\ndevice=md0\n[forker]\n' >"$TMP/all.ini"
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

cli_done
