/* SPDX-License-Identifier: MIT */
/*
 * scenario.c — reading scenario files: syntax, includes, ${ENV}, --set,
 * --scale, and printing the resolved scenario.
 *
 * inih (Debian's libinih) splits "key = value" lines.  Debian builds it
 * without INI_HANDLER_LINENO, so the handler is not told the line number;
 * instead inih reads through our own line reader (ini_parse_stream), which
 * knows the file and line of the line it just handed over, and the handler
 * runs before the next line is read.  The reader also does the lexical
 * work inih cannot be configured for per call (its options are
 * process-wide globals we leave alone):
 *
 *   1. strip a UTF-8 BOM (line 1), the line end, and surrounding blanks —
 *      so inih never sees an indented line and never treats one as a
 *      continuation (its multi-line mode is on in Debian's build);
 *   2. reject control characters (a NUL or ESC in a scenario is a mistake);
 *   3. blank and comment lines (';' or '#' first) become empty lines;
 *   4. cut inline comments: ';' or '#' after a blank, to the end of line;
 *   5. section headers are checked and opened here (inih never calls the
 *      handler for an empty section, but [device md0] alone must exist);
 *   6. "key=value" lines are checked for shape; a line longer than inih's
 *      fixed buffer is passed as "key=\x01" with the value kept aside
 *      (control characters are rejected in step 2, so \x01 is unambiguous).
 *
 * The handler then expands ${ENV}, handles include=, looks the key up in
 * the current section's option table and parses the value into the typed
 * config at once, so the first error in file order is the one reported.
 * Parsing stops at the first error.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "cli/scenario.h"
#include "sim/debug.h"
#include "sim/xalloc.h"

#define MAX_INCLUDE_DEPTH	16
#define MAX_FILE_BYTES		(16u << 20)
#define LONG_VALUE		"\x01"
#define MAX_SECTION_NAME	64

struct scn_file {
	char		*path;		/* as shown in messages */
	char		*id;		/* identity for cycle detection (NULL for --set) */
	int		parent;		/* index of the including file; -1 top; -2 --set */
	bool		active;		/* on the include stack right now */
};

struct scenario {
	const struct scn_schema	*schema;
	struct scn_io		io;
	struct scn_file		*files;
	size_t			nr_files;
	struct scn_instance	**inst;
	size_t			nr_inst;
	unsigned int		scale_n;
	char			*path;
};

struct parse_ctx {
	struct scenario		*s;
	int			file;		/* index into s->files */
	const char		*buf;
	size_t			len, pos;
	unsigned int		line;
	struct scn_instance	*cur;		/* section the next key belongs to */
	char			*linebuf;	/* the current line, lexed */
	size_t			linecap;
	char			*stash;		/* value of an over-long line */
	char			*err;
	size_t			errlen;
	bool			failed;
};

/* ---- small helpers ---------------------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static char *trim(char *s)
{
	char *e;

	while (is_blank(*s))
		s++;
	e = s + strlen(s);
	while (e > s && is_blank(e[-1]))
		*--e = '\0';
	return s;
}

static void format_place(const struct scn_origin *o, char *buf, size_t len)
{
	if (!o->file)
		snprintf(buf, len, "%s", "");
	else if (o->line)
		snprintf(buf, len, "%s:%u", o->file, o->line);
	else
		snprintf(buf, len, "%s", o->file);
}

SIM_PRINTF(2, 3)
static void ctx_fail(struct parse_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->failed)
		return;
	c->failed = true;
	n = snprintf(c->err, c->errlen, "%s:%u: ", c->s->files[c->file].path, c->line);
	if (n < 0 || (size_t)n >= c->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* ---- schema lookups --------------------------------------------------------------- */

static const struct scn_section_type *find_type(const struct scenario *s, const char *kind)
{
	for (size_t i = 0; i < s->schema->nr_types; i++)
		if (strcmp(s->schema->types[i].kind, kind) == 0)
			return &s->schema->types[i];
	return NULL;
}

static size_t nr_rows(const struct opt_def *t)
{
	size_t n = 0;

	while (t && t[n].key)
		n++;
	return n;
}

static int row_index(const struct scn_section_type *t, const char *key)
{
	const struct opt_def *o = opt_find(t->options, key);

	return o ? (int)(o - t->options) : -1;
}

/* Levenshtein distance, capped: enough to suggest "memory" for "memroy". */
static unsigned int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned int *row, d;

	if (la > 64 || lb > 64)
		return UINT_MAX;
	row = xmalloc((lb + 1) * sizeof(*row));
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned int diag = row[0];

		row[0] = (unsigned int)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned int up = row[j];
			unsigned int best = diag + (a[i - 1] != b[j - 1]);

			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (up + 1 < best)
				best = up + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

static void section_label(const struct scn_instance *in, char *buf, size_t len)
{
	if (in->name[0])
		snprintf(buf, len, "[%s %s]", in->type->kind, in->name);
	else
		snprintf(buf, len, "[%s]", in->type->kind);
}

/* "unknown key 'memroy' in [machine] (did you mean 'memory'?)" */
static void unknown_key_message(const struct scn_instance *in, const char *key, char *buf, size_t len)
{
	const char *best = NULL;
	unsigned int best_d = 3;
	char label[160];

	section_label(in, label, sizeof(label));
	for (const struct scn_moved_key *m = in->type->moved; m && m->key; m++)
		if (strcmp(m->key, key) == 0) {
			snprintf(buf, len, "key '%s' in %s moved: %s", key, label, m->where);
			return;
		}
	for (const struct opt_def *o = in->type->options; o && o->key; o++) {
		unsigned int d = edit_distance(key, o->key);

		if (d < best_d && d < strlen(key)) {
			best_d = d;
			best = o->key;
		}
	}
	if (best)
		snprintf(buf, len, "unknown key '%s' in %s (did you mean '%s'?)", key, label, best);
	else
		snprintf(buf, len, "unknown key '%s' in %s", key, label);
}

/* ---- instances -------------------------------------------------------------------- */

static struct scn_instance *find_instance(const struct scenario *s, const struct scn_section_type *t,
					  const char *name)
{
	for (size_t i = 0; i < s->nr_inst; i++)
		if (s->inst[i]->type == t && strcmp(s->inst[i]->name, name) == 0)
			return s->inst[i];
	return NULL;
}

static struct scn_instance *add_instance(struct scenario *s, const struct scn_section_type *t,
					 const char *name)
{
	struct scn_instance *in = xcalloc(1, sizeof(*in));
	size_t rows = nr_rows(t->options);

	in->type = t;
	in->name = xstrdup(name);
	in->config = xcalloc(1, t->config_size);
	in->key_origin = xcalloc(rows, sizeof(*in->key_origin));
	in->key_file = xmalloc((rows ? rows : 1) * sizeof(*in->key_file));
	for (size_t i = 0; i < rows; i++)
		in->key_file[i] = -1;
	if (opt_apply_defaults(t->options, in->config))
		SIM_BUG("section [%s]: a default in its option table does not parse", t->kind);
	s->inst = xrealloc(s->inst, (s->nr_inst + 1) * sizeof(*s->inst));
	s->inst[s->nr_inst++] = in;
	return in;
}

static void free_instance(struct scn_instance *in)
{
	if (in->type->release)
		in->type->release(in->type, in->config);
	opt_release(in->type->options, in->config);
	free(in->config);
	free(in->key_origin);
	free(in->key_file);
	free(in->name);
	free(in);
}

/* ---- default file reading --------------------------------------------------------- */

static int fs_read(void *ctx, const char *path, char **data, size_t *len, char **id,
		   char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *real;
	size_t n = 0, cap = 0;

	(void)ctx;
	if (!f)
		return sim_errf(err, errlen, "%s", strerror(errno));
	for (;;) {
		size_t got;

		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 8192;
			buf = xrealloc(buf, cap + 1);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n > MAX_FILE_BYTES) {
			fclose(f);
			free(buf);
			return sim_errf(err, errlen, "file is larger than %u MiB", MAX_FILE_BYTES >> 20);
		}
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		free(buf);
		return sim_errf(err, errlen, "%s", strerror(e ? e : EIO));
	}
	fclose(f);
	buf[n] = '\0';
	real = realpath(path, NULL);
	*id = real ? real : xstrdup(path);
	*data = buf;
	*len = n;
	return 0;
}

/* ---- creation ---------------------------------------------------------------------- */

struct scenario *scn_create(const struct scn_schema *schema)
{
	struct scenario *s = xcalloc(1, sizeof(*s));

	s->schema = schema;
	s->io.read = fs_read;
	s->scale_n = 1;
	for (size_t i = 0; i < schema->nr_types; i++)
		if (schema->types[i].flags & SCN_ALWAYS)
			add_instance(s, &schema->types[i], "");
	return s;
}

void scn_destroy(struct scenario *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_inst; i++)
		free_instance(s->inst[i]);
	free(s->inst);
	for (size_t i = 0; i < s->nr_files; i++) {
		free(s->files[i].path);
		free(s->files[i].id);
	}
	free(s->files);
	free(s->path);
	free(s);
}

void scn_set_io(struct scenario *s, const struct scn_io *io)
{
	s->io = *io;
}

static int add_file(struct scenario *s, const char *path, char *id, int parent)
{
	s->files = xrealloc(s->files, (s->nr_files + 1) * sizeof(*s->files));
	s->files[s->nr_files] = (struct scn_file){ xstrdup(path), id, parent, false };
	return (int)s->nr_files++;
}

/* Is file `f` (transitively) included by file `anc`? */
static bool included_by(const struct scenario *s, int f, int anc)
{
	while (f >= 0) {
		f = s->files[f].parent;
		if (f == anc)
			return true;
	}
	return false;
}

/* ---- values ----------------------------------------------------------------------------- */

/*
 * Expand ${NAME} from the environment.  A '$' not followed by '{' is kept.
 * Returns a malloc'ed string, or NULL with a message.
 */
static char *expand_env(const char *v, char *msg, size_t msglen)
{
	size_t cap = strlen(v) + 1, n = 0;
	char *out = xmalloc(cap);

	while (*v) {
		const char *val, *end;
		char name[256];
		size_t nl, vl;

		if (v[0] != '$' || v[1] != '{') {
			out[n++] = *v++;
			continue;
		}
		end = strchr(v + 2, '}');
		if (!end) {
			snprintf(msg, msglen, "unterminated '${' in value (write ${NAME})");
			free(out);
			return NULL;
		}
		nl = (size_t)(end - (v + 2));
		if (nl == 0 || nl >= sizeof(name) || !(isalpha((unsigned char)v[2]) || v[2] == '_')) {
			snprintf(msg, msglen, "invalid variable name '%.*s' (letters, digits and '_', "
				 "not starting with a digit)", (int)(end - v + 1), v);
			free(out);
			return NULL;
		}
		memcpy(name, v + 2, nl);
		name[nl] = '\0';
		for (size_t i = 0; i < nl; i++)
			if (!isalnum((unsigned char)name[i]) && name[i] != '_') {
				snprintf(msg, msglen, "invalid variable name '${%s}' (letters, digits and "
					 "'_', not starting with a digit)", name);
				free(out);
				return NULL;
			}
		val = getenv(name);
		if (!val) {
			snprintf(msg, msglen, "environment variable '%s' is not set", name);
			free(out);
			return NULL;
		}
		vl = strlen(val);
		cap += vl;
		out = xrealloc(out, cap);
		memcpy(out + n, val, vl);
		n += vl;
		v = end + 1;
	}
	out[n] = '\0';
	return out;
}

/*
 * A value must survive being printed back into a scenario file by
 * `slowpath check`: no control characters, no surrounding blanks, no ';'
 * or '#' after a blank (those would start a comment) and no '${' (it would
 * be expanded).  Values read from a file meet the first three by
 * construction; ${ENV} results and --set values may not.
 */
static int check_writable(const char *key, const char *v, char *msg, size_t msglen)
{
	size_t n = strlen(v);

	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)v[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			snprintf(msg, msglen, "value for '%s' contains the control character 0x%02x",
				 key, ch);
			return -1;
		}
		if (ch == '$' && v[i + 1] == '{') {
			snprintf(msg, msglen, "value for '%s' contains '${', which a scenario file would "
				 "expand", key);
			return -1;
		}
		if ((ch == ';' || ch == '#') && i > 0 && is_blank(v[i - 1])) {
			snprintf(msg, msglen, "value for '%s' contains '%c' after a blank, which would "
				 "start a comment in a scenario file", key, ch);
			return -1;
		}
	}
	if (n && (is_blank(v[0]) || is_blank(v[n - 1]))) {
		snprintf(msg, msglen, "value for '%s' has leading or trailing blanks", key);
		return -1;
	}
	return 0;
}

/*
 * Assign key=value in instance `in`, set by file index `file` at `line`.
 * Returns 0 or -1 with a message (no place) in msg.
 */
static int assign(struct scenario *s, struct scn_instance *in, const char *key, const char *value,
		  int file, unsigned int line, char *msg, size_t msglen)
{
	int row = row_index(in->type, key);
	char label[160];

	if (row < 0) {
		unknown_key_message(in, key, msg, msglen);
		return -1;
	}
	if (s->files[file].parent != -2 && in->key_file[row] >= 0) {
		int prev = in->key_file[row];
		char place[300];

		format_place(&in->key_origin[row], place, sizeof(place));
		section_label(in, label, sizeof(label));
		if (prev == file) {
			snprintf(msg, msglen, "duplicate key '%s' in %s (first set at %s)", key, label, place);
			return -1;
		}
		if (!included_by(s, prev, file)) {
			snprintf(msg, msglen, "key '%s' in %s is already set at %s (a file may only override "
				 "values from files it includes)", key, label, place);
			return -1;
		}
	}
	if (check_writable(key, value, msg, msglen))
		return -1;
	if (opt_parse_value(&in->type->options[row], in->config, value, msg, msglen))
		return -1;
	in->key_file[row] = file;
	in->key_origin[row].file = s->files[file].path;
	in->key_origin[row].line = line;
	return 0;
}

/* ---- the line reader ----------------------------------------------------------------- */

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

/* Cut an inline comment: ';' or '#' after a blank. */
static void cut_comment(char *s)
{
	for (char *p = s + 1; *p; p++)
		if ((*p == ';' || *p == '#') && is_blank(p[-1])) {
			*p = '\0';
			break;
		}
}

/* A [section] line: open (or reopen) that section. */
static void open_section(struct parse_ctx *c, char *l)
{
	struct scenario *s = c->s;
	const struct scn_section_type *t;
	size_t n = strlen(l);
	char *inner, *name;

	if (l[n - 1] != ']') {
		ctx_fail(c, "section header '%s' is missing ']'", l);
		return;
	}
	l[n - 1] = '\0';
	inner = trim(l + 1);
	if (!*inner) {
		ctx_fail(c, "empty section name '[]'");
		return;
	}
	name = inner;
	while (*name && !is_blank(*name))
		name++;
	if (*name)
		*name++ = '\0';
	name = trim(name);
	t = find_type(s, inner);
	if (!t) {
		ctx_fail(c, "unknown section '[%s]'", inner);
		return;
	}
	if (*name && !(t->flags & (SCN_NAME_REQUIRED | SCN_NAME_ALLOWED))) {
		ctx_fail(c, "section [%s] takes no name (found '%s')", t->kind, name);
		return;
	}
	if (!*name && (t->flags & SCN_NAME_REQUIRED)) {
		ctx_fail(c, "section [%s] needs a name: [%s NAME]", t->kind, t->kind);
		return;
	}
	if (strlen(name) > MAX_SECTION_NAME) {
		ctx_fail(c, "section name '%.20s...' is longer than %d characters", name, MAX_SECTION_NAME);
		return;
	}
	if (*name && !valid_name(name)) {
		ctx_fail(c, "invalid section name '%s' (letters, digits, '_' and '-' only)", name);
		return;
	}
	c->cur = find_instance(s, t, name);
	if (!c->cur) {
		if (!(t->flags & SCN_MULTIPLE))
			for (size_t i = 0; i < s->nr_inst; i++)
				if (s->inst[i]->type == t) {
					char place[300], label[160];

					format_place(&s->inst[i]->origin, place, sizeof(place));
					section_label(s->inst[i], label, sizeof(label));
					ctx_fail(c, "only one [%s] section is allowed (%s is at %s)", t->kind,
						 label, place);
					return;
				}
		c->cur = add_instance(s, t, name);
	}
	if (!c->cur->origin.file) {
		c->cur->origin.file = s->files[c->file].path;
		c->cur->origin.line = c->line;
	}
}

/*
 * inih's reader: hand over the next line, lexed (see the file comment).
 * Returns NULL at the end or after an error, which ends the parse.
 */
static char *read_line(char *str, int num, void *stream)
{
	struct parse_ctx *c = stream;
	const char *start, *nl;
	size_t n;
	char *l, *eq, *key, *value;

	if (c->failed || c->pos >= c->len)
		return NULL;
	start = c->buf + c->pos;
	nl = memchr(start, '\n', c->len - c->pos);
	n = nl ? (size_t)(nl - start) : c->len - c->pos;
	c->pos += n + (nl != NULL);
	c->line++;
	if (n + 1 > c->linecap) {
		c->linecap = n + 1;
		c->linebuf = xrealloc(c->linebuf, c->linecap);
	}
	memcpy(c->linebuf, start, n);
	c->linebuf[n] = '\0';
	l = c->linebuf;
	if (c->line == 1 && n >= 3 && memcmp(l, "\xef\xbb\xbf", 3) == 0) {
		l += 3;
		n -= 3;
	}
	if (n && l[n - 1] == '\r')
		l[--n] = '\0';
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)l[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			ctx_fail(c, "invalid character 0x%02x in line", ch);
			return NULL;
		}
	}
	l = trim(l);
	if (!*l || *l == ';' || *l == '#') {
		snprintf(str, (size_t)num, "\n");
		return str;
	}
	cut_comment(l);
	l = trim(l);
	if (*l == '[') {
		open_section(c, l);
		if (c->failed)
			return NULL;
		snprintf(str, (size_t)num, "[s]\n");	/* inih's section name is not used */
		return str;
	}
	eq = strchr(l, '=');
	if (!eq) {
		ctx_fail(c, "expected 'key=value' or '[section]', found '%s'", l);
		return NULL;
	}
	*eq = '\0';
	key = trim(l);
	value = trim(eq + 1);
	if (!*key) {
		ctx_fail(c, "missing key before '='");
		return NULL;
	}
	for (const char *p = key; *p; p++)
		if (is_blank(*p) || *p == ':' || *p == '[' || *p == ']') {
			ctx_fail(c, "invalid key '%s'", key);
			return NULL;
		}
	free(c->stash);
	c->stash = NULL;
	if (strlen(key) + strlen(value) + 3 <= (size_t)num) {
		snprintf(str, (size_t)num, "%s=%s\n", key, value);
	} else if (strlen(key) + strlen(LONG_VALUE) + 3 <= (size_t)num) {
		c->stash = xstrdup(value);
		snprintf(str, (size_t)num, "%s=%s\n", key, LONG_VALUE);
	} else {
		ctx_fail(c, "key '%.40s...' is too long", key);
		return NULL;
	}
	return str;
}

/* ---- include -------------------------------------------------------------------------------- */

static int parse_text(struct scenario *s, int file, struct scn_instance *cur,
		      const char *buf, size_t len, char *err, size_t errlen);

static char *resolve_include(const char *from, const char *path)
{
	const char *slash = strrchr(from, '/');
	size_t dl;
	char *out;

	if (path[0] == '/' || !slash)
		return xstrdup(path);
	dl = (size_t)(slash - from);
	out = xmalloc(dl + 1 + strlen(path) + 1);
	memcpy(out, from, dl);
	out[dl] = '/';
	strcpy(out + dl + 1, path);
	return out;
}

static void include_file(struct parse_ctx *c, const char *value)
{
	struct scenario *s = c->s;
	char *path, *data = NULL, *id = NULL;
	char reason[256];
	size_t len = 0, depth = 0;
	int f;

	if (!*value) {
		ctx_fail(c, "empty include=");
		return;
	}
	for (int p = c->file; p >= 0; p = s->files[p].parent)
		depth++;
	if (depth >= MAX_INCLUDE_DEPTH) {
		ctx_fail(c, "includes nested more than %d deep", MAX_INCLUDE_DEPTH);
		return;
	}
	path = resolve_include(s->files[c->file].path, value);
	if (s->io.read(s->io.ctx, path, &data, &len, &id, reason, sizeof(reason))) {
		ctx_fail(c, "cannot include '%s': %s", path, reason);
		free(path);
		return;
	}
	for (int p = c->file; p >= 0; p = s->files[p].parent)
		if (s->files[p].active && strcmp(s->files[p].id, id) == 0) {
			ctx_fail(c, "include cycle: '%s' is already being read", path);
			free(path);
			free(id);
			free(data);
			return;
		}
	f = add_file(s, path, id, c->file);
	free(path);
	if (parse_text(s, f, c->cur, data, len, c->err, c->errlen))
		c->failed = true;	/* the message names the included file's line */
	free(data);
}

/* ---- the handler ------------------------------------------------------------------------------ */

static int handle_key(void *user, const char *section, const char *name, const char *raw)
{
	struct parse_ctx *c = user;
	char msg[512];
	char *value;

	(void)section;
	if (c->failed)
		return 1;
	if (strcmp(raw, LONG_VALUE) == 0 && c->stash)
		raw = c->stash;
	value = expand_env(raw, msg, sizeof(msg));
	if (!value) {
		ctx_fail(c, "%s", msg);
		return 1;
	}
	if (strcmp(name, "include") == 0) {
		include_file(c, value);
	} else if (!c->cur) {
		ctx_fail(c, "key '%s' is outside any section (put a [section] line above it)", name);
	} else if (assign(c->s, c->cur, name, value, c->file, c->line, msg, sizeof(msg))) {
		ctx_fail(c, "%s", msg);
	}
	free(value);
	return 1;
}

static int parse_text(struct scenario *s, int file, struct scn_instance *cur,
		      const char *buf, size_t len, char *err, size_t errlen)
{
	struct parse_ctx c = {
		.s = s, .file = file, .buf = buf, .len = len, .cur = cur,
		.err = err, .errlen = errlen,
	};
	int rc;

	s->files[file].active = true;
	rc = ini_parse_stream(read_line, &c, handle_key, &c);
	s->files[file].active = false;
	free(c.linebuf);
	free(c.stash);
	if (c.failed)
		return -1;
	if (rc == -2)
		return sim_errf(err, errlen, "%s: out of memory", s->files[file].path);
	if (rc != 0)	/* the reader should have caught every shape inih rejects */
		return sim_errf(err, errlen, "%s:%d: syntax error", s->files[file].path, rc);
	return 0;
}

int scn_parse_buffer(struct scenario *s, const char *name, const char *buf, size_t len,
		     char *err, size_t errlen)
{
	int f;

	if (len > MAX_FILE_BYTES)
		return sim_errf(err, errlen, "%s: file is larger than %u MiB", name, MAX_FILE_BYTES >> 20);
	free(s->path);
	s->path = xstrdup(name);
	f = add_file(s, name, xstrdup(name), -1);
	return parse_text(s, f, NULL, buf, len, err, errlen);
}

int scn_parse_file(struct scenario *s, const char *path, char *err, size_t errlen)
{
	char *data = NULL, *id = NULL;
	char reason[256];
	size_t len = 0;
	int f, rc;

	if (s->io.read(s->io.ctx, path, &data, &len, &id, reason, sizeof(reason)))
		return sim_errf(err, errlen, "%s: cannot read scenario: %s", path, reason);
	free(s->path);
	s->path = xstrdup(path);
	f = add_file(s, path, id, -1);
	rc = parse_text(s, f, NULL, data, len, err, errlen);
	free(data);
	return rc;
}

/* ---- --set ------------------------------------------------------------------------------------ */

static size_t count_kind(const struct scenario *s, const struct scn_section_type *t,
			 struct scn_instance **only)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nr_inst; i++)
		if (s->inst[i]->type == t) {
			*only = s->inst[i];
			n++;
		}
	return n;
}

static void list_instances(const struct scenario *s, const struct scn_section_type *t,
			   const char *key, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->nr_inst && used < len; i++) {
		char label[160];

		if (t ? s->inst[i]->type != t : row_index(s->inst[i]->type, key) < 0)
			continue;
		section_label(s->inst[i], label, sizeof(label));
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", label);
	}
}

/*
 * Resolve the left side of --set to (instance, key).  Returns the key
 * (pointing into lhs) or NULL with a message.
 */
static const char *resolve_set(struct scenario *s, char *lhs, struct scn_instance **out,
			       char *msg, size_t msglen)
{
	char *colon = strchr(lhs, ':'), *dot = strchr(lhs, '.');
	const struct scn_section_type *t;
	struct scn_instance *only = NULL, *found = NULL;
	char list[400];
	size_t n = 0;

	if (colon && (!dot || colon < dot)) {		/* kind:name.key */
		char *name = colon + 1, *key;

		*colon = '\0';
		dot = strchr(name, '.');
		if (!dot || dot == name || !dot[1]) {
			snprintf(msg, msglen, "expected 'kind:name.key=value'");
			return NULL;
		}
		*dot = '\0';
		key = dot + 1;
		t = find_type(s, lhs);
		if (!t) {
			snprintf(msg, msglen, "unknown section '[%s]'", lhs);
			return NULL;
		}
		*out = find_instance(s, t, name);
		if (!*out) {
			snprintf(msg, msglen, "the scenario has no section [%s %s]", lhs, name);
			return NULL;
		}
		return key;
	}
	if (dot) {					/* section.key */
		*dot = '\0';
		t = find_type(s, lhs);
		if (t && dot[1] && row_index(t, dot + 1) >= 0) {
			n = count_kind(s, t, &only);
			if (n == 1) {
				*out = only;
				return dot + 1;
			}
			if (n == 0)
				snprintf(msg, msglen, "the scenario has no [%s] section", lhs);
			else {
				list_instances(s, t, NULL, list, sizeof(list));
				snprintf(msg, msglen, "[%s] is ambiguous: the scenario has %s; write "
					 "'%s:NAME.%s=...'", lhs, list, lhs, dot + 1);
			}
			return NULL;
		}
		*dot = '.';
	}
	for (size_t i = 0; i < s->nr_inst; i++)		/* a bare key */
		if (row_index(s->inst[i]->type, lhs) >= 0) {
			found = s->inst[i];
			n++;
		}
	if (n == 1) {
		*out = found;
		return lhs;
	}
	if (n == 0) {
		if (dot) {
			*dot = '\0';
			t = find_type(s, lhs);
			if (t && count_kind(s, t, &only) == 1) {
				unknown_key_message(only, dot + 1, msg, msglen);
				return NULL;
			}
			*dot = '.';
		}
		snprintf(msg, msglen, "unknown key '%s' (no section of the scenario has it)", lhs);
		return NULL;
	}
	list_instances(s, NULL, lhs, list, sizeof(list));
	snprintf(msg, msglen, "key '%s' is ambiguous: it is in %s; write 'section.%s=...'", lhs, list, lhs);
	return NULL;
}

int scn_set(struct scenario *s, const char *assignment, char *err, size_t errlen)
{
	char *copy = xstrdup(assignment), *eq = strchr(copy, '=');
	char msg[600], *label;
	struct scn_instance *in = NULL;
	const char *key;
	size_t ll = strlen(assignment) + 16;
	int f, rc = -1;

	label = xmalloc(ll);
	snprintf(label, ll, "--set '%s'", assignment);
	if (!eq || eq == copy) {
		snprintf(msg, sizeof(msg), "expected 'key=value'");
		goto out;
	}
	*eq = '\0';
	if (strcmp(copy, "include") == 0) {
		snprintf(msg, sizeof(msg), "include= works only in files");
		goto out;
	}
	key = resolve_set(s, copy, &in, msg, sizeof(msg));
	if (!key)
		goto out;
	f = add_file(s, label, NULL, -2);
	if (assign(s, in, key, eq + 1, f, 0, msg, sizeof(msg)) == 0)
		rc = 0;
out:
	if (rc)
		sim_errf(err, errlen, "%s: %s", label, msg);
	free(label);
	free(copy);
	return rc;
}

/* ---- --scale, validation ------------------------------------------------------------------ */

int scn_parse_scale(const char *text, unsigned int *n, char *err, size_t errlen)
{
	unsigned long v;
	char *end;

	if (strncmp(text, "1/", 2) != 0 || !isdigit((unsigned char)text[2]))
		return sim_errf(err, errlen, "--scale '%s': expected 1/N, for example 1/8", text);
	errno = 0;
	v = strtoul(text + 2, &end, 10);
	if (*end || errno || v < 1 || v > 1000000)
		return sim_errf(err, errlen, "--scale '%s': N must be a whole number from 1 to 1000000", text);
	*n = (unsigned int)v;
	return 0;
}

int scn_scale(struct scenario *s, unsigned int n, char *err, size_t errlen)
{
	char msg[512];

	for (size_t i = 0; i < s->nr_inst; i++) {
		struct scn_instance *in = s->inst[i];

		if (in->type->scale && in->type->scale(in->type, in->config, n, msg, sizeof(msg))) {
			char label[160];

			section_label(in, label, sizeof(label));
			return sim_errf(err, errlen, "--scale 1/%u: %s: %s", n, label, msg);
		}
	}
	s->scale_n *= n;
	return 0;
}

void scn_section_place(const struct scenario *s, const struct scn_instance *in, char *buf, size_t len)
{
	if (in->origin.file)
		format_place(&in->origin, buf, len);
	else
		snprintf(buf, len, "%s", s->path ? s->path : "scenario");
}

void scn_key_place(const struct scn_instance *in, const char *key, char *buf, size_t len)
{
	int row = row_index(in->type, key);

	buf[0] = '\0';
	if (row >= 0)
		format_place(&in->key_origin[row], buf, len);
}

int scn_validate(const struct scenario *s, char *err, size_t errlen)
{
	char msg[512], place[300], label[160];

	for (size_t i = 0; i < s->nr_inst; i++) {
		const struct scn_instance *in = s->inst[i];
		const char *bad_key = NULL;

		if (!in->type->validate ||
		    in->type->validate(in->type, in->name, in->config, &bad_key, msg, sizeof(msg)) == 0)
			continue;
		place[0] = '\0';
		if (bad_key)
			scn_key_place(in, bad_key, place, sizeof(place));
		section_label(in, label, sizeof(label));
		if (place[0])
			return sim_errf(err, errlen, "%s: %s", place, msg);
		scn_section_place(s, in, place, sizeof(place));
		return sim_errf(err, errlen, "%s: %s: %s", place, label, msg);
	}
	return s->schema->validate ? s->schema->validate(s, err, errlen) : 0;
}

/* ---- printing ------------------------------------------------------------------------------ */

void scn_print(const struct scenario *s, FILE *out)
{
	fprintf(out, "; the resolved scenario: every key with its value, defaults included\n");
	for (size_t i = 0; i < s->nr_inst; i++) {
		const struct scn_instance *in = s->inst[i];
		char label[160];

		section_label(in, label, sizeof(label));
		fprintf(out, "\n%s\n", label);
		for (const struct opt_def *o = in->type->options; o && o->key; o++) {
			char buf[256];

			if (o->type == OPT_STRING) {
				const char *v = *(char *const *)((const char *)in->config + o->offset);

				fprintf(out, "%s=%s\n", o->key, v ? v : "");
				continue;
			}
			opt_format_value(o, in->config, buf, sizeof(buf));
			fprintf(out, "%s=%s\n", o->key, buf);
		}
	}
}

char *scn_print_string(const struct scenario *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		SIM_BUG("open_memstream failed");
	scn_print(s, f);
	fclose(f);
	return buf;
}

/* ---- access ---------------------------------------------------------------------------------- */

const char *scn_path(const struct scenario *s)
{
	return s->path ? s->path : "";
}

unsigned int scn_scale_n(const struct scenario *s)
{
	return s->scale_n;
}

size_t scn_nr_instances(const struct scenario *s)
{
	return s->nr_inst;
}

const struct scn_instance *scn_instance_at(const struct scenario *s, size_t i)
{
	return i < s->nr_inst ? s->inst[i] : NULL;
}

const struct scn_instance *scn_find(const struct scenario *s, const char *kind, const char *name)
{
	const struct scn_section_type *t = find_type(s, kind);

	return t ? find_instance(s, t, name ? name : "") : NULL;
}

void *scn_config(const struct scenario *s, const char *kind, const char *name)
{
	const struct scn_instance *in = scn_find(s, kind, name);

	return in ? in->config : NULL;
}
