/* SPDX-License-Identifier: MIT */
/*
 * explain.c — `slowpath explain DIR [--diff DIR2]`: where virtual CPU time
 * and wait time went, from profile.json (docs/results.md).
 *
 * The tree is printed the way `perf report --children` reads: "Children"
 * is a path's share of the ranked task time including what it called,
 * "Self" the share spent with the path on top of the stack.  By default
 * the ranked time is the work of tasks - CPU, spinning, sleeping on locks
 * and events, I/O, the run queue - and idle waits (idle_site() below) are
 * listed apart, so a kthread sleeping between wake-ups or a client's think
 * time does not drown the slow path.  --focus roots the tree at one
 * function, as perf report's --parent/caller views do.  Time per category
 * is inclusive, per iteration, in the unit that fits (ns, \u00b5s, ms, s).  Siblings are sorted by Children, then by name, so the output
 * does not depend on the order paths were first seen.  With --diff, the
 * union of both trees is printed with each side's share of its own total
 * and the difference in points, as `perf diff` does, plus the absolute
 * times, since virtual time is comparable across runs.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cmd.h"
#include "report/compare.h"
#include "report/explain.h"

#define T_BIT(t)	(1u << (t))
#define WAIT_TIMES	(T_BIT(RPT_T_SPIN) | T_BIT(RPT_T_SLEEP) | T_BIT(RPT_T_IO) | T_BIT(RPT_T_RUNQ))
#define WORK_TIMES	(T_BIT(RPT_T_CPU) | WAIT_TIMES)
#define ALL_TIMES	(WORK_TIMES | T_BIT(RPT_T_IDLE))

void rpt_explain_opts_default(struct rpt_explain_opts *o)
{
	o->times = WORK_TIMES;
	o->percent_limit = 0.5;
	o->kind = NULL;
	o->focus = NULL;
}

int rpt_explain_parse_times(const char *s, unsigned int *mask)
{
	static const struct {
		const char	*name;
		unsigned int	mask;
	} groups[] = { { "work", WORK_TIMES }, { "all", ALL_TIMES }, { "wait", WAIT_TIMES } };
	char *copy, *p, *tok;

	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (strcmp(s, groups[i].name) == 0) {
			*mask = groups[i].mask;
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
		*mask |= T_BIT(t);
	}
	free(copy);
	return 0;
}

static double sum_times(const double *v, unsigned int mask)
{
	double s = 0;

	for (int t = 0; t < RPT_NR_TIMES; t++)
		if (mask & T_BIT(t))
			s += v[t];
	return s;
}

static void describe_times(char *buf, size_t len, unsigned int mask)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int t = 0; t < RPT_NR_TIMES; t++)
		if (mask & T_BIT(t))
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

/*
 * A duration in the unit that fits, as perf and fio print them: "0",
 * "850 ns", "12.40 µs", "3.25 ms", "359.17 s".
 */
static void fmt_dur(char *buf, size_t len, double ns)
{
	static const struct {
		double		below, div;
		const char	*fmt;
	} units[] = {
		{ 1e3, 1, "%.0f ns" }, { 1e6, 1e3, "%.2f \u00b5s" }, { 1e9, 1e6, "%.2f ms" },
	};

	if (ns == 0) {
		snprintf(buf, len, "0");
		return;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		/* the unit whose rounded value stays below the next unit */
		if (round(ns / units[i].div * 100) / 100 < units[i].below / units[i].div) {
			snprintf(buf, len, units[i].fmt, ns / units[i].div);
			return;
		}
	snprintf(buf, len, "%.2f s", ns / 1e9);
}

/* Right-aligned in width display columns (the micro sign is two bytes). */
static void put_right(FILE *f, const char *s, int width)
{
	int cols = 0;

	for (const char *c = s; *c; c++)
		cols += ((unsigned char)*c & 0xc0) != 0x80;
	for (; cols < width; cols++)
		fputc(' ', f);
	fputs(s, f);
}

#define DUR_W	11

static void put_dur(FILE *f, double ns)
{
	char buf[32];

	fmt_dur(buf, sizeof(buf), ns);
	fputc(' ', f);
	put_right(f, buf, DUR_W);
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

	int n = snprintf(buf, len, "%s, %s %s, %u iteration%s%s", r->source,
			 strcmp(r->source, "recorded") == 0 ? "kernel" : "policy",
			 strcmp(r->source, "recorded") == 0 ?
			 (r->kernel_release ? r->kernel_release : "?") : (r->policy ? r->policy : "?"),
			 s->nr_runs, s->nr_runs == 1 ? "" : "s",
			 s->nr_runs == 1 ? "" : ", mean per iteration");

	/* a profile counted from ramp_time says so (every iteration has the same) */
	if (r->has_profile && r->profile.has_from && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", time from %g s (ramp_time)",
			 r->profile.from_ns / 1e9);
	return buf;
}

/* ---- the tree explain ranks ------------------------------------------- */

/*
 * Idle waits.  A task that sleeps with nothing but its main loop on the
 * stack is waiting for work, a timer or (a client) its think time: kswapd
 * and kcompactd between wake-ups, vmstat_update's interval, a flusher or
 * end-io worker waiting for its queue, a writer between writes.  That is
 * sleep charged to a kind's root, or to a function directly below it that
 * each task entered once and never left (calls <= tasks: a worker's loop
 * such as wb_workfn; none in a profile counted from ramp_time when the
 * loop began before it).  Sleep anywhere deeper - on a lock, a folio, a
 * completion inside a call - is waiting a developer asks about and stays
 * "sleep".  perf's off-CPU views make the same cut by hand, by filtering
 * the threads' idle schedule() call sites.
 */
static bool idle_site(const struct rpt_profile *p, uint32_t n)
{
	uint32_t parent = p->v[n].parent;

	if (parent == 0)
		return true;
	/* no calls: a profile from ramp_time, entered before it */
	return p->v[parent].parent == 0 && p->v[n].calls <= p->v[parent].tasks;
}

static bool focus_match(const char *name, const char *sym)
{
	size_t n = strlen(sym);

	return strncmp(name, sym, n) == 0 && (name[n] == '\0' || name[n] == ' ');
}

/* Outermost nodes matching sym below n, merged into dst's node d. */
static unsigned int focus_collect(struct rpt_profile *dst, uint32_t d, const struct rpt_profile *src,
				  uint32_t n, const char *sym)
{
	unsigned int found = 0;

	for (uint32_t c = src->v[n].first_child; c != RPT_PROF_NONE; c = src->v[c].next_sibling) {
		if (focus_match(src->v[c].name, sym)) {
			rpt_profile_merge_at(dst, d, src, c, 1.0);
			found++;
		} else {
			found += focus_collect(dst, d, src, c, sym);
		}
	}
	return found;
}

/*
 * The tree explain prints, in out: a copy of src with idle waits moved
 * from sleep to idle, restricted to o->kind and rooted at o->focus when
 * given (every outermost call of the function, from any caller and kind,
 * merged under one root); totals computed.  *root is the node that is
 * 100% (0: all kinds).  -1 when the kind or the function is not there.
 */
static int explain_tree(struct rpt_profile *out, uint32_t *root, const struct rpt_profile *src,
			const struct rpt_explain_opts *o)
{
	struct rpt_profile w;
	uint32_t from = 0;

	rpt_profile_init(&w);
	rpt_profile_merge(&w, src, 1.0);
	for (size_t i = 1; i < w.n; i++)
		if (idle_site(&w, (uint32_t)i)) {
			w.v[i].self[RPT_T_IDLE] += w.v[i].self[RPT_T_SLEEP];
			w.v[i].self[RPT_T_SLEEP] = 0;
		}
	if (o->kind && (from = rpt_profile_child(&w, 0, o->kind, false)) == RPT_PROF_NONE) {
		rpt_profile_release(&w);
		return -1;
	}
	if (!o->focus) {
		*out = w;
		*root = from;
		rpt_profile_totals(out);
		return 0;
	}
	rpt_profile_init(out);
	*root = rpt_profile_child(out, 0, o->focus, true);
	if (!focus_collect(out, *root, &w, from, o->focus)) {
		rpt_profile_release(&w);
		rpt_profile_release(out);
		return -1;
	}
	rpt_profile_release(&w);
	rpt_profile_totals(out);
	return 0;
}

/* Idle waits per kind, printed apart from the ranked tree. */
static void idle_footer(FILE *f, const struct rpt_profile *p, uint32_t root, unsigned int times,
			bool html)
{
	bool any = false;

	if ((times & T_BIT(RPT_T_IDLE)) || p->v[root].total[RPT_T_IDLE] == 0)
		return;
	for (uint32_t k = p->v[0].first_child; k != RPT_PROF_NONE; k = p->v[k].next_sibling) {
		if ((root && k != root) || p->v[k].total[RPT_T_IDLE] == 0)
			continue;
		if (!any)
			fputs("#\n# Idle waits (sleep with only the task's main loop on the stack; not in "
			      "the 100%, --time all ranks them):\n", f);
		any = true;
		fputs("#", f);
		put_dur(f, p->v[k].total[RPT_T_IDLE]);
		fputs("  ", f);
		put(f, p->v[k].name, html);
		fprintf(f, "  [%.0f task%s]\n", p->v[k].tasks, p->v[k].tasks == 1 ? "" : "s");
	}
}

/* ---- single tree ------------------------------------------------------- */

struct tree_ctx {
	FILE		*f;
	const struct rpt_profile *p;
	const struct rpt_explain_opts *o;
	double		*key;		/* per node: total of the selected times */
	double		grand;
	unsigned int	hidden;
	bool		show_idle;	/* an idle column */
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
	fprintf(t->f, "%9.2f%% %8.2f%%", children, self);
	for (int i = 0; i < RPT_NR_TIMES; i++)
		if (i != RPT_T_IDLE || t->show_idle)
			put_dur(t->f, nd->total[i]);
	fprintf(t->f, " %10s  ", calls);
	indent(t->f, depth);
	put(t->f, nd->name, t->html);
	if (depth == 0 && nd->parent == 0 && !t->o->focus)
		fprintf(t->f, "  [%.0f task%s]", nd->tasks, nd->tasks == 1 ? "" : "s");
	fputc('\n', t->f);
	kids = sorted_children(t->p, n, t->key, &nk);
	for (size_t i = 0; i < nk; i++)
		tree_node(t, kids[i], depth + 1);
	free(kids);
}

int rpt_explain_print(FILE *f, const struct rpt_set *s, const struct rpt_profile *prof,
		      const struct rpt_explain_opts *o, bool html)
{
	struct tree_ctx t = { .f = f, .o = o, .html = html };
	struct rpt_profile p;
	char buf[512], times[64];
	uint32_t root;

	if (explain_tree(&p, &root, prof, o))
		return -1;
	t.p = &p;
	t.show_idle = o->times & T_BIT(RPT_T_IDLE);
	t.key = xzalloc(p.n * sizeof(double));
	for (size_t i = 0; i < p.n; i++)
		t.key[i] = sum_times(p.v[i].total, o->times);
	t.grand = t.key[root];
	describe_times(times, sizeof(times), o->times);
	fmt_dur(buf, sizeof(buf), t.grand);
	fputs("# slowpath explain ", f);
	put(f, s->path, html);
	fputs("\n# ", f);
	put(f, set_source(s, buf + 64, sizeof(buf) - 64), html);
	fprintf(f, "\n# time = %s; 100%% = %s of task time", times, buf);
	if (o->kind) {
		fputs(" of kind ", f);
		put(f, o->kind, html);
	}
	if (o->focus) {
		fputs(" in ", f);
		put(f, o->focus, html);
		fputs(" and what it called", f);
	}
	fprintf(f, "; paths under %.2f%% hidden\n#\n", o->percent_limit);
	fprintf(f, "%-10s %9s", "# Children", "Self");
	for (int i = 0; i < RPT_NR_TIMES; i++)
		if (i != RPT_T_IDLE || t.show_idle)
			fprintf(f, " %*s", DUR_W, rpt_time_names[i]);
	fprintf(f, " %10s  %s\n", "calls", "call path");
	if (root) {
		tree_node(&t, root, 0);
	} else {
		/* Kinds stay in the profile's order (registration order). */
		for (uint32_t k = p.v[0].first_child; k != RPT_PROF_NONE; k = p.v[k].next_sibling)
			tree_node(&t, k, 0);
	}
	if (t.hidden)
		fprintf(f, "# %u path%s under %.2f%% not shown (--percent-limit)\n",
			t.hidden, t.hidden == 1 ? "" : "s", o->percent_limit);
	if (!o->focus)
		idle_footer(f, &p, root, o->times, html);
	free(t.key);
	rpt_profile_release(&p);
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
		fmt_dur(c3, sizeof(c3), d->ka[n]);
	if (in_b)
		fmt_dur(c4, sizeof(c4), d->kb[n]);
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
	fprintf(d->f, "%10s %9s", c1, c2);
	fputc(' ', d->f);
	put_right(d->f, c3, 12);
	fputc(' ', d->f);
	put_right(d->f, c4, 12);
	fprintf(d->f, " %9s  ", c5);
	indent(d->f, depth);
	put(d->f, d->u.v[n].name, d->html);
	fputc('\n', d->f);
	kids = sorted_children(&d->u, n, d->key, &nk);
	for (size_t i = 0; i < nk; i++)
		diff_node(d, kids[i], depth + 1);
	free(kids);
}

int rpt_explain_print_diff(FILE *f, const struct rpt_set *sa, const struct rpt_profile *pa,
			   const struct rpt_set *sb, const struct rpt_profile *pb,
			   const struct rpt_explain_opts *o, bool html)
{
	struct diff_ctx d = { .f = f, .o = o, .html = html };
	struct rpt_profile a, b;
	struct rpt_explain_opts all = *o;
	char buf[512], times[64], ga[32], gb[32];
	uint32_t root = 0, ra, rb;

	/* Both trees whole (kind and focus applied to the union below). */
	all.kind = NULL;
	if (explain_tree(&a, &ra, pa, o->focus ? o : &all))
		return -1;
	if (explain_tree(&b, &rb, pb, o->focus ? o : &all)) {
		rpt_profile_release(&a);
		return -1;
	}
	d.a = &a;
	d.b = &b;
	rpt_profile_init(&d.u);
	rpt_profile_merge(&d.u, &a, 0);
	rpt_profile_merge(&d.u, &b, 0);
	if (o->focus)
		root = d.u.v[0].first_child;
	else if (o->kind && (root = rpt_profile_child(&d.u, 0, o->kind, false)) == RPT_PROF_NONE) {
		rpt_profile_release(&d.u);
		rpt_profile_release(&a);
		rpt_profile_release(&b);
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
		double sa_ = d.ga > 0 ? d.ka[i] / d.ga : 0, sb_ = d.gb > 0 ? d.kb[i] / d.gb : 0;

		d.key[i] = sa_ > sb_ ? sa_ : sb_;
	}
	describe_times(times, sizeof(times), o->times);
	fmt_dur(ga, sizeof(ga), d.ga);
	fmt_dur(gb, sizeof(gb), d.gb);
	fputs("# slowpath explain --diff\n# baseline: ", f);
	put(f, sa->path, html);
	fputs(" (", f);
	put(f, set_source(sa, buf, sizeof(buf)), html);
	fputs(")\n# new:      ", f);
	put(f, sb->path, html);
	fputs(" (", f);
	put(f, set_source(sb, buf, sizeof(buf)), html);
	fprintf(f, ")\n# time = %s; Baseline = share of the baseline's %s, Delta = new share"
		" (of %s) minus it,\n# in points; Base/New per iteration; Change = New/Base - 1;"
		" paths under %.2f%% on both sides hidden\n#\n",
		times, ga, gb, o->percent_limit);
	fprintf(f, "%10s %9s %12s %12s %9s  %s\n", "# Baseline", "Delta", "Base", "New",
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
	rpt_profile_release(&a);
	rpt_profile_release(&b);
	return 0;
}

/* ---- command -------------------------------------------------------------- */

static const char explain_usage[] =
	"usage: slowpath explain [--diff DIR2] [--kind KIND] [--focus FUNCTION]\n"
	"                        [--time work|all|wait|cpu,spin,sleep,io,runq,idle]\n"
	"                        [--percent-limit P] DIR\n"
	"  Ranks the time of tasks doing work (cpu, spin, sleep on locks and events, io,\n"
	"  runq); idle waits are listed apart.  Formats: docs/report.md.\n";

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
	enum { O_DIFF = 1000, O_KIND, O_FOCUS, O_TIME, O_LIMIT, O_HELP };
	static const struct option opts[] = {
		{ "diff", required_argument, NULL, O_DIFF },
		{ "kind", required_argument, NULL, O_KIND },
		{ "focus", required_argument, NULL, O_FOCUS },
		{ "time", required_argument, NULL, O_TIME },
		{ "percent-limit", required_argument, NULL, O_LIMIT },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 }
	};
	struct rpt_explain_opts o;
	const char *dir = NULL, *diff = NULL;
	struct rpt_set sa = { 0 }, sb = { 0 };
	struct rpt_profile pa = { 0 }, pb = { 0 };
	int c, rc = 2;
	char *end;

	rpt_explain_opts_default(&o);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_DIFF:
			diff = optarg;
			break;
		case O_KIND:
			o.kind = optarg;
			break;
		case O_FOCUS:
			o.focus = optarg;
			break;
		case O_TIME:
			if (rpt_explain_parse_times(optarg, &o.times))
				return rpt_opt_bad("explain", "--time", optarg, "work, all, wait, or "
						   "a list of cpu,spin,sleep,io,runq,idle");
			break;
		case O_LIMIT:
			o.percent_limit = strtod(optarg, &end);
			if (end == optarg || *end || !(o.percent_limit >= 0 && o.percent_limit <= 100))
				return rpt_opt_bad("explain", "--percent-limit", optarg,
						   "a percentage from 0 to 100");
			break;
		case 'h':
		case O_HELP:
			fputs(explain_usage, stdout);
			return 0;
		default:
			return rpt_opt_error("explain", c, argv);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "slowpath explain: no result folder given\n%s", explain_usage);
		return 2;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "slowpath explain: more than one folder ('%s'); use --diff\n",
			argv[optind + 1]);
		return 2;
	}
	dir = argv[optind];
	if (load_profile(&sa, dir, &pa) || (diff && load_profile(&sb, diff, &pb)))
		goto out;
	if ((diff ? rpt_explain_print_diff(stdout, &sa, &pa, &sb, &pb, &o, false) :
	     rpt_explain_print(stdout, &sa, &pa, &o, false)) != 0) {
		if (o.focus)
			fprintf(stderr, "slowpath explain: no function '%s'%s%s%s\n", o.focus,
				o.kind ? " in task kind '" : "", o.kind ? o.kind : "", o.kind ? "'" : "");
		else
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
