/* SPDX-License-Identifier: MIT */
/* fio.h — the `fio` workload kind (fio.c): O_DIRECT jobs on a raw block
 * device, as fio runs them. */
#ifndef SLOWPATH_WORKLOAD_FIO_H
#define SLOWPATH_WORKLOAD_FIO_H

#include "workload/workload.h"

extern const struct workload_type fio_workload;

/*
 * Parse a fio cpus_allowed list ("0-3,8,10-11") into a sorted set of CPU
 * numbers below ncpus (ncpus 0: no upper bound).  Returns the number of
 * CPUs in the set (written to cpus[0..], at most max), or -1 with a
 * message in err.  An empty string is an error (the caller treats an
 * absent key as "all CPUs").
 */
int fio_parse_cpus(const char *text, unsigned int ncpus, unsigned int *cpus, unsigned int max,
		   char *err, size_t errlen);

#endif
