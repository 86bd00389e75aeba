/* SPDX-License-Identifier: MIT */
/* writer.h — the `writer` workload kind (writer.c). */
#ifndef SLOWPATH_WORKLOAD_WRITER_H
#define SLOWPATH_WORKLOAD_WRITER_H

#include "workload/workload.h"

extern const struct workload_type writer_workload;

#endif
