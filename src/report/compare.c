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
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cmd.h"
#include "report/compare.h"

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
	double sum = 0;
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nr_runs; i++) {
		const struct rpt_named *nm = rpt_named_find(&s->runs[i].vmstat, name);

		if (nm) {
			sum += nm->value;
			n++;
		}
	}
	return n ? sum / n : NAN;
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

void rpt_cmp_build(struct rpt_cmp *c, struct rpt_set *sets, int nr_sets)
{
	static const char *const lat_rows[5] = {
		"latency_avg_ms", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms"
	};
	size_t cap = 0, pm_cap = 0, vm_cap = 0;
	bool any_tps = false, any_lat = false;

	memset(c, 0, sizeof(*c));
	c->sets = sets;
	c->nr_sets = nr_sets;
	for (int s = 0; s < nr_sets; s++)
		for (unsigned int i = 0; i < sets[s].nr_runs; i++) {
			any_tps |= sets[s].runs[i].has_tps;
			any_lat |= sets[s].runs[i].has_latency;
		}
	if (any_tps)
		metric_fill(c, metric_add(&c->m, &c->nr_m, &cap, "tps", "slowpath.tps", "tps",
					  RPT_BETTER_HIGHER, true), SRC_TPS, NULL, 0);
	for (int i = 0; any_lat && i < 5; i++) {
		char lkp[64];

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
}

void rpt_cmp_release(struct rpt_cmp *c)
{
	for (size_t i = 0; i < c->nr_m; i++)
		metric_release(&c->m[i], c->nr_sets);
	for (size_t i = 0; i < c->nr_pm; i++)
		metric_release(&c->pm[i], c->nr_sets);
	for (size_t i = 0; i < c->nr_vm; i++)
		metric_release(&c->vm[i], c->nr_sets);
	for (size_t i = 0; i < c->nr_ops; i++) {
		free(c->ops[i].label);
		free(c->ops[i].v);
	}
	free(c->m);
	free(c->pm);
	free(c->vm);
	free(c->ops);
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

void rpt_html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void put_text(FILE *f, const char *s, bool html)
{
	if (html)
		rpt_html_escape(f, s);
	else
		fputs(s, f);
}

static void put_padded(FILE *f, const char *s, int width, bool left, bool html)
{
	int pad = width - (int)strlen(s);

	if (!left)
		for (; pad > 0; pad--)
			fputc(' ', f);
	put_text(f, s, html);
	if (left)
		for (; pad > 0; pad--)
			fputc(' ', f);
}

/* ---- mmtests text ------------------------------------------------------------ */

enum stat_row { ST_MIN, ST_MAX, ST_AMEAN, ST_HMEAN, ST_STDDEV, ST_COEFFVAR, ST_BAMEAN95, NR_ST };
static const char *const stat_names[NR_ST] = {
	"Min", "Max", "Amean", "Hmean", "Stddev", "CoeffVar", "BAmean-95"
};
static const char *const stat_keys[NR_ST] = {
	"min", "max", "amean", "hmean", "stddev", "coeffvar", "bamean95"
};

static bool row_exists(const struct rpt_cmp_metric *m, enum stat_row r)
{
	if (r == ST_HMEAN)
		return m->throughput;
	if (r == ST_BAMEAN95)
		return m->better != RPT_BETTER_NONE;
	return true;
}

static double stat_value(const struct rpt_stats *st, enum stat_row r)
{
	switch (r) {
	case ST_MIN: return st->min;
	case ST_MAX: return st->max;
	case ST_AMEAN: return st->amean;
	case ST_HMEAN: return st->hmean;
	case ST_STDDEV: return st->stddev;
	case ST_COEFFVAR: return st->coeffvar;
	case ST_BAMEAN95: return st->bamean95;
	default: return NAN;
	}
}

/* Difference from the baseline as mmtests prints it: pndiff where lower is
 * better (spread rows always), pdiff otherwise. */
static double stat_diff(const struct rpt_cmp_metric *m, enum stat_row r, int s)
{
	double base = stat_value(&m->st[0], r), v = stat_value(&m->st[s], r);

	if (r == ST_STDDEV || r == ST_COEFFVAR || m->better == RPT_BETTER_LOWER)
		return rpt_pndiff(base, v);
	return rpt_pdiff(base, v);
}

static const struct rpt_welch *stat_welch(const struct rpt_cmp_metric *m, enum stat_row r, int s)
{
	if (r == ST_AMEAN)
		return &m->w_amean[s];
	if (r == ST_HMEAN)
		return &m->w_hmean[s];
	return NULL;
}

static const char *set_title(const struct rpt_set *s)
{
	const struct rpt_run *r = &s->runs[0];

	if (strcmp(r->source, "recorded") == 0)
		return r->kernel_release ? r->kernel_release : "recorded";
	return r->policy ? r->policy : "simulated";
}

static void print_header(FILE *f, const struct rpt_cmp *c, int label_w, int cell_w, bool html)
{
	for (int line = 0; line < 2; line++) {
		put_padded(f, "", label_w, true, false);
		for (int s = 0; s < c->nr_sets; s++) {
			fputc(' ', f);
			put_padded(f, line == 0 ? set_title(&c->sets[s]) : c->sets[s].name,
				   cell_w, false, html);
		}
		fputc('\n', f);
	}
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static void print_stats_block(FILE *f, const struct rpt_cmp *c, bool html)
{
	int name_w = 0, val_w = 12, cell_w, label_w;
	char buf[64];

	for (size_t i = 0; i < c->nr_m; i++) {
		name_w = max_int(name_w, (int)strlen(c->m[i].name));
		for (int r = 0; r < NR_ST; r++)
			for (int s = 0; s < c->nr_sets; s++) {
				fmt_num(buf, sizeof(buf), "%.2f", stat_value(&c->m[i].st[s], r));
				val_w = max_int(val_w, (int)strlen(buf));
			}
	}
	label_w = 10 + name_w;
	cell_w = val_w + 11;
	for (int s = 0; s < c->nr_sets; s++) {
		cell_w = max_int(cell_w, (int)strlen(set_title(&c->sets[s])));
		cell_w = max_int(cell_w, (int)strlen(c->sets[s].name));
	}
	val_w = cell_w - 11;
	print_header(f, c, label_w, cell_w, html);
	for (int r = 0; r < NR_ST; r++)
		for (size_t i = 0; i < c->nr_m; i++) {
			const struct rpt_cmp_metric *m = &c->m[i];

			if (!row_exists(m, r))
				continue;
			fprintf(f, "%-10s", stat_names[r]);
			put_padded(f, m->name, name_w, true, html);
			for (int s = 0; s < c->nr_sets; s++) {
				const struct rpt_welch *w = stat_welch(m, r, s);
				bool sig = w && w->significant;
				char pct[32];

				fmt_num(buf, sizeof(buf), "%.2f", stat_value(&m->st[s], r));
				fmt_num(pct, sizeof(pct), "%.2f",
					s == 0 ? 0.0 : stat_diff(m, r, s));
				fputc(' ', f);
				put_padded(f, buf, val_w, false, false);
				if (sig && html)
					fputs(" <span class=\"sig\">", f);
				else
					fputc(' ', f);
				fprintf(f, sig ? "*%7s%%*" : "(%7s%%)", pct);
				if (sig && html)
					fputs("</span>", f);
			}
			fputc('\n', f);
		}
}

static void print_rows_block(FILE *f, const struct rpt_cmp *c, const char *prefix,
			     const struct rpt_cmp_row *rows, size_t nr, bool html)
{
	int label_w = 0, cell_w = 12;
	char buf[64];

	for (size_t i = 0; i < nr; i++) {
		label_w = max_int(label_w, (int)(strlen(prefix) + 1 + strlen(rows[i].label)));
		for (int s = 0; s < c->nr_sets; s++) {
			fmt_num(buf, sizeof(buf), "%.2f", rows[i].v[s]);
			cell_w = max_int(cell_w, (int)strlen(buf));
		}
	}
	for (int s = 0; s < c->nr_sets; s++) {
		cell_w = max_int(cell_w, (int)strlen(set_title(&c->sets[s])));
		cell_w = max_int(cell_w, (int)strlen(c->sets[s].name));
	}
	print_header(f, c, label_w, cell_w, html);
	for (size_t i = 0; i < nr; i++) {
		char label[512];

		snprintf(label, sizeof(label), "%s %s", prefix, rows[i].label);
		put_padded(f, label, label_w, true, html);
		for (int s = 0; s < c->nr_sets; s++) {
			fmt_num(buf, sizeof(buf), "%.2f", rows[i].v[s]);
			fputc(' ', f);
			put_padded(f, buf, cell_w, false, false);
		}
		fputc('\n', f);
	}
}

void rpt_cmp_print_text(FILE *f, const struct rpt_cmp *c, bool html)
{
	if (c->nr_m) {
		print_stats_block(f, c, html);
		fputs("\nSamples:", f);
		for (int s = 0; s < c->nr_sets; s++) {
			fputc(' ', f);
			put_text(f, c->sets[s].name, html);
			fprintf(f, "=%u", c->sets[s].nr_runs);
		}
		fputs("\nSignificance: *x.xx%* where Welch's t-test rejects equal means at alpha 0.05\n"
		      "(Amean on the samples, Hmean on their reciprocals); never marked with fewer\n"
		      "than 2 samples a side.\n", f);
	}
	if (c->nr_ops) {
		if (c->nr_m)
			fputc('\n', f);
		print_rows_block(f, c, "Ops", c->ops, c->nr_ops, html);
	}
	if (c->nr_pm) {
		struct rpt_cmp_row *rows = xzalloc(c->nr_pm * sizeof(*rows));

		for (size_t i = 0; i < c->nr_pm; i++) {
			rows[i].label = c->pm[i].name;
			rows[i].v = xzalloc((size_t)c->nr_sets * sizeof(double));
			for (int s = 0; s < c->nr_sets; s++)
				rows[i].v[s] = c->pm[i].st[s].amean;
		}
		fputc('\n', f);
		print_rows_block(f, c, "Per-M-written", rows, c->nr_pm, html);
		for (size_t i = 0; i < c->nr_pm; i++)
			free(rows[i].v);
		free(rows);
	}
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

static void lkp_metric(FILE *f, const struct rpt_cmp *c, const struct rpt_cmp_metric *m)
{
	char v[64], sd[32], ch[32];
	bool any = false;

	for (int s = 0; s < c->nr_sets; s++)
		any |= m->n[s] && m->st[s].amean != 0;
	if (!any)
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
		lkp_metric(f, c, &c->m[i]);
	for (size_t i = 0; i < c->nr_vm; i++)
		lkp_metric(f, c, &c->vm[i]);
	for (size_t i = 0; i < c->nr_pm; i++)
		lkp_metric(f, c, &c->pm[i]);
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
		for (int st = 0; st < NR_ST; st++) {
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

int rpt_cmp_print_json(FILE *f, const struct rpt_cmp *c)
{
	json_t *root = json_object(), *a;
	int rc;

	json_object_set_new(root, "schema", json_string("slowpath-compare/1"));
	json_object_set_new(root, "alpha", json_real(RPT_ALPHA));
	json_object_set_new(root, "test", json_string("welch"));
	a = json_array();
	for (int s = 0; s < c->nr_sets; s++) {
		const struct rpt_set *set = &c->sets[s];
		const struct rpt_run *r = &set->runs[0];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:i}",
			"name", set->name, "path", set->path, "source", r->source,
			"policy", r->policy, "kernel_release", r->kernel_release,
			"iterations", (int)set->nr_runs));
	}
	json_object_set_new(root, "results", a);
	a = json_array();
	for (size_t i = 0; i < c->nr_m; i++)
		json_array_append_new(a, jmetric(c, &c->m[i]));
	json_object_set_new(root, "metrics", a);
	a = json_array();
	for (size_t i = 0; i < c->nr_ops; i++) {
		json_t *v = json_array();

		for (int s = 0; s < c->nr_sets; s++)
			json_array_append_new(v, jnum(c->ops[i].v[s]));
		json_array_append_new(a, json_pack("{s:s, s:o}", "name", c->ops[i].label, "values", v));
	}
	json_object_set_new(root, "ops", a);
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
	"usage: slowpath compare [--format text|lkp] [--json] [--names A,B,...] DIR...\n"
	"  DIR: a result folder (one sample) or a folder of iterations (one sample each);\n"
	"  the first is the baseline.  Formats: docs/report.md.\n";

int rpt_cmd_compare(int argc, char **argv)
{
	const char *format = "text", *names = NULL;
	char **dirs = xzalloc((size_t)argc * sizeof(*dirs));
	int nr_dirs = 0, rc = 2;
	bool json = false;
	struct rpt_set *sets = NULL;
	struct rpt_cmp c;
	char err[1024];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--json") == 0) {
			json = true;
		} else if (strcmp(a, "--format") == 0 && i + 1 < argc) {
			format = argv[++i];
		} else if (strncmp(a, "--format=", 9) == 0) {
			format = a + 9;
		} else if (strcmp(a, "--names") == 0 && i + 1 < argc) {
			names = argv[++i];
		} else if (strncmp(a, "--names=", 8) == 0) {
			names = a + 8;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(compare_usage, stdout);
			rc = 0;
			goto out;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "slowpath compare: unknown option '%s'\n%s", a, compare_usage);
			goto out;
		} else {
			dirs[nr_dirs++] = argv[i];
		}
	}
	if (strcmp(format, "text") != 0 && strcmp(format, "lkp") != 0) {
		fprintf(stderr, "slowpath compare: unknown format '%s' (text, lkp)\n", format);
		goto out;
	}
	if (nr_dirs == 0) {
		fprintf(stderr, "slowpath compare: no result folder given\n%s", compare_usage);
		goto out;
	}
	sets = xzalloc((size_t)nr_dirs * sizeof(*sets));
	if (rpt_sets_load(sets, nr_dirs, dirs, 0, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		free(sets);
		sets = NULL;
		goto out;
	}
	if (names && rpt_sets_rename(sets, nr_dirs, names, err, sizeof(err))) {
		fprintf(stderr, "slowpath compare: %s\n", err);
		goto out;
	}
	rpt_cmp_build(&c, sets, nr_dirs);
	if (json)
		rc = rpt_cmp_print_json(stdout, &c) ? 1 : 0;
	else if (strcmp(format, "lkp") == 0)
		rpt_cmp_print_lkp(stdout, &c), rc = 0;
	else
		rpt_cmp_print_text(stdout, &c, false), rc = 0;
	rpt_cmp_release(&c);
	if (fflush(stdout) != 0)
		rc = 1;
out:
	if (sets) {
		rpt_sets_release(sets, nr_dirs);
		free(sets);
	}
	free(dirs);
	return rc;
}
