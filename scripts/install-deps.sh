#!/bin/sh
# Installs the Debian packages slowpath needs.  Idempotent: packages
# already present are skipped.  Needs root (or sudo).
#
#   scripts/install-deps.sh demo   build and run the demonstration (make demo)
#   scripts/install-deps.sh        everything the tests need as well (make test)
set -eu
# building, running, the HTML report's plots, the demo's JSON reads
DEMO_PKGS="build-essential libinih-dev libjansson-dev libgsl-dev gnuplot-nox jq"
# the tests only: clang and its sanitizer/fuzzer runtimes, the man-page
# check (groff), the HTML report in a browser, real PostgreSQL under the
# recorder with fio for its disk probe and fincore (util-linux-extra) for
# the WAL's cached share, Slurm for the sweep's job-array suite
TEST_PKGS="clang libclang-rt-14-dev llvm groff-base chromium postgresql postgresql-contrib fio \
	   util-linux-extra slurm-wlm munge"
case ${1:-test} in
demo)	PKGS=$DEMO_PKGS ;;
test)	PKGS="$DEMO_PKGS $TEST_PKGS" ;;
*)	echo "usage: scripts/install-deps.sh [demo|test]" >&2; exit 2 ;;
esac
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
