# Sourced by the 9xxx recorder suites (not executable, so run-tests.sh
# does not run it).  Defines `record ARGS...`: `slowpath record` of the
# build under test once main.c dispatches it, else the test driver
# (tests/unit/test_record.c, `test_record --record`), which runs the same
# rec_main().  Needs $build.
if "$build/slowpath" record --help 2>/dev/null | grep -q '^usage: slowpath record'; then
	RECORD_CMD="$build/slowpath record"
else
	RECORD_CMD="$build/tests/test_record --record"
fi
record() {
	# shellcheck disable=SC2086
	$RECORD_CMD "$@"
}
