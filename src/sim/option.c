/* SPDX-License-Identifier: MIT */
/*
 * option.c — one value string to one typed field, and back.
 *
 * The value grammar follows fio's job files (HOWTO "Parameter types"):
 * sizes with k/m/g/t suffixes in powers of 1024, times with ns/us/ms/s/m/h
 * suffixes, and adds percentages.  Unlike fio nothing is rounded: a
 * fractional value must come to a whole number of the stored unit (bytes,
 * ns, ppm) or it is rejected, so what the user wrote is exactly what runs
 * and `slowpath check` prints it back unchanged.
 *
 * Numbers are parsed as "whole[.fraction]" into integers and scaled with
 * 128-bit arithmetic, never through a double.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim/cost.h"
#include "sim/debug.h"
#include "sim/option.h"

__extension__ typedef unsigned __int128 u128;

#define MAX_FRAC_DIGITS	18

/*
 * A non-negative decimal "123", "1.5", ".25", "7." as whole + num/10^digits.
 * Returns a pointer past the number, or NULL when there is no number or a
 * part does not fit (more than 18 fraction digits, whole part > 2^64-1).
 */
struct decimal {
	uint64_t	whole;
	uint64_t	frac;		/* numerator */
	unsigned int	digits;		/* denominator is 10^digits */
};

static const char *parse_decimal(const char *s, struct decimal *d, bool *overflow)
{
	const char *p = s;
	bool any = false;

	*overflow = false;
	d->whole = d->frac = 0;
	d->digits = 0;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned int v = (unsigned int)(*p - '0');

		any = true;
		if (d->whole > (UINT64_MAX - v) / 10)
			*overflow = true;
		else
			d->whole = d->whole * 10 + v;
	}
	if (*p == '.') {
		p++;
		for (; isdigit((unsigned char)*p); p++) {
			any = true;
			if (d->digits == MAX_FRAC_DIGITS) {
				if (*p != '0')
					*overflow = true;
				continue;
			}
			d->frac = d->frac * 10 + (uint64_t)(*p - '0');
			d->digits++;
		}
	}
	return any ? p : NULL;
}

static u128 pow10_u128(unsigned int n)
{
	u128 r = 1;

	while (n--)
		r *= 10;
	return r;
}

/* d * mult exactly.  Returns 0, -1 when not whole, -2 on overflow. */
static int scale_decimal(const struct decimal *d, uint64_t mult, uint64_t *out)
{
	u128 den = pow10_u128(d->digits);
	u128 frac = (u128)d->frac * mult;
	u128 whole = (u128)d->whole * mult;
	u128 total;

	if (frac % den)
		return -1;
	total = whole + frac / den;
	if (total > UINT64_MAX)
		return -2;
	*out = (uint64_t)total;
	return 0;
}

/* ---- units ------------------------------------------------------------- */

struct unit {
	const char	*suffix;
	uint64_t	mult;
};

static const struct unit size_units[] = {	/* largest first, for formatting */
	{ "t", 1ULL << 40 }, { "g", 1ULL << 30 }, { "m", 1ULL << 20 }, { "k", 1ULL << 10 },
	{ NULL, 0 }
};

static const struct unit time_units[] = {	/* largest first, for formatting */
	{ "h", 3600ULL * 1000000000ULL }, { "m", 60ULL * 1000000000ULL },
	{ "s", 1000000000ULL }, { "ms", 1000000ULL }, { "us", 1000ULL }, { "ns", 1 },
	{ NULL, 0 }
};

/* Size suffix: "" "b" "k" "kb" "kib" (any case).  Returns the multiplier or 0. */
static uint64_t size_suffix(const char *s)
{
	uint64_t mult = 1;

	if (!*s)
		return 1;
	for (const struct unit *u = size_units; u->suffix; u++)
		if (tolower((unsigned char)*s) == u->suffix[0]) {
			mult = u->mult;
			s++;
			if (tolower((unsigned char)*s) == 'i') {
				s++;
				if (tolower((unsigned char)*s) != 'b')
					return 0;
			}
			break;
		}
	if (tolower((unsigned char)*s) == 'b')
		s++;
	return *s ? 0 : mult;
}

static uint64_t time_suffix(const char *s, uint64_t bare)
{
	if (!*s)
		return bare;
	for (const struct unit *u = time_units; u->suffix; u++)
		if (strcmp(s, u->suffix) == 0)
			return u->mult;
	return 0;
}

/* Render v in the largest unit that divides it exactly. */
static void format_units(const struct unit *units, uint64_t v, char *buf, size_t len)
{
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	for (const struct unit *u = units; u->suffix; u++)
		if (v % u->mult == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", v / u->mult, u->suffix);
			return;
		}
	snprintf(buf, len, "%" PRIu64, v);
}

static void format_ppm(uint64_t ppm, char *buf, size_t len)
{
	uint64_t whole = ppm / 10000, frac = ppm % 10000;
	int digits = 4;

	if (!frac) {
		snprintf(buf, len, "%" PRIu64 "%%", whole);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64 "%%", whole, digits, frac);
}

/* ---- field access ---------------------------------------------------------- */

static void *field(const struct opt_def *opt, void *base)
{
	return (char *)base + opt->offset;
}

static const void *cfield(const struct opt_def *opt, const void *base)
{
	return (const char *)base + opt->offset;
}

static void format_number(const struct opt_def *opt, uint64_t v, char *buf, size_t len)
{
	switch (opt->type) {
	case OPT_SIZE:
		format_units(size_units, v, buf, len);
		break;
	case OPT_TIME:
		format_units(time_units, v, buf, len);
		break;
	case OPT_PERCENT:
		format_ppm(v, buf, len);
		break;
	case OPT_INT:
		snprintf(buf, len, "%" PRId64, (int64_t)v);
		break;
	case OPT_COST:
		if (v % 1000 == 0)
			snprintf(buf, len, "%" PRIu64, v / 1000);
		else if (v % 100 == 0)
			snprintf(buf, len, "%" PRIu64 ".%01" PRIu64, v / 1000, v % 1000 / 100);
		else if (v % 10 == 0)
			snprintf(buf, len, "%" PRIu64 ".%02" PRIu64, v / 1000, v % 1000 / 10);
		else
			snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
		break;
	default:
		snprintf(buf, len, "%" PRIu64, v);
		break;
	}
}

void opt_format_range(const struct opt_def *opt, char *buf, size_t len)
{
	char lo[40], hi[40];

	buf[0] = '\0';
	if (opt->type == OPT_BOOL || opt->type == OPT_ENUM || opt->type == OPT_STRING)
		return;
	format_number(opt, opt->min, lo, sizeof(lo));
	format_number(opt, opt->max, hi, sizeof(hi));
	if (opt->max)
		snprintf(buf, len, "%s..%s", lo, hi);
	else if (opt->min)
		snprintf(buf, len, "at least %s", lo);
}

static int check_range(const struct opt_def *opt, uint64_t v, const char *what,
		       const char *value, char *err, size_t errlen)
{
	bool bad;
	char range[100];

	if (opt->type == OPT_INT)
		bad = (int64_t)v < (int64_t)opt->min || (opt->max && (int64_t)v > (int64_t)opt->max);
	else
		bad = v < opt->min || (opt->max && v > opt->max);
	if (!bad)
		return 0;
	opt_format_range(opt, range, sizeof(range));
	return sim_errf(err, errlen, "%s '%s' for '%s' is out of range (%s)", what, value, opt->key, range);
}

/* ---- parsers per type -------------------------------------------------------- */

static int parse_bool(const struct opt_def *opt, const char *v, bool *out, char *err, size_t errlen)
{
	static const char *const yes[] = { "1", "true", "yes", "on", NULL };
	static const char *const no[] = { "0", "false", "no", "off", NULL };

	for (int i = 0; yes[i]; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return sim_errf(err, errlen, "invalid boolean '%s' for '%s' (use 1/0, true/false, yes/no or on/off)",
		    v, opt->key);
}

static int parse_integer(const struct opt_def *opt, const char *v, uint64_t *out, char *err, size_t errlen)
{
	const char *p = v;
	bool neg = false;
	uint64_t mag = 0;
	int base = 10;

	if (*p == '-' && opt->type == OPT_INT) {
		neg = true;
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		goto bad;
	for (; *p; p++) {
		unsigned int d;

		if (isdigit((unsigned char)*p))
			d = (unsigned int)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned int)(tolower((unsigned char)*p) - 'a' + 10);
		else
			goto bad;
		if (mag > (UINT64_MAX - d) / (unsigned int)base)
			return sim_errf(err, errlen, "number '%s' for '%s' is too large", v, opt->key);
		mag = mag * (unsigned int)base + d;
	}
	if (opt->type == OPT_INT) {
		if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
			return sim_errf(err, errlen, "number '%s' for '%s' is too large", v, opt->key);
		*out = neg ? (uint64_t)(-(int64_t)(mag - 1) - 1) : mag;
	} else if (opt->type == OPT_U32 && mag > UINT32_MAX) {
		return sim_errf(err, errlen, "number '%s' for '%s' is too large", v, opt->key);
	} else {
		*out = mag;
	}
	return check_range(opt, *out, "number", v, err, errlen);
bad:
	if (*v == '-' && opt->type != OPT_INT)
		return sim_errf(err, errlen, "number '%s' for '%s' must not be negative", v, opt->key);
	return sim_errf(err, errlen, "invalid number '%s' for '%s' (expected a decimal or 0x hexadecimal integer)",
		    v, opt->key);
}

static int parse_scaled(const struct opt_def *opt, const char *v, uint64_t *out, char *err, size_t errlen)
{
	struct decimal d;
	bool overflow;
	const char *end = parse_decimal(v, &d, &overflow);
	uint64_t mult;
	const char *what = opt->type == OPT_SIZE ? "size" : "time";
	const char *unit = opt->type == OPT_SIZE ? "bytes" : "nanoseconds";

	if (*v == '-')
		return sim_errf(err, errlen, "%s '%s' for '%s' must not be negative", what, v, opt->key);
	if (!end)
		goto bad;
	if (opt->type == OPT_SIZE)
		mult = size_suffix(end);
	else
		mult = time_suffix(end, opt->time_unit ? opt->time_unit : 1);
	if (!mult)
		goto bad;
	if (overflow)
		return sim_errf(err, errlen, "%s '%s' for '%s' is too large or too precise", what, v, opt->key);
	switch (scale_decimal(&d, mult, out)) {
	case -1:
		return sim_errf(err, errlen, "%s '%s' for '%s' is not a whole number of %s", what, v, opt->key, unit);
	case -2:
		return sim_errf(err, errlen, "%s '%s' for '%s' is too large", what, v, opt->key);
	}
	return check_range(opt, *out, what, v, err, errlen);
bad:
	if (opt->type == OPT_SIZE)
		return sim_errf(err, errlen, "invalid size '%s' for '%s' (expected a number with an optional "
			    "k, m, g or t suffix)", v, opt->key);
	return sim_errf(err, errlen, "invalid time '%s' for '%s' (expected a number with an optional "
		    "ns, us, ms, s, m or h suffix)", v, opt->key);
}

static int parse_percent(const struct opt_def *opt, const char *v, uint64_t *out, char *err, size_t errlen)
{
	struct decimal d;
	bool overflow;
	const char *end = parse_decimal(v, &d, &overflow);
	bool pct;
	int rc;

	if (*v == '-')
		return sim_errf(err, errlen, "percentage '%s' for '%s' must not be negative", v, opt->key);
	if (!end || (*end && strcmp(end, "%") != 0))
		return sim_errf(err, errlen, "invalid percentage '%s' for '%s' (expected '25%%' or a fraction "
			    "such as 0.25)", v, opt->key);
	pct = *end == '%';
	if (!pct && (d.whole > 1 || (d.whole == 1 && d.frac)))
		return sim_errf(err, errlen, "percentage '%s' for '%s' is ambiguous: write '%s%%', or a "
			    "fraction not above 1", v, opt->key, v);
	if (overflow)
		return sim_errf(err, errlen, "percentage '%s' for '%s' is too large or too precise", v, opt->key);
	rc = scale_decimal(&d, pct ? 10000 : 1000000, out);
	if (rc == -1)
		return sim_errf(err, errlen, "percentage '%s' for '%s' is finer than 0.0001%%", v, opt->key);
	if (rc == -2)
		return sim_errf(err, errlen, "percentage '%s' for '%s' is too large", v, opt->key);
	return check_range(opt, *out, "percentage", v, err, errlen);
}

static int parse_enum(const struct opt_def *opt, const char *v, int *out, char *err, size_t errlen)
{
	char list[400];
	size_t used = 0;

	for (int i = 0; opt->enum_names && opt->enum_names[i]; i++)
		if (strcmp(v, opt->enum_names[i]) == 0) {
			*out = i;
			return 0;
		}
	list[0] = '\0';
	for (int i = 0; opt->enum_names && opt->enum_names[i] && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
					 opt->enum_names[i]);
	return sim_errf(err, errlen, "invalid value '%s' for '%s' (expected one of: %s)", v, opt->key, list);
}

int opt_parse_value(const struct opt_def *opt, void *base, const char *value,
		    char *err, size_t errlen)
{
	void *f = field(opt, base);
	uint64_t u = 0;
	int rc;

	if (opt->type != OPT_STRING && !*value)
		return sim_errf(err, errlen, "empty value for '%s'", opt->key);
	switch (opt->type) {
	case OPT_BOOL: {
		bool b = false;

		if (parse_bool(opt, value, &b, err, errlen))
			return -1;
		*(bool *)f = b;
		return 0;
	}
	case OPT_UINT:
	case OPT_INT:
	case OPT_U32:
		rc = parse_integer(opt, value, &u, err, errlen);
		break;
	case OPT_SIZE:
	case OPT_TIME:
		rc = parse_scaled(opt, value, &u, err, errlen);
		break;
	case OPT_PERCENT:
		rc = parse_percent(opt, value, &u, err, errlen);
		break;
	case OPT_COST:
		if (cost_parse_ns(value, &u))
			return sim_errf(err, errlen, "invalid cost '%s' for '%s' (expected nanoseconds, a "
				    "decimal with at most 3 fraction digits)", value, opt->key);
		rc = check_range(opt, u, "cost", value, err, errlen);
		break;
	case OPT_ENUM: {
		int e = 0;

		if (parse_enum(opt, value, &e, err, errlen))
			return -1;
		*(int *)f = e;
		return 0;
	}
	case OPT_STRING: {
		char *copy = strdup(value);

		if (!copy)
			return sim_errf(err, errlen, "out of memory");
		free(*(char **)f);
		*(char **)f = copy;
		return 0;
	}
	default:
		return sim_errf(err, errlen, "option '%s' has an unknown type", opt->key);
	}
	if (rc)
		return -1;
	if (opt->type == OPT_INT)
		*(int64_t *)f = (int64_t)u;
	else if (opt->type == OPT_U32)
		*(uint32_t *)f = (uint32_t)u;
	else
		*(uint64_t *)f = u;
	return 0;
}

int opt_apply_defaults(const struct opt_def *table, void *base)
{
	char err[256];

	for (const struct opt_def *o = table; o->key; o++) {
		if (o->def) {
			if (opt_parse_value(o, base, o->def, err, sizeof(err)))
				return -1;
			continue;
		}
		switch (o->type) {
		case OPT_BOOL:
			*(bool *)field(o, base) = false;
			break;
		case OPT_ENUM:
			*(int *)field(o, base) = 0;
			break;
		case OPT_STRING:
			free(*(char **)field(o, base));
			*(char **)field(o, base) = NULL;
			break;
		case OPT_INT:
			*(int64_t *)field(o, base) = 0;
			break;
		case OPT_U32:
			*(uint32_t *)field(o, base) = 0;
			break;
		default:
			*(uint64_t *)field(o, base) = 0;
			break;
		}
	}
	return 0;
}

void opt_format_value(const struct opt_def *opt, const void *base, char *buf, size_t len)
{
	const void *f = cfield(opt, base);

	switch (opt->type) {
	case OPT_BOOL:
		snprintf(buf, len, "%d", *(const bool *)f ? 1 : 0);
		break;
	case OPT_ENUM: {
		int e = *(const int *)f;
		int n = 0;

		while (opt->enum_names && opt->enum_names[n])
			n++;
		if (e >= 0 && e < n)
			snprintf(buf, len, "%s", opt->enum_names[e]);
		else
			snprintf(buf, len, "%d", e);
		break;
	}
	case OPT_STRING: {
		const char *s = *(char *const *)f;

		snprintf(buf, len, "%s", s ? s : "");
		break;
	}
	case OPT_INT:
		format_number(opt, (uint64_t)*(const int64_t *)f, buf, len);
		break;
	case OPT_U32:
		format_number(opt, *(const uint32_t *)f, buf, len);
		break;
	default:
		format_number(opt, *(const uint64_t *)f, buf, len);
		break;
	}
}

const struct opt_def *opt_find(const struct opt_def *table, const char *key)
{
	for (const struct opt_def *o = table; o && o->key; o++)
		if (strcmp(o->key, key) == 0)
			return o;
	return NULL;
}

void opt_release(const struct opt_def *table, void *base)
{
	for (const struct opt_def *o = table; o->key; o++)
		if (o->type == OPT_STRING) {
			free(*(char **)field(o, base));
			*(char **)field(o, base) = NULL;
		}
}
