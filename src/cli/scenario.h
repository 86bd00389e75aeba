/* SPDX-License-Identifier: MIT */
/*
 * scenario.h — scenario files (docs/scenario-format.md).
 *
 * A scenario is an fio-style INI file: sections, key=value lines, ';'/'#'
 * comments, include=, ${ENV} in values.  The syntax is read here (inih
 * splits the lines); the meaning comes from a *schema*: a list of section
 * types, each with one typed option table (sim/option.h).  slowpath's own
 * schema — [global], [machine], [sysctl], [policy], [costs], [device NAME]
 * and one section type per registered workload — is built by
 * scn_schema_create() in sections.c; tests and the fuzzer may pass their
 * own.
 *
 * Every key remembers where it was set (file:line, or the --set argument),
 * so every error, including those found after parsing, names its place:
 *   scenarios/x.ini:12: unknown key 'memroy' in [machine] (did you mean 'memory'?)
 *
 * Override rules (see docs/scenario-format.md, "Setting a key twice"):
 *   - a key may be set once per file;
 *   - a file may override a value that came from a file it included
 *     (directly or through further includes): includes act as presets;
 *   - --set overrides anything; the last --set of a key wins;
 *   - any other second assignment is an error naming both places.
 */
#ifndef SLOWPATH_CLI_SCENARIO_H
#define SLOWPATH_CLI_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/option.h"

enum scn_section_flags {
	SCN_ALWAYS		= 1u << 0,	/* exists, with defaults, even when no file names it */
	SCN_NAME_REQUIRED	= 1u << 1,	/* written [kind NAME] */
	SCN_NAME_ALLOWED	= 1u << 2,	/* [kind] or [kind NAME] */
	SCN_MULTIPLE		= 1u << 3,	/* several instances may exist */
};

/* A key that moved out of its section: setting it is an error that says
 * where it went. */
struct scn_moved_key {
	const char		*key;
	const char		*where;		/* the rest of "key 'K' in [S] moved: ..." */
};

struct scn_section_type {
	const char		*kind;		/* "machine", "device", "synthetic" */
	const char		*help;		/* one line */
	const struct opt_def	*options;
	size_t			config_size;
	unsigned int		flags;		/* enum scn_section_flags */
	/*
	 * Cross-field check after parsing, --set and --scale; `name` is the
	 * section's name ("" for [kind]).  Returns 0, or -1 with a message (no
	 * place) in err; *bad_key may name the key to blame (its file:line is
	 * reported), else the section header's place is.
	 */
	int  (*validate)(const struct scn_section_type *t, const char *name, const void *config,
			 const char **bad_key, char *err, size_t errlen);
	/* --scale 1/n: shrink size-like values in place.  0 or -1 with err. */
	int  (*scale)(const struct scn_section_type *t, void *config, unsigned int n,
		      char *err, size_t errlen);
	/* Release what the config owns beyond OPT_STRING fields (may be NULL). */
	void (*release)(const struct scn_section_type *t, void *config);
	const void		*data;		/* owner's data (the workload_type) */
	/* Keys the section no longer has, with where they went (may be NULL). */
	const struct scn_moved_key *moved;
};

struct scenario;

struct scn_schema {
	const struct scn_section_type *types;
	size_t			nr_types;
	/* Checks across sections, after every section's validate (may be
	 * NULL).  0, or -1 with "place: message" in err. */
	int			(*validate)(const struct scenario *s, char *err, size_t errlen);
};

/* Where a value or a section came from. */
struct scn_origin {
	const char	*file;		/* path as shown in messages; "--set 'k=v'" for the
					 * command line; NULL: the default */
	unsigned int	line;		/* 1-based; 0 for the command line */
};

struct scn_instance {
	const struct scn_section_type *type;
	char			*name;		/* "" for [kind] */
	void			*config;	/* type->config_size bytes, defaults applied */
	struct scn_origin	origin;		/* first header; file NULL when never named */
	struct scn_origin	*key_origin;	/* per option row */
	int			*key_file;	/* per row: index of the setting file, -1 default */
};

/*
 * How files are read (a seam for tests and the fuzzer).  read() returns the
 * whole file in *data (malloc'ed, NUL-terminated after *len bytes) and an
 * identity in *id (malloc'ed; the same file reached by two spellings must
 * give the same id, for include-cycle detection).  0, or -1 with the
 * reason (strerror text) in err.
 */
struct scn_io {
	int	(*read)(void *ctx, const char *path, char **data, size_t *len, char **id,
			char *err, size_t errlen);
	void	*ctx;
};

struct scenario;

struct scenario *scn_create(const struct scn_schema *schema);
void scn_destroy(struct scenario *s);
void scn_set_io(struct scenario *s, const struct scn_io *io);

/* Parse the top-level file (once).  0, or -1 with "file:line: message". */
int scn_parse_file(struct scenario *s, const char *path, char *err, size_t errlen);
/* The same from memory; `name` is used in messages and as the base for
 * relative includes. */
int scn_parse_buffer(struct scenario *s, const char *name, const char *buf, size_t len,
		     char *err, size_t errlen);

/* --set KEY=VALUE: "section.key", "kind:name.key", or a key unique among
 * the scenario's sections.  0, or -1 with "--set 'a=b': message". */
int scn_set(struct scenario *s, const char *assignment, char *err, size_t errlen);
/* "1/N" -> N >= 1.  0, or -1 with a message. */
int scn_parse_scale(const char *text, unsigned int *n, char *err, size_t errlen);
/* Apply --scale 1/n to every section that scales.  0 or -1 with err. */
int scn_scale(struct scenario *s, unsigned int n, char *err, size_t errlen);
/* Run every section's validate hook, then the schema's.  0 or -1 with
 * "place: message". */
int scn_validate(const struct scenario *s, char *err, size_t errlen);

/* The resolved scenario in INI form, every key with its value (defaults
 * included); it parses back to the same values (slowpath check). */
void scn_print(const struct scenario *s, FILE *out);
/* The same into a malloc'ed string. */
char *scn_print_string(const struct scenario *s);

const char *scn_path(const struct scenario *s);		/* top-level file as given */
unsigned int scn_scale_n(const struct scenario *s);	/* 1 unless scaled */
size_t scn_nr_instances(const struct scenario *s);
const struct scn_instance *scn_instance_at(const struct scenario *s, size_t i);
/* The instance of `kind` named `name` ("" or NULL: unnamed). */
const struct scn_instance *scn_find(const struct scenario *s, const char *kind, const char *name);
/* Its config, or NULL. */
void *scn_config(const struct scenario *s, const char *kind, const char *name);
/* "file:line" of a key of an instance ("" when it has its default). */
void scn_key_place(const struct scn_instance *in, const char *key, char *buf, size_t len);
/* "file:line" of an instance's header (the top file when never named). */
void scn_section_place(const struct scenario *s, const struct scn_instance *in, char *buf, size_t len);

#endif
