#!/bin/sh
# Installing like a tool: `make install` with DESTDIR, PREFIX and the GNU
# directory variables puts the binary, slowpath(1) and the bash completion
# where they belong and `make uninstall` takes them away; the man page,
# generated from the binary's --help texts and option tables, formats
# without a single groff warning and carries every command, every scenario
# key and the commit; the completion, sourced in bash, offers commands,
# options per command, policy names and scenario keys from the binary.
. tests/suites/0000-cli.inc
cli_init "$1" 0013-install

# make from inside make check: no jobserver or flags of the outer make
# (helpers are scripts: check runs its command in a new sh)
printf '#!/bin/sh\nexec env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s "$@"\n' >"$TMP/mk"
chmod +x "$TMP/mk"
cp "$SP" "$TMP/slowpath"
R=$TMP/root
INST="SLOWPATH_BIN=$TMP/slowpath MANPAGE=$TMP/slowpath.1"

check "make install DESTDIR PREFIX=/usr" "'$TMP/mk' install DESTDIR='$R' PREFIX=/usr $INST >/dev/null &&
	test -x '$R/usr/bin/slowpath' && test -f '$R/usr/share/man/man1/slowpath.1' &&
	test -f '$R/usr/share/bash-completion/completions/slowpath'"
check "installed binary runs" "'$R/usr/bin/slowpath' --version | grep -q '^slowpath '"
if commit=$(git rev-parse --short=12 HEAD 2>/dev/null); then
	check "--version names the commit built" "'$SP' --version | grep -qx 'slowpath .* (commit $commit\\(-dirty\\)\\{0,1\\})'"
	check "the man page names the commit" "grep -q 'commit $commit' '$R/usr/share/man/man1/slowpath.1'"
fi
check "bindir, mandir, bashcompdir override PREFIX" "'$TMP/mk' install DESTDIR='$TMP/r2' bindir=/opt/sp/bin \
	mandir=/opt/sp/man bashcompdir=/opt/sp/bc $INST >/dev/null &&
	test -x '$TMP/r2/opt/sp/bin/slowpath' && test -f '$TMP/r2/opt/sp/man/man1/slowpath.1' &&
	test -f '$TMP/r2/opt/sp/bc/slowpath'"
check "make uninstall removes them" "'$TMP/mk' uninstall DESTDIR='$R' PREFIX=/usr $INST >/dev/null &&
	test ! -e '$R/usr/bin/slowpath' && test ! -e '$R/usr/share/man/man1/slowpath.1' &&
	test ! -e '$R/usr/share/bash-completion/completions/slowpath'"

# the man page
M=$TMP/slowpath.1
check "groff -man -ww: no warnings" "groff -man -Tutf8 -ww '$M' 2>'$TMP/gw' >'$TMP/man.txt' &&
	test ! -s '$TMP/gw' && test -s '$TMP/man.txt'"
check "man -l renders it" "! command -v man >/dev/null || MANWIDTH=80 man -l '$M' 2>&1 >/dev/null | { ! grep .; }"
check "plain ASCII roff" "test -s '$M' && ! LC_ALL=C grep -n '[^ -~]' '$M'"
check "every command has its section" "'$SP' --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' >'$TMP/cmds' &&
	test -s '$TMP/cmds' && while read -r c; do grep -qx \".SS \$c\" '$M' || exit 1; done <'$TMP/cmds'"
check "every scenario key is in it" "'$SP' check --help-keys | grep -Ec '^  [^ ]' >'$TMP/nk' &&
	test \$(grep -c '^[.]TP\$' '$M') -eq \$((\$(cat '$TMP/nk') - \$('$SP' check --help-keys | grep -c '^  key ') + 3))"
check "a key with its default and unit" "grep -A2 -x '.B lat_p99' '$M' | grep -qx 'time; default 800us; unit us.'"

# the completion, sourced in bash
C=scripts/slowpath-completion.bash
# $TMP/comp WORD...: what _slowpath offers for the last word
cat >"$TMP/comp" <<EOF
#!/bin/bash
. '$C'
COMP_WORDS=('$SP' "\$@")
COMP_CWORD=\$#
_slowpath
printf '%s\n' "\${COMPREPLY[@]}"
EOF
chmod +x "$TMP/comp"
check "completes commands" "test \"\$('$TMP/comp' co | tr '\n' ' ')\" = 'costs compare '"
check "completes options per command" "'$TMP/comp' run --i | grep -qx -- --iterations &&
	! '$TMP/comp' check --i | grep -qx -- --iterations && '$TMP/comp' check --help- | grep -qx -- --help-keys &&
	'$TMP/comp' compare --j | grep -qx -- --json"
check "completes policy names" "'$SP' policies | awk 'NR > 1 { print \$1 }' >'$TMP/pol' && test -s '$TMP/pol' &&
	'$TMP/comp' run x.ini --policy '' | grep -v -x all >'$TMP/pc' && cmp '$TMP/pol' '$TMP/pc'"
check "completes a policy list for sweep" "'$TMP/comp' sweep x.ini --policy baseline,pre-l | grep -qx baseline,pre-large-chunks"
check "completes --set keys" "'$TMP/comp' run x.ini --set machine.mem | grep -qx machine.memory= &&
	'$TMP/comp' run x.ini --set vm.defrag_m | grep -qx vm.defrag_mode= &&
	'$TMP/comp' run x.ini --set pgbench.cli | grep -qx pgbench.clients="
check "completes --help-keys sections" "test \"\$('$TMP/comp' check --help-keys f | tr '\n' ' ')\" = 'fio forker fragment '"
check "completes scenario files" "'$TMP/comp' run scenarios/pgbench-sm | grep -qx scenarios/pgbench-small.ini"

cli_done
