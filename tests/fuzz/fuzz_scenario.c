/* SPDX-License-Identifier: MIT */
/*
 * fuzz_scenario.c — libFuzzer target for the scenario parser, on
 * slowpath's own schema.
 *
 * Input layout: up to four parts separated by NUL bytes —
 *   part 0  the scenario "a.ini"
 *   part 1  "b.ini" and part 2 "sub/c.ini", reachable with include=
 *   part 3  --set arguments, one per line
 * After parsing, --set, --scale 1/k (k from the input length) and
 * validation, the resolved scenario is printed, parsed again and printed
 * again; the two prints must be identical (the `slowpath check` round
 * trip), else the target traps.  Errors are fine; crashes, leaks, UB and
 * a broken round trip are findings.  Nothing reads the real file system:
 * [machine] initial_state= names a directory to read, so it is blanked
 * before validation (its files' parsers are fuzz_procfs.c's target).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/scenario.h"
#include "cli/sections.h"

struct part {
	const char	*p;
	size_t		n;
};

struct memfs {
	struct part	b, c;
};

static int mem_read(void *ctx, const char *path, char **data, size_t *len, char **id,
		    char *err, size_t errlen)
{
	const struct memfs *fs = ctx;
	const struct part *f = NULL;

	if (strcmp(path, "b.ini") == 0)
		f = &fs->b;
	else if (strcmp(path, "sub/c.ini") == 0)
		f = &fs->c;
	if (!f || !f->p) {
		snprintf(err, errlen, "%s", strerror(ENOENT));
		return -1;
	}
	*data = malloc(f->n + 1);
	memcpy(*data, f->p, f->n);
	(*data)[f->n] = '\0';
	*len = f->n;
	*id = strdup(path);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct part parts[4] = { { 0 } };
	const char *p = (const char *)data, *end = p + size;
	struct scn_schema *schema = scn_schema_create();
	struct memfs fs;
	struct scn_io io = { mem_read, &fs };
	struct scenario *s, *t;
	char err[1024];
	int np = 0;

	while (np < 4) {
		const char *z = memchr(p, '\0', (size_t)(end - p));

		parts[np].p = p;
		parts[np].n = z ? (size_t)(z - p) : (size_t)(end - p);
		np++;
		if (!z)
			break;
		p = z + 1;
	}
	fs.b = parts[1];
	fs.c = parts[2];
	s = scn_create(schema);
	scn_set_io(s, &io);
	if (scn_parse_buffer(s, "a.ini", parts[0].p, parts[0].n, err, sizeof(err)) == 0) {
		char *a, *b;

		if (parts[3].p) {
			char *sets = strndup(parts[3].p, parts[3].n), *save = NULL;

			for (char *l = strtok_r(sets, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
				(void)scn_set(s, l, err, sizeof(err));
			free(sets);
		}
		(void)scn_scale(s, 1 + (unsigned int)(size % 5), err, sizeof(err));
		(void)scn_set(s, "machine.initial_state=", err, sizeof(err));
		(void)scn_validate(s, err, sizeof(err));
		a = scn_print_string(s);
		t = scn_create(schema);
		if (scn_parse_buffer(t, "check.ini", a, strlen(a), err, sizeof(err)) != 0) {
			fprintf(stderr, "round trip: the printed scenario does not parse: %s\n%s", err, a);
			__builtin_trap();
		}
		b = scn_print_string(t);
		if (strcmp(a, b) != 0) {
			fprintf(stderr, "round trip: printed twice differently\n--- first\n%s--- second\n%s", a, b);
			__builtin_trap();
		}
		free(a);
		free(b);
		scn_destroy(t);
	}
	scn_destroy(s);
	scn_schema_destroy(schema);
	return 0;
}
