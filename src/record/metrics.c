/* SPDX-License-Identifier: MIT */
/*
 * metrics.c — a benchmark's own numbers for a recorded run
 * (`slowpath record --metrics-from FILE`, docs/record.md).
 *
 * The kernel's counters come from /proc; throughput and latency only the
 * benchmark knows.  Any benchmark can hand them over in one small text
 * file, written by the recorded command before it exits:
 *
 *   # comment
 *   tps 4182.35                  transactions per second, as the benchmark reports it
 *   transactions 83647
 *   latency_avg_ms 0.239         all five latency lines go with tps/transactions
 *   latency_p50_ms 0.221
 *   latency_p95_ms 0.348
 *   latency_p99_ms 0.517
 *   latency_max_ms 12.904
 *   interval 1 4012.0 0.249 3.1  one line per time-series step -> tps.csv:
 *                                interval_end_s tps lat_avg_ms lat_max_ms
 *   figure scale_factor 1        any named figure -> result.json "figures"
 *   figure init_seconds 0.71 s     (an optional unit after the value)
 *   waits 10 cpu=20.5 client_clientread=51.2 ...
 *                                one line per interval -> waits.csv: its end
 *                                in s, each wait event's % of the backends'
 *                                time (names as in "figure"; absent: 0)
 *   checkpoint 12.5 27.0 0.1 27.1 276
 *                                one line per checkpoint -> checkpoints.csv:
 *                                start_s, and when it completed write_s
 *                                sync_s total_s buffers_written
 *   wal 10 4512 1203 9871234 0 812 811 40.5 210.3
 *                                one line per interval -> wal.csv: its end
 *                                in s, then what pg_stat_wal's counters
 *                                grew by in it: wal_records wal_fpi
 *                                wal_bytes wal_buffers_full wal_write
 *                                wal_sync, and wal_write_time
 *                                wal_sync_time in ms
 *
 * Unknown keys, duplicates, numbers that are not finite decimals and an
 * incomplete transaction block are errors with "path:line: message".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/internal.h"

enum { M_TPS, M_TX, M_AVG, M_P50, M_P95, M_P99, M_MAX, NR_M };

static const char *const mkeys[NR_M] = {
	"tps", "transactions", "latency_avg_ms", "latency_p50_ms",
	"latency_p95_ms", "latency_p99_ms", "latency_max_ms",
};

/* Cursor over one line: whitespace-separated words. */
static char *word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

/* A finite decimal: [-]digits[.digits][e[+-]digits]. */
static int number(const char *w, bool allow_neg, double *out)
{
	const char *s = w;
	char *end;

	if (*s == '-') {
		if (!allow_neg)
			return -1;
		s++;
	}
	if (*s < '0' || *s > '9' || s[strspn(s, "0123456789.eE+-")] != '\0')
		return -1;	/* no hex floats, inf, nan */
	errno = 0;
	*out = strtod(w, &end);
	if (errno || *end != '\0' || !isfinite(*out))
		return -1;
	return 0;
}

/* Room for one more element in an array of n (doubling). 0 or -1. */
static int grow(void **a, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 16;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*a, c * size);
	if (!p)
		return -1;
	*a = p;
	*cap = c;
	return 0;
}

static bool valid_name(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (!((*w >= 'a' && *w <= 'z') || (*w >= '0' && *w <= '9') || *w == '_'))
			return false;
	return true;
}

#define FAIL(...) do { snprintf(err, errlen, "%s:%u: ", path, lineno);			\
		       size_t _o = strlen(err);						\
		       snprintf(err + _o, errlen - _o, __VA_ARGS__); goto fail; } while (0)

int rec_metrics_parse(const char *path, const char *text, struct rec_metrics *m,
		      char *err, size_t errlen)
{
	char *copy = strdup(text), *line, *next;
	bool seen[NR_M] = { false };
	double val[NR_M] = { 0 };
	unsigned int lineno = 0, seen_n = 0;

	memset(m, 0, sizeof(*m));
	if (!copy) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	for (line = copy; line && *line; line = next) {
		char *p, *key, *w;
		int k;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		p = line;
		key = word(&p);
		if (!key || key[0] == '#')
			continue;
		for (k = 0; k < NR_M; k++)
			if (strcmp(key, mkeys[k]) == 0)
				break;
		if (k < NR_M) {
			w = word(&p);
			if (!w)
				FAIL("missing value for '%s'", key);
			if (seen[k])
				FAIL("second '%s' line", key);
			if (number(w, false, &val[k]))
				FAIL("invalid value '%s' for '%s'", w, key);
			if (k == M_TX && (val[k] != floor(val[k]) || val[k] > 1e18))
				FAIL("'transactions' must be a whole number, not '%s'", w);
			if ((w = word(&p)))
				FAIL("unexpected text '%s' after the value", w);
			seen[k] = true;
			seen_n++;
		} else if (strcmp(key, "interval") == 0) {
			struct rec_interval iv;
			double *f[4] = { &iv.end_s, &iv.tps, &iv.lat_avg_ms, &iv.lat_max_ms };

			for (int i = 0; i < 4; i++) {
				w = word(&p);
				if (!w)
					FAIL("'interval' wants: end_s tps lat_avg_ms lat_max_ms");
				if (number(w, false, f[i]))
					FAIL("invalid number '%s' in 'interval'", w);
			}
			if ((w = word(&p)))
				FAIL("unexpected text '%s' after 'interval'", w);
			if (m->nr_iv && iv.end_s <= m->iv[m->nr_iv - 1].end_s)
				FAIL("interval end %g is not after the previous one (%g)",
				     iv.end_s, m->iv[m->nr_iv - 1].end_s);
			if (grow((void **)&m->iv, &m->cap_iv, m->nr_iv, sizeof(*m->iv)))
				FAIL("out of memory");
			m->iv[m->nr_iv++] = iv;
		} else if (strcmp(key, "figure") == 0) {
			struct rpt_figure fg = { 0 };
			char *name = word(&p), *unit;

			w = word(&p);
			if (!name || !w)
				FAIL("'figure' wants: name value [unit]");
			if (!valid_name(name))
				FAIL("invalid figure name '%s' (use a-z, 0-9, _)", name);
			for (size_t i = 0; i < m->nr_fig; i++)
				if (strcmp(m->fig[i].name, name) == 0)
					FAIL("second figure '%s'", name);
			if (number(w, true, &fg.value))
				FAIL("invalid value '%s' for figure '%s'", w, name);
			unit = word(&p);
			if ((w = word(&p)))
				FAIL("unexpected text '%s' after the unit", w);
			if (grow((void **)&m->fig, &m->cap_fig, m->nr_fig, sizeof(*m->fig)))
				FAIL("out of memory");
			fg.name = strdup(name);
			fg.unit = strdup(unit ? unit : "");
			m->fig[m->nr_fig++] = fg;
			if (!fg.name || !fg.unit)
				FAIL("out of memory");
		} else if (strcmp(key, "waits") == 0) {
			double end;
			size_t row = m->nr_wait_row, first = m->nr_wait_cell;

			w = word(&p);
			if (!w)
				FAIL("'waits' wants: end_s name=pct ...");
			if (number(w, false, &end))
				FAIL("invalid number '%s' in 'waits'", w);
			if (row && end <= m->wait_end[row - 1])
				FAIL("waits end %g is not after the previous one (%g)", end, m->wait_end[row - 1]);
			if (grow((void **)&m->wait_end, &m->cap_wait_row, row, sizeof(*m->wait_end)))
				FAIL("out of memory");
			m->wait_end[m->nr_wait_row++] = end;
			while ((w = word(&p))) {
				char *eq = strchr(w, '=');
				struct rec_wait_cell c = { .row = row };

				if (!eq)
					FAIL("'%s' in 'waits' is not name=pct", w);
				*eq = '\0';
				if (!valid_name(w))
					FAIL("invalid wait event name '%s' (use a-z, 0-9, _)", w);
				if (number(eq + 1, false, &c.pct))
					FAIL("invalid share '%s' for '%s' in 'waits'", eq + 1, w);
				for (c.col = 0; c.col < m->nr_wait_col; c.col++)
					if (strcmp(m->wait_col[c.col], w) == 0)
						break;
				for (size_t i = first; i < m->nr_wait_cell; i++)
					if (m->wait_cell[i].col == c.col)
						FAIL("second '%s' in one 'waits' line", w);
				if (c.col == m->nr_wait_col) {
					if (grow((void **)&m->wait_col, &m->cap_wait_col, m->nr_wait_col,
						 sizeof(*m->wait_col)) ||
					    !(m->wait_col[m->nr_wait_col] = strdup(w)))
						FAIL("out of memory");
					m->nr_wait_col++;
				}
				if (grow((void **)&m->wait_cell, &m->cap_wait_cell, m->nr_wait_cell,
					 sizeof(*m->wait_cell)))
					FAIL("out of memory");
				m->wait_cell[m->nr_wait_cell++] = c;
			}
		} else if (strcmp(key, "checkpoint") == 0) {
			double c[5];
			int nw = 0;

			while (nw < 5 && (w = word(&p))) {
				if (number(w, false, &c[nw]))
					FAIL("invalid number '%s' in 'checkpoint'", w);
				nw++;
			}
			if ((w = word(&p)))
				FAIL("unexpected text '%s' after 'checkpoint'", w);
			if (nw != 1 && nw != 5)
				FAIL("'checkpoint' wants: start_s [write_s sync_s total_s buffers_written]");
			if (nw == 5 && c[4] != floor(c[4]))
				FAIL("buffers_written '%g' is not a whole number", c[4]);
			if (m->nr_ckpt && c[0] < m->ckpt[m->nr_ckpt - 1][0])
				FAIL("checkpoint start %g is before the previous one (%g)", c[0],
				     m->ckpt[m->nr_ckpt - 1][0]);
			for (int i = nw; i < 5; i++)
				c[i] = NAN;
			if (grow((void **)&m->ckpt, &m->cap_ckpt, m->nr_ckpt, sizeof(*m->ckpt)))
				FAIL("out of memory");
			memcpy(m->ckpt[m->nr_ckpt++], c, sizeof(c));
		} else if (strcmp(key, "wal") == 0) {
			double v[REC_WAL_COLS];
			int nw = 0;

			while (nw < REC_WAL_COLS && (w = word(&p))) {
				if (number(w, false, &v[nw]))
					FAIL("invalid number '%s' in 'wal'", w);
				/* the six counts, wal_records .. wal_sync, are whole */
				if (nw >= 1 && nw <= 6 && v[nw] != floor(v[nw]))
					FAIL("'%s' in 'wal' is not a whole number of %s", w, rec_wal_cols[nw]);
				nw++;
			}
			if ((w = word(&p)))
				FAIL("unexpected text '%s' after 'wal'", w);
			if (nw != REC_WAL_COLS)
				FAIL("'wal' wants: end_s wal_records wal_fpi wal_bytes wal_buffers_full wal_write "
				     "wal_sync wal_write_time wal_sync_time");
			if (m->nr_wal && v[0] <= m->wal[m->nr_wal - 1][0])
				FAIL("wal end %g is not after the previous one (%g)", v[0], m->wal[m->nr_wal - 1][0]);
			if (grow((void **)&m->wal, &m->cap_wal, m->nr_wal, sizeof(*m->wal)))
				FAIL("out of memory");
			memcpy(m->wal[m->nr_wal++], v, sizeof(v));
		} else {
			FAIL("unknown key '%s' (tps, transactions, latency_{avg,p50,p95,p99,max}_ms, "
			     "interval, figure, waits, checkpoint, wal)", key);
		}
	}
	if (seen_n > 0 && seen_n < NR_M) {
		for (int k = 0; k < NR_M; k++)
			if (!seen[k]) {
				lineno = lineno ? lineno : 1;
				FAIL("no '%s' line: tps, transactions and the five latency_*_ms "
				     "lines go together", mkeys[k]);
			}
	}
	if (seen_n == NR_M) {
		m->has_transactions = true;
		m->tps = val[M_TPS];
		m->transactions = (uint64_t)val[M_TX];
		m->latency.avg = val[M_AVG];
		m->latency.p50 = val[M_P50];
		m->latency.p95 = val[M_P95];
		m->latency.p99 = val[M_P99];
		m->latency.max = val[M_MAX];
	}
	free(copy);
	return 0;
fail:
	free(copy);
	rec_metrics_release(m);
	return -1;
}

void rec_metrics_release(struct rec_metrics *m)
{
	for (size_t i = 0; i < m->nr_fig; i++) {
		free(m->fig[i].name);
		free(m->fig[i].unit);
	}
	free(m->fig);
	free(m->iv);
	for (size_t i = 0; i < m->nr_wait_col; i++)
		free(m->wait_col[i]);
	free(m->wait_col);
	free(m->wait_end);
	free(m->wait_cell);
	free(m->ckpt);
	free(m->wal);
	memset(m, 0, sizeof(*m));
}
