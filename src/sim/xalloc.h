/* SPDX-License-Identifier: MIT */
/*
 * xalloc.h — host allocation that cannot fail (git's xmalloc family).
 *
 * slowpath's host memory is bounded up front (sim/hostmem.h checks a
 * scenario's footprint before a run starts), so running out of it later
 * is not a user mistake with a file:line to point at: these helpers print
 * "slowpath: out of memory (N bytes)" and abort.  A request for 0 bytes
 * returns a valid, unique pointer, as on glibc.
 *
 * Every layer uses these; no file keeps a private copy.
 */
#ifndef SLOWPATH_SIM_XALLOC_H
#define SLOWPATH_SIM_XALLOC_H

#include <stddef.h>

#include "sim/debug.h"

SIM_NORETURN void xalloc_die(size_t bytes);

void *xmalloc(size_t n);			/* uninitialised */
void *xzalloc(size_t n);			/* zeroed */
void *xcalloc(size_t n, size_t size);		/* zeroed array; n * size checked for overflow */
void *xrealloc(void *p, size_t n);
/* Grow (or shrink) p from old_n to new_n elements of size bytes; the
 * elements past old_n are zeroed. */
void *xrecalloc(void *p, size_t old_n, size_t new_n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);	/* at most n bytes of s, NUL-terminated */

#endif
