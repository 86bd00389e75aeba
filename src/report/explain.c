/* SPDX-License-Identifier: MIT */
/*
 * explain.c — `slowpath explain DIR [--diff DIR2]`: where virtual CPU time
 * and wait time went, from profile.json (docs/results.md).
 *
 * The tree is printed the way `perf report --children` reads: "Children"
 * is a path's share of all task time including what it called, "Self" the
 * share spent with the path on top of the stack.  Time per category
 * (cpu, spin, sleep, io, runq) is inclusive, in ms of virtual time per
 * iteration.  Siblings are sorted by Children, then by name, so the output
 * does not depend on the order paths were first seen.  With --diff, the
 * union of both trees is printed with each side's share of its own total
 * and the difference in points, as `perf diff` does, plus the absolute
 * times, since virtual time is comparable across runs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cmd.h"
#include "report/compare.h"
#include "report/explain.h"

#define ALL_TIMES ((1u << RPT_NR_TIMES) - 1)

void rpt_explain_opts_default(struct rpt_explain_opts *o)
{
	o->times = ALL_TIMES;
	o->percent_limit = 0.5;
	o->kind = NULL;
}

int rpt_explain_parse_times(const char *s, unsigned int *mask)
{
	char *copy, *p, *tok;

	if (strcmp(s, "all") == 0) {
		*mask = ALL_TIMES;
		return 0;
	}
	if (strcmp(s, "wait") == 0) {
		*mask = ALL_TIMES & ~(1u << RPT_T_CPU);
		return 0;
	}
	*mask = 0;
	copy = xstrdup(s);
	p = copy;
	while ((tok = strsep(&p, ",")) != NULL) {
		int t;

		for (t = 0; t < RPT_NR_TIMES; t++)
			if (strcmp(tok, rpt_time_names[t]) == 0)
				break;
		if (t == RPT_NR_TIMES) {
			free(copy);
			return -1;
		}
		*mask |= 1u << t;
	}
	free(copy);
	return 0;
}

static double sum_times(const double *v, unsigned int mask)
{
	double s = 0;

	for (int t = 0; t < RPT_NR_TIMES; t++)
		if (mask & (1u << t))
			s += v[t];
	return s;
}

static void describe_times(char *buf, size_t len, unsigned int mask)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int t = 0; t < RPT_NR_TIMES; t++)
		if (mask & (1u << t))
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
					      n ? "+" : "", rpt_time_names[t]);
}

static void put(FILE *f, const char *s, bool html)
{
	if (html)
		rpt_html_escape(f, s);
	else
		fputs(s, f);
}

/* Children of node in print order: larger key first, then by name. */
static uint32_t *sorted_children(const struct rpt_profile *p, uint32_t node, const double *key,
				 size_t *n)
{
	uint32_t *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (uint32_t c = p->v[node].first_child; c != RPT_PROF_NONE; c = p->v[c].next_sibling) {
		size_t j;

		rpt_grow(&v, &cap, *n + 1, sizeof(*v));
		for (j = (*n)++; j > 0; j--) {
			uint32_t o = v[j - 1];

			if (key[o] > key[c] || (key[o] == key[c] && strcmp(p->v[o].name, p->v[c].name) <= 0))
				break;
			v[j] = o;
		}
		v[j] = c;
	}
	return v;
}

static void fmt_calls(char *buf, size_t len, double calls)
{
	snprintf(buf, len, calls == floor(calls) ? "%.0f" : "%.1f", calls);
}

static void indent(FILE *f, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", f);
}

static const char *set_source(const struct rpt_set *s, char *buf, size_t len)
{
	const struct rpt_run *r = &s->runs[0];

	snprintf(buf, len, "%s, %s %s, %u iteration%s%s", r->source,
		 strcmp(r->source, "recorded") == 0 ? "kernel" : "policy",
		 strcmp(r->source, "recorded") == 0 ? (r->kernel_release ? r->kernel_release : "?") :
		 (r->policy ? r->policy : "?"),
		 s->nr_runs, s->nr_runs == 1 ? "" : "s",
		 s->nr_runs == 1 ? "" : ", mean per iteration");
	return buf;
}

/* ---- single tree ------------------------------------------------------- */

struct tree_ctx {
	FILE		*f;
	const struct rpt_profile *p;
	const struct rpt_explain_opts *o;
	double		*key;		/* per node: total of the selected times */
	double		grand;
	unsigned int	hidden;
	bool		html;
};

static void tree_node(struct tree_ctx *t, uint32_t n, int depth)
{
	const struct rpt_prof_node *nd = &t->p->v[n];
	double children = t->grand > 0 ? t->key[n] * 100.0 / t->grand : 0;
	double self = t->grand > 0 ? sum_times(nd->self, t->o->times) * 100.0 / t->grand : 0;
	char calls[32];
	uint32_t *kids;
	size_t nk;

	if (depth > 0 && children < t->o->percent_limit) {
		t->hidden++;
		return;
	}
	fmt_calls(calls, sizeof(calls), nd->calls);
	fprintf(t->f, "%9.2f%% %8.2f%% ", children, self);
	for (int i = 0; i < RPT_NR_TIMES; i++)
		fprintf(t->f, " %11.3f", nd->total[i] / 1e6);
	fprintf(t->f, " %10s  ", calls);
	indent(t->f, depth);
	put(t->f, nd->name, t->html);
	if (depth == 0)
		fprintf(t->f, "  [%.0f task%s]", nd->tasks, nd->tasks == 1 ? "" : "s");
	fputc('\n', t->f);
	kids = sorted_children(t->p, n, t->key, &nk);
	for (size_t i = 0; i < nk; i++)
		tree_node(t, kids[i], depth + 1);
	free(kids);
}

static uint32_t find_kind(const struct rpt_profile *p, const char *kind)
{
	return rpt_profile_child((struct rpt_profile *)p, 0, kind, false);
}

int rpt_explain_print(FILE *f, const struct rpt_set *s, const struct rpt_profile *p,
		      const struct rpt_explain_opts *o, bool html)
{
	struct tree_ctx t = { .f = f, .p = p, .o = o, .html = html };
	char buf[512], times[64];
	uint32_t only = RPT_PROF_NONE;

	if (o->kind && (only = find_kind(p, o->kind)) == RPT_PROF_NONE)
		return -1;
	t.key = xzalloc(p->n * sizeof(double));
	for (size_t i = 0; i < p->n; i++)
		t.key[i] = sum_times(p->v[i].total, o->times);
	t.grand = only != RPT_PROF_NONE ? t.key[only] : t.key[0];
	describe_times(times, sizeof(times), o->times);
	fputs("# slowpath explain ", f);
	put(f, s->path, html);
	fputs("\n# ", f);
	put(f, set_source(s, buf, sizeof(buf)), html);
	fprintf(f, "\n# time = %s; 100%% = %.3f ms of task time", times, t.grand / 1e6);
	if (only != RPT_PROF_NONE) {
		fputs(" of kind ", f);
		put(f, o->kind, html);
	}
	fprintf(f, "; paths under %.2f%% hidden\n#\n", o->percent_limit);
	fprintf(f, "%-10s %9s ", "# Children", "Self");
	for (int i = 0; i < RPT_NR_TIMES; i++) {
		char h[16];

		snprintf(h, sizeof(h), "%s(ms)", rpt_time_names[i]);
		fprintf(f, " %11s", h);
	}
	fprintf(f, " %10s  %s\n", "calls", "call path");
	if (only != RPT_PROF_NONE) {
		tree_node(&t, only, 0);
	} else {
		/* Kinds stay in the profile's order (registration order). */
		for (uint32_t k = p->v[0].first_child; k != RPT_PROF_NONE; k = p->v[k].next_sibling)
			tree_node(&t, k, 0);
	}
	if (t.hidden)
		fprintf(f, "# %u path%s under %.2f%% not shown (--percent-limit)\n",
			t.hidden, t.hidden == 1 ? "" : "s", o->percent_limit);
	free(t.key);
	return 0;
}

/* ---- diff ------------------------------------------------------------------ */

struct diff_ctx {
	FILE		*f;
	const struct rpt_profile *a, *b;
	struct rpt_profile u;		/* union of both trees */
	uint32_t	*ia, *ib;	/* union node -> node in a / b, or NONE */
	double		*ka, *kb, *key;	/* selected totals; key = max share, for sorting */
	double		ga, gb;
	const struct rpt_explain_opts *o;
	unsigned int	hidden;
	bool		html;
};

static void map_node(struct diff_ctx *d, uint32_t un, uint32_t an, uint32_t bn)
{
	d->ia[un] = an;
	d->ib[un] = bn;
	d->ka[un] = an != RPT_PROF_NONE || un == 0 ? sum_times(d->a->v[an].total, d->o->times) : 0;
	d->kb[un] = bn != RPT_PROF_NONE || un == 0 ? sum_times(d->b->v[bn].total, d->o->times) : 0;
	for (uint32_t c = d->u.v[un].first_child; c != RPT_PROF_NONE; c = d->u.v[c].next_sibling) {
		const char *name = d->u.v[c].name;

		map_node(d, c,
			 an != RPT_PROF_NONE || un == 0 ?
			 rpt_profile_child((struct rpt_profile *)d->a, an, name, false) : RPT_PROF_NONE,
			 bn != RPT_PROF_NONE || un == 0 ?
			 rpt_profile_child((struct rpt_profile *)d->b, bn, name, false) : RPT_PROF_NONE);
	}
}

static void diff_node(struct diff_ctx *d, uint32_t n, int depth)
{
	bool in_a = d->ia[n] != RPT_PROF_NONE, in_b = d->ib[n] != RPT_PROF_NONE;
	double pa = d->ga > 0 ? d->ka[n] * 100.0 / d->ga : 0;
	double pb = d->gb > 0 ? d->kb[n] * 100.0 / d->gb : 0;
	char c1[32], c2[32], c3[32], c4[32], c5[32];
	uint32_t *kids;
	size_t nk;

	if (depth > 0 && pa < d->o->percent_limit && pb < d->o->percent_limit) {
		d->hidden++;
		return;
	}
	c1[0] = c3[0] = c4[0] = '\0';
	if (in_a)
		snprintf(c1, sizeof(c1), "%.2f%%", pa);
	snprintf(c2, sizeof(c2), "%+.2f%%", pb - pa);
	if (strcmp(c2, "-0.00%") == 0)
		strcpy(c2, "+0.00%");
	if (in_a)
		snprintf(c3, sizeof(c3), "%.3f", d->ka[n] / 1e6);
	if (in_b)
		snprintf(c4, sizeof(c4), "%.3f", d->kb[n] / 1e6);
	if (!in_a)
		strcpy(c5, "new");
	else if (!in_b)
		strcpy(c5, "gone");
	else if (d->ka[n] == 0 && d->kb[n] == 0)
		strcpy(c5, "0.00%");
	else if (d->ka[n] == 0)
		strcpy(c5, "inf");
	else
		snprintf(c5, sizeof(c5), "%+.2f%%", rpt_pdiff(d->ka[n], d->kb[n]));
	if (strcmp(c5, "-0.00%") == 0)
		strcpy(c5, "+0.00%");
	fprintf(d->f, "%10s %9s %12s %12s %9s  ", c1, c2, c3, c4, c5);
	indent(d->f, depth);
	put(d->f, d->u.v[n].name, d->html);
	fputc('\n', d->f);
	kids = sorted_children(&d->u, n, d->key, &nk);
	for (size_t i = 0; i < nk; i++)
		diff_node(d, kids[i], depth + 1);
	free(kids);
}

int rpt_explain_print_diff(FILE *f, const struct rpt_set *sa, const struct rpt_profile *a,
			   const struct rpt_set *sb, const struct rpt_profile *b,
			   const struct rpt_explain_opts *o, bool html)
{
	struct diff_ctx d = { .f = f, .a = a, .b = b, .o = o, .html = html };
	char buf[512], times[64];
	uint32_t root = 0;

	rpt_profile_init(&d.u);
	rpt_profile_merge(&d.u, a, 0);
	rpt_profile_merge(&d.u, b, 0);
	if (o->kind && (root = rpt_profile_child(&d.u, 0, o->kind, false)) == RPT_PROF_NONE) {
		rpt_profile_release(&d.u);
		return -1;
	}
	d.ia = xzalloc(d.u.n * sizeof(*d.ia));
	d.ib = xzalloc(d.u.n * sizeof(*d.ib));
	d.ka = xzalloc(d.u.n * sizeof(*d.ka));
	d.kb = xzalloc(d.u.n * sizeof(*d.kb));
	d.key = xzalloc(d.u.n * sizeof(*d.key));
	map_node(&d, 0, 0, 0);
	d.ga = d.ka[root];
	d.gb = d.kb[root];
	for (size_t i = 0; i < d.u.n; i++) {
		double pa = d.ga > 0 ? d.ka[i] / d.ga : 0, pb = d.gb > 0 ? d.kb[i] / d.gb : 0;

		d.key[i] = pa > pb ? pa : pb;
	}
	describe_times(times, sizeof(times), o->times);
	fputs("# slowpath explain --diff\n# baseline: ", f);
	put(f, sa->path, html);
	fputs(" (", f);
	put(f, set_source(sa, buf, sizeof(buf)), html);
	fputs(")\n# new:      ", f);
	put(f, sb->path, html);
	fputs(" (", f);
	put(f, set_source(sb, buf, sizeof(buf)), html);
	fprintf(f, ")\n# time = %s; Baseline = share of the baseline's %.3f ms, Delta = new share"
		" (of %.3f ms) minus it,\n# in points; Base/New in ms per iteration; Change = New/Base - 1;"
		" paths under %.2f%% on both sides hidden\n#\n",
		times, d.ga / 1e6, d.gb / 1e6, o->percent_limit);
	fprintf(f, "%10s %9s %12s %12s %9s  %s\n", "# Baseline", "Delta", "Base(ms)", "New(ms)",
		"Change", "call path");
	if (root) {
		diff_node(&d, root, 0);
	} else {
		for (uint32_t k = d.u.v[0].first_child; k != RPT_PROF_NONE; k = d.u.v[k].next_sibling)
			diff_node(&d, k, 0);
	}
	if (d.hidden)
		fprintf(f, "# %u path%s under %.2f%% not shown (--percent-limit)\n",
			d.hidden, d.hidden == 1 ? "" : "s", o->percent_limit);
	free(d.ia);
	free(d.ib);
	free(d.ka);
	free(d.kb);
	free(d.key);
	rpt_profile_release(&d.u);
	return 0;
}

/* ---- command -------------------------------------------------------------- */

static const char explain_usage[] =
	"usage: slowpath explain [--diff DIR2] [--kind KIND] [--time all|wait|cpu,spin,sleep,io,runq]\n"
	"                        [--percent-limit P] DIR\n";

static int load_profile(struct rpt_set *s, const char *dir, struct rpt_profile *p)
{
	char err[1024];

	if (rpt_set_load(s, dir, RPT_LOAD_PROFILE, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	if (!rpt_set_profile(s, p)) {
		fprintf(stderr, "%s: no profile.json (recorded runs carry no attribution)\n", dir);
		return -1;
	}
	return 0;
}

int rpt_cmd_explain(int argc, char **argv)
{
	struct rpt_explain_opts o;
	const char *dir = NULL, *diff = NULL;
	struct rpt_set sa = { 0 }, sb = { 0 };
	struct rpt_profile pa = { 0 }, pb = { 0 };
	int rc = 2;

	rpt_explain_opts_default(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		char *end;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(explain_usage, stdout);
			return 0;
		}
		if (a[0] == '-' && a[1]) {
			const char *eq = strchr(a, '=');
			size_t kl = eq ? (size_t)(eq - a) : strlen(a);

			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			if (!val) {
				fprintf(stderr, "slowpath explain: option '%s' needs a value\n", a);
				return 2;
			}
			if (kl == 6 && strncmp(a, "--diff", kl) == 0) {
				diff = val;
			} else if (kl == 6 && strncmp(a, "--kind", kl) == 0) {
				o.kind = val;
			} else if (kl == 6 && strncmp(a, "--time", kl) == 0) {
				if (rpt_explain_parse_times(val, &o.times)) {
					fprintf(stderr, "slowpath explain: bad --time '%s' (all, wait, or "
						"a list of cpu,spin,sleep,io,runq)\n", val);
					return 2;
				}
			} else if (kl == 15 && strncmp(a, "--percent-limit", kl) == 0) {
				o.percent_limit = strtod(val, &end);
				if (end == val || *end || !(o.percent_limit >= 0 && o.percent_limit <= 100)) {
					fprintf(stderr, "slowpath explain: bad --percent-limit '%s'\n", val);
					return 2;
				}
			} else {
				fprintf(stderr, "slowpath explain: unknown option '%s'\n%s", a, explain_usage);
				return 2;
			}
		} else if (!dir) {
			dir = a;
		} else {
			fprintf(stderr, "slowpath explain: more than one folder ('%s'); use --diff\n", a);
			return 2;
		}
	}
	if (!dir) {
		fprintf(stderr, "slowpath explain: no result folder given\n%s", explain_usage);
		return 2;
	}
	if (load_profile(&sa, dir, &pa) || (diff && load_profile(&sb, diff, &pb)))
		goto out;
	if ((diff ? rpt_explain_print_diff(stdout, &sa, &pa, &sb, &pb, &o, false) :
	     rpt_explain_print(stdout, &sa, &pa, &o, false)) != 0) {
		fprintf(stderr, "slowpath explain: no task kind '%s'\n", o.kind);
		goto out;
	}
	rc = fflush(stdout) ? 1 : 0;
out:
	if (pa.v)
		rpt_profile_release(&pa);
	if (pb.v)
		rpt_profile_release(&pb);
	if (sa.path)
		rpt_set_release(&sa);
	if (sb.path)
		rpt_set_release(&sb);
	return rc;
}
