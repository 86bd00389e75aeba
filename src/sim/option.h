/* SPDX-License-Identifier: MIT */
/*
 * option.h — typed option tables.  Every scenario key is a row in one of
 * these tables, declared next to the config struct it fills (the machine,
 * the sysctls, a workload, ...).  From the rows come the parser, the
 * defaults, `slowpath check` output and the help text.  The INI syntax
 * (sections, include=, ${ENV}, --set) lives in cli/scenario.c; this file
 * only knows how to turn one value string into one typed field.
 *
 * Value syntax (fio conventions, docs/scenario-format.md):
 *   OPT_SIZE     bytes; suffixes k m g t (powers of 1024, case-insensitive,
 *                optional trailing "b"/"ib": 4k, 64KiB, 1.5g); plain
 *                numbers are bytes
 *   OPT_TIME     ns; suffixes ns us ms s m h (default unit: opt->time_unit)
 *   OPT_PERCENT  "25%" or a fraction "0.25"; stored as parts per million
 *   OPT_UINT/INT decimal or 0x hex (OPT_U32: into a uint32_t field)
 *   OPT_BOOL     1/0 true/false yes/no on/off
 *   OPT_ENUM     one of enum_names (case-sensitive), stored as its index
 *   OPT_STRING   copied (owned by the scenario)
 *   OPT_COST     nanoseconds with up to 3 decimals, stored as picoseconds
 *                (the cost table's unit, sim/cost.h)
 *
 * Fractions are exact or rejected: "1.5g" is a whole number of bytes,
 * "0.3k" is not and is an error; likewise times must come to whole
 * nanoseconds and percentages to whole parts per million.  Bounds of an
 * OPT_INT row are int64 values cast to uint64.  OPT_STRING fields hold
 * NULL or a heap string; opt_parse_value frees the old string when it
 * replaces it, so the config struct must start zeroed (calloc).
 *
 * Messages name the key and quote the offending text, lower case, no
 * final period: "invalid size '4x' for 'memory' (expected ...)".
 */
#ifndef SLOWPATH_SIM_OPTION_H
#define SLOWPATH_SIM_OPTION_H

#include <stddef.h>
#include <stdint.h>

enum opt_type {
	OPT_BOOL,	/* bool */
	OPT_UINT,	/* uint64_t */
	OPT_INT,	/* int64_t */
	OPT_SIZE,	/* uint64_t bytes */
	OPT_TIME,	/* uint64_t ns */
	OPT_PERCENT,	/* uint64_t parts per million (100% = 1000000) */
	OPT_ENUM,	/* int */
	OPT_STRING,	/* char * (heap) */
	OPT_COST,	/* uint64_t picoseconds, written as decimal ns ("90", "0.08"; cost.h) */
	OPT_U32,	/* uint32_t; syntax of OPT_UINT, at most 4294967295 */
};

struct opt_def {
	const char	*key;
	enum opt_type	type;
	size_t		offset;		/* offsetof() into the config struct */
	const char	*def;		/* default, as scenario text; NULL = zero */
	uint64_t	min, max;	/* inclusive range for numeric types (max 0 = no limit) */
	const char *const *enum_names;	/* OPT_ENUM: NULL-terminated */
	uint64_t	time_unit;	/* OPT_TIME: ns per unit for bare numbers (0 = 1 ns) */
	const char	*help;
};

#define OPT_END { .key = NULL }

/*
 * Parse `value` for `opt` into `base + opt->offset`.  Returns 0, or -1 with
 * a message (no file/line; the caller prefixes it) in err[errlen].
 */
int opt_parse_value(const struct opt_def *opt, void *base, const char *value,
		    char *err, size_t errlen);
/* Apply every default of a table to `base`. Returns 0 or -1 (a bad default is a bug). */
int opt_apply_defaults(const struct opt_def *table, void *base);
/* Render the current value of a field as scenario text (for `check`). */
void opt_format_value(const struct opt_def *opt, const void *base, char *buf, size_t len);
const struct opt_def *opt_find(const struct opt_def *table, const char *key);
/* Free the OPT_STRING fields of `base` (sets them to NULL). */
void opt_release(const struct opt_def *table, void *base);
/* Render the permitted range of a numeric option ("1..3000", "at least 4m")
 * in its own value syntax; "" when it has none. */
void opt_format_range(const struct opt_def *opt, char *buf, size_t len);

#endif
