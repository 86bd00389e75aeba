/* SPDX-License-Identifier: MIT */
/*
 * html.c — `slowpath report DIR... --html OUT`: one self-contained HTML
 * page with the comparison table, the attribution trees (and their diffs
 * against the baseline) and the plots as inline base64 PNGs.  Inline CSS,
 * no script, no external resource, no time stamp: the same result folders
 * give the same page.  Layout in docs/report.md.
 */
#include <dirent.h>
#include <getopt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/cmd.h"
#include "report/compare.h"
#include "report/explain.h"
#include "report/html.h"
#include "report/load.h"
#include "report/plot.h"
#include "report/result.h"

static const char page_css[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;"
	"color:#1b1b1b;background:#fff}\n"
	"h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;"
	"margin-top:1.6em}\n"
	"pre{background:#f6f8fa;border:1px solid #ddd;padding:.6em;overflow-x:auto;font-size:12px;"
	"line-height:1.35}\n"
	"table.runs{border-collapse:collapse;font-size:14px}table.runs td,table.runs th{border:1px solid "
	"#ccc;padding:.25em .6em;text-align:left}table.runs th{background:#f0f0f0}\n"
	"table.cmp{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums;"
	"margin:.5em 0}table.cmp td,table.cmp th{padding:.1em .5em;text-align:right;"
	"white-space:pre}table.cmp td:first-child,table.cmp th:first-child{text-align:left}"
	"table.cmp tr:nth-child(even) td{background:#f6f8fa}\n"
	".sig{font-weight:bold}.better{color:#116329}.worse{color:#b00020}\n"
	"figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #ddd}\n"
	"figcaption{font-size:13px;color:#444}details{margin:.5em 0}summary{cursor:pointer;"
	"font-weight:600}\n"
	".note{font-size:13px;color:#444}\n";

static void b64(FILE *f, const unsigned char *p, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned int v = (unsigned int)p[i] << 16;

		if (i + 1 < n)
			v |= (unsigned int)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		fputc(tab[(v >> 18) & 63], f);
		fputc(tab[(v >> 12) & 63], f);
		fputc(i + 1 < n ? tab[(v >> 6) & 63] : '=', f);
		fputc(i + 2 < n ? tab[v & 63] : '=', f);
	}
}

/* Read a binary file whole; NULL with err on failure. */
static unsigned char *read_binary(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		rpt_grow(&buf, &cap, *len + 65536, 1);
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t n;
		char *p;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		n = strlen(dir) + strlen(e->d_name) + 2;
		p = xzalloc(n);
		snprintf(p, n, "%s/%s", dir, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(dir);
}

static void h(FILE *f, const char *s)
{
	rpt_html_escape(f, s);
}

static void runs_table(FILE *f, const struct rpt_set *sets, int n)
{
	fputs("<table class=\"runs\">\n<tr><th>#</th><th>name</th><th>folder</th><th>source</th>"
	      "<th>policy / kernel</th><th>samples</th><th>scenario</th></tr>\n", f);
	for (int s = 0; s < n; s++) {
		const struct rpt_run *r = &sets[s].runs[0];
		bool rec = strcmp(r->source, "recorded") == 0;

		fprintf(f, "<tr><td>%d%s</td><td>", s + 1, s == 0 ? " (baseline)" : "");
		h(f, sets[s].name);
		fputs("</td><td>", f);
		h(f, sets[s].path);
		fputs("</td><td>", f);
		h(f, r->source);
		fputs("</td><td>", f);
		h(f, rec ? (r->kernel_release ? r->kernel_release : "?") : (r->policy ? r->policy : "?"));
		fprintf(f, "</td><td>%u%s</td><td>", sets[s].nr_runs, sets[s].iterated ? " iterations" : "");
		h(f, r->scenario ? r->scenario : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void attribution(FILE *f, const struct rpt_set *sets, int n)
{
	struct rpt_explain_opts o;
	struct rpt_profile *p = xzalloc((size_t)n * sizeof(*p));
	bool *have = xzalloc((size_t)n * sizeof(*have));
	bool any = false;

	rpt_explain_opts_default(&o);
	o.percent_limit = 1.0;
	fputs("<h2 id=\"attribution\">Where the time went</h2>\n"
	      "<p class=\"note\">Call-path attribution from profile.json (like <code>perf report "
	      "--children</code>); paths under 1% of task time are hidden. "
	      "<code>slowpath explain DIR</code> prints the full tree.</p>\n", f);
	for (int s = 0; s < n; s++) {
		have[s] = rpt_set_profile(&sets[s], &p[s]);
		any |= have[s];
	}
	if (!any)
		fputs("<p>No result carries a profile (recorded runs have none).</p>\n", f);
	for (int s = 1; s < n; s++) {
		if (!have[0] || !have[s])
			continue;
		fputs("<details open><summary>", f);
		h(f, sets[0].name);
		fputs(" \u2192 ", f);
		h(f, sets[s].name);
		fputs(" (like <code>perf diff</code>)</summary>\n<pre>", f);
		rpt_explain_print_diff(f, &sets[0], &p[0], &sets[s], &p[s], &o, true);
		fputs("</pre></details>\n", f);
	}
	for (int s = 0; s < n; s++) {
		if (!have[s])
			continue;
		fprintf(f, "<details%s><summary>", n == 1 ? " open" : "");
		h(f, sets[s].name);
		fputs("</summary>\n<pre>", f);
		rpt_explain_print(f, &sets[s], &p[s], &o, true);
		fputs("</pre></details>\n", f);
	}
	for (int s = 0; s < n; s++)
		rpt_profile_release(&p[s]);
	free(p);
	free(have);
}

static int plots_section(FILE *f, const char *dir, const struct rpt_plots *pl, char *err, size_t errlen)
{
	fputs("<h2 id=\"plots\">Plots</h2>\n", f);
	if (pl->n == 0)
		fputs("<p>No time series or monitors to plot.</p>\n", f);
	for (size_t i = 0; i < pl->n; i++) {
		size_t n = strlen(dir) + strlen(pl->v[i].name) + 8, len;
		char *path = xzalloc(n);
		unsigned char *png;

		snprintf(path, n, "%s/%s.png", dir, pl->v[i].name);
		png = read_binary(path, &len, err, errlen);
		free(path);
		if (!png)
			return -1;
		fputs("<figure><img alt=\"", f);
		h(f, pl->v[i].title);
		fputs("\" src=\"data:image/png;base64,", f);
		b64(f, png, len);
		free(png);
		fputs("\"><figcaption>", f);
		h(f, pl->v[i].title);
		fputs(". Data: ", f);
		h(f, pl->v[i].note);
		fputs(".</figcaption></figure>\n", f);
	}
	return 0;
}

/* The rows a reader of a database case looks at first, picked out of the
 * comparison's model (the same cells the full table prints): throughput,
 * latency, page tables, the checkpoint dip, the stall counters and
 * everything per million pages written.  Rows the sets do not have are
 * simply absent. */
static const struct {
	enum rpt_cmp_stat	stat;
	const char		*metric;
} summary_lines[] = {
	{ RPT_ST_HMEAN, "tps" }, { RPT_ST_AMEAN, "latency_p50_ms" }, { RPT_ST_AMEAN, "latency_p99_ms" },
	{ RPT_ST_AMEAN, "pagetables_share" }, { RPT_ST_AMEAN, "checkpoint_tps_ratio" },
};
static const char *const summary_ops[] = {
	"Allocation stalls", "Compaction stalls", "Compaction failures",
};

static void summary_section(FILE *f, const struct rpt_cmp *c)
{
	const size_t nl = sizeof(summary_lines) / sizeof(summary_lines[0]);
	const size_t no = sizeof(summary_ops) / sizeof(summary_ops[0]);
	const struct rpt_cmp_line *lines[sizeof(summary_lines) / sizeof(summary_lines[0])];
	const struct rpt_cmp_row *ops[sizeof(summary_ops) / sizeof(summary_ops[0])];
	const struct rpt_cmp_row **pm = xzalloc((c->nr_pm ? c->nr_pm : 1) * sizeof(*pm));
	size_t kl = 0, ko = 0;
	struct rpt_emitter e;

	for (size_t i = 0; i < nl; i++)
		if ((lines[kl] = rpt_cmp_find_line(c, summary_lines[i].stat, summary_lines[i].metric)))
			kl++;
	for (size_t i = 0; i < no; i++)
		for (size_t k = 0; k < c->nr_ops; k++)
			if (strcmp(c->ops[k].label, summary_ops[i]) == 0)
				ops[ko++] = &c->ops[k];
	for (size_t i = 0; i < c->nr_pm; i++)
		pm[i] = &c->pm_rows[i];
	fputs("<h2 id=\"summary\">Summary</h2>\n<p class=\"note\">The rows of the comparison "
	      "that answer the usual question first: throughput, latency, page tables, the "
	      "checkpoint dip, allocation and compaction stalls, counters per million pages "
	      "written back (nr_written).  A significant difference is green where it is better, "
	      "red where it is worse, bold where the metric has no direction.</p>\n", f);
	if (kl + ko + c->nr_pm == 0) {
		fputs("<p>None of the summary rows is in these results.</p>\n", f);
	} else {
		rpt_emit_init(&e, f, RPT_EMIT_HTML);
		rpt_cmp_emit_rows(&e, c, lines, kl, ops, ko, pm, c->nr_pm);
	}
	free(pm);
}

static int write_page(const char *out, struct rpt_set *sets, int n, const char *plot_dir,
		      const struct rpt_plots *pl, const char *title, char *err, size_t errlen)
{
	struct rpt_file rf;
	struct rpt_cmp c;
	FILE *f;

	if (rpt_file_open_path(&rf, out, err, errlen))
		return -1;
	f = rf.f;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<link rel=\"icon\" href=\"data:,\">\n<title>", f);
	h(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", page_css);
	h(f, title);
	fputs("</h1>\n<p class=\"note\">Sections: <a href=\"#plots\">plots</a>, "
	      "<a href=\"#summary\">summary</a>, <a href=\"#compare\">comparison</a>, "
	      "<a href=\"#attribution\">where the time went</a>. Formats: docs/report.md.</p>\n", f);
	runs_table(f, sets, n);
	if (pl) {
		if (plots_section(f, plot_dir, pl, err, errlen)) {
			rpt_file_abort(&rf);
			return -1;
		}
	} else {
		fputs("<h2 id=\"plots\">Plots</h2>\n<p>Not drawn (--no-plots).</p>\n", f);
	}

	rpt_cmp_build(&c, sets, n, RPT_CMP_ALL);
	summary_section(f, &c);
	fputs("<h2 id=\"compare\">Comparison</h2>\n<details><summary>Every row (mmtests layout: "
	      "each cell is the value and its difference from the baseline, positive = better; "
	      "*x.xx%* marks a significant difference, Welch's t-test, alpha 0.05)</summary>\n", f);
	rpt_cmp_print_text(f, &c, true);
	rpt_cmp_release(&c);
	fputs("</details>\n", f);

	attribution(f, sets, n);
	fputs("<hr>\n<p class=\"note\">Generated by slowpath report.</p>\n</body>\n</html>\n", f);
	if (ferror(f)) {
		rpt_file_abort(&rf);
		snprintf(err, errlen, "%s: write error", out);
		return -1;
	}
	return rpt_file_commit(&rf, err, errlen);
}

/*
 * The report of loaded sets: plots into plots (NULL: a temporary folder,
 * removed afterwards) unless no_plots, and the HTML page into out (NULL:
 * none).  Returns 0, 2 for bad input or 1 for a failure (gnuplot, writing),
 * with err.
 */
int rpt_html_report(const char *out, struct rpt_set *sets, int nr, const char *plots, bool no_plots,
		    bool no_gnuplot, char *const *extra, size_t nr_extra, const char *title,
		    char *err, size_t errlen)
{
	char tmpl[] = "/tmp/slowpath-plots-XXXXXX";
	char *plot_dir = NULL;
	bool tmp_plots = false;
	struct rpt_plots pl = { 0 };
	int rc = 0;

	if (!no_plots) {
		int prc;

		if (plots) {
			plot_dir = xstrdup(plots);
		} else {
			const char *td = getenv("TMPDIR");
			size_t n = (td && *td ? strlen(td) : 4) + 32;

			plot_dir = xzalloc(n);
			snprintf(plot_dir, n, "%s/slowpath-plots-XXXXXX", td && *td ? td : "/tmp");
			if (!mkdtemp(plot_dir)) {
				snprintf(plot_dir, n, "%s", tmpl);
				if (!mkdtemp(plot_dir)) {
					snprintf(err, errlen, "mkdtemp: %s", strerror(errno));
					rc = 1;
					goto out;
				}
			}
			tmp_plots = true;
		}
		prc = no_gnuplot ? rpt_plots_write(plot_dir, sets, nr, extra, nr_extra, &pl, err, errlen) :
		      rpt_plots_make(plot_dir, sets, nr, extra, nr_extra, &pl, err, errlen);
		if (prc) {
			rc = prc == -2 ? 1 : 2;
			goto out;
		}
	}
	if (out && write_page(out, sets, nr, plot_dir, no_plots ? NULL : &pl, title, err, errlen)) {
		rc = 1;
		goto out;
	}
out:
	if (tmp_plots)
		remove_tree(plot_dir);
	free(plot_dir);
	rpt_plots_release(&pl);
	return rc;
}

static const char report_usage[] =
	"usage: slowpath report DIR... [--html OUT] [--plots PLOTDIR] [--names A,B,...]\n"
	"                       [--plot COUNTER,...] [--no-plots] [--no-gnuplot] [--title TEXT]\n"
	"  --html OUT: one self-contained HTML page (plots, comparison, attribution).\n"
	"  --plots PLOTDIR: keep the plot data, gnuplot scripts, SVG and PNG files there;\n"
	"  with --no-gnuplot only the data and scripts (run `gnuplot plots.gp` there).\n"
	"  --plot NAME,...: also plot these vmstat counters over time, or figures per set.\n";

/* "a,b" appended to *v (names split at commas; empty names refused). */
static int add_plot_names(char ***v, size_t *n, size_t *cap, const char *list)
{
	char *copy = xstrdup(list), *p = copy, *tok;
	int rc = 0;

	while ((tok = strsep(&p, ",")) != NULL) {
		if (!*tok) {
			rc = -1;
			break;
		}
		rpt_grow(v, cap, *n + 1, sizeof(**v));
		(*v)[(*n)++] = xstrdup(tok);
	}
	free(copy);
	return rc;
}

int rpt_cmd_report(int argc, char **argv)
{
	enum { O_HTML = 1000, O_NAMES, O_PLOTS, O_PLOT, O_TITLE, O_NO_PLOTS, O_NO_GNUPLOT, O_HELP };
	static const struct option opts[] = {
		{ "html", required_argument, NULL, O_HTML },
		{ "names", required_argument, NULL, O_NAMES },
		{ "plots", required_argument, NULL, O_PLOTS },
		{ "plot", required_argument, NULL, O_PLOT },
		{ "title", required_argument, NULL, O_TITLE },
		{ "no-plots", no_argument, NULL, O_NO_PLOTS },
		{ "no-gnuplot", no_argument, NULL, O_NO_GNUPLOT },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *names = NULL, *plots = NULL, *title = "slowpath report";
	char **dirs, **extra = NULL;
	size_t nr_extra = 0, extra_cap = 0;
	char err[1024];
	bool no_plots = false, no_gnuplot = false;
	struct rpt_set *sets = NULL;
	struct stat st;
	int nr = 0, rc = 2, c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_HTML:
			out = optarg;
			break;
		case O_NAMES:
			names = optarg;
			break;
		case O_PLOTS:
			plots = optarg;
			break;
		case O_PLOT:
			if (add_plot_names(&extra, &nr_extra, &extra_cap, optarg)) {
				rc = rpt_opt_bad("report", "--plot", optarg,
						 "vmstat counters or figures separated by commas");
				goto out;
			}
			break;
		case O_TITLE:
			title = optarg;
			break;
		case O_NO_PLOTS:
			no_plots = true;
			break;
		case O_NO_GNUPLOT:
			no_gnuplot = true;
			break;
		case 'h':
		case O_HELP:
			fputs(report_usage, stdout);
			rc = 0;
			goto out;
		default:
			rc = rpt_opt_error("report", c, argv);
			goto out;
		}
	}
	dirs = argv + optind;
	nr = argc - optind;
	if (nr == 0 || (!out && !plots) || (out && no_gnuplot) || (no_plots && !out)) {
		fprintf(stderr, "slowpath report: %s\n%s",
			nr == 0 ? "no result folder given" :
			out && no_gnuplot ? "--no-gnuplot leaves no pictures for --html" :
			"give --html OUT and/or --plots PLOTDIR", report_usage);
		goto out;
	}
	if ((out && !*out) || (plots && !*plots)) {
		fprintf(stderr, "slowpath report: %s needs a non-empty path\n%s",
			out && !*out ? "--html" : "--plots", report_usage);
		goto out;
	}
	if (out && stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "slowpath report: --html '%s': is a directory\n", out);
		goto out;
	}
	sets = xzalloc((size_t)nr * sizeof(*sets));
	if (rpt_sets_load(sets, nr, dirs, RPT_LOAD_SERIES | RPT_LOAD_PROFILE | RPT_LOAD_IOSTAT | RPT_LOAD_TRACE |
					RPT_LOAD_CPU, err,
			  sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		free(sets);
		sets = NULL;
		goto out;
	}
	for (size_t i = 0; i < nr_extra; i++)
		if (rpt_plot_source(sets, nr, extra[i]) == RPT_PLOT_NONE) {
			fprintf(stderr, "slowpath report: --plot '%s': no vmstat counter or figure of "
				"that name in the results\n", extra[i]);
			goto out;
		}
	if (names && rpt_sets_rename(sets, nr, names, err, sizeof(err))) {
		fprintf(stderr, "slowpath report: %s\n", err);
		goto out;
	}
	rc = rpt_html_report(out, sets, nr, plots, no_plots, no_gnuplot, extra, nr_extra, title,
			     err, sizeof(err));
	if (rc) {
		fprintf(stderr, "slowpath report: %s\n", err);
		goto out;
	}
out:
	if (sets) {
		rpt_sets_release(sets, nr);
		free(sets);
	}
	for (size_t i = 0; i < nr_extra; i++)
		free(extra[i]);
	free(extra);
	return rc;
}
