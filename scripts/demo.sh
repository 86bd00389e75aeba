#!/bin/sh
# The main job (README, first command).  Placeholder until the workload
# model lands: shows the binary runs.
set -eu
cd "$(dirname "$0")/.."
./slowpath --version
