/* SPDX-License-Identifier: MIT */
/* fragment.h — the `fragment` workload kind (fragment.c). */
#ifndef SLOWPATH_WORKLOAD_FRAGMENT_H
#define SLOWPATH_WORKLOAD_FRAGMENT_H

#include "workload/workload.h"

extern const struct workload_type fragment_workload;

#endif
