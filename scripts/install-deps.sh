#!/bin/sh
# Installs the Debian packages slowpath needs to build, test and plot.
# Idempotent: packages already present are skipped by apt. Needs root (or sudo).
set -eu
PKGS="build-essential clang libclang-rt-14-dev llvm \
      libinih-dev libjansson-dev libgsl-dev gnuplot-nox \
      chromium postgresql postgresql-contrib jq \
      slurm-wlm munge"
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
