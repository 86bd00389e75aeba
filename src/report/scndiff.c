/* SPDX-License-Identifier: MIT */
/*
 * scndiff.c — which scenario keys set the compared results apart.  A
 * result folder's scenario.ini is the run's scenario resolved (every key
 * with its value, defaults included: docs/results.md), so two folders'
 * files name the same keys and any key whose value differs is part of
 * what the comparison measures: a policy preset, a sysctl a branch wrote,
 * a cost, the seed.  `slowpath compare` lists them under its tables, as
 * mmtests' compare names the kernels it puts side by side.
 *
 * The files are the ones `slowpath run` writes: "[section]" lines,
 * "key=value" lines and comment lines (';' or '#' first: the header with
 * the command), which are not keys.  They are split here rather than by
 * inih, whose fixed line buffer cuts a long header or description.  A
 * folder without scenario.ini (a recording) has no keys and is left out;
 * a line of none of the three kinds is an error with its file and line.
 * Keys keep the baseline file's order; keys the baseline lacks follow in
 * the other file's order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/scndiff.h"
#include "sim/xalloc.h"

static void add_kv(struct rpt_scn_file *f, const char *section, const char *name, const char *value)
{
	size_t len = strlen(section) + strlen(name) + 4;

	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->v = xrealloc(f->v, f->cap * sizeof(*f->v));
	}
	f->v[f->n].key = xmalloc(len);
	snprintf(f->v[f->n].key, len, "[%s] %s", section, name);
	f->v[f->n].value = xstrdup(value);
	f->n++;
}

/* Split the text into keys; 0, or the number of the first line that is
 * none of the three kinds. */
static size_t parse_scenario(char *text, struct rpt_scn_file *out)
{
	const char *section = "";
	size_t lineno = 0;

	for (char *line = text, *next; line; line = next) {
		char *eq;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line || *line == ';' || *line == '#')
			continue;
		if (*line == '[') {
			char *end = strchr(line, ']');

			if (!end || end[1])
				return lineno;
			*end = '\0';
			section = line + 1;
		} else if ((eq = strchr(line, '=')) && eq > line) {
			*eq = '\0';
			add_kv(out, section, line, eq + 1);
		} else {
			return lineno;
		}
	}
	return 0;
}

int rpt_scn_file_read(const char *dir, struct rpt_scn_file *out, char *err, size_t errlen)
{
	size_t len = strlen(dir) + 16, n, bad = 0;
	char *path = xmalloc(len), *text = NULL;
	struct stat st;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	snprintf(path, len, "%s/scenario.ini", dir);
	if (stat(path, &st) != 0 && errno == ENOENT) {
		rc = 0;
		goto out;
	}
	text = rpt_read_file(path, &n, err, errlen);
	if (!text)
		goto out;
	if (strlen(text) != n) {
		snprintf(err, errlen, "%s: a NUL byte in the file (not a scenario.ini slowpath run wrote)",
			 path);
		goto out;
	}
	bad = parse_scenario(text, out);
	if (bad) {
		snprintf(err, errlen, "%s:%zu: expected [section], key=value or a ';' comment (not a "
			 "scenario.ini slowpath run wrote)", path, bad);
		goto out;
	}
	out->present = true;
	rc = 0;
out:
	if (rc)
		rpt_scn_file_release(out);
	free(text);
	free(path);
	return rc;
}

void rpt_scn_file_release(struct rpt_scn_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].key);
		free(f->v[i].value);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

static const struct rpt_scn_kv *find(const struct rpt_scn_file *f, const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].key, key) == 0)
			return &f->v[i];
	return NULL;
}

static void add(struct rpt_scn_diff *d, const char *key, const char *value, const char *base)
{
	d->keys = xrealloc(d->keys, (d->nr + 1) * sizeof(*d->keys));
	d->keys[d->nr].key = key;
	d->keys[d->nr].value = value;
	d->keys[d->nr].base = base;
	d->nr++;
}

/* A set of several runs differs from itself in the seed (iterations, a
 * sweep column's seeds), so the seed is not one of its differences. */
static bool skip_key(const char *key, bool iterated)
{
	return iterated && strcmp(key, "[global] seed") == 0;
}

struct rpt_scn_diff *rpt_scn_diff(const struct rpt_set *sets, int nr_sets)
{
	struct rpt_scn_diff *d = xzalloc((size_t)(nr_sets > 0 ? nr_sets : 1) * sizeof(*d));
	const struct rpt_scn_file *base = nr_sets > 0 ? &sets[0].scenario : NULL;

	if (!base || !base->present)
		return d;
	d[0].present = true;
	for (int s = 1; s < nr_sets; s++) {
		const struct rpt_scn_file *k = &sets[s].scenario;
		bool iterated = sets[0].nr_runs > 1 || sets[s].nr_runs > 1;

		if (!k->present)
			continue;
		d[s].present = true;
		for (size_t i = 0; i < base->n; i++) {
			const struct rpt_scn_kv *o = find(k, base->v[i].key);

			if (!skip_key(base->v[i].key, iterated) && (!o || strcmp(o->value, base->v[i].value) != 0))
				add(&d[s], base->v[i].key, o ? o->value : NULL, base->v[i].value);
		}
		for (size_t i = 0; i < k->n; i++)
			if (!find(base, k->v[i].key) && !skip_key(k->v[i].key, iterated))
				add(&d[s], k->v[i].key, k->v[i].value, NULL);
	}
	return d;
}

void rpt_scn_diff_release(struct rpt_scn_diff *d, int nr_sets)
{
	if (!d)
		return;
	for (int s = 0; s < nr_sets; s++)
		free(d[s].keys);
	free(d);
}
