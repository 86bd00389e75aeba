/* SPDX-License-Identifier: MIT */
/*
 * bench_pgbench.c — host cost of the PostgreSQL + pgbench model, by
 * default the full-scale case without the recalibration's mechanisms
 * (scenarios/pgbench-m8g-mechanisms-off.ini: 96 CPUs, 384 GiB, 1024
 * clients; docs/engine.md's figures are of it, so it stays the default)
 * through the run driver, release build.  One run
 * of S simulated seconds with SLOWPATH_HOST_LOG set (run.c writes the
 * host time, event and transaction counts and peak RSS at every
 * sample_interval step); from that log:
 *
 *   setup + first step   host time to the first step (machine, database
 *                        files and their page cache, shared memory, 1024
 *                        forked backends, then one sample interval)
 *   host s per sim s     over the steady window [from, S] of virtual time
 *                        (the figure; 1200 s x this + setup is the
 *                        projected full run)
 *   events/tx, us/tx     in the window
 *   peak RSS             at the end of the run
 *
 * the project's speed target: the full case (1200 s) should take <= 60 s, i.e. about
 * 0.05 host s per simulated second.  Wall-clock time is measured here and
 * in run.c's progress/host log only, never in the model.
 *
 * Usage: bench_pgbench [-n N] [-s SECONDS] [-f FROM] [-p POLICY] [-k KEY=VALUE]... [SCENARIO]
 *   -n N  --scale 1/N (default 1: full scale); -s simulated seconds
 *   (default 60); -f start of the window (default S/2); -p policy
 *   (default: the scenario's); -k a scenario key, as run's --set (up to
 *   4, e.g. -k fault_model=drawn); SCENARIO default
 *   scenarios/pgbench-m8g-mechanisms-off.ini (scenarios/pgbench-m8g.ini for
 *   the case with every mechanism).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "bench.h"

struct step {
	double		virt, host;
	unsigned long long events, tx, resumes, direct;
	long		rss_kib;
};

int main(int argc, char **argv)
{
	unsigned int n = 1, secs = 60, from = 0;
	const char *policy = NULL, *scenario = "scenarios/pgbench-m8g-mechanisms-off.ini";
	char scale[32], dir[] = "/tmp/bench_pgbench.XXXXXX", out[600], log[600], dur[64], line[256];
	char *rargv[24], *keys[4];
	unsigned int nkeys = 0;
	struct step st[4096], *a = NULL, *b = NULL;
	size_t nst = 0;
	int rargc = 0, opt, rc;
	FILE *f;

	while ((opt = getopt(argc, argv, "n:s:f:p:k:")) != -1) {
		switch (opt) {
		case 'n': n = (unsigned int)atoi(optarg); break;
		case 's': secs = (unsigned int)atoi(optarg); break;
		case 'f': from = (unsigned int)atoi(optarg); break;
		case 'p': policy = optarg; break;
		case 'k':
			if (nkeys == 4) {
				fprintf(stderr, "bench_pgbench: at most 4 -k keys\n");
				return 2;
			}
			keys[nkeys++] = optarg;
			break;
		default:
			fprintf(stderr, "usage: bench_pgbench [-n N] [-s SECONDS] [-f FROM] [-p POLICY] "
				"[-k KEY=VALUE]... [SCENARIO]\n");
			return 2;
		}
	}
	if (optind < argc)
		scenario = argv[optind];
	if (!from)
		from = secs / 2;
	if (!n || secs < 2 || from >= secs) {
		fprintf(stderr, "bench_pgbench: need N >= 1, SECONDS >= 2 and FROM < SECONDS\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("bench_pgbench: mkdtemp");
		return 1;
	}
	snprintf(scale, sizeof(scale), "1/%u", n);
	snprintf(out, sizeof(out), "%s/run", dir);
	snprintf(log, sizeof(log), "%s/host.log", dir);
	snprintf(dur, sizeof(dur), "duration=%us", secs);
	rargv[rargc++] = "run";
	rargv[rargc++] = (char *)scenario;
	rargv[rargc++] = "--scale";
	rargv[rargc++] = scale;
	rargv[rargc++] = "--set";
	rargv[rargc++] = dur;
	if (policy) {
		rargv[rargc++] = "--policy";
		rargv[rargc++] = (char *)policy;
	}
	for (unsigned int i = 0; i < nkeys; i++) {
		rargv[rargc++] = "--set";
		rargv[rargc++] = keys[i];
	}
	rargv[rargc++] = "--out";
	rargv[rargc++] = out;
	rargv[rargc] = NULL;
	setenv("SLOWPATH_HOST_LOG", log, 1);
	fflush(stdout);
	rc = cli_cmd_run(rargc, rargv);
	if (rc)
		return rc;
	f = fopen(log, "r");
	if (!f) {
		perror(log);
		return 1;
	}
	while (nst < sizeof(st) / sizeof(st[0]) && fgets(line, sizeof(line), f) &&
	       sscanf(line, "%lf %lf %llu %llu %ld %llu %llu", &st[nst].virt, &st[nst].host,
		      &st[nst].events, &st[nst].tx, &st[nst].rss_kib, &st[nst].resumes,
		      &st[nst].direct) == 7)
		nst++;
	fclose(f);
	for (size_t i = 0; i < nst; i++) {
		if (!a && st[i].virt >= from - 1e-9)
			a = &st[i];
		b = &st[i];
	}
	if (!a || !b || b == a) {
		fprintf(stderr, "bench_pgbench: the host log has no window [%u, %u] s\n", from, secs);
		return 1;
	}
	{
		double vdt = b->virt - a->virt, hdt = b->host - a->host;
		double per_s = hdt / vdt;
		unsigned long long dtx = b->tx - a->tx, dev = b->events - a->events;

		printf("%s --scale %s%s%s, %u s simulated, window %.0f-%.0f s\n", scenario, scale,
		       policy ? ", policy " : "", policy ? policy : "", secs, a->virt, b->virt);
		printf("  %-36s %10.2f s\n", "setup + first step (host)", st[0].host);
		printf("  %-36s %10.3f\n", "host s per simulated s (window)", per_s);
		printf("  %-36s %10.3fx\n", "speed (x real time)", per_s > 0 ? 1 / per_s : 0);
		printf("  %-36s %10.0f\n", "TPS (simulated, window)", vdt > 0 ? (double)dtx / vdt : 0);
		printf("  %-36s %10.2f\n", "events per transaction (window)", dtx ? (double)dev / (double)dtx : 0);
		printf("  %-36s %10.2f\n", "host us per transaction (window)", dtx ? hdt * 1e6 / (double)dtx : 0);
		printf("  %-36s %10.2f M\n", "events per host second (window)", hdt > 0 ? (double)dev / hdt / 1e6 : 0);
		printf("  %-36s %10.1f %%\n", "resumes task to task (window)",
		       b->resumes > a->resumes ? 100.0 * (double)(b->direct - a->direct) /
		       (double)(b->resumes - a->resumes) : 0);
		printf("  %-36s %10.0f MiB\n", "peak RSS", (double)b->rss_kib / 1024);
		printf("  %-36s %10.0f s\n", "projected 1200 s (setup + 1200 x rate)", st[0].host + per_s * 1200);
	}
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "bench_pgbench: could not remove %s\n", dir);
	}
	return 0;
}
