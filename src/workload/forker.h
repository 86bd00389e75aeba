/* SPDX-License-Identifier: MIT */
/* forker.h — the `forker` workload kind (forker.c). */
#ifndef SLOWPATH_WORKLOAD_FORKER_H
#define SLOWPATH_WORKLOAD_FORKER_H

#include "workload/workload.h"

extern const struct workload_type forker_workload;

#endif
