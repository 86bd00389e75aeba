/* SPDX-License-Identifier: MIT */
/*
 * bench_pgbench.c — host cost of the PostgreSQL + pgbench model
 * (scenarios/pgbench-m8g.ini through the run driver, release build):
 *
 *   setup        wall time of a 1 s run (machine, database files and
 *                their page cache, shared memory, 1024 forked backends)
 *   per sim s    extra wall time per simulated second of a D-second run
 *   events/tx    engine events per transaction
 *   us/tx        host time per transaction
 *
 * DESIGN.md §7: the full case (1200 s, ~2 x 10^8 transactions) should
 * take <= 60 s; events/tx x transactions / events-per-second says where
 * the time goes.  Wall-clock time is measured here and only here.
 *
 * Usage: bench_pgbench [N [seconds [policy]]]   --scale 1/N (default 32),
 * simulated seconds (default 60), policy (default baseline).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "bench.h"

struct outcome {
	double		wall;
	json_int_t	events, transactions;
	double		tps;
};

static int run(const char *scale, unsigned int secs, const char *policy, const char *out, struct outcome *o)
{
	char dur[64], pol[96], *argv[12];
	int argc = 0, rc;
	json_t *r;
	json_error_t jerr;
	char path[512];
	double t0;

	snprintf(dur, sizeof(dur), "duration=%us", secs);
	snprintf(pol, sizeof(pol), "%s", policy);
	argv[argc++] = "run";
	argv[argc++] = "scenarios/pgbench-m8g.ini";
	argv[argc++] = "--scale";
	argv[argc++] = (char *)scale;
	argv[argc++] = "--set";
	argv[argc++] = dur;
	argv[argc++] = "--policy";
	argv[argc++] = pol;
	argv[argc++] = "--out";
	argv[argc++] = (char *)out;
	argv[argc] = NULL;
	fflush(stdout);
	t0 = now_s();
	rc = cli_cmd_run(argc, argv);
	o->wall = now_s() - t0;
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/result.json", out);
	r = json_load_file(path, 0, &jerr);
	if (!r) {
		fprintf(stderr, "bench_pgbench: %s: %s\n", path, jerr.text);
		return 1;
	}
	o->events = json_integer_value(json_object_get(r, "events"));
	o->transactions = json_integer_value(json_object_get(r, "transactions"));
	o->tps = json_real_value(json_object_get(r, "tps"));
	json_decref(r);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 32;
	unsigned int secs = argc > 2 ? (unsigned int)atoi(argv[2]) : 60;
	const char *policy = argc > 3 ? argv[3] : "baseline";
	char scale[32], dir[] = "/tmp/bench_pgbench.XXXXXX", out1[600], out2[600];
	struct outcome a, b;
	double per_s, us_tx;

	if (!n || secs < 2) {
		fprintf(stderr, "usage: bench_pgbench [N [seconds [policy]]]\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("bench_pgbench: mkdtemp");
		return 1;
	}
	snprintf(scale, sizeof(scale), "1/%u", n);
	snprintf(out1, sizeof(out1), "%s/setup", dir);
	snprintf(out2, sizeof(out2), "%s/run", dir);
	if (run(scale, 1, policy, out1, &a) || run(scale, secs, policy, out2, &b))
		return 1;
	per_s = (b.wall - a.wall) / (secs - 1);
	us_tx = b.transactions > a.transactions ?
		(b.wall - a.wall) * 1e6 / (double)(b.transactions - a.transactions) : 0;
	printf("pgbench-m8g.ini --scale %s, %s, %u s simulated\n", scale, policy, secs);
	printf("  %-34s %10.2f s\n", "setup (a 1 s run)", a.wall);
	printf("  %-34s %10.3f s\n", "wall per simulated second", per_s);
	printf("  %-34s %10.0f\n", "TPS (simulated)", b.tps);
	printf("  %-34s %10.2f\n", "events per transaction", (double)b.events / (double)b.transactions);
	printf("  %-34s %10.2f\n", "host us per transaction", us_tx);
	printf("  %-34s %10.2f M\n", "events per wall second",
	       (double)(b.events - a.events) / (b.wall - a.wall) / 1e6);
	printf("  %-34s %10.0f s\n", "projected 1200 s at this scale", a.wall + per_s * 1200);
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "bench_pgbench: could not remove %s\n", dir);
	}
	return 0;
}
