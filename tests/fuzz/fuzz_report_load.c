/* SPDX-License-Identifier: MIT */
/*
 * fuzz_report_load.c — libFuzzer target for the result-folder readers of
 * report/load.c that take text users hand us: profile.json (jansson plus
 * our schema walk, recursion bounded), tps.csv and waits.csv.
 *
 * Input: the first byte picks the reader (even: profile.json, odd:
 * tps.csv when its bit 1 is clear, else waits.csv), the rest is the file
 * text up to the first NUL.  A reader must
 * return 0 or -1 with a "f:" / "f:<line>:" message, and never read out of
 * bounds, leak or hit undefined behaviour; a parsed profile's totals must
 * be at least its self times.
 * Corpus: tests/fuzz/corpus/report_load (fixture profile, tps.csv and
 * waits.csv).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "";
	char *text;
	int rc;

	if (size == 0)
		return 0;
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (data[0] % 2 == 0) {
		struct rpt_profile p;

		rc = rpt_profile_parse("f", text, &p, err, sizeof(err));
		if (rc == 0)
			for (size_t i = 0; i < p.n; i++)
				for (int t = 0; t < RPT_NR_TIMES; t++)
					if (p.v[i].total[t] < p.v[i].self[t])
						abort();
		rpt_profile_release(&p);
	} else if ((data[0] & 2) == 0) {
		struct rpt_series s = { 0 };

		rc = rpt_series_parse("f", text, &s, err, sizeof(err));
		rpt_series_release(&s);
	} else {
		struct rpt_waits w;

		rc = rpt_waits_parse("f", text, &w, err, sizeof(err));
		if (rc == 0)
			for (size_t i = 1; i < w.n; i++)
				if (!(w.t[i] > w.t[i - 1]))
					abort();
		rpt_waits_release(&w);
	}
	if (rc != 0 && (rc != -1 || strncmp(err, "f:", 2) != 0))
		abort();
	free(text);
	return 0;
}
