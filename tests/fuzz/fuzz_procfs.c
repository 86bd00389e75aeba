/* SPDX-License-Identifier: MIT */
/*
 * fuzz_procfs.c — libFuzzer target for the recorder's input parsers: the
 * /proc and monitor parsers (report/procfs.c), which read files the
 * recorder and `compare` get from users and from kernels we have never
 * seen, and the --metrics-from parser (record/metrics.c).
 *
 * Input: the first byte picks the parser (mod 11: vmstat, meminfo,
 * buddyinfo, pagetypeinfo, zoneinfo, monitor, metrics, diskstats,
 * debugfs-wbt, trace-counts, stat), the rest is the file text
 * (up to the first NUL, as the recorder reads it).  A parser must return 0
 * or -1 with a "path:line: " message, and never read out of bounds, leak
 * or hit undefined behaviour.  A monitor's sample texts are fed to the
 * vmstat, buddyinfo and stat parsers too, as the report code does.
 * Corpus: tests/fuzz/corpus/procfs (the 6.18 fixtures and a metrics file,
 * selector-prefixed).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/internal.h"
#include "report/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(int rc, const char *err)
{
	if (rc != 0 && (rc != -1 || strncmp(err, "f:", 2) != 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct proc_pagetypeinfo pt;
	static struct proc_buddyinfo bi;
	static struct proc_zoneinfo zi;
	struct rpt_counters c = { 0 };
	struct proc_monitor m;
	struct proc_stat st;
	char err[256];
	char *text;
	int rc = 0;

	if (size == 0)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	err[0] = '\0';
	switch (data[0] % 11) {
	case 0:
		rc = proc_parse_vmstat("f", text, &c, err, sizeof(err));
		break;
	case 1:
		rc = proc_parse_meminfo("f", text, &c, err, sizeof(err));
		break;
	case 2:
		rc = proc_parse_buddyinfo("f", text, &bi, err, sizeof(err));
		break;
	case 3:
		rc = proc_parse_pagetypeinfo("f", text, &pt, err, sizeof(err));
		break;
	case 4:
		rc = proc_parse_zoneinfo("f", text, &zi, err, sizeof(err));
		proc_zoneinfo_release(&zi);
		break;
	case 5:
		rc = proc_parse_monitor("f", text, &m, err, sizeof(err));
		if (rc == 0) {
			for (size_t i = 0; i < m.n; i++) {
				char e2[256] = "";

				check_err(proc_parse_vmstat("f", m.s[i].text, &c, e2, sizeof(e2)), e2);
				rpt_counters_release(&c);
				check_err(proc_parse_buddyinfo("f", m.s[i].text, &bi, e2, sizeof(e2)), e2);
				check_err(proc_parse_stat("f", m.s[i].text, &st, e2, sizeof(e2)), e2);
				proc_stat_release(&st);
			}
			proc_monitor_release(&m);
		}
		break;
	case 6: {
		struct rec_metrics rm;

		rc = rec_metrics_parse("f", text, &rm, err, sizeof(err));
		if (rc == 0)
			rec_metrics_release(&rm);
		break;
	}
	case 7: {
		struct proc_diskstats ds;

		rc = proc_parse_diskstats("f", text, &ds, err, sizeof(err));
		proc_diskstats_release(&ds);
		break;
	}
	case 8: {
		struct debugfs_wbt w;

		rc = debugfs_parse_wbt("f", text, &w, err, sizeof(err));
		debugfs_wbt_release(&w);
		break;
	}
	case 9: {
		struct trace_counts tc;

		rc = trace_parse_counts("f", text, &tc, err, sizeof(err));
		break;
	}
	case 10:
		rc = proc_parse_stat("f", text, &st, err, sizeof(err));
		proc_stat_release(&st);
		break;
	}
	check_err(rc, err);
	rpt_counters_release(&c);
	free(text);
	return 0;
}
