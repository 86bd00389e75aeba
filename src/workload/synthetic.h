/* SPDX-License-Identifier: MIT */
/* synthetic.h — the `synthetic` workload kind (synthetic.c). */
#ifndef SLOWPATH_WORKLOAD_SYNTHETIC_H
#define SLOWPATH_WORKLOAD_SYNTHETIC_H

#include "workload/workload.h"

extern const struct workload_type synthetic_workload;

#endif
