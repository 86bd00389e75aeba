/* SPDX-License-Identifier: MIT */
/* pgbench.h — the `pgbench` workload kind (pgbench.c; docs/pgbench.md). */
#ifndef SLOWPATH_WORKLOAD_PGBENCH_H
#define SLOWPATH_WORKLOAD_PGBENCH_H

#include "workload/workload.h"

extern const struct workload_type pgbench_workload;

#endif
