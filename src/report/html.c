/* SPDX-License-Identifier: MIT */
/*
 * html.c — `slowpath report DIR... --html OUT`: one self-contained HTML
 * page with the comparison table, the attribution trees (and their diffs
 * against the baseline) and the plots as inline base64 PNGs.  Inline CSS,
 * no script, no external resource, no time stamp: the same result folders
 * give the same page.  Layout in docs/report.md.
 */
#include <dirent.h>
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
	".sig{color:#b00020;font-weight:bold}\n"
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
 * full comparison (same text, same markup): throughput, latency, page
 * tables, the checkpoint dip, the stall counters and everything per
 * million pages written.  Rows a run set does not have are simply absent. */
static const char *const summary_rows[] = {
	"Hmean     tps ", "Amean     latency_p50_ms ", "Amean     latency_p99_ms ",
	"Amean     pagetables_share ", "Amean     checkpoint_tps_ratio ",
	"Ops Allocation stalls ", "Ops Compaction stalls ", "Ops Compaction failures ",
	"Per-M-written ", NULL
};

static bool summary_row(const char *line)
{
	for (const char *const *r = summary_rows; *r; r++)
		if (strncmp(line, *r, strlen(*r)) == 0)
			return true;
	return false;
}

static void summary_section(FILE *f, const struct rpt_cmp *c)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	int nr = 0, kept = 0;

	if (!mf) {
		fprintf(stderr, "slowpath: out of memory\n");
		abort();
	}
	rpt_cmp_print_text(mf, c, true);
	if (fclose(mf) || !buf) {
		fprintf(stderr, "slowpath: out of memory\n");
		abort();
	}
	fputs("<h2 id=\"summary\">Summary</h2>\n<p class=\"note\">The rows of the comparison "
	      "below that answer the usual question first: throughput, latency, page tables, the "
	      "checkpoint dip, allocation and compaction stalls, counters per million pages "
	      "written back (nr_written).</p>\n<pre>", f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* the two header lines: kernels and run names */
		if (nr++ < 2 || summary_row(line)) {
			fputs(line, f);
			fputc('\n', f);
			kept++;
		}
	}
	if (kept <= 2)
		fputs("(none of the summary rows is in these results)\n", f);
	fputs("</pre>\n", f);
	free(buf);
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
	fputs("</h1>\n<p class=\"note\">Sections: <a href=\"#summary\">summary</a>, <a href=\"#compare\">comparison</a>, "
	      "<a href=\"#attribution\">where the time went</a>, <a href=\"#plots\">plots</a>. "
	      "Formats: docs/report.md.</p>\n", f);
	runs_table(f, sets, n);

	rpt_cmp_build(&c, sets, n);
	summary_section(f, &c);
	fputs("<h2 id=\"compare\">Comparison</h2>\n<p class=\"note\">mmtests layout: each cell is "
	      "the value and its difference from the baseline (positive = better); "
	      "<span class=\"sig\">*x.xx%*</span> marks a significant difference (Welch's t-test, "
	      "alpha 0.05).</p>\n<pre>", f);
	rpt_cmp_print_text(f, &c, true);
	rpt_cmp_release(&c);
	fputs("</pre>\n", f);

	attribution(f, sets, n);
	if (pl) {
		if (plots_section(f, plot_dir, pl, err, errlen)) {
			rpt_file_abort(&rf);
			return -1;
		}
	} else {
		fputs("<h2 id=\"plots\">Plots</h2>\n<p>Not drawn (--no-plots).</p>\n", f);
	}
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
		    bool no_gnuplot, const char *title, char *err, size_t errlen)
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
		prc = no_gnuplot ? rpt_plots_write(plot_dir, sets, nr, &pl, err, errlen) :
		      rpt_plots_make(plot_dir, sets, nr, &pl, err, errlen);
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
	"                       [--no-plots] [--no-gnuplot] [--title TEXT]\n"
	"  --html OUT: one self-contained HTML page (comparison, attribution, plots).\n"
	"  --plots PLOTDIR: keep the plot data, gnuplot scripts, SVG and PNG files there;\n"
	"  with --no-gnuplot only the data and scripts (run `gnuplot plots.gp` there).\n";

int rpt_cmd_report(int argc, char **argv)
{
	const char *out = NULL, *names = NULL, *plots = NULL, *title = "slowpath report";
	char **dirs = xzalloc((size_t)argc * sizeof(*dirs));
	char err[1024];
	bool no_plots = false, no_gnuplot = false;
	struct rpt_set *sets = NULL;
	struct stat st;
	int nr = 0, rc = 2;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **opt = NULL;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(report_usage, stdout);
			free(dirs);
			return 0;
		} else if (strcmp(a, "--no-plots") == 0) {
			no_plots = true;
			continue;
		} else if (strcmp(a, "--no-gnuplot") == 0) {
			no_gnuplot = true;
			continue;
		} else if (strcmp(a, "--html") == 0) {
			opt = &out;
		} else if (strcmp(a, "--names") == 0) {
			opt = &names;
		} else if (strcmp(a, "--plots") == 0) {
			opt = &plots;
		} else if (strcmp(a, "--title") == 0) {
			opt = &title;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "slowpath report: unknown option '%s'\n%s", a, report_usage);
			goto out;
		} else {
			dirs[nr++] = argv[i];
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "slowpath report: option '%s' needs a value\n", a);
			goto out;
		}
		*opt = argv[++i];
	}
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
	if (rpt_sets_load(sets, nr, dirs, RPT_LOAD_SERIES | RPT_LOAD_PROFILE, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		free(sets);
		sets = NULL;
		goto out;
	}
	if (names && rpt_sets_rename(sets, nr, names, err, sizeof(err))) {
		fprintf(stderr, "slowpath report: %s\n", err);
		goto out;
	}
	rc = rpt_html_report(out, sets, nr, plots, no_plots, no_gnuplot, title, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "slowpath report: %s\n", err);
		goto out;
	}
out:
	if (sets) {
		rpt_sets_release(sets, nr);
		free(sets);
	}
	free(dirs);
	return rc;
}
