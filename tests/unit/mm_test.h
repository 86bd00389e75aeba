/* SPDX-License-Identifier: MIT */
/*
 * mm_test.h — helpers shared by the test_mm_*.c programs: build a small
 * machine from scenario-style values, and small state probes.  Header-only
 * (static functions), included by each test program.
 */
#ifndef SLOWPATH_TEST_MM_TEST_H
#define SLOWPATH_TEST_MM_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mm/internal.h"
#include "mm/machine.h"
#include "sim/option.h"
#include "sim/sim.h"

struct mm_env {
	struct sim		*sim;
	struct machine		*m;
	struct machine_config	cfg;
	struct vm_sysctl	sysctl;
	char			err[512];
};

/* Defaults of both option tables, then "key=value" overrides (machine keys
 * and sysctl keys mixed), NULL-terminated. */
static inline int mm_env_config(struct mm_env *e, const char *const *kv)
{
	memset(e, 0, sizeof(*e));
	if (opt_apply_defaults(machine_options, &e->cfg) || opt_apply_defaults(vm_sysctl_options, &e->sysctl))
		return -1;
	for (; kv && *kv; kv++) {
		char key[128];
		const char *eq = strchr(*kv, '=');
		const struct opt_def *o;

		if (!eq || (size_t)(eq - *kv) >= sizeof(key))
			return -1;
		memcpy(key, *kv, (size_t)(eq - *kv));
		key[eq - *kv] = '\0';
		if ((o = opt_find(machine_options, key))) {
			if (opt_parse_value(o, &e->cfg, eq + 1, e->err, sizeof(e->err)))
				return -1;
		} else if ((o = opt_find(vm_sysctl_options, key))) {
			if (opt_parse_value(o, &e->sysctl, eq + 1, e->err, sizeof(e->err)))
				return -1;
		} else {
			snprintf(e->err, sizeof(e->err), "unknown key '%s'", key);
			return -1;
		}
	}
	return 0;
}

/* Build the machine; NULL (and e->err) on a configuration error.  In
 * SIM_DEBUG>=3 builds mm_check runs after every mm operation (a violation
 * stops the test program); tests that break invariants on purpose, or run
 * long loops on large machines, set their own interval. */
static inline struct machine *mm_env_create_policy(struct mm_env *e, const char *const *kv,
						   const struct mm_policy *policy)
{
	struct sim_config sc = { 0 };

	if (mm_env_config(e, kv))
		return NULL;
	sc.ncpus = (unsigned int)e->cfg.cpus;
	sc.seed = 1;
	e->sim = sim_create(&sc);
	e->m = machine_create(e->sim, &e->cfg, &e->sysctl, policy, e->err, sizeof(e->err));
	if (e->m)
		mm_set_check_interval(e->m, 1);
	return e->m;
}

static inline struct machine *mm_env_create(struct mm_env *e, const char *const *kv)
{
	return mm_env_create_policy(e, kv, NULL);
}

static inline void mm_env_destroy(struct mm_env *e)
{
	machine_destroy(e->m);
	if (e->sim)
		sim_destroy(e->sim);
	opt_release(machine_options, &e->cfg);
	opt_release(vm_sysctl_options, &e->sysctl);
	e->m = NULL;
	e->sim = NULL;
}

static inline struct zone *mm_zone(struct machine *m, enum zone_type z)
{
	return &m->node.node_zones[z];
}

/* Free pages on the buddy lists (exact). */
static inline long mm_free_pages(struct machine *m, enum zone_type z)
{
	return zone_page_state_exact(mm_zone(m, z), NR_FREE_PAGES);
}

/* Pages on every CPU's pcp lists of a zone. */
static inline long mm_pcp_pages(struct machine *m, enum zone_type z)
{
	long n = 0;
	struct zone *zone = mm_zone(m, z);

	if (!zone->per_cpu_pageset)
		return 0;
	for (unsigned int cpu = 0; cpu < m->nr_cpus; cpu++)
		n += zone->per_cpu_pageset[cpu].count;
	return n;
}

/* Take every free page at order 0 as PGTY_KERNEL, below the watermarks
 * too (ALLOC_NO_WATERMARKS), into held[] (room for nr_pfns); returns how
 * many.  Tests free a pattern of them back to shape the free lists. */
static inline unsigned long mm_take_all_order0(struct machine *m, pfn_t *held)
{
	struct alloc_context ac;
	unsigned int flags = 0;
	unsigned long n = 0;
	pfn_t pfn;

	prepare_alloc_pages(m, GFP_KERNEL, 0, &ac, &flags);
	while ((pfn = get_page_from_freelist(m, GFP_KERNEL, 0, ALLOC_NO_WATERMARKS, &ac)) != PFN_NONE) {
		set_page_type_order(pfn_to_page(m, pfn), PGTY_KERNEL, 0);
		held[n++] = pfn;
	}
	return n;
}

/* mm_check, failing the current test with the message. */
#define ASSERT_MM_OK(m) do {						\
	char _buf[4096];						\
	if (mm_check_msg((m), _buf, sizeof(_buf))) {			\
		harness_fail(__FILE__, __LINE__, "mm_check: %s", _buf);	\
		return;							\
	}								\
} while (0)

/* Render one of the /proc files into a malloc'ed string. */
static inline char *mm_render(const struct machine *m, void (*show)(const struct machine *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	show(m, f);
	fclose(f);
	return buf;
}

/* A whole file as a malloc'ed string (NULL if unreadable). */
static inline char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc((size_t)n + 1, 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* The first differing line of two texts, for a failure message. */
static inline void mm_first_diff(const char *a, const char *b, char *out, size_t len)
{
	int line = 1;

	while (*a && *a == *b) {
		if (*a == '\n')
			line++;
		a++;
		b++;
	}
	while (line > 1 && a[-1] != '\n')
		a--, b--;
	snprintf(out, len, "line %d:\n  expected: %.*s\n  got:      %.*s", line,
		 (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

/*
 * Compare `got` with the golden file `path`, failing the current test at
 * file:line with the first differing line; with UPDATE_GOLDEN set in the
 * environment, (re)write the file instead (review the diff!).
 */
static inline void mm_check_golden(const char *file, int line, const char *path, const char *got)
{
	char diff[512];
	char *want;

	if (getenv("UPDATE_GOLDEN")) {
		char tmp[300];
		FILE *f;

		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		f = fopen(tmp, "w");
		if (!f || fputs(got, f) < 0 || fclose(f) || rename(tmp, path))
			harness_fail(file, line, "cannot write %s", path);
		return;
	}
	want = slurp(path);
	if (!want) {
		harness_fail(file, line, "%s missing (UPDATE_GOLDEN=1 creates it)", path);
		return;
	}
	if (strcmp(want, got) != 0) {
		mm_first_diff(want, got, diff, sizeof(diff));
		harness_fail(file, line, "%s differs, %s", path, diff);
	}
	free(want);
}

/* Hold / release this CPU's pcp lock of a zone so allocations and frees
 * take the buddy path (as when a remote drain holds it). */
static inline void mm_hold_pcp(struct machine *m, enum zone_type z, int hold)
{
	struct per_cpu_pages *pcp = &mm_zone(m, z)->per_cpu_pageset[sim_cpu(m->sim)];

	if (hold)
		(void)sim_spin_trylock(m->sim, &pcp->lock);
	else
		sim_spin_unlock(m->sim, &pcp->lock);
}

#endif
