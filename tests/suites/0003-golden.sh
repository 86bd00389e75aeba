#!/bin/sh
# Runs every golden case (tests/golden/run.sh): scenario or command in,
# expected files out, byte for byte.
exec tests/golden/run.sh "${1:?usage: $0 BUILD_DIR}"
