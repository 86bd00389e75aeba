/* SPDX-License-Identifier: MIT */
/*
 * xalloc.c — allocation that aborts on exhaustion (see xalloc.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/xalloc.h"

void xalloc_die(size_t bytes)
{
	fprintf(stderr, "slowpath: out of memory (%zu bytes)\n", bytes);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xalloc_die(n);
	return p;
}

void *xzalloc(size_t n)
{
	return xcalloc(1, n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		xalloc_die(SIZE_MAX);
	p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		xalloc_die(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		xalloc_die(n);
	return q;
}

void *xrecalloc(void *p, size_t old_n, size_t new_n, size_t size)
{
	char *q;

	if (size && new_n > SIZE_MAX / size)
		xalloc_die(SIZE_MAX);
	q = xrealloc(p, new_n * size);
	if (new_n > old_n)
		memset(q + old_n * size, 0, (new_n - old_n) * size);
	return q;
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = xmalloc(len + 1);

	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}
