/* SPDX-License-Identifier: MIT */
/*
 * bench_fio.c — the simulator's speed on the O_DIRECT pin-accounting case:
 * the fio workload of scenarios/fio-odirect-pin.ini (96 jobs, io_uring
 * polled, 4 KiB random reads, QD128, batches of 32) on 96 CPUs under each
 * FOLL_PIN accounting mode, on a 24 GiB machine (threshold 125 as at
 * 384 GiB; machine_create of 384 GiB alone is bench_mm's subject).
 *
 * Prints per mode: simulated I/Os, engine events per I/O, wall time, and
 * simulated I/Os per wall-clock second.  Wall-clock time is measured here
 * and only here (never in tests).
 * Usage: bench_fio [virtual ms]   (default 20)
 */
#include <stdio.h>
#include <stdlib.h>

#include "mm/gup.h"
#include "mm/machine.h"
#include "sim/bdev.h"
#include "sim/option.h"
#include "sim/sim.h"
#include "workload/fio.h"
#include "bench.h"

static void run(const char *mode, unsigned int ms)
{
	static const char *const kv[] = {
		"numjobs", "96", "cpus_allowed_policy", "split", "ioengine", "io_uring", "hipri", "1",
		"rw", "randread", "bs", "4k", "iodepth", "128", "iodepth_batch_submit", "32",
		"iodepth_batch_complete_max", "32", "size", "1t", "filename", "nvme", NULL
	};
	struct machine_config mc = { 0 };
	struct vm_sysctl sc = { 0 };
	struct sim_config cfg = { .ncpus = 96, .seed = 1 };
	struct bdev_config bc = { .name = "nvme", .lat_mean_ns = 10000, .lat_p99_ns = 20000,
				  .members = 1, .size_bytes = 1ULL << 40 };
	void *fc = calloc(1, fio_workload.config_size);
	struct wl_stats stats;
	struct wl_report rep = { 0 };
	const char *name = "nvme";
	struct sim *sim;
	struct machine *m;
	struct bdev *b;
	struct wl_env env;
	char err[256];
	void *st;
	double t0, dt;
	uint64_t events;

	if (!fc || opt_apply_defaults(machine_options, &mc) || opt_apply_defaults(vm_sysctl_options, &sc) ||
	    opt_apply_defaults(fio_workload.options, fc))
		exit(1);
	bench_set("bench_fio", machine_options, &mc, "memory", "24g");
	bench_set("bench_fio", machine_options, &mc, "foll_pin_accounting", mode);
	for (unsigned int i = 0; kv[i]; i += 2)
		bench_set("bench_fio", fio_workload.options, fc, kv[i], kv[i + 1]);
	sim = sim_create(&cfg);
	m = machine_create(sim, &mc, &sc, NULL, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "bench_fio: %s\n", err);
		exit(1);
	}
	b = bdev_create(sim, &bc);
	env = (struct wl_env){ m, sim, &b, &name, 1, NULL };
	wl_stats_init(&stats, SIM_NSEC_PER_MSEC, SIM_NSEC_PER_MSEC);
	st = fio_workload.start_env(&env, fc, "", &stats, err, sizeof(err));
	if (!st) {
		fprintf(stderr, "bench_fio: %s\n", err);
		exit(1);
	}
	t0 = now_s();
	events = sim_run(sim, (sim_time_t)ms * SIM_NSEC_PER_MSEC);
	dt = now_s() - t0;
	fio_workload.report(st, &rep);
	printf("%-8s %10llu I/Os  %5.2f events/I/O  %6.2f s  %6.2f M simulated I/Os per second  %4.0f ns/event\n",
	       mode, (unsigned long long)stats.transactions, (double)events / (double)stats.transactions,
	       dt, (double)stats.transactions / dt / 1e6, dt * 1e9 / (double)events);
	machine_destroy(m);
	sim_destroy(sim);
	fio_workload.destroy(st);
	wl_stats_release(&stats);
	opt_release(fio_workload.options, fc);
	opt_release(machine_options, &mc);
	opt_release(vm_sysctl_options, &sc);
	free(fc);
}

int main(int argc, char **argv)
{
	unsigned int ms = argc > 1 ? (unsigned int)atoi(argv[1]) : 20;

	if (ms < 2) {
		fprintf(stderr, "usage: bench_fio [virtual ms >= 2]\n");
		return 2;
	}
	for (int mode = 0; mode < NR_FOLL_PIN_ACCT; mode++)
		run(foll_pin_accounting_names[mode], ms);
	return 0;
}
