/* SPDX-License-Identifier: MIT */
/*
 * commands.c — the pieces of the command line shared by the subcommands
 * (option parsing, loading a scenario with --set/--policy/--seed/--scale)
 * and the small commands: check, costs, policies.  `run` is in run.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/scenario.h"
#include "cli/sections.h"
#include "mm/policy.h"
#include "sim/cost.h"

/* ---- options shared by run and check -------------------------------------------- */

static const char scenario_options_help[] =
	"  --policy NAME      policy preset (overrides [policy] preset=; see slowpath policies)\n"
	"  --seed N           scenario seed (overrides [global] seed=)\n"
	"  --set KEY=VALUE    override a scenario key; KEY is section.key, kind:name.key\n"
	"                     for named sections, or a key that only one section has\n"
	"                     (--set vm.defrag_mode=1); may be repeated, the last wins\n"
	"  --scale 1/N        shrink memory, CPUs, tasks and devices N-fold; for quick\n"
	"                     looks only: a scaled pgbench case runs 17-27 % faster and\n"
	"                     loses the costly-order stalls that make the full-scale\n"
	"                     case (docs/calibration.md)\n";

void cli_args_release(struct cli_args *a)
{
	free(a->sets);
	free(a->branches);
	memset(a, 0, sizeof(*a));
}

/*
 * Parse the scenario, apply --set, then --policy and --seed, resolve the
 * [policy] preset, then --scale, and validate.  Returns the scenario, or NULL after printing the error.
 */
struct scenario *cli_load_scenario(const struct scn_schema *schema, const struct cli_args *a)
{
	char err[1024];
	struct scenario *s = cli_load_scenario_err(schema, a, err, sizeof(err));

	if (!s)
		fprintf(stderr, "%s\n", err);
	return s;
}

/* The same, with the message in err instead of on stderr. */
struct scenario *cli_load_scenario_err(const struct scn_schema *schema, const struct cli_args *a,
				       char *err, size_t errlen)
{
	struct scenario *s = scn_create(schema);
	char set[512];

	if (scn_parse_file(s, a->scenario, err, errlen))
		goto bad;
	for (size_t i = 0; i < a->nr_sets; i++)
		if (scn_set(s, a->sets[i], err, errlen))
			goto bad;
	if (a->policy) {
		if (!mm_policy_find(a->policy)) {
			snprintf(err, errlen, "--policy '%s': unknown policy (`slowpath policies` "
				 "lists them)", a->policy);
			goto bad;
		}
		snprintf(set, sizeof(set), "policy.preset=%s", a->policy);
		if (scn_set(s, set, err, errlen))
			goto bad;
	}
	if (a->seed) {
		struct scn_global g = { 0 };

		if (opt_parse_value(opt_find(scn_global_options, "seed"), &g, a->seed, set, sizeof(set))) {
			snprintf(err, errlen, "--seed '%s': %s", a->seed, set);
			goto bad;
		}
		snprintf(set, sizeof(set), "global.seed=%s", a->seed);
		if (scn_set(s, set, err, errlen))
			goto bad;
	}
	scn_policy_resolve(s);
	if (a->scale > 1 && scn_scale(s, a->scale, err, errlen))
		goto bad;
	if (scn_validate(s, err, errlen))
		goto bad;
	return s;
bad:
	scn_destroy(s);
	return NULL;
}

enum { OPT_POLICY = 1000, OPT_SEED, OPT_SET, OPT_SCALE, OPT_ITERATIONS, OPT_OUT, OPT_HELP, OPT_BRANCH_AT,
       OPT_BRANCH, OPT_JOBS = 'j' };

/* Append one repeatable option's value. */
static void push_arg(const char ***v, size_t *n, const char *arg)
{
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v)
		abort();
	(*v)[(*n)++] = arg;
}

/* A whole number from 1 to max for option `opt`: 0, or -1 after the message. */
static int parse_count(const char *opt, const char *arg, unsigned long max, unsigned int *out)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (!*arg || *end || n < 1 || n > max || arg[0] == '-') {
		fprintf(stderr, "%s '%s': expected a whole number from 1 to %lu\n", opt, arg, max);
		return -1;
	}
	*out = (unsigned int)n;
	return 0;
}

/*
 * Parse the options of run (with_run = true) or check.  Returns 0, 1 when
 * --help was printed, or 2 after printing a usage error.
 */
int cli_parse_args(int argc, char **argv, bool with_run, struct cli_args *a,
		   void (*help)(FILE *out))
{
	static const struct option opts[] = {	/* from --iterations on: run only */
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "set", required_argument, NULL, OPT_SET },
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "iterations", required_argument, NULL, OPT_ITERATIONS },
		{ "out", required_argument, NULL, OPT_OUT },
		{ "branch-at", required_argument, NULL, OPT_BRANCH_AT },
		{ "branch", required_argument, NULL, OPT_BRANCH },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ NULL, 0, NULL, 0 }
	};
	char err[256];
	int c, li = 0;

	memset(a, 0, sizeof(*a));
	a->scale = 1;
	a->iterations = 1;
	a->jobs = 1;
	optind = 0;	/* reset getopt (glibc) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, with_run ? ":j:" : ":", opts, &li)) != -1) {
		if (!with_run && (c == OPT_ITERATIONS || c == OPT_OUT || c == OPT_BRANCH_AT || c == OPT_BRANCH ||
				  c == OPT_JOBS)) {
			fprintf(stderr, "slowpath %s: unknown option '--%s' (see slowpath %s --help)\n",
				argv[0], opts[li].name, argv[0]);
			return 2;
		}
		switch (c) {
		case OPT_POLICY:
			a->policy = optarg;
			break;
		case OPT_SEED:
			a->seed = optarg;
			break;
		case OPT_SET:
			push_arg(&a->sets, &a->nr_sets, optarg);
			break;
		case OPT_SCALE:
			if (scn_parse_scale(optarg, &a->scale, err, sizeof(err))) {
				fprintf(stderr, "%s\n", err);
				return 2;
			}
			break;
		case OPT_ITERATIONS:
			if (parse_count("--iterations", optarg, 10000, &a->iterations))
				return 2;
			break;
		case OPT_OUT:
			a->out = optarg;
			break;
		case OPT_BRANCH_AT:
			a->branch_at = optarg;
			break;
		case OPT_BRANCH:
			push_arg(&a->branches, &a->nr_branches, optarg);
			break;
		case OPT_JOBS:
			if (parse_count("--jobs", optarg, 256, &a->jobs))
				return 2;
			break;
		case OPT_HELP:
			help(stdout);
			return 1;
		case ':':
			fprintf(stderr, "slowpath %s: option '%s' needs a value (see slowpath %s --help)\n",
				argv[0], argv[optind - 1], argv[0]);
			return 2;
		default:
			fprintf(stderr, "slowpath %s: unknown option '%s' (see slowpath %s --help)\n",
				argv[0], argv[optind - 1], argv[0]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "slowpath %s: missing SCENARIO (see slowpath %s --help)\n", argv[0], argv[0]);
		return 2;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "slowpath %s: unexpected argument '%s' (see slowpath %s --help)\n",
			argv[0], argv[optind + 1], argv[0]);
		return 2;
	}
	a->scenario = argv[optind];
	return 0;
}

void cli_run_help(FILE *out)
{
	fprintf(out, "usage: slowpath run SCENARIO [options]\n\n"
		     "Simulate SCENARIO and write a result folder (docs/results.md).  On a\n"
		     "terminal, stderr shows a status line and, every tps_interval of virtual\n"
		     "time, a kept line as pgbench -P prints: the interval's TPS, mean latency,\n"
		     "allocation and compaction stalls, the host's speed (x real time) and the\n"
		     "ETA.  Nothing is printed there when stderr is not a terminal.\n\n%s"
		     "  --iterations N     run N times with seeds seed..seed+N-1 into DIR/iter-K,\n"
		     "                     plus DIR/result.json with the aggregate\n"
		     "  --out DIR          result folder (default: out/<scenario name>)\n"
		     "  --branch-at TIME   simulate once up to TIME (a multiple of sample_interval),\n"
		     "                     then fork one run per --branch from that state; each\n"
		     "                     branch is a whole result folder DIR/NAME (docs/branches.md)\n"
		     "  --branch NAME[:KEY=VALUE,...]\n"
		     "                     a branch: NAME, and the [costs], [policy] and [sysctl]\n"
		     "                     keys it changes from TIME on (as --set spells them;\n"
		     "                     policy=NAME is a preset; a sysctl is written at TIME\n"
		     "                     as sysctl -w would; not vm.nr_hugepages, kernel.*);\n"
		     "                     repeatable\n"
		     "  -j, --jobs N       branches run at once (default 1; each may grow to the\n"
		     "                     whole run's memory)\n"
		     "  --help             this text\n", scenario_options_help);
}

static void check_help(FILE *out)
{
	fprintf(out, "usage: slowpath check SCENARIO [options]\n"
		     "       slowpath check --help-keys [SECTION]\n\n"
		     "Print SCENARIO fully resolved — includes read, ${ENV} expanded, --set,\n"
		     "--policy, --seed and --scale applied, every key with its value including\n"
		     "defaults — as a scenario file that parses back to the same values.\n\n%s"
		     "  --help-keys [SECTION]\n"
		     "                     every scenario key (of SECTION only, e.g. machine,\n"
		     "                     device, pgbench) with its type, default, unit and help,\n"
		     "                     as fio --cmdhelp; no SCENARIO\n"
		     "  --help             this text\n", scenario_options_help);
}

/* ---- check --help-keys: the option tables as a reference --------------------------- */

static const char *const opt_type_names[] = {
	[OPT_BOOL] = "bool", [OPT_UINT] = "uint", [OPT_INT] = "int", [OPT_SIZE] = "size",
	[OPT_TIME] = "time", [OPT_PERCENT] = "percent", [OPT_ENUM] = "enum",
	[OPT_STRING] = "string", [OPT_COST] = "cost", [OPT_U32] = "uint",
};

/* What a bare number of this option means. */
static const char *opt_unit(const struct opt_def *o)
{
	int id;

	switch (o->type) {
	case OPT_SIZE:
		return "bytes";
	case OPT_PERCENT:
		return "%";
	case OPT_TIME:
		return o->time_unit == SIM_NSEC_PER_SEC ? "s" : o->time_unit == SIM_NSEC_PER_MSEC ? "ms" :
		       o->time_unit == SIM_NSEC_PER_USEC ? "us" : "ns";
	case OPT_COST:
		id = cost_lookup(o->key);
		return id >= 0 ? cost_info[id].unit : "ns";
	default:
		return "-";
	}
}

/* The help line of a row: [costs] rows carry their unit as help, their
 * source is in the cost table; enums list their values; ranges follow. */
static void opt_help_line(const struct opt_def *o, char *buf, size_t len)
{
	int id = o->type == OPT_COST ? cost_lookup(o->key) : -1;
	char range[100];
	size_t n;

	n = (size_t)snprintf(buf, len, "%s", id >= 0 ? cost_info[id].source : o->help ? o->help : "");
	if (o->type == OPT_ENUM && o->enum_names) {
		for (const char *const *e = o->enum_names; *e && n < len; e++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", e == o->enum_names ?
					      " (one of: " : ", ", *e);
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, ")");
	}
	opt_format_range(o, range, sizeof(range));
	if (range[0] && n < len)
		snprintf(buf + n, len - n, " (range: %s)", range);
}

static void print_keys(FILE *out, const struct scn_section_type *t)
{
	int wk = 3, wd = 7, wu = 4;
	char help[2048];

	for (const struct opt_def *o = t->options; o->key; o++) {
		int k = (int)strlen(o->key), d = o->def ? (int)strlen(o->def) : 1;
		int u = (int)strlen(opt_unit(o));

		wk = k > wk ? k : wk;
		wd = d > wd ? d : wd;
		wu = u > wu ? u : wu;
	}
	fprintf(out, "[%s%s]  %s\n", t->kind,
		t->flags & SCN_NAME_REQUIRED ? " NAME" : t->flags & SCN_NAME_ALLOWED ? " [NAME]" : "",
		t->help);
	fprintf(out, "  %-*s  %-7s  %-*s  %-*s  %s\n", wk, "key", "type", wd, "default", wu, "unit",
		"help");
	for (const struct opt_def *o = t->options; o->key; o++) {
		opt_help_line(o, help, sizeof(help));
		fprintf(out, "  %-*s  %-7s  %-*s  %-*s  %s\n", wk, o->key, opt_type_names[o->type],
			wd, o->def ? o->def : "-", wu, opt_unit(o), help);
	}
}

/* slowpath check --help-keys [SECTION]: 0, or 2 for an unknown section. */
static int help_keys(int argc, char **argv)
{
	struct scn_schema *schema = scn_schema_create();
	const char *want = argc > 2 ? argv[2] : NULL;
	int found = 0;

	if (argc > 3) {
		fprintf(stderr, "slowpath check: unexpected argument '%s' (see slowpath check "
			"--help)\n", argv[3]);
		scn_schema_destroy(schema);
		return 2;
	}
	for (size_t i = 0; i < schema->nr_types; i++) {
		const struct scn_section_type *t = &schema->types[i];

		if (want && strcmp(want, t->kind) != 0)
			continue;
		if (found++)
			putchar('\n');
		print_keys(stdout, t);
	}
	if (want && !found) {
		fprintf(stderr, "slowpath check --help-keys: unknown section '%s' (sections:", want);
		for (size_t i = 0; i < schema->nr_types; i++)
			fprintf(stderr, "%s %s", i ? "," : "", schema->types[i].kind);
		fprintf(stderr, ")\n");
	}
	scn_schema_destroy(schema);
	return want && !found ? 2 : 0;
}

int cli_cmd_check(int argc, char **argv)
{
	struct cli_args a;
	struct scn_schema *schema;
	struct scenario *s;
	int rc;

	if (argc > 1 && strcmp(argv[1], "--help-keys") == 0)
		return help_keys(argc, argv);
	rc = cli_parse_args(argc, argv, false, &a, check_help);
	if (rc) {
		cli_args_release(&a);
		return rc == 1 ? 0 : rc;
	}
	schema = scn_schema_create();
	s = cli_load_scenario(schema, &a);
	if (s)
		scn_print(s, stdout);
	scn_destroy(s);
	scn_schema_destroy(schema);
	cli_args_release(&a);
	return s ? 0 : 2;
}

/* ---- costs, policies -------------------------------------------------------------- */

/* No options but --help: returns -1 to go on, else the exit status. */
static int no_options(int argc, char **argv, const char *usage_text)
{
	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "slowpath %s: unexpected argument '%s' (see slowpath %s --help)\n",
			argv[0], argv[1], argv[0]);
		return 2;
	}
	return -1;
}

int cli_cmd_costs(int argc, char **argv)
{
	int rc = no_options(argc, argv, "usage: slowpath costs\n\n"
			    "Print the cost table (src/sim/costs.def): every CPU cost the model\n"
			    "charges, its default in ns per unit, and its source.  Override a row\n"
			    "in a scenario's [costs] section: NAME=NS (decimals allowed).\n");
	int wn = 4, wv = 2, wu = 4;

	if (rc >= 0)
		return rc;
	for (int i = 0; i < NR_COSTS; i++) {
		int n = (int)strlen(cost_info[i].name), v = (int)strlen(cost_info[i].default_text);
		int u = (int)strlen(cost_info[i].unit);

		wn = n > wn ? n : wn;
		wv = v > wv ? v : wv;
		wu = u > wu ? u : wu;
	}
	printf("%-*s  %*s  %-*s  %s\n", wn, "name", wv, "ns", wu, "unit", "source");
	for (int i = 0; i < NR_COSTS; i++)
		printf("%-*s  %*s  %-*s  %s\n", wn, cost_info[i].name, wv, cost_info[i].default_text,
		       wu, cost_info[i].unit, cost_info[i].source);
	return 0;
}

/* Print the switch keys of `preset`: with `all`, every one as a key=value
 * line; else those that differ from the baseline, on one line. */
static void print_preset_keys(const struct mm_policy *preset, bool all)
{
	const struct mm_policy baseline = { .name = NULL };	/* every switch zero */
	struct scn_policy p = { .sw = *preset };
	unsigned int n = 0;
	char value[64];

	for (const struct opt_def *o = scn_policy_options; o->key; o++) {
		if (!mm_policy_is_switch(o->key) || (!all && mm_policy_same_switch(preset, &baseline, o->key)))
			continue;
		opt_format_value(o, &p, value, sizeof(value));
		if (all)
			printf("%s=%s\n", o->key, value);
		else
			printf("%s%s=%s", n ? " " : "", o->key, value);
		n++;
	}
	if (!all)
		puts(n ? "" : "(none: every switch at the baseline's value)");
}

int cli_cmd_policies(int argc, char **argv)
{
	const char *usage_text =
		"usage: slowpath policies [NAME]\n\n"
		"Print the named allocator policies (docs/policies.md): name, spec\n"
		"tag, what changes, and the [policy] switch keys each preset sets.  With\n"
		"NAME, print that preset as a [policy] section with every switch key.\n"
		"Select a preset with [policy] preset=NAME or --policy NAME; a switch key\n"
		"the scenario sets overrides the preset's value (docs/policies.md).\n";
	const struct mm_policy *one;
	int wn = 4, ws = 4;

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "slowpath policies: unexpected argument '%s' (see slowpath policies --help)\n",
			argv[argc - 1]);
		return 2;
	}
	if (argc == 2) {
		one = mm_policy_find(argv[1]);
		if (!one) {
			fprintf(stderr, "slowpath policies: unknown policy '%s' (`slowpath policies` lists them)\n",
				argv[1]);
			return 2;
		}
		printf("; %s (%s): %s\n[policy]\npreset=%s\n", one->name, one->spec, one->summary, one->name);
		print_preset_keys(one, true);
		return 0;
	}
	for (unsigned int i = 0; i < mm_nr_policies; i++) {
		int n = (int)strlen(mm_policies[i].name), s = (int)strlen(mm_policies[i].spec);

		wn = n > wn ? n : wn;
		ws = s > ws ? s : ws;
	}
	printf("%-*s  %-*s  %s\n", wn, "name", ws, "spec", "summary / [policy] keys");
	for (unsigned int i = 0; i < mm_nr_policies; i++) {
		printf("%-*s  %-*s  %s\n", wn, mm_policies[i].name, ws, mm_policies[i].spec,
		       mm_policies[i].summary);
		printf("%-*s  %-*s  ", wn, "", ws, "");
		print_preset_keys(&mm_policies[i], false);
	}
	return 0;
}
