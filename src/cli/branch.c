/* SPDX-License-Identifier: MIT */
/*
 * branch.c — the specifications of `slowpath run --branch-at TIME
 * --branch NAME[:KEY=VALUE,...]` (docs/branches.md), checked before the
 * run starts, so that a mistake costs nothing of the shared prefix.
 *
 * A branch is the scenario as the command line made it plus its own
 * KEY=VALUE changes, applied the way --set applies them (policy=NAME is
 * --policy).  Only [costs], [policy] and [sysctl] may differ from the
 * scenario the prefix ran: costs and policy are read where they act
 * (sim_costs(), mm_pol()), and the sysctls are written at the branch
 * instant as `sysctl -w` would write them (machine_apply_sysctl: new
 * watermarks and per-CPU list limits for the values that size them), so
 * every later decision follows them and nothing already built changes.
 * Two kinds of sysctl stay fixed: vm.nr_hugepages (the model reserves the
 * hugetlb pool at the start; the kernel would grow or shrink it at the
 * write) and the kernel.* detectors (read once by the run).  Everything
 * else — the machine's size, the scheduler, the workloads' configuration —
 * is fixed once the run has started, so a change there is refused, naming
 * the first key that differs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/branch.h"
#include "cli/sections.h"
#include "sim/option.h"
#include "sim/xalloc.h"
#include "workload/workload.h"

/* May a branch change `key` of a section of `kind`? */
static bool branch_may_change(const char *kind, const char *key)
{
	if (strcmp(kind, "costs") == 0 || strcmp(kind, "policy") == 0)
		return true;
	return strcmp(kind, "sysctl") == 0 && strcmp(key, "vm.nr_hugepages") != 0 &&
	       strncmp(key, "kernel.", 7) != 0;
}

/* The first key a branch may not change whose value in `v` is not the one
 * in `base`, as "[kind NAME] key"; false when none. */
static bool first_fixed_change(const struct scenario *base, const struct scenario *v, char *buf, size_t len)
{
	if (scn_nr_instances(base) != scn_nr_instances(v)) {	/* --set adds none today */
		snprintf(buf, len, "the scenario's sections");
		return true;
	}
	for (size_t i = 0; i < scn_nr_instances(base); i++) {
		const struct scn_instance *a = scn_instance_at(base, i), *b = scn_instance_at(v, i);

		for (const struct opt_def *o = a->type->options; o && o->key; o++) {
			char x[256], y[256];

			if (branch_may_change(a->type->kind, o->key))
				continue;

			if (o->type == OPT_STRING) {
				const char *p = *(char *const *)((const char *)a->config + o->offset);
				const char *q = *(char *const *)((const char *)b->config + o->offset);

				snprintf(x, sizeof(x), "%s", p ? p : "");
				snprintf(y, sizeof(y), "%s", q ? q : "");
			} else {
				opt_format_value(o, a->config, x, sizeof(x));
				opt_format_value(o, b->config, y, sizeof(y));
			}
			if (strcmp(x, y) != 0) {
				snprintf(buf, len, a->name[0] ? "[%s %s] %s" : "[%s%s] %s", a->type->kind, a->name,
					 o->key);
				return true;
			}
		}
	}
	return false;
}

/* A folder name: letters, digits and ._+- , not starting with a dot. */
static bool good_name(const char *s, size_t n)
{
	if (n == 0 || n > 100 || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", s[i]))
			return false;
	return true;
}

/* One --branch: its name, its scenario.  0, or 2 after the message. */
static int branch_one(const struct scn_schema *schema, const struct cli_args *a, const struct scenario *base,
		      const char *spec, struct run_branch *b)
{
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	struct cli_args va = *a;
	char *list, *save = NULL, err[1024], what[400], pol[300];
	const char **sets;
	size_t nr = 0;

	if (!good_name(spec, n)) {
		fprintf(stderr, "--branch '%s': the name before ':' must be letters, digits and ._+- "
			"(a folder name), not starting with '.'\n", spec);
		return 2;
	}
	b->name = xstrndup(spec, n);
	b->changes = colon ? colon + 1 : "";
	/* the base's --policy becomes a set before the branch's own keys, so
	 * that a branch's policy= or policy.preset= wins over it */
	sets = xmalloc((a->nr_sets + 2 + strlen(b->changes)) * sizeof(*sets));
	for (size_t i = 0; i < a->nr_sets; i++)
		sets[nr++] = a->sets[i];
	if (a->policy) {
		snprintf(pol, sizeof(pol), "policy.preset=%s", a->policy);
		sets[nr++] = pol;
	}
	va.policy = NULL;
	list = xstrdup(b->changes);
	for (char *kv = strtok_r(list, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		if (!strchr(kv, '=')) {
			fprintf(stderr, "--branch '%s': '%s' is not KEY=VALUE\n", spec, kv);
			goto bad;
		}
		if (strncmp(kv, "policy=", 7) == 0)
			va.policy = kv + 7;
		else
			sets[nr++] = kv;
	}
	if (colon && !colon[1]) {
		fprintf(stderr, "--branch '%s': nothing after ':' (a branch without changes is "
			"--branch %s)\n", spec, b->name);
		goto bad;
	}
	va.sets = sets;
	va.nr_sets = nr;
	b->s = cli_load_scenario_err(schema, &va, err, sizeof(err));
	if (!b->s) {
		fprintf(stderr, "--branch '%s': %s\n", spec, err);
		goto bad;
	}
	if (first_fixed_change(base, b->s, what, sizeof(what))) {
		fprintf(stderr, "--branch '%s': changes %s; a branch may change only [costs], [policy] "
			"and [sysctl] keys but vm.nr_hugepages and kernel.* (the rest is fixed once the "
			"run has started)\n", spec, what);
		goto bad;
	}
	free(list);
	free(sets);
	return 0;
bad:
	free(list);
	free(sets);
	return 2;
}

int branch_setup(const struct scn_schema *schema, const struct cli_args *a, const struct scenario *base,
		 sim_time_t *at, struct run_branch **out, size_t *n)
{
	const struct scn_global *g = scn_config(base, "global", NULL);
	struct scn_global t = { 0 };
	struct run_branch *b;
	char err[300];

	*out = NULL;
	*n = 0;
	if (!a->branch_at && !a->nr_branches)
		return 0;
	if (!a->branch_at || !a->nr_branches) {
		fprintf(stderr, "slowpath run: --branch-at and --branch go together (see slowpath run "
			"--help)\n");
		return 2;
	}
	if (a->iterations > 1) {
		fprintf(stderr, "slowpath run: --branch-at cannot be combined with --iterations\n");
		return 2;
	}
	if (opt_parse_value(opt_find(scn_global_options, "duration"), &t, a->branch_at, err, sizeof(err))) {
		fprintf(stderr, "--branch-at '%s': expected a time: a number with an optional ns, us, ms, s, "
			"m or h suffix\n", a->branch_at);
		return 2;
	}
	if (t.duration == 0 || t.duration >= g->duration || t.duration % g->sample_interval) {
		fprintf(stderr, "--branch-at '%s': must lie inside the run (0 < TIME < duration=%.3f s) "
			"on a multiple of sample_interval=%.3f s\n", a->branch_at, (double)g->duration / 1e9,
			(double)g->sample_interval / 1e9);
		return 2;
	}
	for (size_t i = 0; i < scn_nr_instances(base); i++) {
		const struct scn_instance *in = scn_instance_at(base, i);
		const struct workload_type *wt = in->type->data;
		const char *key = wt && wt->streams ? wt->streams(in->config) : NULL;
		char place[300];

		if (!key)
			continue;
		scn_key_place(in, key, place, sizeof(place));
		fprintf(stderr, "%s%s[%s%s%s] %s: the workload writes this file during the run, which "
			"branches cannot share; --branch-at needs it off\n", place, place[0] ? ": " : "",
			in->type->kind, in->name[0] ? " " : "", in->name, key);
		return 2;
	}
	b = xcalloc(a->nr_branches, sizeof(*b));
	for (size_t i = 0; i < a->nr_branches; i++) {
		int rc = branch_one(schema, a, base, a->branches[i], &b[i]);

		for (size_t j = 0; j < i && !rc; j++)
			if (strcmp(b[j].name, b[i].name) == 0) {
				fprintf(stderr, "--branch '%s': the name '%s' is given twice\n", a->branches[i],
					b[i].name);
				rc = 2;
			}
		if (rc) {
			branch_release(b, i + 1);
			return rc;
		}
	}
	*at = t.duration;
	*out = b;
	*n = a->nr_branches;
	return 0;
}

void branch_release(struct run_branch *b, size_t n)
{
	for (size_t i = 0; b && i < n; i++) {
		free(b[i].name);
		scn_destroy(b[i].s);
	}
	free(b);
}
