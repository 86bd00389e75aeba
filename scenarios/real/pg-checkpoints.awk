# A PostgreSQL server log written with log_checkpoints = on and
# log_line_prefix '%n [%p] ' (%n: UNIX time in ms) to the "checkpoint"
# lines of a metrics file (docs/record.md) -> checkpoints.csv: each
# checkpoint that started in [t0, t0 + secs), its start in s from t0 and,
# from its "checkpoint complete" line (LogCheckpointEnd, PostgreSQL
# 15-17), the write, sync and total times and the buffers written; a
# checkpoint still running when the log ends has its start only.
#
#   awk -v t0=UNIX_S -v secs=S -f pg-checkpoints.awk server.log
/ LOG:  checkpoint starting: / { n++; st[n] = $1 - t0; done[n] = 0; next }
/ LOG:  checkpoint complete: wrote [0-9]+ buffers/ && n && !done[n] {
	done[n] = 1
	for (i = 1; i <= NF; i++) {
		if ($i == "wrote") b[n] = $(i + 1)
		if ($i ~ /^write=/) w[n] = substr($i, 7)
		if ($i ~ /^sync=/) y[n] = substr($i, 6)
		if ($i ~ /^total=/) t[n] = substr($i, 7)
	}
}
END {
	for (i = 1; i <= n; i++) {
		if (st[i] < 0 || st[i] >= secs)
			continue
		if (done[i])
			printf "checkpoint %.3f %.3f %.3f %.3f %d\n", st[i], w[i], y[i], t[i], b[i]
		else
			printf "checkpoint %.3f\n", st[i]
	}
}
