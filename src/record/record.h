/* SPDX-License-Identifier: MIT */
/*
 * record.h — `slowpath record`: the same counters from a real kernel
 * (docs/record.md).
 *
 *   slowpath record [--interval 1s] [--out DIR] [--proc-root DIR]
 *                   [--duration T] [--metrics-from FILE] [--] COMMAND [ARGS...]
 *
 * Runs COMMAND (no shell), samples /proc/{vmstat,buddyinfo,pagetypeinfo,
 * zoneinfo,meminfo} every interval until it exits, and writes a result
 * folder in the layout of a simulated run (docs/results.md).
 *
 * Exit status: 0 when the result folder is complete (the command's own
 * status is in result.json), 2 on a usage error or malformed input
 * (path:line: message; no result.json), 1 when writing failed,
 * 128+signal when SIGINT/SIGTERM/SIGHUP cut the recording short (the
 * folder is still complete).
 */
#ifndef SLOWPATH_RECORD_RECORD_H
#define SLOWPATH_RECORD_RECORD_H

int rec_main(int argc, char **argv);
/* `slowpath probe wakeup`: this host's cost of a wake-up across CPUs (probe.c) */
int rec_probe_main(int argc, char **argv);

#endif
