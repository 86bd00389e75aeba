#!/bin/sh
# 9008 — scenarios/real/pg-checkpoints.awk, which turns a PostgreSQL
# server log (log_checkpoints, log_line_prefix '%n [%p] ') into the
# metrics file's "checkpoint" lines (checkpoints.csv of a recorded
# pgbench-local run), on a hand-made log in PostgreSQL 15's wording: a
# checkpoint before the run (left out), one inside it with its complete
# line (start 12.5 s after t0; write, sync, total, buffers from the line),
# one still running at the end (start only), one after the run (left
# out); then the recorder's parser takes the lines.
build=${1:?usage: $0 BUILD_DIR}
cd "$(dirname "$0")/../.." || exit 1
. tests/suites/record-lib.sh

cat >"$tmp/server.log" <<'LOG'
1764835190.000 [100] LOG:  checkpoint starting: immediate force wait
1764835190.250 [100] LOG:  checkpoint complete: wrote 3 buffers (0.0%); 0 WAL file(s) added, 0 removed, 0 recycled; write=0.001 s, sync=0.002 s, total=0.250 s; sync files=2, longest=0.001 s, average=0.001 s; distance=1 kB, estimate=1 kB
1764835212.500 [100] LOG:  checkpoint starting: wal
1764835213.000 [200] LOG:  statement: SELECT 1
1764835240.125 [100] LOG:  checkpoint complete: wrote 2760 buffers (16.8%); 0 WAL file(s) added, 0 removed, 33 recycled; write=27.100 s, sync=0.375 s, total=27.625 s; sync files=18, longest=0.110 s, average=0.021 s; distance=540000 kB, estimate=540000 kB
1764835300.000 [100] LOG:  checkpoint starting: time
1764835400.000 [100] LOG:  checkpoint starting: time
LOG
awk -v t0=1764835200 -v secs=150 -f scenarios/real/pg-checkpoints.awk "$tmp/server.log" >"$tmp/m" 2>&1
[ "$(cat "$tmp/m")" = "checkpoint 12.500 27.100 0.375 27.625 2760
checkpoint 100.000" ]
check checkpoints-from-the-log $?
printf 'tps 1\ntransactions 1\nlatency_avg_ms 1\nlatency_p50_ms 1\nlatency_p95_ms 1\nlatency_p99_ms 1\nlatency_max_ms 1\n' \
	>>"$tmp/m"
$RECORD_CMD --out "$tmp/r" --metrics-from "$tmp/m" -- true >"$tmp/log" 2>&1 &&
	[ "$(cat "$tmp/r/checkpoints.csv")" = "start_s,write_s,sync_s,total_s,buffers_written
12.500,27.100,0.375,27.625,2760
100.000,,,," ]
check checkpoints-csv-recorded $?
[ $fail = 0 ] || cat "$tmp/log" "$tmp/m"
summary 9008-pg-checkpoint-log
