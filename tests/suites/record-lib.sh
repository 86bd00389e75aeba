# Sourced by the 9xxx recorder suites (not executable, so run-tests.sh
# does not run it), from the repository root with $build set:
#
#   build=${1:?usage: $0 BUILD_DIR}
#   cd "$(dirname "$0")/../.." || exit 1
#   . tests/suites/record-lib.sh
#
# Gives: `record ARGS...` and $RECORD_CMD — `slowpath record` of the build
# under test once main.c dispatches it, else the test driver
# (tests/unit/test_record.c, `test_record --record`), which runs the same
# rec_main(); a scratch directory $tmp removed at exit; counters pass/fail
# and `check NAME STATUS` (ok when STATUS is 0); `summary NAME` prints the
# line run-tests.sh reads and returns the suite's status.
set -u
if "$build/slowpath" record --help 2>/dev/null | grep -q '^usage: slowpath record'; then
	RECORD_CMD="$build/slowpath record"
else
	RECORD_CMD="$build/tests/test_record --record"
fi
record() {
	# shellcheck disable=SC2086
	$RECORD_CMD "$@"
}
pass=0
fail=0
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
check() {
	if [ "$2" = 0 ]; then
		echo "ok   $1"
		pass=$((pass + 1))
	else
		echo "FAIL $1"
		fail=$((fail + 1))
	fi
}
summary() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
# skip_in_san NAME: in the sanitizer build, say the suite is skipped (the
# line run-tests.sh reads) and end it
skip_in_san() {
	case $build in
	*san*)
		echo "$1(skipped,sanitizer-build): 0 passed, 0 failed"
		exit 0 ;;
	esac
}
