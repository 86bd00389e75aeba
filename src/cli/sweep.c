/* SPDX-License-Identifier: MIT */
/*
 * sweep.c — `slowpath sweep`: a matrix of runs (policies x seeds x --set
 * values) into one sweep folder, run in parallel on this machine or as a
 * Slurm job array, and the aggregate across them (docs/sweeps.md).
 *
 * The sweep folder:
 *   DIR/sweep.ini                  the matrix, canonical (--cell and --collect read it)
 *   DIR/cells/COLUMN/seed-S/       one result folder per cell, plus sweep-cell.ini
 *   DIR/logs/cell-K.log            the cell's stdout and stderr
 *   DIR/compare.txt, compare-lkp.txt, compare.json, report.html   the aggregate
 *   DIR/slurm/cells.sbatch, collect.sbatch, jobs                  --slurm
 * A column is one setting of everything but the seed (a policy and one
 * value of each --set); its seeds are the iterations of one column of the
 * comparison.  Cell K is column K / nr_seeds, seed K % nr_seeds; columns
 * run policies outermost, then the set lines in order, the last fastest.
 *
 * One cell, whoever runs it (a child of the local sweep or a Slurm array
 * task), is `slowpath sweep --cell K DIR`:
 *   1. a complete cell is left alone (complete: result.json, which a run
 *      writes last, and sweep-cell.ini, which the cell writes after it,
 *      are there and say the cell's scenario, policy, seed and sets);
 *   2. anything else at the cell's place is renamed away and removed, so
 *      no half-removed folder keeps a stale result.json;
 *   3. `slowpath run` into COLUMN/seed-S.tmp, sweep-cell.ini into it, and
 *      the folder renamed to seed-S.  A cell interrupted anywhere before
 *      the rename leaves only a .tmp folder, which the next attempt
 *      removes: nothing looks complete that is not.
 * Cells run as child processes (fork + exec of /proc/self/exe), so a
 * crash in one is that cell's failure, not the sweep's.  The aggregate is
 * built from the cell folders alone, with paths relative to DIR, so it is
 * the same bytes whatever -j, and whether the cells ran here or on Slurm.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/scenario.h"
#include "cli/sections.h"
#include "mm/machine.h"
#include "mm/policy.h"
#include "report/compare.h"
#include "report/html.h"
#include "report/load.h"
#include "report/result.h"
#include "sim/debug.h"

#define MAX_ITEMS	10000u	/* values in one list, seeds in one range */
#define MAX_CELLS	100000u
#define CELL_FILE	"sweep-cell.ini"

/* Slurm memory request per cell: the machine's own estimate times this,
 * plus a fixed allowance (docs/sweeps.md: the full-scale case peaks at
 * 6.5 GB of RSS for 1.6 GB of machine bookkeeping, the rest being
 * page-table mirrors and workload state that grow with it). */
#define SLURM_MEM_FACTOR	4
#define SLURM_MEM_EXTRA_MIB	256

struct list {
	char		**v;
	size_t		n;
	unsigned int	line;		/* where it was given (0: command line / default) */
};

struct sweep_set {
	char		*key;
	struct list	values;
};

struct sweep {
	char		*file;		/* for messages */
	char		*directory;	/* relative paths are relative to it; NULL: cwd */
	char		*scenario;
	unsigned int	scenario_line;
	struct list	policies, seeds;
	unsigned int	scale, scale_line;
	struct sweep_set *sets;
	size_t		nr_sets;
	/* derived */
	size_t		nr_columns, nr_cells;
	char		**column_names;	/* folder names under cells/ */
};

/* ---- small helpers ------------------------------------------------------------------ */

__attribute__((format(printf, 1, 2)))
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fprintf(stderr, "slowpath: out of memory\n");
		abort();
	}
	return p;
}

static void list_add(struct list *l, const char *s)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(s);
}

static void list_release(struct list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static bool list_has(const struct list *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static void sweep_release(struct sweep *sw)
{
	free(sw->file);
	free(sw->directory);
	free(sw->scenario);
	list_release(&sw->policies);
	list_release(&sw->seeds);
	for (size_t i = 0; i < sw->nr_sets; i++) {
		free(sw->sets[i].key);
		list_release(&sw->sets[i].values);
	}
	free(sw->sets);
	for (size_t i = 0; sw->column_names && i < sw->nr_columns; i++)
		free(sw->column_names[i]);
	free(sw->column_names);
	memset(sw, 0, sizeof(*sw));
}

/* ---- values: lists, seeds, policies ----------------------------------------------------- */

/*
 * "a, b ,c" -> items, trimmed; "\," is a comma inside an item (scenario
 * values such as zones=DMA:1g,Normal:rest have commas).  Empty items are
 * an error.
 */
static int split_list(const char *what, const char *text, struct list *out, char *err, size_t errlen)
{
	size_t n = strlen(text);
	char *buf = xzalloc(n + 1), *w = buf;

	for (const char *p = text;; p++) {
		if (*p == '\\' && p[1] == ',') {
			*w++ = ',';
			p++;
			continue;
		}
		if (*p == ',' || !*p) {
			char *item;

			*w = '\0';
			item = trim(buf);
			if (!*item) {
				free(buf);
				return sim_errf(err, errlen, "%s '%s': empty item in the list", what, text);
			}
			if (out->n >= MAX_ITEMS) {
				free(buf);
				return sim_errf(err, errlen, "%s '%s': more than %u items", what, text, MAX_ITEMS);
			}
			list_add(out, item);
			w = buf;
			if (!*p)
				break;
			continue;
		}
		*w++ = *p;
	}
	free(buf);
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* "1-3,7" -> "1","2","3","7": whole numbers (full 64 bits) and ranges. */
static int parse_seeds(const char *text, struct list *out, char *err, size_t errlen)
{
	struct list items = { 0 };

	if (split_list("seeds", text, &items, err, errlen)) {
		list_release(&items);
		return -1;
	}
	for (size_t i = 0; i < items.n; i++) {
		char *dash = strchr(items.v[i], '-');
		uint64_t lo, hi;

		if (dash) {
			*dash = '\0';
			if (parse_u64(trim(items.v[i]), &lo) || parse_u64(trim(dash + 1), &hi) || hi < lo) {
				*dash = '-';
				sim_errf(err, errlen, "seeds '%s': '%s' is not a range A-B of whole numbers with A <= B",
				     text, items.v[i]);
				goto bad;
			}
		} else if (parse_u64(items.v[i], &lo)) {
			sim_errf(err, errlen, "seeds '%s': '%s' is not a whole number", text, items.v[i]);
			goto bad;
		} else {
			hi = lo;
		}
		if (hi - lo >= MAX_ITEMS || out->n + (hi - lo) >= MAX_ITEMS) {
			sim_errf(err, errlen, "seeds '%s': more than %u seeds", text, MAX_ITEMS);
			goto bad;
		}
		for (uint64_t s = lo;; s++) {
			char num[24];

			snprintf(num, sizeof(num), "%llu", (unsigned long long)s);
			if (list_has(out, num)) {
				sim_errf(err, errlen, "seeds '%s': seed %s is given twice", text, num);
				goto bad;
			}
			list_add(out, num);
			if (s == hi)
				break;
		}
	}
	list_release(&items);
	return 0;
bad:
	list_release(&items);
	return -1;
}

/* "a,b" or "all" (every policy variant, in `slowpath policies` order). */
static int parse_policies(const char *text, struct list *out, char *err, size_t errlen)
{
	struct list items = { 0 };

	if (strcmp(text, "all") == 0) {
		for (unsigned int i = 0; i < mm_nr_policies; i++)
			list_add(out, mm_policies[i].name);
		return 0;
	}
	if (split_list("policies", text, &items, err, errlen)) {
		list_release(&items);
		return -1;
	}
	for (size_t i = 0; i < items.n; i++) {
		if (!mm_policy_find(items.v[i])) {
			sim_errf(err, errlen, "policies: unknown policy '%s' (`slowpath policies` lists them)",
			     items.v[i]);
			list_release(&items);
			return -1;
		}
		if (list_has(out, items.v[i])) {
			sim_errf(err, errlen, "policies: '%s' is given twice", items.v[i]);
			list_release(&items);
			return -1;
		}
		list_add(out, items.v[i]);
	}
	list_release(&items);
	return 0;
}

/* "KEY=v1,v2" -> a set line. */
static int parse_set(struct sweep *sw, const char *text, unsigned int line, char *err, size_t errlen)
{
	const char *eq = strchr(text, '=');
	struct sweep_set *st;
	char *key;

	if (!eq || eq == text)
		return sim_errf(err, errlen, "set '%s': expected KEY=VALUE[,VALUE...]", text);
	key = xzalloc((size_t)(eq - text) + 1);
	memcpy(key, text, (size_t)(eq - text));
	key[eq - text] = '\0';
	if (!*trim(key) || strcmp(trim(key), key) != 0) {
		sim_errf(err, errlen, "set '%s': blank around the key", text);
		free(key);
		return -1;
	}
	for (size_t i = 0; i < sw->nr_sets; i++)
		if (strcmp(sw->sets[i].key, key) == 0) {
			sim_errf(err, errlen, "set '%s': key '%s' is already swept (put every value in one list)",
			     text, key);
			free(key);
			return -1;
		}
	sw->sets = xrealloc(sw->sets, (sw->nr_sets + 1) * sizeof(*sw->sets));
	st = &sw->sets[sw->nr_sets++];
	memset(st, 0, sizeof(*st));
	st->key = key;
	st->values.line = line;
	if (split_list("set", eq + 1, &st->values, err, errlen))
		return -1;
	for (size_t i = 0; i < st->values.n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(st->values.v[i], st->values.v[j]) == 0)
				return sim_errf(err, errlen, "set '%s': value '%s' is given twice", text,
					    st->values.v[i]);
	return 0;
}

/* ---- the sweep file ----------------------------------------------------------------------- */

static bool is_absolute(const char *p)
{
	return p[0] == '/';
}

/*
 * Parse a sweep file: INI with one [sweep] section; ';' and '#' comments
 * (whole lines, or after a blank); keys scenario, policies, seeds, scale,
 * set (repeatable), directory.  A relative scenario path is relative to
 * directory= when given (the canonical DIR/sweep.ini has it), else to the
 * sweep file's folder, as include= in scenario files.
 */
static int sweep_parse_file(struct sweep *sw, const char *path, char *err, size_t errlen)
{
	char ebuf[768];
	size_t len;
	char *text = rpt_read_file(path, &len, ebuf, sizeof(ebuf)), *line;
	unsigned int lineno = 0;
	bool in_sweep = false, seen_sweep = false;
	char *scenario_raw = NULL;
	int rc = -1;

	memset(sw, 0, sizeof(*sw));
	sw->file = xstrdup(path);
	sw->scale = 1;
	if (!text)
		return sim_errf(err, errlen, "%s", ebuf);
	if (memchr(text, '\0', len))
		return free(text), sim_errf(err, errlen, "%s: not a text file", path);
	for (char *next = text; next && *next;) {
		char *eq, *key, *value, *c;

		line = next;
		next = strchr(next, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (lineno == 1 && (unsigned char)line[0] == 0xef && (unsigned char)line[1] == 0xbb &&
		    (unsigned char)line[2] == 0xbf)
			line += 3;
		for (c = line; *c; c++)
			if ((unsigned char)*c < 0x20 && *c != '\t' && *c != '\r') {
				sim_errf(err, errlen, "%s:%u: control character in the line", path, lineno);
				goto out;
			}
		line = trim(line);
		if (!*line || *line == ';' || *line == '#')
			continue;
		for (c = line + 1; *c; c++)
			if ((*c == ';' || *c == '#') && (c[-1] == ' ' || c[-1] == '\t')) {
				*c = '\0';
				break;
			}
		line = trim(line);
		if (*line == '[') {
			if (strcmp(line, "[sweep]") != 0) {
				sim_errf(err, errlen, "%s:%u: unknown section '%s' (a sweep file has one [sweep] "
				     "section)", path, lineno, line);
				goto out;
			}
			if (seen_sweep) {
				sim_errf(err, errlen, "%s:%u: [sweep] given twice", path, lineno);
				goto out;
			}
			in_sweep = seen_sweep = true;
			continue;
		}
		eq = strchr(line, '=');
		if (!eq) {
			sim_errf(err, errlen, "%s:%u: expected 'key=value', got '%s'", path, lineno, line);
			goto out;
		}
		if (!in_sweep) {
			sim_errf(err, errlen, "%s:%u: key outside any section (put a [sweep] line above it)",
			     path, lineno);
			goto out;
		}
		*eq = '\0';
		key = trim(line);
		value = trim(eq + 1);
		if (!*value) {
			sim_errf(err, errlen, "%s:%u: '%s' has no value", path, lineno, key);
			goto out;
		}
#define ONCE(cond) do { if (cond) { \
		sim_errf(err, errlen, "%s:%u: '%s' given twice", path, lineno, key); goto out; } } while (0)
		if (strcmp(key, "scenario") == 0) {
			ONCE(scenario_raw);
			scenario_raw = xstrdup(value);
			sw->scenario_line = lineno;
		} else if (strcmp(key, "directory") == 0) {
			ONCE(sw->directory);
			if (!is_absolute(value)) {
				sim_errf(err, errlen, "%s:%u: directory '%s' is not an absolute path", path, lineno,
				     value);
				goto out;
			}
			sw->directory = xstrdup(value);
		} else if (strcmp(key, "policies") == 0) {
			ONCE(sw->policies.line);
			sw->policies.line = lineno;
			if (parse_policies(value, &sw->policies, ebuf, sizeof(ebuf))) {
				sim_errf(err, errlen, "%s:%u: %s", path, lineno, ebuf);
				goto out;
			}
		} else if (strcmp(key, "seeds") == 0) {
			ONCE(sw->seeds.line);
			sw->seeds.line = lineno;
			if (parse_seeds(value, &sw->seeds, ebuf, sizeof(ebuf))) {
				sim_errf(err, errlen, "%s:%u: %s", path, lineno, ebuf);
				goto out;
			}
		} else if (strcmp(key, "scale") == 0) {
			ONCE(sw->scale_line);
			sw->scale_line = lineno;
			if (scn_parse_scale(value, &sw->scale, ebuf, sizeof(ebuf))) {
				sim_errf(err, errlen, "%s:%u: %s", path, lineno, ebuf);
				goto out;
			}
		} else if (strcmp(key, "set") == 0) {
			if (parse_set(sw, value, lineno, ebuf, sizeof(ebuf))) {
				sim_errf(err, errlen, "%s:%u: %s", path, lineno, ebuf);
				goto out;
			}
		} else {
			sim_errf(err, errlen, "%s:%u: unknown key '%s' (scenario, policies, seeds, scale, set)",
			     path, lineno, key);
			goto out;
		}
#undef ONCE
	}
	if (!seen_sweep) {
		sim_errf(err, errlen, "%s: no [sweep] section", path);
		goto out;
	}
	if (!scenario_raw) {
		sim_errf(err, errlen, "%s: [sweep] has no scenario= (the scenario file to sweep)", path);
		goto out;
	}
	if (is_absolute(scenario_raw) || sw->directory || !strchr(path, '/')) {
		sw->scenario = scenario_raw;
	} else {
		sw->scenario = xasprintf("%.*s/%s", (int)(strrchr(path, '/') - path), path, scenario_raw);
		free(scenario_raw);
	}
	scenario_raw = NULL;
	rc = 0;
out:
	free(scenario_raw);
	free(text);
	return rc;
}

/* The canonical sweep file, as DIR/sweep.ini holds it. */
static void put_list(FILE *f, const struct list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			fputc(',', f);
		for (const char *p = l->v[i]; *p; p++) {
			if (*p == ',')
				fputc('\\', f);
			fputc(*p, f);
		}
	}
}

static void sweep_print(const struct sweep *sw, FILE *f)
{
	fprintf(f, "; the matrix of this sweep folder, written by slowpath sweep (docs/sweeps.md);\n"
		   "; `slowpath sweep --cell K` and `--collect` read it\n[sweep]\n");
	if (sw->directory)
		fprintf(f, "directory=%s\n", sw->directory);
	fprintf(f, "scenario=%s\npolicies=", sw->scenario);
	put_list(f, &sw->policies);
	fprintf(f, "\nseeds=");
	put_list(f, &sw->seeds);
	fprintf(f, "\nscale=1/%u\n", sw->scale);
	for (size_t i = 0; i < sw->nr_sets; i++) {
		fprintf(f, "set=%s=", sw->sets[i].key);
		put_list(f, &sw->sets[i].values);
		fputc('\n', f);
	}
}

/* ---- cells ---------------------------------------------------------------------------------- */

struct cell {
	size_t		index, column;
	const char	*scenario, *policy, *seed;
	const char	**sets;		/* "key=value", one per set line */
	char		*dir, *tmp;	/* DIR/cells/COLUMN/seed-S(.tmp) */
	char		*desc;		/* sweep-cell.ini's text */
};

/* Value index of set line i in column c (the last set line varies fastest). */
static size_t column_value(const struct sweep *sw, size_t c, size_t set)
{
	for (size_t i = sw->nr_sets; i-- > set + 1;)
		c /= sw->sets[i].values.n;
	return c % sw->sets[set].values.n;
}

static size_t column_policy(const struct sweep *sw, size_t c)
{
	for (size_t i = sw->nr_sets; i-- > 0;)
		c /= sw->sets[i].values.n;
	return c;
}

/* A folder name: letters, digits and ._=+,- kept, anything else '_'. */
static void append_safe(char **name, const char *s)
{
	size_t n = strlen(*name);

	*name = xrealloc(*name, n + strlen(s) + 1);
	for (; *s; s++) {
		char ch = *s;
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			  strchr("._=+,-", ch);

		(*name)[n++] = ok ? ch : '_';
	}
	(*name)[n] = '\0';
}

/* Columns and their names: the policy, then "+key=value" for every set
 * line with more than one value.  0 or -1 with err. */
static int sweep_expand(struct sweep *sw, char *err, size_t errlen)
{
	size_t cols = sw->policies.n;

	for (size_t i = 0; i < sw->nr_sets; i++) {
		if (cols > MAX_CELLS / sw->sets[i].values.n)
			return sim_errf(err, errlen, "%s: more than %u cells", sw->file, MAX_CELLS);
		cols *= sw->sets[i].values.n;
	}
	if (cols > MAX_CELLS / sw->seeds.n)
		return sim_errf(err, errlen, "%s: more than %u cells", sw->file, MAX_CELLS);
	sw->nr_columns = cols;
	sw->nr_cells = cols * sw->seeds.n;
	sw->column_names = calloc(cols, sizeof(*sw->column_names));
	if (!sw->column_names)
		abort();
	for (size_t c = 0; c < cols; c++) {
		char *name = xstrdup("");

		append_safe(&name, sw->policies.v[column_policy(sw, c)]);
		for (size_t i = 0; i < sw->nr_sets; i++) {
			if (sw->sets[i].values.n < 2)
				continue;
			append_safe(&name, "+");
			append_safe(&name, sw->sets[i].key);
			append_safe(&name, "=");
			append_safe(&name, sw->sets[i].values.v[column_value(sw, c, i)]);
		}
		if (name[0] == '.')
			name[0] = '_';
		for (size_t j = 0; j < c; j++)
			if (strcmp(sw->column_names[j], name) == 0) {
				sim_errf(err, errlen, "%s: two columns get the folder name '%s' (values that differ "
				     "only in characters a folder name cannot hold)", sw->file, name);
				free(name);
				return -1;
			}
		sw->column_names[c] = name;
	}
	return 0;
}

static void cell_get(const struct sweep *sw, const char *dir, size_t k, struct cell *c)
{
	char *desc = NULL;
	size_t dlen = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	c->index = k;
	c->column = k / sw->seeds.n;
	c->scenario = sw->scenario;
	c->policy = sw->policies.v[column_policy(sw, c->column)];
	c->seed = sw->seeds.v[k % sw->seeds.n];
	c->sets = xzalloc((sw->nr_sets ? sw->nr_sets : 1) * sizeof(*c->sets));
	for (size_t i = 0; i < sw->nr_sets; i++)
		c->sets[i] = xasprintf("%s=%s", sw->sets[i].key,
				       sw->sets[i].values.v[column_value(sw, c->column, i)]);
	c->dir = xasprintf("%s/cells/%s/seed-%s", dir, sw->column_names[c->column], c->seed);
	c->tmp = xasprintf("%s.tmp", c->dir);
	f = open_memstream(&desc, &dlen);
	if (!f)
		abort();
	fprintf(f, "; one cell of a sweep (docs/sweeps.md): what ran into this folder\n[cell]\n"
		   "scenario=%s\npolicy=%s\nseed=%s\nscale=1/%u\n", sw->scenario, c->policy, c->seed,
		sw->scale);
	for (size_t i = 0; i < sw->nr_sets; i++)
		fprintf(f, "set=%s\n", c->sets[i]);
	fclose(f);
	c->desc = desc;
}

static void cell_release(const struct sweep *sw, struct cell *c)
{
	for (size_t i = 0; i < sw->nr_sets; i++)
		free((char *)c->sets[i]);
	free(c->sets);
	free(c->dir);
	free(c->tmp);
	free(c->desc);
	memset(c, 0, sizeof(*c));
}

static bool file_is(const char *path, const char *want)
{
	char e[64];
	size_t len;
	char *t = rpt_read_file(path, &len, e, sizeof(e));
	bool same = t && strcmp(t, want) == 0;

	free(t);
	return same;
}

/* result.json's policy: the preset, then "+key=value" for each [policy]
 * switch the scenario or a set line changes (scn_policy_resolve). */
static bool policy_is_preset(const char *policy, const char *preset)
{
	size_t n = strlen(preset);

	return strncmp(policy, preset, n) == 0 && (policy[n] == '\0' || policy[n] == '+');
}

/* Complete: result.json (a run writes it last) and sweep-cell.ini say
 * this cell's scenario, policy, seed and sets. */
static bool cell_complete(const struct cell *c)
{
	char *rj = xasprintf("%s/result.json", c->dir), *cf = xasprintf("%s/" CELL_FILE, c->dir);
	/* seeds are unsigned 64-bit: above 2^63 jansson reads them as reals */
	json_t *root = json_load_file(rj, JSON_DECODE_INT_AS_REAL, NULL);
	bool ok = false;

	if (root && file_is(cf, c->desc)) {
		const char *sc = json_string_value(json_object_get(root, "scenario"));
		const char *pol = json_string_value(json_object_get(root, "policy"));

		json_t *seed = json_object_get(root, "seed");

		/* result.json records the scenario path as the run was given it;
		 * its seed is compared as the double it loads as (exact below
		 * 2^53; sweep-cell.ini, c->desc, holds the exact value) */
		ok = sc && pol && json_is_number(seed) &&
		     json_number_value(seed) == (double)strtoull(c->seed, NULL, 10) &&
		     strcmp(sc, c->scenario) == 0 && policy_is_preset(pol, c->policy);
	}
	if (root)
		json_decref(root);
	free(rj);
	free(cf);
	return ok;
}

/* rm -r PATH (files and folders; no symlink is followed). */
static void remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *e;

		while (d && (e = readdir(d)) != NULL) {
			char *p;

			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			p = xasprintf("%s/%s", path, e->d_name);
			remove_tree(p);
			free(p);
		}
		if (d)
			closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

/* Clear the cell's place: the final folder is renamed away first, so an
 * interrupted removal never leaves a folder under the final name. */
static void cell_clear(const struct cell *c)
{
	struct stat st;

	if (lstat(c->dir, &st) == 0) {
		char *gone = xasprintf("%s.stale-%ld", c->dir, (long)getpid());

		if (rename(c->dir, gone) == 0)
			remove_tree(gone);
		free(gone);
	}
	remove_tree(c->tmp);
}

static int mkdir_parent(const char *path, char *err, size_t errlen)
{
	char *p = xstrdup(path), *slash = strrchr(p, '/');
	int rc = 0;

	if (slash) {
		*slash = '\0';
		rc = rpt_mkdir_p(p, err, errlen);
	}
	free(p);
	return rc;
}

/* ---- one cell: slowpath sweep --cell K DIR ------------------------------------------------- */

static int run_cell(const struct sweep *sw, const char *dir, size_t k)
{
	struct cell c;
	const char **argv = xzalloc((12 + 2 * sw->nr_sets) * sizeof(*argv));
	char scale[24], err[1024];
	struct rpt_file rf;
	int argc = 0, rc;

	cell_get(sw, dir, k, &c);
	if (cell_complete(&c)) {
		printf("%s: complete, skipped\n", c.dir);
		rc = 0;
		goto out;
	}
	cell_clear(&c);
	if (mkdir_parent(c.dir, err, sizeof(err))) {
		fprintf(stderr, "slowpath sweep: %s\n", err);
		rc = 1;
		goto out;
	}
	argv[argc++] = "run";
	argv[argc++] = sw->scenario;
	argv[argc++] = "--policy";
	argv[argc++] = c.policy;
	argv[argc++] = "--seed";
	argv[argc++] = c.seed;
	for (size_t i = 0; i < sw->nr_sets; i++) {
		argv[argc++] = "--set";
		argv[argc++] = c.sets[i];
	}
	if (sw->scale > 1) {
		snprintf(scale, sizeof(scale), "1/%u", sw->scale);
		argv[argc++] = "--scale";
		argv[argc++] = scale;
	}
	argv[argc++] = "--out";
	argv[argc++] = c.tmp;
	argv[argc] = NULL;
	fflush(stdout);
	rc = cli_cmd_run(argc, (char **)argv);
	fflush(stdout);
	if (rc)
		goto out;
	rc = 1;
	if (rpt_file_open(&rf, c.tmp, CELL_FILE, err, sizeof(err))) {
		fprintf(stderr, "slowpath sweep: %s\n", err);
		goto out;
	}
	fputs(c.desc, rf.f);
	if (rpt_file_commit(&rf, err, sizeof(err))) {
		fprintf(stderr, "slowpath sweep: %s\n", err);
		goto out;
	}
	if (rename(c.tmp, c.dir)) {
		fprintf(stderr, "slowpath sweep: rename %s to %s: %s\n", c.tmp, c.dir, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	cell_release(sw, &c);
	free(argv);
	return rc;
}

/* ---- checking the matrix against the scenario ------------------------------------------------ */

/* Prefix for messages about a line of the sweep ("file:line: "), or "". */
static void place(const struct sweep *sw, unsigned int line, char *buf, size_t len)
{
	if (line)
		snprintf(buf, len, "%s:%u: ", sw->file, line);
	else
		buf[0] = '\0';
}

static struct scenario *load(const struct scn_schema *schema, const struct sweep *sw, const char *policy,
			     const char *seed, const char **sets, size_t nr_sets, char *err, size_t errlen)
{
	struct cli_args a = {
		.scenario = sw->scenario, .policy = policy, .seed = seed, .sets = sets,
		.nr_sets = nr_sets, .scale = sw->scale, .iterations = 1,
	};

	return cli_load_scenario_err(schema, &a, err, errlen);
}

/*
 * Fill in what the scenario decides (no policies: its policy; no seeds:
 * its seed), then load the scenario once per value and once per column,
 * so a bad value is reported at its line.  *mem_bytes: the largest
 * machine_footprint_estimate() over the columns.  0, or -1 with err.
 */
static int sweep_check(struct sweep *sw, size_t *mem_bytes, char *err, size_t errlen)
{
	struct scn_schema *schema = scn_schema_create();
	struct scenario *s;
	char msg[1024], at[300];
	int rc = -1;

	*mem_bytes = 0;
	s = load(schema, sw, NULL, NULL, NULL, 0, msg, sizeof(msg));
	if (!s) {
		place(sw, sw->scenario_line, at, sizeof(at));
		sim_errf(err, errlen, "%s%s", at, msg);
		goto out;
	}
	if (!sw->policies.n)
		list_add(&sw->policies, ((const struct scn_policy *)scn_config(s, "policy", NULL))->preset);
	if (!sw->seeds.n) {
		char num[24];

		snprintf(num, sizeof(num), "%llu",
			 (unsigned long long)((const struct scn_global *)scn_config(s, "global", NULL))->seed);
		list_add(&sw->seeds, num);
	}
	scn_destroy(s);
	for (size_t i = 0; i < sw->seeds.n; i++) {
		if (!(s = load(schema, sw, NULL, sw->seeds.v[i], NULL, 0, msg, sizeof(msg)))) {
			place(sw, sw->seeds.line, at, sizeof(at));
			sim_errf(err, errlen, "%s%s", at, msg);
			goto out;
		}
		scn_destroy(s);
	}
	for (size_t i = 0; i < sw->nr_sets; i++)
		for (size_t v = 0; v < sw->sets[i].values.n; v++) {
			char *kv = xasprintf("%s=%s", sw->sets[i].key, sw->sets[i].values.v[v]);
			const char *one[1] = { kv };

			s = load(schema, sw, NULL, NULL, one, 1, msg, sizeof(msg));
			free(kv);
			if (!s) {
				place(sw, sw->sets[i].values.line, at, sizeof(at));
				sim_errf(err, errlen, "%s%s", at, msg);
				goto out;
			}
			scn_destroy(s);
		}
	if (sweep_expand(sw, err, errlen))
		goto out;
	for (size_t c = 0; c < sw->nr_columns; c++) {
		struct cell cl;
		const struct machine_config *mc;
		size_t est;

		cell_get(sw, "", c * sw->seeds.n, &cl);
		s = load(schema, sw, cl.policy, cl.seed, cl.sets, sw->nr_sets, msg, sizeof(msg));
		cell_release(sw, &cl);
		if (!s) {
			sim_errf(err, errlen, "%s: column '%s': %s", sw->file, sw->column_names[c], msg);
			goto out;
		}
		mc = scn_config(s, "machine", NULL);
		est = machine_footprint_estimate(mc);
		*mem_bytes = est > *mem_bytes ? est : *mem_bytes;
		scn_destroy(s);
	}
	rc = 0;
out:
	scn_schema_destroy(schema);
	return rc;
}

/* ---- progress ------------------------------------------------------------------------------------ */

struct status {
	size_t		total, done, failed, running, left, skipped;
	bool		tty, json, shown;
	double		cell_seconds;	/* summed over the cells finished in this session */
	size_t		timed;
	unsigned int	jobs;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds left: the mean host time of the cells finished so far, times
 * the waves the left and running cells still need; < 0 when unknown. */
static double eta(const struct status *st)
{
	double mean;
	size_t waves;

	if (!st->timed)
		return -1;
	mean = st->cell_seconds / (double)st->timed;
	waves = (st->left + st->running + st->jobs - 1) / st->jobs;
	return mean * (double)waves;
}

static void status_show(struct status *st, const char *event, long long cell, const char *dir)
{
	double e = eta(st);

	if (st->json) {
		printf("{\"event\": \"%s\"", event);
		if (cell >= 0)
			printf(", \"cell\": %lld, \"dir\": \"%s\"", cell, dir);
		printf(", \"cells\": %zu, \"done\": %zu, \"skipped\": %zu, \"running\": %zu, \"left\": %zu, "
		       "\"failed\": %zu, \"eta_seconds\": ", st->total, st->done, st->skipped, st->running,
		       st->left, st->failed);
		if (e < 0)
			printf("null}\n");
		else
			printf("%.0f}\n", e);
		fflush(stdout);
	}
	if (st->tty) {
		char t[32] = "?";

		if (e >= 0)
			snprintf(t, sizeof(t), "%d:%02d", (int)(e / 60), (int)e % 60);
		fprintf(stderr, "\r\033[Ksweep: %zu/%zu done, %zu running, %zu left%s%.0zu%s, ETA %s",
			st->done, st->total, st->running, st->left, st->failed ? ", " : "", st->failed,
			st->failed ? " failed" : "", t);
		fflush(stderr);
		st->shown = true;
	}
}

/* ---- the local sweep ---------------------------------------------------------------------------- */

struct job {
	pid_t	pid;
	size_t	cell;
	double	start;
};

static pid_t spawn_cell(const char *self, const char *dir, size_t k)
{
	char kbuf[24], *log = xasprintf("%s/logs/cell-%zu.log", dir, k);
	pid_t pid;

	snprintf(kbuf, sizeof(kbuf), "%zu", k);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_RDONLY);

		if (fd < 0 || nul < 0)
			_exit(126);
		dup2(nul, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(self, "slowpath", "sweep", "--cell", kbuf, dir, (char *)NULL);
		_exit(127);
	}
	free(log);
	return pid;
}

/* Run the cells in todo[] with up to `jobs` at a time.  Returns the number
 * that failed. */
static size_t run_local(const struct sweep *sw, const char *dir, const char *self, const size_t *todo,
			size_t nr_todo, struct status *st)
{
	struct job *run = xzalloc(st->jobs * sizeof(*run));
	size_t next = 0, nr_run = 0, failed = 0;

	status_show(st, "start", -1, NULL);
	while (next < nr_todo || nr_run) {
		int wstatus;
		pid_t pid;

		while (nr_run < st->jobs && next < nr_todo) {
			struct cell c;

			run[nr_run].cell = todo[next++];
			run[nr_run].start = now_s();
			run[nr_run].pid = spawn_cell(self, dir, run[nr_run].cell);
			if (run[nr_run].pid < 0) {
				fprintf(stderr, "%sslowpath sweep: fork: %s\n", st->shown ? "\n" : "",
					strerror(errno));
				st->shown = false;
				st->left--;
				st->failed++;
				failed++;
				continue;
			}
			st->left--;
			st->running++;
			cell_get(sw, ".", run[nr_run].cell, &c);
			status_show(st, "running", (long long)run[nr_run].cell, c.dir + 2);
			cell_release(sw, &c);
			nr_run++;
		}
		pid = waitpid(-1, &wstatus, st->tty ? WNOHANG : 0);
		if (pid == 0) {
			struct timespec ts = { 0, 200 * 1000 * 1000 };

			nanosleep(&ts, NULL);
			status_show(st, "tick", -1, NULL);
			continue;
		}
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (size_t i = 0; i < nr_run; i++) {
			struct cell c;
			bool ok;

			if (run[i].pid != pid)
				continue;
			ok = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
			cell_get(sw, ".", run[i].cell, &c);
			st->running--;
			if (ok) {
				st->done++;
				st->cell_seconds += now_s() - run[i].start;
				st->timed++;
			} else {
				char why[64];

				st->failed++;
				failed++;
				if (WIFSIGNALED(wstatus))
					snprintf(why, sizeof(why), "killed by signal %d", WTERMSIG(wstatus));
				else
					snprintf(why, sizeof(why), "exit status %d", WEXITSTATUS(wstatus));
				fprintf(stderr, "%sslowpath sweep: cell %zu (%s) failed: %s; see %s/logs/cell-%zu.log\n",
					st->shown ? "\r\033[K" : "", run[i].cell, c.dir + 2, why, dir, run[i].cell);
				st->shown = false;
			}
			status_show(st, ok ? "done" : "failed", (long long)run[i].cell, c.dir + 2);
			cell_release(sw, &c);
			run[i] = run[--nr_run];
			break;
		}
	}
	if (st->shown)
		fputs("\r\033[K", stderr);
	st->shown = false;
	free(run);
	return failed;
}

/* ---- the aggregate: slowpath sweep --collect DIR ----------------------------------------------- */

static int write_text(const char *dir, const char *name, const struct rpt_cmp *c, int kind, char *err,
		      size_t errlen)
{
	struct rpt_file rf;

	if (rpt_file_open(&rf, dir, name, err, errlen))
		return -1;
	if (kind == 0)
		rpt_cmp_print_text(rf.f, c, false);
	else if (kind == 1)
		rpt_cmp_print_lkp(rf.f, c);
	else if (rpt_cmp_print_json(rf.f, c)) {
		rpt_file_abort(&rf);
		return sim_errf(err, errlen, "%s/%s: cannot write JSON", dir, name);
	}
	if (ferror(rf.f)) {
		rpt_file_abort(&rf);
		return sim_errf(err, errlen, "%s/%s: write error", dir, name);
	}
	return rpt_file_commit(&rf, err, errlen);
}

/* Exit status: 0, or 1 (cells missing, or writing failed). */
static int collect(const struct sweep *sw, const char *dir, bool no_plots, bool quiet)
{
	struct rpt_set *sets = calloc(sw->nr_columns, sizeof(*sets));
	char **dirs = xzalloc(sw->seeds.n * sizeof(*dirs));
	char err[1024];
	size_t missing = 0, loaded = 0;
	struct rpt_cmp c;
	char *title, *html;
	int rc = 1;

	if (!sets)
		abort();
	for (size_t k = 0; k < sw->nr_cells; k++) {
		struct cell cl;

		cell_get(sw, dir, k, &cl);
		if (!cell_complete(&cl)) {
			if (missing++ < 10)
				fprintf(stderr, "slowpath sweep: cell %zu is not complete: %s\n", k, cl.dir);
		}
		cell_release(sw, &cl);
	}
	if (missing) {
		fprintf(stderr, "slowpath sweep: %zu of %zu cells are not complete; no aggregate written "
			"(run the sweep again to redo them)\n", missing, sw->nr_cells);
		goto out;
	}
	for (size_t col = 0; col < sw->nr_columns; col++) {
		char *label = xasprintf("cells/%s", sw->column_names[col]);
		int lrc;

		for (size_t i = 0; i < sw->seeds.n; i++)
			dirs[i] = xasprintf("%s/seed-%s", label, sw->seeds.v[i]);
		lrc = rpt_set_load_runs(&sets[col], label, sw->column_names[col], dirs,
					(unsigned int)sw->seeds.n,
					RPT_LOAD_SERIES | RPT_LOAD_PROFILE | RPT_LOAD_IOSTAT | RPT_LOAD_TRACE |
					RPT_LOAD_CPU, err,
					sizeof(err));
		loaded++;
		for (size_t i = 0; i < sw->seeds.n; i++)
			free(dirs[i]);
		free(label);
		if (lrc) {
			fprintf(stderr, "slowpath sweep: %s\n", err);
			goto out;
		}
	}
	rpt_cmp_build(&c, sets, (int)sw->nr_columns, RPT_CMP_ALL);
	rc = write_text(".", "compare.txt", &c, 0, err, sizeof(err)) ||
	     write_text(".", "compare-lkp.txt", &c, 1, err, sizeof(err)) ||
	     write_text(".", "compare.json", &c, 2, err, sizeof(err));
	rpt_cmp_release(&c);
	if (rc) {
		fprintf(stderr, "slowpath sweep: %s\n", err);
		goto out;
	}
	title = xasprintf("slowpath sweep: %s, %zu columns x %zu seeds", sw->scenario, sw->nr_columns,
			  sw->seeds.n);
	html = xasprintf("report.html");
	rc = rpt_html_report(html, sets, (int)sw->nr_columns, NULL, no_plots, false, NULL, 0, title,
			     err, sizeof(err));
	free(title);
	free(html);
	if (rc) {
		fprintf(stderr, "slowpath sweep: %s\n", err);
		rc = 1;
		goto out;
	}
	if (!quiet)
		printf("%s: aggregate of %zu cells (%zu columns x %zu seeds): compare.txt, compare-lkp.txt, "
		       "compare.json, report.html\n", dir, sw->nr_cells, sw->nr_columns, sw->seeds.n);
out:
	for (size_t i = 0; i < loaded; i++)
		rpt_set_release(&sets[i]);
	free(sets);
	free(dirs);
	return rc;
}

/* ---- Slurm ------------------------------------------------------------------------------------- */

struct slurm_opts {
	const char	*partition, *account, *time;
	const char	**extra;
	size_t		nr_extra;
	uint64_t	mem_mib;	/* 0: from the estimate */
};

/* A shell word in single quotes. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void sbatch_common(FILE *f, const struct slurm_opts *o, const char *cwd)
{
	if (o->partition)
		fprintf(f, "#SBATCH --partition=%s\n", o->partition);
	if (o->account)
		fprintf(f, "#SBATCH --account=%s\n", o->account);
	if (o->time)
		fprintf(f, "#SBATCH --time=%s\n", o->time);
	fprintf(f, "#SBATCH --chdir=%s\n", cwd);
	for (size_t i = 0; i < o->nr_extra; i++)
		fprintf(f, "%s%s\n", strncmp(o->extra[i], "#SBATCH", 7) == 0 ? "" : "#SBATCH ", o->extra[i]);
}

/* "0-3,5,7-9" */
static char *array_spec(const size_t *v, size_t n)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		abort();
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		fprintf(f, "%s%zu", i ? "," : "", v[i]);
		if (j > i)
			fprintf(f, "-%zu", v[j]);
		i = j + 1;
	}
	fclose(f);
	return s;
}

static int write_script(const char *dir, const char *name, const char *text, char *err, size_t errlen)
{
	struct rpt_file rf;

	if (rpt_file_open(&rf, dir, name, err, errlen))
		return -1;
	fputs(text, rf.f);
	if (fchmod(fileno(rf.f), 0755)) {
		rpt_file_abort(&rf);
		return sim_errf(err, errlen, "%s/%s: chmod: %s", dir, name, strerror(errno));
	}
	return rpt_file_commit(&rf, err, errlen);
}

/* Run `sbatch --parsable [--dependency=afterok:DEP] SCRIPT`; the job id, or
 * NULL after printing why. */
static char *sbatch(const char *script, const char *dep)
{
	char *cmd, line[256];
	FILE *p;
	int st;

	cmd = dep ? xasprintf("sbatch --parsable --dependency=afterok:%s '%s'", dep, script) :
		    xasprintf("sbatch --parsable '%s'", script);
	fflush(stdout);
	p = popen(cmd, "r");
	if (!p) {
		fprintf(stderr, "slowpath sweep: %s: %s\n", cmd, strerror(errno));
		free(cmd);
		return NULL;
	}
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	st = pclose(p);
	if (st != 0 || !(line[0] >= '0' && line[0] <= '9')) {
		fprintf(stderr, "slowpath sweep: %s failed (status %d)\n", cmd, st);
		free(cmd);
		return NULL;
	}
	free(cmd);
	line[strcspn(line, ";\n")] = '\0';
	return xstrdup(line);
}

/*
 * DIR/slurm/cells.sbatch (one array task per cell left to do) and
 * DIR/slurm/collect.sbatch; with submit, submit both, the collect step
 * with --dependency=afterok on the array.  Exit status.
 */
static int slurm(const struct sweep *sw, const char *dir, const char *self, const char *cwd,
		 const struct slurm_opts *o, const size_t *todo, size_t nr_todo, size_t mem_bytes,
		 bool submit, bool no_plots, bool json)
{
	char *sdir = xasprintf("%s/slurm", dir), *text = NULL, *cells = NULL, *coll = NULL, *spec;
	char *array_job = NULL, *collect_job = NULL, err[1024];
	size_t len = 0;
	uint64_t mem = o->mem_mib ? o->mem_mib :
		       ((uint64_t)mem_bytes * SLURM_MEM_FACTOR + (1u << 20) - 1) / (1u << 20) + SLURM_MEM_EXTRA_MIB;
	FILE *f;
	int rc = 1;

	if (rpt_mkdir_p(sdir, err, sizeof(err))) {
		fprintf(stderr, "slowpath sweep: %s\n", err);
		goto out;
	}
	spec = array_spec(todo, nr_todo);
	f = open_memstream(&text, &len);
	if (!f)
		abort();
	fprintf(f, "#!/bin/sh\n# slowpath sweep: one array task per cell left to do (docs/sweeps.md)\n"
		   "#SBATCH --job-name=slowpath-sweep\n#SBATCH --array=%s\n#SBATCH --ntasks=1\n"
		   "#SBATCH --cpus-per-task=1\n#SBATCH --mem=%lluM\n#SBATCH --output=%s/logs/cell-%%a.log\n",
		spec, (unsigned long long)mem, dir);
	sbatch_common(f, o, cwd);
	fputs("exec ", f);
	put_quoted(f, self);
	fputs(" sweep --cell \"$SLURM_ARRAY_TASK_ID\" ", f);
	put_quoted(f, dir);
	fputc('\n', f);
	fclose(f);
	free(spec);
	if (nr_todo && write_script(sdir, "cells.sbatch", text, err, sizeof(err))) {
		fprintf(stderr, "slowpath sweep: %s\n", err);
		goto out;
	}
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	if (!f)
		abort();
	fprintf(f, "#!/bin/sh\n# slowpath sweep: the aggregate once every cell is done (docs/sweeps.md)\n"
		   "#SBATCH --job-name=slowpath-sweep-collect\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
		   "#SBATCH --output=%s/logs/collect.log\n", dir);
	sbatch_common(f, o, cwd);
	fputs("exec ", f);
	put_quoted(f, self);
	fputs(" sweep --collect ", f);
	put_quoted(f, dir);
	fputs(no_plots ? " --no-plots\n" : "\n", f);
	fclose(f);
	if (write_script(sdir, "collect.sbatch", text, err, sizeof(err))) {
		fprintf(stderr, "slowpath sweep: %s\n", err);
		goto out;
	}
	cells = xasprintf("%s/cells.sbatch", sdir);
	coll = xasprintf("%s/collect.sbatch", sdir);
	if (!submit) {
		if (!json) {
			if (nr_todo)
				printf("%s: %zu of %zu cells to run, %llu MiB each; submit with\n"
				       "  jobid=$(sbatch --parsable %s)\n"
				       "  sbatch --dependency=afterok:$jobid %s\n", dir, nr_todo, sw->nr_cells,
				       (unsigned long long)mem, cells, coll);
			else
				printf("%s: every cell is complete; build the aggregate with\n  sbatch %s\n",
				       dir, coll);
		} else {
			printf("{\"event\": \"slurm\", \"cells\": %zu, \"to_run\": %zu, \"mem_mib\": %llu, "
			       "\"array_script\": \"%s\", \"collect_script\": \"%s\"}\n", sw->nr_cells, nr_todo,
			       (unsigned long long)mem, nr_todo ? cells : "", coll);
		}
		rc = 0;
		goto out;
	}
	if (nr_todo && !(array_job = sbatch(cells, NULL)))
		goto out;
	if (!(collect_job = sbatch(coll, array_job)))
		goto out;
	free(text);
	text = xasprintf("array %s\ncollect %s\n", array_job ? array_job : "-", collect_job);
	if (write_script(sdir, "jobs", text, err, sizeof(err))) {
		fprintf(stderr, "slowpath sweep: %s\n", err);
		goto out;
	}
	if (json)
		printf("{\"event\": \"submitted\", \"cells\": %zu, \"to_run\": %zu, \"mem_mib\": %llu, "
		       "\"array_job\": %s, \"collect_job\": %s}\n", sw->nr_cells, nr_todo,
		       (unsigned long long)mem, array_job ? array_job : "null", collect_job);
	else if (array_job)
		printf("%s: submitted job array %s (%zu cells, %llu MiB each) and collect job %s "
		       "(afterok:%s)\n", dir, array_job, nr_todo, (unsigned long long)mem, collect_job, array_job);
	else
		printf("%s: every cell is complete; submitted collect job %s\n", dir, collect_job);
	rc = 0;
out:
	free(sdir);
	free(text);
	free(cells);
	free(coll);
	free(array_job);
	free(collect_job);
	return rc;
}

/* ---- the command ---------------------------------------------------------------------------------- */

static void sweep_help(FILE *out)
{
	fprintf(out,
		"usage: slowpath sweep SWEEP.ini [options]\n"
		"       slowpath sweep SCENARIO [--policy A,B] [--seeds 1-3] [--set KEY=V1,V2]... [options]\n"
		"       slowpath sweep --collect DIR [--no-plots]\n\n"
		"Run a matrix of runs — every policy x every value of every --set x every\n"
		"seed — one result folder per cell under one sweep folder, then write the\n"
		"aggregate there: compare.txt (mmtests), compare-lkp.txt, compare.json and\n"
		"report.html, with a column per setting and its seeds as iterations.  A\n"
		"re-run skips the cells that are complete and redoes the rest.  A sweep\n"
		"file is an INI file with a [sweep] section (docs/sweeps.md).  On a\n"
		"terminal, stderr shows cells done, running, left and the ETA.\n\n"
		"  --policy A,B,...   policies (all: every variant); default: the scenario's\n"
		"  --seeds LIST       seeds, e.g. 1-3 or 1,5,9; default: the scenario's\n"
		"  --set KEY=V1,V2    sweep a scenario key over values (\\, for a comma in a\n"
		"                     value); repeatable\n"
		"  --scale 1/N        shrink every cell (see slowpath run --help)\n"
		"  --out DIR          the sweep folder (default: out/<sweep or scenario name>)\n"
		"  -j, --jobs N       cells at a time on this machine (default: all CPUs)\n"
		"  --json             status as JSON lines on stdout, for scripts\n"
		"  --list             print the cells and which are complete; run nothing\n"
		"  --no-plots         no plots in report.html (no gnuplot needed)\n"
		"  --collect DIR      only build the aggregate of the sweep folder DIR\n"
		"Slurm (one array task per cell, then a collect job, docs/sweeps.md):\n"
		"  --slurm            write DIR/slurm/cells.sbatch and collect.sbatch\n"
		"  --submit           and submit them (sbatch; collect with --dependency=afterok)\n"
		"  --partition P, --account A, --time T   the usual #SBATCH requests\n"
		"  --mem MIB          memory per cell (default: from the model's estimate)\n"
		"  --sbatch-extra L   an extra #SBATCH line (e.g. '--qos=long'); repeatable\n"
		"  --help             this text\n");
}

/* A file whose first section header is [sweep] is a sweep file. */
static bool is_sweep_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	bool yes = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *t = trim(line);

		if (*t == '[') {
			yes = strncmp(t, "[sweep]", 7) == 0;
			break;
		}
	}
	fclose(f);
	return yes;
}

static char *default_dir(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);

	if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
		n -= 4;
	return xasprintf("out/%.*s", (int)n, base);
}

/* Read DIR/sweep.ini (for --cell and --collect). */
static int load_folder(struct sweep *sw, const char *dir)
{
	char *path = xasprintf("%s/sweep.ini", dir), err[1024];
	int rc = sweep_parse_file(sw, path, err, sizeof(err));

	free(path);
	if (!rc)
		rc = sweep_expand(sw, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s\n", err);
	return rc;
}

static char *absolute(const char *path)
{
	char *r = realpath(path, NULL);

	if (!r) {
		fprintf(stderr, "slowpath sweep: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	return r;
}

enum { O_POLICY = 1000, O_SEEDS, O_SET, O_SCALE, O_OUT, O_JOBS, O_JSON, O_LIST, O_NOPLOTS, O_COLLECT,
       O_CELL, O_SLURM, O_SUBMIT, O_PARTITION, O_ACCOUNT, O_TIME, O_MEM, O_EXTRA, O_HELP };

int cli_cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, O_POLICY }, { "seeds", required_argument, NULL, O_SEEDS },
		{ "set", required_argument, NULL, O_SET }, { "scale", required_argument, NULL, O_SCALE },
		{ "out", required_argument, NULL, O_OUT }, { "jobs", required_argument, NULL, O_JOBS },
		{ "json", no_argument, NULL, O_JSON }, { "list", no_argument, NULL, O_LIST },
		{ "no-plots", no_argument, NULL, O_NOPLOTS },
		{ "collect", required_argument, NULL, O_COLLECT }, { "cell", required_argument, NULL, O_CELL },
		{ "slurm", no_argument, NULL, O_SLURM }, { "submit", no_argument, NULL, O_SUBMIT },
		{ "partition", required_argument, NULL, O_PARTITION },
		{ "account", required_argument, NULL, O_ACCOUNT }, { "time", required_argument, NULL, O_TIME },
		{ "mem", required_argument, NULL, O_MEM },
		{ "sbatch-extra", required_argument, NULL, O_EXTRA }, { "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 }
	};
	const char *policies = NULL, *seeds = NULL, *out = NULL, *collect_dir = NULL, *cell = NULL;
	const char **sets = NULL;
	size_t nr_sets = 0, mem_bytes = 0, *todo = NULL, nr_todo = 0;
	struct slurm_opts so = { 0 };
	unsigned int scale = 0;
	long jobs = 0;
	bool json = false, list = false, no_plots = false, use_slurm = false, submit = false;
	struct sweep sw = { 0 };
	char err[1024], *dir = NULL, *absdir = NULL, *cwd = NULL, self[PATH_MAX];
	struct status st = { 0 };
	int c, rc = 2;
	ssize_t n;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":j:", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case O_POLICY: policies = optarg; break;
		case O_SEEDS: seeds = optarg; break;
		case O_SET:
			sets = xrealloc(sets, (nr_sets + 1) * sizeof(*sets));
			sets[nr_sets++] = optarg;
			break;
		case O_SCALE:
			if (scn_parse_scale(optarg, &scale, err, sizeof(err))) {
				fprintf(stderr, "%s\n", err);
				goto out;
			}
			break;
		case O_OUT: out = optarg; break;
		case 'j':
		case O_JOBS:
			jobs = strtol(optarg, &end, 10);
			if (!*optarg || *end || jobs < 1 || jobs > 4096) {
				fprintf(stderr, "slowpath sweep: -j '%s': expected a whole number from 1 to 4096\n",
					optarg);
				goto out;
			}
			break;
		case O_JSON: json = true; break;
		case O_LIST: list = true; break;
		case O_NOPLOTS: no_plots = true; break;
		case O_COLLECT: collect_dir = optarg; break;
		case O_CELL: cell = optarg; break;
		case O_SLURM: use_slurm = true; break;
		case O_SUBMIT: use_slurm = submit = true; break;
		case O_PARTITION: so.partition = optarg; break;
		case O_ACCOUNT: so.account = optarg; break;
		case O_TIME: so.time = optarg; break;
		case O_MEM: {
			unsigned long long v = strtoull(optarg, &end, 10);

			if (!*optarg || *end || v < 1 || v > (1ull << 40) || optarg[0] == '-') {
				fprintf(stderr, "slowpath sweep: --mem '%s': expected MiB, a whole number\n", optarg);
				goto out;
			}
			so.mem_mib = v;
			break;
		}
		case O_EXTRA:
			if (strchr(optarg, '\n')) {
				fprintf(stderr, "slowpath sweep: --sbatch-extra: one line only\n");
				goto out;
			}
			so.extra = xrealloc(so.extra, (so.nr_extra + 1) * sizeof(*so.extra));
			so.extra[so.nr_extra++] = optarg;
			break;
		case O_HELP:
			sweep_help(stdout);
			rc = 0;
			goto out;
		case ':':
			fprintf(stderr, "slowpath sweep: option '%s' needs a value (see slowpath sweep --help)\n",
				argv[optind - 1]);
			goto out;
		default:
			fprintf(stderr, "slowpath sweep: unknown option '%s' (see slowpath sweep --help)\n",
				argv[optind - 1]);
			goto out;
		}
	}

	/* --cell K DIR: one cell (a child of the local sweep, or a Slurm array task) */
	if (cell) {
		char *end;
		unsigned long long k = strtoull(cell, &end, 10);

		if (optind + 1 != argc || !*cell || *end) {
			fprintf(stderr, "slowpath sweep: usage: slowpath sweep --cell K DIR\n");
			goto out;
		}
		if (!(absdir = absolute(argv[optind])) || load_folder(&sw, absdir))
			goto out;
		if (k >= sw.nr_cells) {
			fprintf(stderr, "slowpath sweep: --cell %llu: the sweep has %zu cells\n", k, sw.nr_cells);
			goto out;
		}
		if (sw.directory && chdir(sw.directory)) {
			fprintf(stderr, "slowpath sweep: %s: %s\n", sw.directory, strerror(errno));
			rc = 1;
			goto out;
		}
		rc = run_cell(&sw, absdir, (size_t)k);
		goto out;
	}
	if (collect_dir) {
		if (optind != argc) {
			fprintf(stderr, "slowpath sweep: unexpected argument '%s' with --collect\n", argv[optind]);
			goto out;
		}
		if (!(absdir = absolute(collect_dir)) || load_folder(&sw, absdir))
			goto out;
		if (chdir(absdir)) {
			fprintf(stderr, "slowpath sweep: %s: %s\n", absdir, strerror(errno));
			rc = 1;
			goto out;
		}
		rc = collect(&sw, absdir, no_plots, json);
		goto out;
	}

	/* the matrix: a sweep file, or a scenario and the options */
	if (optind >= argc) {
		fprintf(stderr, "slowpath sweep: missing SWEEP.ini or SCENARIO (see slowpath sweep --help)\n");
		goto out;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "slowpath sweep: unexpected argument '%s' (see slowpath sweep --help)\n",
			argv[optind + 1]);
		goto out;
	}
	if (is_sweep_file(argv[optind])) {
		if (sweep_parse_file(&sw, argv[optind], err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			goto out;
		}
	} else {
		sw.file = xstrdup(argv[optind]);
		sw.scenario = xstrdup(argv[optind]);
		sw.scale = 1;
	}
	/* command-line options override the file */
	if (policies) {
		list_release(&sw.policies);
		if (parse_policies(policies, &sw.policies, err, sizeof(err))) {
			fprintf(stderr, "slowpath sweep: --policy: %s\n", err);
			goto out;
		}
	}
	if (seeds) {
		list_release(&sw.seeds);
		if (parse_seeds(seeds, &sw.seeds, err, sizeof(err))) {
			fprintf(stderr, "slowpath sweep: --%s\n", err);
			goto out;
		}
	}
	if (scale) {
		sw.scale = scale;
		sw.scale_line = 0;
	}
	for (size_t i = 0; i < nr_sets; i++) {
		const char *eq = strchr(sets[i], '=');

		for (size_t j = 0; eq && j < sw.nr_sets; j++)
			if (strlen(sw.sets[j].key) == (size_t)(eq - sets[i]) &&
			    strncmp(sw.sets[j].key, sets[i], (size_t)(eq - sets[i])) == 0) {
				free(sw.sets[j].key);
				list_release(&sw.sets[j].values);
				sw.sets[j] = sw.sets[--sw.nr_sets];
				break;
			}
		if (parse_set(&sw, sets[i], 0, err, sizeof(err))) {
			fprintf(stderr, "slowpath sweep: --%s\n", err);
			goto out;
		}
	}
	if (sweep_check(&sw, &mem_bytes, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}

	/* the folder: DIR/sweep.ini first, then the cells */
	rc = 1;
	dir = out ? xstrdup(out) : default_dir(is_sweep_file(argv[optind]) ? argv[optind] :
					       xasprintf("sweep-%s", strrchr(sw.scenario, '/') ?
							 strrchr(sw.scenario, '/') + 1 : sw.scenario));
	cwd = getcwd(NULL, 0);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (!cwd || n <= 0) {
		fprintf(stderr, "slowpath sweep: cannot find the current folder or this program\n");
		goto out;
	}
	self[n] = '\0';
	if (!sw.directory)
		sw.directory = xstrdup(cwd);
	{
		char *logs = xasprintf("%s/logs", dir);
		struct rpt_file rf;

		if (rpt_mkdir_p(logs, err, sizeof(err)) || rpt_file_open(&rf, dir, "sweep.ini", err, sizeof(err))) {
			free(logs);
			fprintf(stderr, "slowpath sweep: %s\n", err);
			goto out;
		}
		free(logs);
		sweep_print(&sw, rf.f);
		if (rpt_file_commit(&rf, err, sizeof(err))) {
			fprintf(stderr, "slowpath sweep: %s\n", err);
			goto out;
		}
	}
	if (!(absdir = absolute(dir)))
		goto out;
	todo = xzalloc(sw.nr_cells * sizeof(*todo));
	for (size_t k = 0; k < sw.nr_cells; k++) {
		struct cell cl;
		bool done;

		cell_get(&sw, absdir, k, &cl);
		done = cell_complete(&cl);
		if (!done)
			todo[nr_todo++] = k;
		if (list) {
			if (json)
				printf("{\"cell\": %zu, \"dir\": \"%s/cells/%s/seed-%s\", \"policy\": \"%s\", "
				       "\"seed\": \"%s\", \"complete\": %s}\n", k, dir, sw.column_names[cl.column],
				       cl.seed, cl.policy, cl.seed, done ? "true" : "false");
			else
				printf("%zu %s %s/cells/%s/seed-%s\n", k, done ? "complete" : "todo", dir,
				       sw.column_names[cl.column], cl.seed);
		}
		cell_release(&sw, &cl);
	}
	if (list) {
		rc = 0;
		goto out;
	}
	if (use_slurm) {
		rc = slurm(&sw, absdir, self, cwd, &so, todo, nr_todo, mem_bytes, submit, no_plots, json);
		goto out;
	}
	if (!jobs) {
		jobs = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = jobs < 1 ? 1 : jobs;
	}
	st.total = sw.nr_cells;
	st.skipped = st.done = sw.nr_cells - nr_todo;
	st.left = nr_todo;
	st.jobs = (unsigned int)jobs;
	st.json = json;
	st.tty = isatty(STDERR_FILENO) == 1;
	if (!json)
		printf("%s: %zu cells (%zu columns x %zu seeds), %zu complete, %zu to run, %ld at a time\n",
		       dir, sw.nr_cells, sw.nr_columns, sw.seeds.n, st.skipped, nr_todo, jobs);
	fflush(stdout);
	if (run_local(&sw, absdir, self, todo, nr_todo, &st)) {
		fprintf(stderr, "slowpath sweep: %zu of %zu cells failed; no aggregate written (run the sweep "
			"again to redo them)\n", st.failed, sw.nr_cells);
		if (json)
			status_show(&st, "end", -1, NULL);
		goto out;
	}
	if (chdir(absdir)) {
		fprintf(stderr, "slowpath sweep: %s: %s\n", absdir, strerror(errno));
		goto out;
	}
	rc = collect(&sw, dir, no_plots, json);
	if (json)
		status_show(&st, rc ? "end" : "collected", -1, NULL);
out:
	sweep_release(&sw);
	free(sets);
	free(so.extra);
	free(dir);
	free(absdir);
	free(cwd);
	free(todo);
	return rc;
}
