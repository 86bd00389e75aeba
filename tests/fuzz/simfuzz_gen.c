/* SPDX-License-Identifier: MIT */
/*
 * simfuzz_gen.c — the scenario generator of the simulation fuzzer
 * (tests/fuzz/simfuzz.sh; issue 15 item 11).
 *
 *   simfuzz-gen SEED        print one valid scenario derived from SEED
 *
 * The scenario is valid (it passes the same parse and validation as
 * `slowpath check` and `slowpath run`) but extreme: a tiny machine, a run
 * of a few milliseconds, one to three workload sections of any kind, and a
 * share of the keys of every section set to the edges the option tables
 * allow — the minimum, the maximum, zero, a thousandth or a thousand times
 * the default — with the cost table sometimes all zero.  The values come
 * from the option tables themselves (sim/option.h), so a key added to a
 * table is fuzzed without touching this file.
 *
 * An attempt that does not validate is thrown away and the next one is
 * drawn from (SEED, attempt); the output is a function of SEED alone.  The
 * driver runs the scenario under the sanitizer build with a time limit: a
 * crash, a sanitizer report, a BUG or the limit counts as a finding.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/scenario.h"
#include "cli/sections.h"
#include "mm/policy.h"
#include "workload/workload.h"

#define MAX_ATTEMPTS	20000

/* ---- random numbers: splitmix64, private to the generator ------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* true with probability pct/100 */
static int chance(unsigned int pct)
{
	return below(100) < pct;
}

#define PICK(arr) (arr)[below(sizeof(arr) / sizeof((arr)[0]))]

/* ---- one section: a value text per option row (NULL = the default) ---------------------- */

struct gen_section {
	const struct scn_section_type *type;
	char		name[32];
	char		**val;		/* per row */
	size_t		nr;
};

static void sec_init(struct gen_section *g, const struct scn_section_type *t, const char *name)
{
	g->type = t;
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->nr = 0;
	while (t->options[g->nr].key)
		g->nr++;
	g->val = calloc(g->nr ? g->nr : 1, sizeof(*g->val));
	if (!g->val)
		abort();
}

static void sec_release(struct gen_section *g)
{
	for (size_t i = 0; i < g->nr; i++)
		free(g->val[i]);
	free(g->val);
}

static void sec_set(struct gen_section *g, const char *key, const char *value)
{
	for (size_t i = 0; i < g->nr; i++)
		if (strcmp(g->type->options[i].key, key) == 0) {
			free(g->val[i]);
			g->val[i] = strdup(value);
			return;
		}
	fprintf(stderr, "simfuzz-gen: no key '%s' in [%s]\n", key, g->type->kind);
	abort();
}

static void sec_print(const struct gen_section *g, FILE *out)
{
	fprintf(out, g->name[0] ? "[%s %s]\n" : "[%s]\n", g->type->kind, g->name);
	for (size_t i = 0; i < g->nr; i++)
		if (g->val[i])
			fprintf(out, "%s=%s\n", g->type->options[i].key, g->val[i]);
	fputc('\n', out);
}

/* ---- an extreme value for one numeric option, from its row ------------------------------ */

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The largest value worth trying where the row sets no maximum. */
static uint64_t open_top(const struct opt_def *o)
{
	switch (o->type) {
	case OPT_SIZE:		return 1ULL << 40;		/* 1 TiB */
	case OPT_TIME:		return 3600ULL * 1000000000ULL;	/* an hour */
	case OPT_PERCENT:	return 1000000;
	case OPT_COST:		return 1000000000ULL;		/* 1 ms in ps */
	case OPT_U32:		return UINT32_MAX;
	default:		return 1ULL << 32;
	}
}

/* Render `v` for `o` as scenario text through the option's own formatter. */
static void format_u64(const struct opt_def *o, uint64_t v, char *buf, size_t len)
{
	struct opt_def row = *o;
	union { uint64_t u; int64_t i; uint32_t u32; bool b; int e; } field;

	row.offset = 0;
	memset(&field, 0, sizeof(field));
	switch (o->type) {
	case OPT_BOOL:	field.b = v & 1; break;
	case OPT_ENUM:	field.e = (int)v; break;
	case OPT_U32:	field.u32 = (uint32_t)v; break;
	case OPT_INT:	field.i = (int64_t)v; break;
	default:	field.u = v; break;
	}
	opt_format_value(&row, &field, buf, len);
}

/* The default of a numeric row as a number. */
static uint64_t default_u64(const struct opt_def *o)
{
	struct opt_def row = *o;
	union { uint64_t u; int64_t i; uint32_t u32; } field;
	char err[256];

	row.offset = 0;
	memset(&field, 0, sizeof(field));
	if (o->def && opt_parse_value(&row, &field, o->def, err, sizeof(err)))
		return 0;
	return o->type == OPT_U32 ? field.u32 : o->type == OPT_INT ? (uint64_t)field.i : field.u;
}

/*
 * Task counts stop at MAX_TASKS: each simulated task has a host stack with
 * a guard page, two host mappings, and vm.max_map_count (65530 by default)
 * ends a run of 1000000 synthetic tasks with "BUG ... cannot protect a
 * stack guard page" (seed 42; open: the run should refuse it up front).
 * 20000 writer tasks took 25 s under ASan (seed 68), past the per-run
 * limit that tells a hang; 2000 keep every run well inside it.
 */
#define MAX_TASKS	2000

static int is_task_count(const char *key)
{
	static const char *const keys[] = { "tasks", "clients", "children", "numjobs", NULL };

	for (const char *const *k = keys; *k; k++)
		if (!strcmp(key, *k))
			return 1;
	return 0;
}

/* An edge value for a row; 0 with the text in buf, -1 for rows left alone. */
static int extreme(const struct opt_def *o, char *buf, size_t len)
{
	uint64_t lo, hi, def, v;
	int n = 0;

	switch (o->type) {
	case OPT_STRING:
		return -1;
	case OPT_BOOL:
		format_u64(o, below(2), buf, len);
		return 0;
	case OPT_ENUM:
		while (o->enum_names && o->enum_names[n])
			n++;
		format_u64(o, below((uint64_t)n), buf, len);
		return 0;
	case OPT_INT:		/* signed ranges: the default only shifted by one */
		return -1;
	default:
		break;
	}
	lo = o->min;
	hi = o->max ? o->max : open_top(o);
	if (is_task_count(o->key) && hi > MAX_TASKS)
		hi = MAX_TASKS;
	def = default_u64(o);
	switch (below(12)) {
	case 0:  v = lo; break;
	case 1:  v = lo + 1; break;
	case 2:  v = hi; break;
	case 3:  v = hi - 1; break;
	case 4:  v = 0; break;
	case 5:  v = 1; break;
	case 6:  v = def / 1000; break;
	case 7:  v = def > hi / 1000 ? hi : def * 1000; break;
	case 8:  v = def / 2; break;
	case 9:  v = def > hi / 2 ? hi : def * 2; break;
	case 10: v = lo + below(16); break;
	default: {	/* log-uniform in [lo, hi] */
		unsigned int bits = 1 + (unsigned int)below(64);
		v = bits >= 64 ? rnd() : rnd() & ((1ULL << bits) - 1);
		break;
	}
	}
	v = clamp(v, lo, hi);
	/* sizes in whole 4 KiB pages now and then, odd byte counts otherwise */
	if (o->type == OPT_SIZE && chance(50) && v >= 4096)
		v &= ~4095ULL;
	format_u64(o, v, buf, len);
	return 0;
}

/* Set about pct % of the section's numeric keys to edge values. */
static void fuzz_key(struct gen_section *g, size_t i, unsigned int pct)
{
	char buf[64];

	if (!chance(pct) || extreme(&g->type->options[i], buf, sizeof(buf)))
		return;
	free(g->val[i]);
	g->val[i] = strdup(buf);
}

/* Keys after `late` (NULL: none) are left for fuzz_late_keys. */
static void fuzz_keys_upto(struct gen_section *g, unsigned int pct, const char *late)
{
	for (size_t i = 0; i < g->nr && !(late && !strcmp(g->type->options[i].key, late)); i++)
		fuzz_key(g, i, pct);
}

static void fuzz_keys(struct gen_section *g, unsigned int pct)
{
	fuzz_keys_upto(g, pct, NULL);
}

/* Keys added to a section after its seeds were in use draw last, after
 * every other section, so that each seed keeps the scenario it had: from
 * `late` up to `stop` (NULL: to the end; a later batch of new keys starts
 * at its own `late` and draws after every earlier batch). */
static void fuzz_late_keys_until(struct gen_section *g, unsigned int pct, const char *late,
				 const char *stop)
{
	size_t i = 0;

	while (i < g->nr && strcmp(g->type->options[i].key, late))
		i++;
	for (; i < g->nr && !(stop && !strcmp(g->type->options[i].key, stop)); i++)
		fuzz_key(g, i, pct);
}

static void fuzz_late_keys(struct gen_section *g, unsigned int pct, const char *late)
{
	fuzz_late_keys_until(g, pct, late, NULL);
}

static int has_key(const struct gen_section *g, const char *key)
{
	return opt_find(g->type->options, key) != NULL;
}

/* ---- the scenario ------------------------------------------------------------------------- */

/*
 * Each workload kind starts from a small body (so that its defaults, sized
 * for a 384 GiB machine, do not make every attempt invalid), then its keys
 * are fuzzed like every other section's.
 */
static const struct { const char *kind; const char *body; } small_bodies[] = {
	{ "synthetic", "tasks=2 think=100us compute=20us io_span=16m" },
	{ "pgbench", "clients=2 scale=1 shared_buffers=2m wal_buffers=256k wal_segment_size=1m "
		     "min_wal_size=2m max_wal_size=8m wal_recycled=2m backend_memory=64k" },
	{ "fio", "numjobs=2 iodepth=4 size=16m" },
	{ "fragment", "tasks=1 kernel_pages=4 kernel_max=64 highorder_every=4 highorder_order=3" },
	{ "forker", "size=4m children=2 align=2m" },
	{ "writer", "file_size=2m write_sizes=8k,64k" },
};

static void apply_body(struct gen_section *g, const char *body)
{
	char *copy = strdup(body), *save = NULL;

	for (char *kv = strtok_r(copy, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(kv, '=');

		*eq = '\0';
		if (has_key(g, kv))
			sec_set(g, kv, eq + 1);
	}
	free(copy);
}

static const struct scn_section_type *type_of(const struct scn_schema *schema, const char *kind)
{
	for (size_t i = 0; i < schema->nr_types; i++)
		if (strcmp(schema->types[i].kind, kind) == 0)
			return &schema->types[i];
	abort();
}

/* Strings the tables cannot suggest: a few values that are valid, some at an edge. */
static void string_keys(struct gen_section *g, int nr_devices)
{
	static const char *const write_sizes[] = { "4k", "512", "1m", "8k,64k,2m", "1g", "4k,4k,4k" };
	static const char *const cpus_allowed[] = { "", "0", "0-1", "1" };
	static const char *const multipliers[] = { "0", "2.0", "10" };
	static const char *const lowmem[] = { "256 256 32 0", "0 0 0 0", "1 1 1 1", "32" };
	const char *dev = nr_devices > 1 && chance(50) ? "d1" : "d0";

	for (size_t i = 0; i < g->nr; i++) {
		const char *key = g->type->options[i].key;

		if (g->type->options[i].type != OPT_STRING)
			continue;
		if (!strcmp(key, "device") || !strcmp(key, "filename"))
			sec_set(g, key, dev);
		else if (!strcmp(key, "cache_device") && chance(50))
			sec_set(g, key, dev);
		else if (!strcmp(key, "write_sizes") && chance(50))
			sec_set(g, key, PICK(write_sizes));
		else if (!strcmp(key, "cpus_allowed") && chance(30))
			sec_set(g, key, PICK(cpus_allowed));
		else if (!strcmp(key, "bgwriter_lru_multiplier") && chance(30))
			sec_set(g, key, PICK(multipliers));
		else if (!strcmp(key, "vm.lowmem_reserve_ratio") && chance(20))
			sec_set(g, key, PICK(lowmem));
	}
}

#define MAX_SECTIONS	16

/* One attempt: the scenario text (malloc'ed). */
static char *generate(const struct scn_schema *schema)
{
	static const char *const durations[] = { "1ms", "1ms", "2ms", "3ms", "10ms", "50ms" };
	static const char *const intervals[] = { "1ms", "3ms", "1s", "7ms" };
	static const char *const memories[] = { "4m", "8m", "12m", "16m", "32m", "64m" };
	static const char *const zones[] = { "Normal:rest", "DMA:4m,Normal:rest",
					     "DMA32:rest", "DMA:4m,DMA32:4m,Normal:rest" };
	static const char *const cpus[] = { "1", "1", "2", "3", "7", "64" };
	struct gen_section secs[MAX_SECTIONS];
	size_t ns = 0, nw, kernel, machine;
	int nr_devices = 1 + (int)chance(25), pgbench_used = 0, pg_sec = -1;
	char buf[64], *text = NULL;
	size_t len = 0;
	FILE *out;

	/* [global] */
	sec_init(&secs[ns], type_of(schema, "global"), "");
	fuzz_keys(&secs[ns], 20);
	sec_set(&secs[ns], "duration", PICK(durations));
	sec_set(&secs[ns], "sample_interval", PICK(intervals));
	sec_set(&secs[ns], "tps_interval", PICK(intervals));
	if (chance(70))
		sec_set(&secs[ns], "ramp_time", "0");
	snprintf(buf, sizeof(buf), "%" PRIu64, chance(10) ? UINT64_MAX : chance(10) ? 0 : rnd());
	sec_set(&secs[ns], "seed", buf);
	ns++;

	/* [machine]: small, with edges in the rest */
	sec_init(&secs[ns], type_of(schema, "machine"), "");
	fuzz_keys_upto(&secs[ns], 25, "llc_cpus");	/* llc_cpus and after: fuzz_late_keys */
	machine = ns;
	sec_set(&secs[ns], "memory", PICK(memories));
	sec_set(&secs[ns], "zones", PICK(zones));
	sec_set(&secs[ns], "cpus", PICK(cpus));
	if (chance(80))
		sec_set(&secs[ns], "nodes", "1");
	if (chance(80))
		sec_set(&secs[ns], "reserved", "0");
	ns++;

	/* [sysctl], [policy] */
	sec_init(&secs[ns], type_of(schema, "sysctl"), "");
	fuzz_keys(&secs[ns], 20);
	string_keys(&secs[ns], nr_devices);
	ns++;
	sec_init(&secs[ns], type_of(schema, "policy"), "");
	fuzz_keys(&secs[ns], 40);
	sec_set(&secs[ns], "preset", mm_policies[below(mm_nr_policies)].name);
	ns++;

	/* [kernel]: the preemption models (with user-space spinners under
	 * pgbench's locks), slab, the LRU flavour */
	sec_init(&secs[ns], type_of(schema, "kernel"), "");
	fuzz_keys_upto(&secs[ns], 60, "rwsem");	/* rwsem and after: fuzz_late_keys */
	kernel = ns;
	ns++;

	/* [costs]: as they are, all zero, some zero, or some at edges */
	sec_init(&secs[ns], type_of(schema, "costs"), "");
	switch (below(4)) {
	case 1:
		for (size_t i = 0; i < secs[ns].nr; i++)
			secs[ns].val[i] = strdup("0");
		break;
	case 2:
		for (size_t i = 0; i < secs[ns].nr; i++)
			if (chance(30))
				secs[ns].val[i] = strdup("0");
		break;
	case 3:
		fuzz_keys(&secs[ns], 20);
		break;
	}
	ns++;

	/* [device d0], maybe [device d1] */
	for (int d = 0; d < nr_devices; d++) {
		snprintf(buf, sizeof(buf), "d%d", d);
		sec_init(&secs[ns], type_of(schema, "device"), buf);
		fuzz_keys(&secs[ns], 30);
		if (chance(70))
			sec_set(&secs[ns], "size", "4g");
		ns++;
	}

	/* one to three workloads of any kind */
	nw = chance(60) ? 1 : chance(75) ? 2 : 3;
	for (size_t w = 0; w < nw; w++) {
		size_t k;
		const struct workload_type *wt;
		const struct scn_section_type *t;

		do {
			k = below(sizeof(small_bodies) / sizeof(small_bodies[0]));
		} while (!strcmp(small_bodies[k].kind, "pgbench") && pgbench_used);
		t = type_of(schema, small_bodies[k].kind);
		wt = t->data;
		if (!wt->multiple) {
			int dup = 0;

			for (size_t i = 0; i < ns; i++)
				dup |= secs[i].type == t;
			if (dup) {
				w--;
				continue;
			}
		}
		pgbench_used |= !strcmp(small_bodies[k].kind, "pgbench");
		snprintf(buf, sizeof(buf), "w%zu", w + 1);
		sec_init(&secs[ns], t, wt->multiple ? buf : "");
		apply_body(&secs[ns], small_bodies[k].body);
		/* pgbench's keys from wal_since_redo on draw last (fuzz_late_keys) */
		if (!strcmp(small_bodies[k].kind, "pgbench")) {
			fuzz_keys_upto(&secs[ns], 30, "wal_since_redo");
			pg_sec = (int)ns;
		} else {
			fuzz_keys(&secs[ns], 30);
		}
		string_keys(&secs[ns], nr_devices);
		ns++;
	}

	fuzz_late_keys_until(&secs[kernel], 60, "rwsem", "periodic_balance");
	if (pg_sec >= 0)
		fuzz_late_keys(&secs[pg_sec], 30, "wal_since_redo");
	/* the scheduler's balancing and its caches (periodic_balance,
	 * llc_cpus), newer than all of the above */
	fuzz_late_keys_until(&secs[kernel], 60, "periodic_balance", "run_to_parity");
	fuzz_late_keys(&secs[machine], 25, "llc_cpus");
	/* RUN_TO_PARITY, newer still */
	fuzz_late_keys_until(&secs[kernel], 60, "run_to_parity", "delay_dequeue");
	/* DELAY_DEQUEUE, newest */
	fuzz_late_keys(&secs[kernel], 60, "delay_dequeue");

	out = open_memstream(&text, &len);
	if (!out)
		abort();
	for (size_t i = 0; i < ns; i++) {
		sec_print(&secs[i], out);
		sec_release(&secs[i]);
	}
	fclose(out);
	return text;
}

int main(int argc, char **argv)
{
	struct scn_schema *schema;
	char *end, err[1024] = "";
	uint64_t seed;

	if (argc != 2 || !argv[1][0] || (seed = strtoull(argv[1], &end, 10), *end)) {
		fprintf(stderr, "usage: simfuzz-gen SEED\n");
		return 2;
	}
	schema = scn_schema_create();
	for (unsigned int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
		struct scenario *s = scn_create(schema);
		char *text;
		int bad;

		rng_state = seed * 0x2545f4914f6cdd1dULL + attempt;
		(void)rnd();
		text = generate(schema);
		bad = scn_parse_buffer(s, "simfuzz.ini", text, strlen(text), err, sizeof(err)) ||
		      scn_validate(s, err, sizeof(err));
		scn_destroy(s);
		if (!bad) {
			printf("; simfuzz-gen %" PRIu64 " (attempt %u): valid, extreme\n\n%s",
			       seed, attempt + 1, text);
			free(text);
			scn_schema_destroy(schema);
			return 0;
		}
		free(text);
	}
	fprintf(stderr, "simfuzz-gen: no valid scenario from seed %" PRIu64 " in %d attempts; "
		"the last error: %s\n", seed, MAX_ATTEMPTS, err);
	scn_schema_destroy(schema);
	return 1;
}
