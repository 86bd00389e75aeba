/* SPDX-License-Identifier: MIT */
/*
 * initial_state.h — reading [machine] initial_state=DIR: the recorded
 * /proc files of a real kernel into the mm layer's plain struct
 * (mm/initial_state.h).  docs/initial-state.md.
 */
#ifndef SLOWPATH_CLI_INITIAL_STATE_H
#define SLOWPATH_CLI_INITIAL_STATE_H

#include <stddef.h>

#include "mm/initial_state.h"

/*
 * Read DIR: a `slowpath record` result folder (proc-pagetypeinfo,
 * proc-buddyinfo, optionally proc-meminfo and proc-vmstat: the last
 * sample of each) or a directory of plain copies (pagetypeinfo,
 * buddyinfo, optionally meminfo and vmstat).  Returns 0; -1 with
 * "file:line: message" about a file's content; -2 with a message about
 * DIR itself (not a directory, no pagetypeinfo), for the caller to place
 * at the scenario key.
 */
int scn_initial_state_read(const char *dir, struct mm_initial_state *st, char *err, size_t errlen);

#endif
