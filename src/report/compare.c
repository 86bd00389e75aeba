/* SPDX-License-Identifier: MIT */
/*
 * compare.c — `slowpath compare DIR...`: result sets side by side, the
 * first one the baseline, in mmtests' layout, LKP's
 * layout (rmqueue_pcplist, mm/page_alloc.c) or JSON.  docs/report.md describes every row.
 *
 * Model: each set contributes one sample per iteration.  Statistics rows
 * (Min, Max, Amean, Hmean, Stddev, CoeffVar, BAmean-95) come from
 * stats.c; a cell is the value and its difference from the baseline
 * (pdiff or pndiff so that positive is better), wrapped in asterisks when
 * Welch's t-test finds the means differ at alpha = 0.05.  "Ops" rows are
 * mmtests' vmstat-derived rows, computed from the mean delta per iteration.
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cmd.h"
#include "report/compare.h"
#include "report/orders.h"
#include "report/scndiff.h"
#include "report/shape.h"

/* ---- metrics ------------------------------------------------------------- */

enum src_kind { SRC_TPS, SRC_LATENCY, SRC_FIGURE, SRC_VMSTAT, SRC_PER_MILLION };

static bool sample_of(const struct rpt_run *r, enum src_kind k, const char *key, int idx, double *v)
{
	const struct rpt_named *nm;

	switch (k) {
	case SRC_TPS:
		*v = r->tps;
		return r->has_tps;
	case SRC_LATENCY:
		*v = r->latency[idx];
		return r->has_latency && isfinite(*v);
	case SRC_FIGURE:
		nm = rpt_named_find(&r->figures, key);
		break;
	case SRC_VMSTAT:
		nm = rpt_named_find(&r->vmstat, key);
		break;
	case SRC_PER_MILLION:
		nm = rpt_named_find(&r->per_million, key);
		break;
	default:
		return false;
	}
	if (!nm)
		return false;
	*v = nm->value;
	return true;
}

static void metric_fill(struct rpt_cmp *c, struct rpt_cmp_metric *m, enum src_kind k,
			const char *key, int idx)
{
	int ns = c->nr_sets;

	m->x = xzalloc((size_t)ns * sizeof(*m->x));
	m->n = xzalloc((size_t)ns * sizeof(*m->n));
	m->st = xzalloc((size_t)ns * sizeof(*m->st));
	m->w_amean = xzalloc((size_t)ns * sizeof(*m->w_amean));
	m->w_hmean = xzalloc((size_t)ns * sizeof(*m->w_hmean));
	for (int s = 0; s < ns; s++) {
		const struct rpt_set *set = &c->sets[s];

		m->x[s] = xzalloc(set->nr_runs * sizeof(double));
		for (unsigned int i = 0; i < set->nr_runs; i++) {
			double v;

			if (sample_of(&set->runs[i], k, key, idx, &v))
				m->x[s][m->n[s]++] = v;
		}
		rpt_stats_compute(m->x[s], m->n[s], m->better, &m->st[s]);
	}
	for (int s = 0; s < ns; s++) {
		double *ra, *rb;

		if (s == 0) {
			rpt_welch_test(NULL, 0, NULL, 0, RPT_ALPHA, &m->w_amean[0]);
			rpt_welch_test(NULL, 0, NULL, 0, RPT_ALPHA, &m->w_hmean[0]);
			continue;
		}
		rpt_welch_test(m->x[0], m->n[0], m->x[s], m->n[s], RPT_ALPHA, &m->w_amean[s]);
		/* Harmonic means are equal iff the means of the reciprocals
		 * are: test those (only defined for positive samples). */
		rpt_welch_test(NULL, 0, NULL, 0, RPT_ALPHA, &m->w_hmean[s]);
		if (!m->throughput || !isfinite(m->st[0].hmean) || !isfinite(m->st[s].hmean))
			continue;
		ra = xzalloc(m->n[0] * sizeof(double));
		rb = xzalloc(m->n[s] * sizeof(double));
		for (size_t i = 0; i < m->n[0]; i++)
			ra[i] = 1.0 / m->x[0][i];
		for (size_t i = 0; i < m->n[s]; i++)
			rb[i] = 1.0 / m->x[s][i];
		rpt_welch_test(ra, m->n[0], rb, m->n[s], RPT_ALPHA, &m->w_hmean[s]);
		free(ra);
		free(rb);
	}
}

static struct rpt_cmp_metric *metric_add(struct rpt_cmp_metric **v, size_t *n, size_t *cap,
					 const char *name, const char *lkp, const char *unit,
					 enum rpt_better better, bool throughput)
{
	struct rpt_cmp_metric *m;

	rpt_grow(v, cap, *n + 1, sizeof(**v));
	m = &(*v)[(*n)++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->lkp_name = xstrdup(lkp);
	m->unit = xstrdup(unit ? unit : "");
	m->better = better;
	m->throughput = throughput;
	return m;
}

static void metric_release(struct rpt_cmp_metric *m, int ns)
{
	for (int s = 0; s < ns; s++)
		free(m->x[s]);
	free(m->x);
	free(m->n);
	free(m->st);
	free(m->w_amean);
	free(m->w_hmean);
	free(m->name);
	free(m->lkp_name);
	free(m->unit);
}

/* Union of the names in one named list of every run, first-seen order. */
static void name_union(const struct rpt_cmp *c, size_t off, struct rpt_named_list *out)
{
	for (int s = 0; s < c->nr_sets; s++)
		for (unsigned int i = 0; i < c->sets[s].nr_runs; i++) {
			const struct rpt_named_list *l =
				(const void *)((const char *)&c->sets[s].runs[i] + off);

			for (size_t k = 0; k < l->n; k++) {
				struct rpt_named *have = (struct rpt_named *)
					rpt_named_find(out, l->v[k].name);

				if (!have)
					rpt_named_set(out, l->v[k].name, 0, l->v[k].unit);
				else if (!have->unit && l->v[k].unit)
					have->unit = xstrdup(l->v[k].unit);
			}
		}
}

/* One row per name in the runs' named list at off (union over all runs,
 * first-seen order), labelled name + suffix, valued with each set's mean;
 * returns their number. */
static size_t value_rows(const struct rpt_cmp *c, size_t off, const char *suffix,
			 struct rpt_cmp_row **out)
{
	struct rpt_named_list u = { 0 };
	size_t n = 0;

	name_union(c, off, &u);
	*out = xzalloc((u.n ? u.n : 1) * sizeof(**out));
	for (size_t i = 0; i < u.n; i++) {
		struct rpt_cmp_row *r = &(*out)[n++];
		size_t len = strlen(u.v[i].name) + strlen(suffix) + 1;

		r->label = xzalloc(len);
		snprintf(r->label, len, "%s%s", u.v[i].name, suffix);
		r->v = xzalloc((size_t)c->nr_sets * sizeof(double));
		for (int s = 0; s < c->nr_sets; s++)
			r->v[s] = rpt_set_named_mean(&c->sets[s], off, u.v[i].name, NULL);
	}
	rpt_named_release(&u);
	return n;
}

/* One metric per name in the runs' named list at off (union over all
 * runs, first-seen order), LKP name "<lkp_prefix>.<name>". */
static void add_named_metrics(struct rpt_cmp *c, size_t off, const char *lkp_prefix,
			      enum rpt_better better, enum src_kind k,
			      struct rpt_cmp_metric **v, size_t *n, size_t *cap)
{
	struct rpt_named_list u = { 0 };

	name_union(c, off, &u);
	for (size_t i = 0; i < u.n; i++) {
		char lkp[256];

		snprintf(lkp, sizeof(lkp), "%s.%s", lkp_prefix, u.v[i].name);
		metric_fill(c, metric_add(v, n, cap, u.v[i].name, lkp, u.v[i].unit, better, false),
			    k, u.v[i].name, 0);
	}
	rpt_named_release(&u);
}

/* ---- Ops rows (mmtests' vmstat summary) ---------------------------------- */

enum op_kind {
	OP_COUNTER,	/* a */
	OP_SUM_PREFIX,	/* sum of every counter named a* */
	OP_DIFF,	/* a - b */
	OP_PCT,		/* a * 100 / b, 0 when b is 0 */
	OP_PCT_OF_SUM,	/* a * 100 / (a + b), 0 when both are 0 */
	OP_VELOCITY,	/* a / measure_seconds */
	OP_COMPACT_COST,
};

struct op_def {
	const char	*label;
	enum op_kind	kind;
	const char	*a, *b;
};

/* The rows mmtests prints from /proc/vmstat deltas, in its order. */
static const struct op_def op_defs[] = {
	{ "Minor Faults",		OP_DIFF,	"pgfault", "pgmajfault" },
	{ "Major Faults",		OP_COUNTER,	"pgmajfault", NULL },
	{ "Swap Ins",			OP_COUNTER,	"pswpin", NULL },
	{ "Swap Outs",			OP_COUNTER,	"pswpout", NULL },
	{ "Allocation stalls",		OP_SUM_PREFIX,	"allocstall_", NULL },
	{ "DMA allocs",			OP_COUNTER,	"pgalloc_dma", NULL },
	{ "DMA32 allocs",		OP_COUNTER,	"pgalloc_dma32", NULL },
	{ "Normal allocs",		OP_COUNTER,	"pgalloc_normal", NULL },
	{ "Movable allocs",		OP_COUNTER,	"pgalloc_movable", NULL },
	{ "Direct pages scanned",	OP_COUNTER,	"pgscan_direct", NULL },
	{ "Kswapd pages scanned",	OP_COUNTER,	"pgscan_kswapd", NULL },
	{ "Kswapd pages reclaimed",	OP_COUNTER,	"pgsteal_kswapd", NULL },
	{ "Direct pages reclaimed",	OP_COUNTER,	"pgsteal_direct", NULL },
	{ "Kswapd efficiency %",	OP_PCT,		"pgsteal_kswapd", "pgscan_kswapd" },
	{ "Kswapd velocity",		OP_VELOCITY,	"pgscan_kswapd", NULL },
	{ "Direct efficiency %",	OP_PCT,		"pgsteal_direct", "pgscan_direct" },
	{ "Direct velocity",		OP_VELOCITY,	"pgscan_direct", NULL },
	{ "Percentage direct scans",	OP_PCT_OF_SUM,	"pgscan_direct", "pgscan_kswapd" },
	{ "Page writes by reclaim",	OP_COUNTER,	"nr_vmscan_write", NULL },
	{ "Page writes file",		OP_DIFF,	"nr_vmscan_write", "pswpout" },
	{ "Page writes anon",		OP_COUNTER,	"pswpout", NULL },
	{ "Page reclaim immediate",	OP_COUNTER,	"nr_vmscan_immediate_reclaim", NULL },
	{ "Slabs scanned",		OP_COUNTER,	"slabs_scanned", NULL },
	{ "Direct inode steals",	OP_COUNTER,	"pginodesteal", NULL },
	{ "Kswapd inode steals",	OP_COUNTER,	"kswapd_inodesteal", NULL },
	{ "THP fault alloc",		OP_COUNTER,	"thp_fault_alloc", NULL },
	{ "THP fault fallback",		OP_COUNTER,	"thp_fault_fallback", NULL },
	{ "THP collapse alloc",		OP_COUNTER,	"thp_collapse_alloc", NULL },
	{ "THP collapse fail",		OP_COUNTER,	"thp_collapse_alloc_failed", NULL },
	{ "THP split",			OP_COUNTER,	"thp_split_page", NULL },
	{ "Compaction stalls",		OP_COUNTER,	"compact_stall", NULL },
	{ "Compaction success",		OP_COUNTER,	"compact_success", NULL },
	{ "Compaction failures",	OP_COUNTER,	"compact_fail", NULL },
	{ "Compaction efficiency",	OP_PCT,		"compact_success", "compact_stall" },
	{ "Page migrate success",	OP_COUNTER,	"pgmigrate_success", NULL },
	{ "Page migrate failure",	OP_COUNTER,	"pgmigrate_fail", NULL },
	{ "Compaction pages isolated",	OP_COUNTER,	"compact_isolated", NULL },
	{ "Compaction migrate scanned",	OP_COUNTER,	"compact_migrate_scanned", NULL },
	{ "Compaction free scanned",	OP_COUNTER,	"compact_free_scanned", NULL },
	{ "Compact scan efficiency",	OP_PCT,		"compact_migrate_scanned", "compact_free_scanned" },
	{ "Compaction cost",		OP_COMPACT_COST, NULL, NULL },
	{ "Kcompactd wake",		OP_COUNTER,	"compact_daemon_wake", NULL },
	{ "Kcompactd migrate scanned",	OP_COUNTER,	"compact_daemon_migrate_scanned", NULL },
	{ "Kcompactd free scanned",	OP_COUNTER,	"compact_daemon_free_scanned", NULL },
};

/*
 * mmtests' "Compaction cost" model (compare-kernels, x86-64 constants):
 * a notional cost per scanned page, per isolated page, per migrated page
 * (copying 512 words each way plus the scan) and per failed migration,
 * summed over the vmstat counters and divided by 10^6.  Report constants
 * of mmtests' model, not model time: they do not belong in costs.def.
 */
static const struct {
	double scan, isolate, copy, migrate_fail;
} compaction_cost_model = { 7, 19, 2 * (7 + 512), 14 };

/* Mean per iteration of counter name in set s; NaN when no run has it. */
static double vm_mean(const struct rpt_set *s, const char *name)
{
	return rpt_set_named_mean(s, offsetof(struct rpt_run, vmstat), name, NULL);
}

/* Sum over counters named prefix*: NaN when no run has any of them. */
static double vm_mean_prefix(const struct rpt_set *s, const char *prefix)
{
	double sum = 0;
	unsigned int n = 0;
	size_t pl = strlen(prefix);

	for (unsigned int i = 0; i < s->nr_runs; i++) {
		const struct rpt_named_list *l = &s->runs[i].vmstat;
		bool any = false;

		for (size_t k = 0; k < l->n; k++)
			if (strncmp(l->v[k].name, prefix, pl) == 0) {
				sum += l->v[k].value;
				any = true;
			}
		n += any;
	}
	return n ? sum / n : NAN;
}

static double mean_measure_seconds(const struct rpt_set *s)
{
	double sum = 0;
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nr_runs; i++)
		if (isfinite(s->runs[i].measure_seconds) && s->runs[i].measure_seconds > 0) {
			sum += s->runs[i].measure_seconds;
			n++;
		}
	return n ? sum / n : NAN;
}

static double pct_or_zero(double a, double b)
{
	if (isnan(a) || isnan(b))
		return NAN;
	return b != 0 ? a * 100.0 / b : 0.0;
}

static double op_value(const struct op_def *d, const struct rpt_set *s)
{
	double a = d->a ? vm_mean(s, d->a) : NAN, b = d->b ? vm_mean(s, d->b) : NAN;

	switch (d->kind) {
	case OP_COUNTER:
		return a;
	case OP_SUM_PREFIX:
		return vm_mean_prefix(s, d->a);
	case OP_DIFF:
		/* "Page writes file" on a system without swap has no pswpout. */
		return isnan(b) ? a : a - b;
	case OP_PCT:
		return pct_or_zero(a, b);
	case OP_PCT_OF_SUM:
		return isnan(a) || isnan(b) ? NAN : pct_or_zero(a, a + b);
	case OP_VELOCITY:
		return a / mean_measure_seconds(s);
	case OP_COMPACT_COST: {
		double ms = vm_mean(s, "compact_migrate_scanned"), fs = vm_mean(s, "compact_free_scanned");
		double iso = vm_mean(s, "compact_isolated"), ok = vm_mean(s, "pgmigrate_success");
		double bad = vm_mean(s, "pgmigrate_fail");

		return ((ms + fs) * compaction_cost_model.scan +
			iso * compaction_cost_model.isolate +
			ok * compaction_cost_model.copy +
			bad * compaction_cost_model.migrate_fail) / 1e6;
	}
	}
	return NAN;
}

/* ---- build ----------------------------------------------------------------- */

static void derive_rows(struct rpt_cmp *c);

void rpt_cmp_build(struct rpt_cmp *c, struct rpt_set *sets, int nr_sets, unsigned int flags)
{
	static const char *const lat_rows[5] = {
		"latency_avg_ms", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms"
	};
	size_t cap = 0, pm_cap = 0, vm_cap = 0;
	bool any_tps = false, any_lat[5] = { false };

	memset(c, 0, sizeof(*c));
	c->sets = sets;
	c->nr_sets = nr_sets;
	for (int s = 0; s < nr_sets; s++)
		for (unsigned int i = 0; i < sets[s].nr_runs; i++) {
			any_tps |= sets[s].runs[i].has_tps;
			for (int k = 0; k < 5; k++)	/* a window has no percentiles */
				any_lat[k] |= sets[s].runs[i].has_latency &&
					      isfinite(sets[s].runs[i].latency[k]);
		}
	if (any_tps)
		metric_fill(c, metric_add(&c->m, &c->nr_m, &cap, "tps", "slowpath.tps", "tps",
					  RPT_BETTER_HIGHER, true), SRC_TPS, NULL, 0);
	for (int i = 0; i < 5; i++) {
		char lkp[64];

		if (!any_lat[i])
			continue;
		snprintf(lkp, sizeof(lkp), "slowpath.latency_ms.%s", rpt_latency_names[i]);
		metric_fill(c, metric_add(&c->m, &c->nr_m, &cap, lat_rows[i], lkp, "ms",
					  RPT_BETTER_LOWER, false), SRC_LATENCY, NULL, i);
	}
	/* Figures have no known direction: plain pdiff, no BAmean. */
	add_named_metrics(c, offsetof(struct rpt_run, figures), "figures", RPT_BETTER_NONE,
			  SRC_FIGURE, &c->m, &c->nr_m, &cap);
	/* Stalls per written page: fewer is better. */
	add_named_metrics(c, offsetof(struct rpt_run, per_million), "per-million-written",
			  RPT_BETTER_LOWER, SRC_PER_MILLION, &c->pm, &c->nr_pm, &pm_cap);
	add_named_metrics(c, offsetof(struct rpt_run, vmstat), "proc-vmstat", RPT_BETTER_NONE,
			  SRC_VMSTAT, &c->vm, &c->nr_vm, &vm_cap);

	/* Ops rows known to no set (e.g. THP counters absent) are dropped. */
	c->ops = xzalloc(sizeof(*c->ops) * (sizeof(op_defs) / sizeof(op_defs[0])));
	for (size_t d = 0; d < sizeof(op_defs) / sizeof(op_defs[0]); d++) {
		struct rpt_cmp_row *r = &c->ops[c->nr_ops];
		bool any = false;

		r->v = xzalloc((size_t)nr_sets * sizeof(double));
		for (int s = 0; s < nr_sets; s++) {
			r->v[s] = op_value(&op_defs[d], &sets[s]);
			any |= !isnan(r->v[s]);
		}
		if (!any) {
			free(r->v);
			continue;
		}
		r->label = xstrdup(op_defs[d].label);
		c->nr_ops++;
	}
	/* iostat rows: every "DISK COLUMN" of any run, first-seen order;
	 * tracepoint rows, hits per second, and CPU rows the same way */
	c->nr_io = value_rows(c, offsetof(struct rpt_run, iostat), "", &c->io);
	c->nr_tp = value_rows(c, offsetof(struct rpt_run, tracepoints), "/s", &c->tp);
	c->nr_cpu = value_rows(c, offsetof(struct rpt_run, cpu), "", &c->cpu);
	c->all = flags & RPT_CMP_ALL;
	derive_rows(c);
}

/* Rows that own their labels and values (Ops, Iostat). */
static void rows_release(struct rpt_cmp_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].label);
		free(rows[i].v);
	}
	free(rows);
}

void rpt_cmp_release(struct rpt_cmp *c)
{
	for (size_t i = 0; i < c->nr_lines; i++)
		free(c->lines[i].cell);
	free(c->lines);
	for (size_t i = 0; i < c->nr_pm; i++)
		free(c->pm_rows[i].v);
	free(c->pm_rows);
	for (size_t i = 0; i < c->nr_m; i++)
		metric_release(&c->m[i], c->nr_sets);
	for (size_t i = 0; i < c->nr_pm; i++)
		metric_release(&c->pm[i], c->nr_sets);
	for (size_t i = 0; i < c->nr_vm; i++)
		metric_release(&c->vm[i], c->nr_sets);
	free(c->m);
	free(c->pm);
	free(c->vm);
	rows_release(c->ops, c->nr_ops);
	rows_release(c->io, c->nr_io);
	rows_release(c->tp, c->nr_tp);
	rows_release(c->cpu, c->nr_cpu);
	memset(c, 0, sizeof(*c));
}

/* ---- number formatting ------------------------------------------------------ */

/* printf of a double that never prints "-0.00", "nan" or "-nan". */
static void fmt_num(char *buf, size_t len, const char *fmt, double v)
{
	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, v > 0 ? "inf" : "-inf");
		return;
	}
	snprintf(buf, len, fmt, v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
}

/* ---- the rows every format prints ----------------------------------------- */

const char *const rpt_cmp_stat_names[RPT_NR_ST] = {
	"Min", "Max", "Amean", "Hmean", "Stddev", "CoeffVar", "BAmean-95"
};
static const char *const stat_keys[RPT_NR_ST] = {
	"min", "max", "amean", "hmean", "stddev", "coeffvar", "bamean95"
};

static bool row_exists(const struct rpt_cmp_metric *m, enum rpt_cmp_stat r)
{
	if (r == RPT_ST_HMEAN)
		return m->throughput;
	if (r == RPT_ST_BAMEAN95)
		return m->better != RPT_BETTER_NONE;
	return true;
}

static double stat_value(const struct rpt_stats *st, enum rpt_cmp_stat r)
{
	switch (r) {
	case RPT_ST_MIN: return st->min;
	case RPT_ST_MAX: return st->max;
	case RPT_ST_AMEAN: return st->amean;
	case RPT_ST_HMEAN: return st->hmean;
	case RPT_ST_STDDEV: return st->stddev;
	case RPT_ST_COEFFVAR: return st->coeffvar;
	case RPT_ST_BAMEAN95: return st->bamean95;
	default: return NAN;
	}
}

/* Difference from the baseline as mmtests prints it: pndiff where lower is
 * better (spread rows always), pdiff otherwise. */
static double stat_diff(const struct rpt_cmp_metric *m, enum rpt_cmp_stat r, int s)
{
	double base = stat_value(&m->st[0], r), v = stat_value(&m->st[s], r);

	if (r == RPT_ST_STDDEV || r == RPT_ST_COEFFVAR || m->better == RPT_BETTER_LOWER)
		return rpt_pndiff(base, v);
	return rpt_pdiff(base, v);
}

static const struct rpt_welch *stat_welch(const struct rpt_cmp_metric *m, enum rpt_cmp_stat r, int s)
{
	if (r == RPT_ST_AMEAN)
		return &m->w_amean[s];
	if (r == RPT_ST_HMEAN)
		return &m->w_hmean[s];
	return NULL;
}

/* True when some set's value prints differently from the baseline's. */
static bool values_differ(const double *v, int nr_sets)
{
	char a[64], b[64];

	if (nr_sets == 1)
		return true;
	fmt_num(a, sizeof(a), "%.2f", v[0]);
	for (int s = 1; s < nr_sets; s++) {
		fmt_num(b, sizeof(b), "%.2f", v[s]);
		if (strcmp(a, b) != 0)
			return true;
	}
	return false;
}

static bool single_sample(const struct rpt_cmp_metric *m, int nr_sets)
{
	for (int s = 0; s < nr_sets; s++)
		if (m->n[s] > 1)
			return false;
	return true;
}

static void derive_rows(struct rpt_cmp *c)
{
	int ns = c->nr_sets;
	double *v = xzalloc((size_t)ns * sizeof(double));
	size_t cap = 0;

	for (int r = 0; r < RPT_NR_ST; r++)
		for (size_t i = 0; i < c->nr_m; i++) {
			const struct rpt_cmp_metric *m = &c->m[i];
			struct rpt_cmp_line *l;
			bool sig = false;

			if (!row_exists(m, r))
				continue;
			rpt_grow(&c->lines, &cap, c->nr_lines + 1, sizeof(*c->lines));
			l = &c->lines[c->nr_lines++];
			l->metric = i;
			l->stat = r;
			l->cell = xzalloc((size_t)ns * sizeof(*l->cell));
			for (int s = 0; s < ns; s++) {
				const struct rpt_welch *w = stat_welch(m, r, s);

				l->cell[s].v = v[s] = stat_value(&m->st[s], r);
				l->cell[s].diff = s == 0 ? 0.0 : stat_diff(m, r, s);
				l->cell[s].sig = w && w->significant;
				sig |= l->cell[s].sig;
			}
			l->shown = c->all ||
				((sig || values_differ(v, ns)) &&
				 !(single_sample(m, ns) && r != RPT_ST_AMEAN && r != RPT_ST_HMEAN));
		}
	for (size_t i = 0; i < c->nr_ops; i++)
		c->ops[i].shown = c->all || values_differ(c->ops[i].v, ns);
	for (size_t i = 0; i < c->nr_io; i++)
		c->io[i].shown = c->all || values_differ(c->io[i].v, ns);
	for (size_t i = 0; i < c->nr_tp; i++)
		c->tp[i].shown = c->all || values_differ(c->tp[i].v, ns);
	for (size_t i = 0; i < c->nr_cpu; i++)
		c->cpu[i].shown = c->all || values_differ(c->cpu[i].v, ns);
	c->pm_rows = xzalloc((c->nr_pm ? c->nr_pm : 1) * sizeof(*c->pm_rows));
	for (size_t i = 0; i < c->nr_pm; i++) {
		struct rpt_cmp_row *r = &c->pm_rows[i];

		r->label = c->pm[i].name;
		r->v = xzalloc((size_t)ns * sizeof(double));
		for (int s = 0; s < ns; s++)
			r->v[s] = c->pm[i].st[s].amean;
		r->shown = c->all || values_differ(r->v, ns);
	}
	free(v);
}

const struct rpt_cmp_line *rpt_cmp_find_line(const struct rpt_cmp *c, enum rpt_cmp_stat stat,
					     const char *metric)
{
	for (size_t i = 0; i < c->nr_lines; i++)
		if (c->lines[i].stat == stat && strcmp(c->m[c->lines[i].metric].name, metric) == 0)
			return &c->lines[i];
	return NULL;
}

/* ---- mmtests layout, through the emitter ------------------------------------ */

static const char *set_title(const struct rpt_set *s)
{
	const struct rpt_run *r = &s->runs[0];

	if (strcmp(r->source, "recorded") == 0)
		return r->kernel_release ? r->kernel_release : "recorded";
	return r->policy ? r->policy : "simulated";
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* Widths of the statistics block: label (stat + metric), value. */
struct cmp_widths {
	int	name_w, label_w, val_w, cell_w;
};

static void stats_widths(const struct rpt_cmp *c, const struct rpt_cmp_line *const *lines,
			 size_t nr, struct cmp_widths *w)
{
	char buf[64];

	w->name_w = 0;
	w->val_w = 12;
	for (size_t i = 0; i < nr; i++) {
		w->name_w = max_int(w->name_w, (int)strlen(c->m[lines[i]->metric].name));
		for (int s = 0; s < c->nr_sets; s++) {
			fmt_num(buf, sizeof(buf), "%.2f", lines[i]->cell[s].v);
			w->val_w = max_int(w->val_w, (int)strlen(buf));
		}
	}
	w->label_w = 10 + w->name_w;
	w->cell_w = w->val_w + 11;
	for (int s = 0; s < c->nr_sets; s++) {
		w->cell_w = max_int(w->cell_w, (int)strlen(set_title(&c->sets[s])));
		w->cell_w = max_int(w->cell_w, (int)strlen(c->sets[s].name));
	}
	w->val_w = w->cell_w - 11;
}

/* The two header rows: policy (or kernel), then set name.  span: html
 * columns per set. */
static void emit_header(struct rpt_emitter *e, const struct rpt_cmp *c, int label_w, int label_span,
			int cell_w, int span)
{
	for (int line = 0; line < 2; line++) {
		rpt_emit_row_begin(e, true);
		rpt_emit_cell(e, &(struct rpt_emit_cell){ .text = "", .width = label_w, .left = true,
							  .span = label_span });
		for (int s = 0; s < c->nr_sets; s++)
			rpt_emit_cell(e, &(struct rpt_emit_cell){
				.text = line == 0 ? set_title(&c->sets[s]) : c->sets[s].name,
				.width = cell_w, .sep = " ", .span = span });
		rpt_emit_row_end(e);
	}
}

/* Colour of a difference: only a significant one, and as better or worse
 * only for a metric that has a direction (pdiff/pndiff make positive
 * better there). */
static const char *diff_class(const struct rpt_cmp_metric *m, const struct rpt_cmp_cell *cl)
{
	if (!cl->sig)
		return NULL;
	if (m->better == RPT_BETTER_NONE)
		return "sig";
	return cl->diff > 0 ? "sig better" : cl->diff < 0 ? "sig worse" : "sig";
}

static void emit_line(struct rpt_emitter *e, const struct rpt_cmp *c, const struct rpt_cmp_line *l,
		      const struct cmp_widths *w)
{
	const struct rpt_cmp_metric *m = &c->m[l->metric];
	char buf[64], pct[32], cell[48];

	rpt_emit_row_begin(e, false);
	rpt_emit_cell(e, &(struct rpt_emit_cell){ .text = rpt_cmp_stat_names[l->stat], .width = 10,
						  .left = true });
	rpt_emit_cell(e, &(struct rpt_emit_cell){ .text = m->name, .width = w->name_w, .left = true });
	for (int s = 0; s < c->nr_sets; s++) {
		const struct rpt_cmp_cell *cl = &l->cell[s];

		fmt_num(buf, sizeof(buf), "%.2f", cl->v);
		fmt_num(pct, sizeof(pct), "%.2f", cl->diff);
		snprintf(cell, sizeof(cell), cl->sig ? "*%7s%%*" : "(%7s%%)", pct);
		rpt_emit_cell(e, &(struct rpt_emit_cell){ .text = buf, .width = w->val_w, .sep = " " });
		rpt_emit_cell(e, &(struct rpt_emit_cell){ .text = cell, .left = true, .sep = " ",
							  .cls = diff_class(m, cl) });
	}
	rpt_emit_row_end(e);
}

static void rows_widths(const struct rpt_cmp *c, const char *prefix,
			const struct rpt_cmp_row *const *rows, size_t nr, int *label_w, int *cell_w)
{
	char buf[64];

	*label_w = 0;
	*cell_w = 12;
	for (size_t i = 0; i < nr; i++) {
		*label_w = max_int(*label_w, (int)(strlen(prefix) + 1 + strlen(rows[i]->label)));
		for (int s = 0; s < c->nr_sets; s++) {
			fmt_num(buf, sizeof(buf), "%.2f", rows[i]->v[s]);
			*cell_w = max_int(*cell_w, (int)strlen(buf));
		}
	}
	for (int s = 0; s < c->nr_sets; s++) {
		*cell_w = max_int(*cell_w, (int)strlen(set_title(&c->sets[s])));
		*cell_w = max_int(*cell_w, (int)strlen(c->sets[s].name));
	}
}

static void emit_row(struct rpt_emitter *e, const struct rpt_cmp *c, const char *prefix,
		     const struct rpt_cmp_row *r, int label_w, int label_span, int cell_w, int span)
{
	char label[512], buf[64];

	snprintf(label, sizeof(label), "%s %s", prefix, r->label);
	rpt_emit_row_begin(e, false);
	rpt_emit_cell(e, &(struct rpt_emit_cell){ .text = label, .width = label_w, .left = true,
						  .span = label_span });
	for (int s = 0; s < c->nr_sets; s++) {
		fmt_num(buf, sizeof(buf), "%.2f", r->v[s]);
		rpt_emit_cell(e, &(struct rpt_emit_cell){ .text = buf, .width = cell_w, .sep = " ",
							  .span = span });
	}
	rpt_emit_row_end(e);
}

static void emit_rows_block(struct rpt_emitter *e, const struct rpt_cmp *c, const char *prefix,
			    const struct rpt_cmp_row *const *rows, size_t nr)
{
	int label_w, cell_w;

	rows_widths(c, prefix, rows, nr, &label_w, &cell_w);
	rpt_emit_table_begin(e, "cmp");
	emit_header(e, c, label_w, 1, cell_w, 1);
	for (size_t i = 0; i < nr; i++)
		emit_row(e, c, prefix, rows[i], label_w, 1, cell_w, 1);
	rpt_emit_table_end(e);
}

/* Shown rows of an array, as pointers. */
static size_t shown_rows(const struct rpt_cmp_row *v, size_t n, const struct rpt_cmp_row ***out)
{
	size_t k = 0;

	*out = xzalloc((n ? n : 1) * sizeof(**out));
	for (size_t i = 0; i < n; i++)
		if (v[i].shown)
			(*out)[k++] = &v[i];
	return k;
}

/* The shown rows of v[0..n) as a block headed `prefix` (a blank line
 * first when `gap`); returns whether some row was hidden. */
static bool emit_shown_block(struct rpt_emitter *e, FILE *f, const struct rpt_cmp *c, const char *prefix,
			     const struct rpt_cmp_row *v, size_t n, bool gap)
{
	const struct rpt_cmp_row **rows;
	size_t nr = shown_rows(v, n, &rows);

	if (nr) {
		if (gap)
			fputc('\n', f);
		emit_rows_block(e, c, prefix, rows, nr);
	}
	free(rows);
	return nr < n;
}

void rpt_cmp_emit_rows(struct rpt_emitter *e, const struct rpt_cmp *c,
		       const struct rpt_cmp_line *const *lines, size_t nr_lines,
		       const struct rpt_cmp_row *const *ops, size_t nr_ops,
		       const struct rpt_cmp_row *const *pm, size_t nr_pm)
{
	struct cmp_widths w;

	stats_widths(c, lines, nr_lines, &w);
	rpt_emit_table_begin(e, "cmp");
	emit_header(e, c, w.label_w, 2, w.cell_w, 2);
	for (size_t i = 0; i < nr_lines; i++)
		emit_line(e, c, lines[i], &w);
	for (size_t i = 0; i < nr_ops; i++)
		emit_row(e, c, "Ops", ops[i], w.label_w, 2, w.cell_w, 2);
	for (size_t i = 0; i < nr_pm; i++)
		emit_row(e, c, "Per-M-written", pm[i], w.label_w, 2, w.cell_w, 2);
	rpt_emit_table_end(e);
}

static void emit_scenario_diff(struct rpt_emitter *e, FILE *f, const struct rpt_cmp *c, bool html);

/* The window the rows span (rpt_sets_window), as a note; false if none. */
static bool window_of(const struct rpt_cmp *c, char *buf, size_t len)
{
	const struct rpt_run *r = c->nr_sets && c->sets[0].nr_runs ? &c->sets[0].runs[0] : NULL;
	char to[32];

	if (!r || !r->windowed)
		return false;
	if (isinf(r->window.to))
		snprintf(to, sizeof(to), "end");
	else
		snprintf(to, sizeof(to), "%g", r->window.to);
	snprintf(buf, len, "Window: %g-%s s after each folder's start (tps, latency avg/max from "
		 "tps.csv;\nvmstat, iostat, tracepoint and CPU rows from the monitors' samples in it).", r->window.from, to);
	return true;
}

void rpt_cmp_print_text(FILE *f, const struct rpt_cmp *c, bool html)
{
	struct rpt_emitter e;
	const struct rpt_cmp_line **lines = xzalloc((c->nr_lines ? c->nr_lines : 1) * sizeof(*lines));
	size_t nl = 0;
	bool hidden = false;

	rpt_emit_init(&e, f, html ? RPT_EMIT_HTML : RPT_EMIT_TEXT);
	for (size_t i = 0; i < c->nr_lines; i++)
		if (c->lines[i].shown)
			lines[nl++] = &c->lines[i];
	hidden |= nl < c->nr_lines;
	if (c->nr_m) {
		struct cmp_widths w;
		char buf[1024];
		size_t n = 0;

		stats_widths(c, lines, nl, &w);
		rpt_emit_table_begin(&e, "cmp");
		emit_header(&e, c, w.label_w, 2, w.cell_w, 2);
		for (size_t i = 0; i < nl; i++)
			emit_line(&e, c, lines[i], &w);
		rpt_emit_table_end(&e);
		if (!html)
			fputc('\n', f);
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "Samples:");
		for (int s = 0; s < c->nr_sets && n < sizeof(buf); s++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %s=%u", c->sets[s].name,
					      c->sets[s].nr_runs);
		rpt_emit_note(&e, buf);
		if (window_of(c, buf, sizeof(buf)))
			rpt_emit_note(&e, buf);
		rpt_emit_note(&e, "Significance: *x.xx%* where Welch's t-test rejects equal means at alpha 0.05\n"
			      "(Amean on the samples, Hmean on their reciprocals); never marked with fewer\n"
			      "than 2 samples a side.");
	}
	free(lines);
	hidden |= emit_shown_block(&e, f, c, "Ops", c->ops, c->nr_ops, c->nr_m && !html);
	hidden |= emit_shown_block(&e, f, c, "Per-M-written", c->pm_rows, c->nr_pm, !html);
	hidden |= emit_shown_block(&e, f, c, "Iostat", c->io, c->nr_io, !html);
	hidden |= emit_shown_block(&e, f, c, "Tracepoint", c->tp, c->nr_tp, !html);
	hidden |= emit_shown_block(&e, f, c, "Cpu", c->cpu, c->nr_cpu, !html);
	if (hidden) {
		if (!html)
			fputc('\n', f);
		rpt_emit_note(&e, "Rows where every result prints the baseline's value, and the spread rows "
			      "of single samples,\nare not shown: --all prints every row.");
	}
	emit_scenario_diff(&e, f, c, html);
}

/* ---- what sets the results apart ------------------------------------------------ */

#define SCN_DIFF_MAX_KEYS	12	/* per set; the rest is counted */
#define SCN_DIFF_MAX_VALUE	60	/* characters of a value shown */

static void shown_value(char *buf, size_t len, const char *v)
{
	if (!v)
		snprintf(buf, len, "(none)");
	else if (strlen(v) > SCN_DIFF_MAX_VALUE)
		snprintf(buf, len, "%.*s...", SCN_DIFF_MAX_VALUE - 3, v);
	else
		snprintf(buf, len, "%s", v);
}

/* The scenario keys whose values differ from the baseline's, per set (the
 * folders' scenario.ini, scndiff.c); nothing when none differs.  The
 * lines are one note, built in a memory stream as run.c builds headers. */
static void emit_scenario_diff(struct rpt_emitter *e, FILE *f, const struct rpt_cmp *c, bool html)
{
	struct rpt_scn_diff *d = rpt_scn_diff(c->sets, c->nr_sets);
	char *buf = NULL;
	size_t len = 0;
	int name_w = 0;
	FILE *m;

	for (int s = 1; s < c->nr_sets; s++)
		if (d[s].nr)
			name_w = max_int(name_w, (int)strlen(c->sets[s].name));
	if (!name_w)
		goto out;
	m = open_memstream(&buf, &len);
	if (!m)
		xalloc_die(len);
	fprintf(m, "Scenario keys that differ from the baseline (%s):", c->sets[0].name);
	for (int s = 1; s < c->nr_sets; s++)
		for (size_t i = 0; i < d[s].nr && i <= SCN_DIFF_MAX_KEYS; i++) {
			char v[SCN_DIFF_MAX_VALUE + 8], b[SCN_DIFF_MAX_VALUE + 8];

			if (i == SCN_DIFF_MAX_KEYS) {
				fprintf(m, "\n  %-*s ... and %zu more", name_w, c->sets[s].name, d[s].nr - i);
				break;
			}
			shown_value(v, sizeof(v), d[s].keys[i].value);
			shown_value(b, sizeof(b), d[s].keys[i].base);
			fprintf(m, "\n  %-*s %s=%s (%s: %s)", name_w, c->sets[s].name, d[s].keys[i].key, v,
				c->sets[0].name, b);
		}
	if (fclose(m) != 0)
		xalloc_die(len);
	if (!html)
		fputc('\n', f);
	rpt_emit_note(e, buf);
out:
	free(buf);
	rpt_scn_diff_release(d, c->nr_sets);
}

/* ---- LKP text ------------------------------------------------------------------- */

static void lkp_num(char *buf, size_t len, double v)
{
	fmt_num(buf, len, fabs(v) >= 1000 || v == floor(v) ? "%.0f" : "%.2f", v);
}

/* " ± NN%" (relative stddev) when it is at least 1% after rounding. */
static void lkp_stddev(char *buf, size_t len, const struct rpt_stats *st)
{
	double rel = st->amean != 0 ? fabs(st->stddev / st->amean * 100.0) : 0;

	if (st->n > 1 && isfinite(rel) && rel >= 0.5)
		snprintf(buf, len, " \u00b1 %2.0f%%", rel);
	else
		snprintf(buf, len, "      ");
}

/* shown: the comparison prints the metric's mean without --all (LKP, too,
 * lists what changed). */
static void lkp_metric(FILE *f, const struct rpt_cmp *c, const struct rpt_cmp_metric *m, bool shown)
{
	char v[64], sd[32], ch[32];
	bool any = false;

	for (int s = 0; s < c->nr_sets; s++)
		any |= m->n[s] && m->st[s].amean != 0;
	if (!any || !shown)
		return;		/* LKP lists only metrics that have values */
	lkp_num(v, sizeof(v), m->st[0].amean);
	lkp_stddev(sd, sizeof(sd), &m->st[0]);
	fprintf(f, "%10s%s", v, sd);
	for (int s = 1; s < c->nr_sets; s++) {
		double pct = rpt_pdiff(m->st[0].amean, m->st[s].amean);

		if (isnan(pct))
			snprintf(ch, sizeof(ch), " ");
		else if (isinf(pct))
			snprintf(ch, sizeof(ch), "%sInf%%", pct > 0 ? "+" : "-");
		else
			fmt_num(ch, sizeof(ch), "%+.1f%%", pct);
		lkp_num(v, sizeof(v), m->st[s].amean);
		lkp_stddev(sd, sizeof(sd), &m->st[s]);
		fprintf(f, " %10s %10s%s", ch, v, sd);
	}
	fprintf(f, "  %s\n", m->lkp_name);
}

void rpt_cmp_print_lkp(FILE *f, const struct rpt_cmp *c)
{
	for (int s = 0; s < c->nr_sets; s++)
		fprintf(f, "%-16s%s", c->sets[s].name, s + 1 < c->nr_sets ? " " : "\n");
	fputs("----------------", f);
	for (int s = 1; s < c->nr_sets; s++)
		fputs(" ---------------------------", f);
	fputs("\n         %stddev", f);
	for (int s = 1; s < c->nr_sets; s++)
		fputs("     %change         %stddev", f);
	fputs("\n             \\   ", f);
	for (int s = 1; s < c->nr_sets; s++)
		fputs("       |                \\   ", f);
	fputc('\n', f);
	for (size_t i = 0; i < c->nr_m; i++)
		lkp_metric(f, c, &c->m[i], rpt_cmp_find_line(c, RPT_ST_AMEAN, c->m[i].name)->shown);
	for (size_t i = 0; i < c->nr_vm; i++) {
		double *v = xzalloc((size_t)c->nr_sets * sizeof(double));

		for (int s = 0; s < c->nr_sets; s++)
			v[s] = c->vm[i].st[s].amean;
		lkp_metric(f, c, &c->vm[i], c->all || values_differ(v, c->nr_sets));
		free(v);
	}
	for (size_t i = 0; i < c->nr_pm; i++)
		lkp_metric(f, c, &c->pm[i], c->pm_rows[i].shown);
}

/* ---- JSON ----------------------------------------------------------------------- */

/* Fixed-point: rounded to 6 decimals; non-finite values are null. */
static json_t *jnum(double v)
{
	if (!isfinite(v))
		return json_null();
	v = round(v * 1e6) / 1e6;
	return json_real(v == 0 ? 0.0 : v);
}

static json_t *jwelch(const struct rpt_welch *w)
{
	if (!w->valid)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:b}", "t", jnum(w->t), "df", jnum(w->df),
			 "p", jnum(w->p), "significant", w->significant);
}

static const char *better_name(enum rpt_better b)
{
	return b == RPT_BETTER_HIGHER ? "higher" : b == RPT_BETTER_LOWER ? "lower" : "none";
}

static json_t *jmetric(const struct rpt_cmp *c, const struct rpt_cmp_metric *m)
{
	json_t *o = json_object(), *per = json_array();

	json_object_set_new(o, "name", json_string(m->name));
	json_object_set_new(o, "lkp", json_string(m->lkp_name));
	json_object_set_new(o, "unit", json_string(m->unit));
	json_object_set_new(o, "better", json_string(better_name(m->better)));
	for (int s = 0; s < c->nr_sets; s++) {
		json_t *r = json_object(), *samples = json_array(), *diff = json_object();

		json_object_set_new(r, "n", json_integer((json_int_t)m->n[s]));
		for (size_t i = 0; i < m->n[s]; i++)
			json_array_append_new(samples, jnum(m->x[s][i]));
		json_object_set_new(r, "samples", samples);
		for (int st = 0; st < RPT_NR_ST; st++) {
			if (!row_exists(m, st))
				continue;
			json_object_set_new(r, stat_keys[st], jnum(stat_value(&m->st[s], st)));
			json_object_set_new(diff, stat_keys[st], jnum(s ? stat_diff(m, st, s) : 0.0));
		}
		json_object_set_new(r, "diff_pct", diff);
		json_object_set_new(r, "welch_amean", jwelch(&m->w_amean[s]));
		if (m->throughput)
			json_object_set_new(r, "welch_hmean", jwelch(&m->w_hmean[s]));
		json_array_append_new(per, r);
	}
	json_object_set_new(o, "results", per);
	return o;
}

/* Value rows (Ops, Iostat) as [{name, values per set}]. */
static json_t *jrows(const struct rpt_cmp *c, const struct rpt_cmp_row *rows, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *v = json_array();

		for (int s = 0; s < c->nr_sets; s++)
			json_array_append_new(v, jnum(rows[i].v[s]));
		json_array_append_new(a, json_pack("{s:s, s:o}", "name", rows[i].label, "values", v));
	}
	return a;
}

int rpt_cmp_print_json(FILE *f, const struct rpt_cmp *c)
{
	json_t *root = json_object(), *a;
	struct rpt_scn_diff *diff;
	int rc;

	json_object_set_new(root, "schema", json_string("slowpath-compare/1"));
	json_object_set_new(root, "alpha", json_real(RPT_ALPHA));
	json_object_set_new(root, "test", json_string("welch"));
	if (c->nr_sets && c->sets[0].nr_runs && c->sets[0].runs[0].windowed) {
		const struct rpt_window *w = &c->sets[0].runs[0].window;

		json_object_set_new(root, "window", json_pack("{s:f, s:o}", "from", w->from, "to",
			isinf(w->to) ? json_null() : json_real(w->to)));
	}
	a = json_array();
	for (int s = 0; s < c->nr_sets; s++) {
		const struct rpt_set *set = &c->sets[s];
		const struct rpt_run *r = &set->runs[0];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:i}",
			"name", set->name, "path", set->path, "source", r->source,
			"policy", r->policy, "kernel_release", r->kernel_release,
			"iterations", (int)set->nr_runs));
	}
	diff = rpt_scn_diff(c->sets, c->nr_sets);
	for (int s = 0; s < c->nr_sets; s++) {
		json_t *keys;

		if (!diff[s].present)	/* a folder without scenario.ini: no such field */
			continue;
		keys = json_array();
		for (size_t i = 0; i < diff[s].nr; i++)
			json_array_append_new(keys, json_pack("{s:s, s:s?, s:s?}", "key", diff[s].keys[i].key,
							      "value", diff[s].keys[i].value,
							      "baseline_value", diff[s].keys[i].base));
		json_object_set_new(json_array_get(a, (size_t)s), "scenario_differences", keys);
	}
	rpt_scn_diff_release(diff, c->nr_sets);
	json_object_set_new(root, "results", a);
	a = json_array();
	for (size_t i = 0; i < c->nr_m; i++)
		json_array_append_new(a, jmetric(c, &c->m[i]));
	json_object_set_new(root, "metrics", a);
	json_object_set_new(root, "ops", jrows(c, c->ops, c->nr_ops));
	json_object_set_new(root, "iostat", jrows(c, c->io, c->nr_io));
	json_object_set_new(root, "tracepoints", jrows(c, c->tp, c->nr_tp));
	json_object_set_new(root, "cpu", jrows(c, c->cpu, c->nr_cpu));
	a = json_array();
	for (size_t i = 0; i < c->nr_pm; i++)
		json_array_append_new(a, jmetric(c, &c->pm[i]));
	json_object_set_new(root, "per_million_written", a);
	a = json_array();
	for (size_t i = 0; i < c->nr_vm; i++)
		json_array_append_new(a, jmetric(c, &c->vm[i]));
	json_object_set_new(root, "vmstat", a);
	rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	fputc('\n', f);
	json_decref(root);
	return rc;
}

/* ---- command ------------------------------------------------------------------- */

static const char compare_usage[] =
	"usage: slowpath compare [--format text|lkp] [--json] [--all] [--names A,B,...]\n"
	"                        [--window A-B] [--shape] [--shape-windows A-B,...] [--orders]\n"
	"                        DIR...\n"
	"  DIR: a result folder (one sample) or a folder of iterations (one sample each);\n"
	"  the first is the baseline.  Rows that differ from the baseline (or are\n"
	"  significant) are printed; --all prints every row.  Formats: docs/report.md.\n"
	"  --window A-B: rows over that span of each folder (seconds after its start, B\n"
	"  may be 'end') instead of the measured phase: tps and latency avg/max from\n"
	"  tps.csv's intervals inside it, vmstat, iostat, tracepoint and CPU rows from the\n"
	"  monitors' first and last samples inside it; no percentiles or figures.\n"
	"  --shape: the free-memory shape instead (free blocks per zone, order and\n"
	"  migratetype, unusable_index and extfrag_index per order) from the folders'\n"
	"  proc-buddyinfo and proc-pagetypeinfo, as the mean over each window (seconds\n"
	"  after the first sample, B may be 'end'; default 0-end) and at the last\n"
	"  sample, as text or --json (docs/fragmentation-check.md).\n"
	"  --orders: the page cache's folio allocations per order instead: attempts,\n"
	"  the share that fell back to a smaller order, slow-path entries and\n"
	"  failures at that order, as text or --json (docs/report.md).\n";

int rpt_cmd_compare(int argc, char **argv)
{
	enum { O_FORMAT = 1000, O_JSON, O_NAMES, O_ALL, O_SHAPE, O_WINDOWS, O_WINDOW, O_ORDERS, O_HELP };
	static const struct option opts[] = {
		{ "format", required_argument, NULL, O_FORMAT },
		{ "json", no_argument, NULL, O_JSON },
		{ "names", required_argument, NULL, O_NAMES },
		{ "all", no_argument, NULL, O_ALL },
		{ "shape", no_argument, NULL, O_SHAPE },
		{ "shape-windows", required_argument, NULL, O_WINDOWS },
		{ "window", required_argument, NULL, O_WINDOW },
		{ "orders", no_argument, NULL, O_ORDERS },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 }
	};
	const char *format = "text", *names = NULL;
	int nr_dirs, rc = 2, c;
	unsigned int flags = 0;
	bool json = false, shape = false, orders = false;
	struct rpt_window win[16] = { { 0, INFINITY } }, span;
	unsigned int nr_win = 1, nr_span = 0, load = RPT_LOAD_IOSTAT | RPT_LOAD_TRACE | RPT_LOAD_CPU;
	struct rpt_set *sets = NULL;
	struct rpt_cmp cmp;
	char err[1024];

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_FORMAT:
			format = optarg;
			if (strcmp(format, "text") != 0 && strcmp(format, "lkp") != 0)
				return rpt_opt_bad("compare", "--format", format, "text or lkp");
			break;
		case O_JSON:
			json = true;
			break;
		case O_NAMES:
			names = optarg;
			break;
		case O_ALL:
			flags |= RPT_CMP_ALL;
			break;
		case O_SHAPE:
			shape = true;
			break;
		case O_WINDOWS:
			shape = true;
			if (rpt_parse_windows(optarg, win, 16, &nr_win, err, sizeof(err))) {
				fprintf(stderr, "slowpath compare: --shape-windows: %s\n", err);
				return 2;
			}
			break;
		case O_WINDOW:
			if (rpt_parse_windows(optarg, &span, 1, &nr_span, err, sizeof(err))) {
				fprintf(stderr, "slowpath compare: --window: %s\n", err);
				return 2;
			}
			break;
		case O_ORDERS:
			orders = true;
			break;
		case 'h':
		case O_HELP:
			fputs(compare_usage, stdout);
			return 0;
		default:
			return rpt_opt_error("compare", c, argv);
		}
	}
	nr_dirs = argc - optind;
	if (nr_dirs == 0) {
		fprintf(stderr, "slowpath compare: no result folder given\n%s", compare_usage);
		return 2;
	}
	if (shape && orders) {
		fprintf(stderr, "slowpath compare: --shape and --orders are separate views: give one\n");
		return 2;
	}
	if ((shape || orders) && strcmp(format, "text") != 0) {
		fprintf(stderr, "slowpath compare: --%s prints text or --json, not --format %s\n",
			shape ? "shape" : "orders", format);
		return 2;
	}
	if (nr_span && (shape || orders)) {
		fprintf(stderr, "slowpath compare: --window is for the main view; %s\n",
			shape ? "--shape takes --shape-windows" : "--orders counts the whole run");
		return 2;
	}
	sets = xzalloc((size_t)nr_dirs * sizeof(*sets));
	if (rpt_sets_load(sets, nr_dirs, argv + optind, load, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		free(sets);
		return 2;
	}
	if (nr_span && rpt_sets_window(sets, nr_dirs, &span, load, err, sizeof(err))) {
		fprintf(stderr, "slowpath compare: %s\n", err);
		goto out;
	}
	if (names && rpt_sets_rename(sets, nr_dirs, names, err, sizeof(err))) {
		fprintf(stderr, "slowpath compare: %s\n", err);
		goto out;
	}
	if (shape) {
		int r = rpt_shape_print(stdout, sets, nr_dirs, win, nr_win, json, err, sizeof(err));

		if (r < 0) {
			fflush(stdout);
			fprintf(stderr, "slowpath compare: %s\n", err);
			goto out;
		}
		rc = r || fflush(stdout) != 0;
		goto out;
	}
	if (orders) {
		rc = rpt_orders_print(stdout, sets, nr_dirs, json) || fflush(stdout) != 0;
		goto out;
	}
	rpt_cmp_build(&cmp, sets, nr_dirs, flags);
	if (json)
		rc = rpt_cmp_print_json(stdout, &cmp) ? 1 : 0;
	else if (strcmp(format, "lkp") == 0)
		rpt_cmp_print_lkp(stdout, &cmp), rc = 0;
	else
		rpt_cmp_print_text(stdout, &cmp, false), rc = 0;
	rpt_cmp_release(&cmp);
	if (fflush(stdout) != 0)
		rc = 1;
out:
	rpt_sets_release(sets, nr_dirs);
	free(sets);
	return rc;
}
