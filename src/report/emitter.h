/* SPDX-License-Identifier: MIT */
/*
 * emitter.h — one set of calls that prints a table as aligned text or as
 * HTML, after jemalloc's emitter (src/emitter.h there): the report code
 * says what each cell is (text, width, alignment, separator, a class for
 * colour) once, and the emitter's mode decides the markup.  The
 * comparison's text and the HTML report's tables come through here, so
 * the HTML never parses printed text.
 */
#ifndef SLOWPATH_REPORT_EMITTER_H
#define SLOWPATH_REPORT_EMITTER_H

#include <stdbool.h>
#include <stdio.h>

enum rpt_emit_mode { RPT_EMIT_TEXT, RPT_EMIT_HTML };

struct rpt_emitter {
	FILE			*f;
	enum rpt_emit_mode	mode;
	bool			head;		/* the current row is a header row */
};

struct rpt_emit_cell {
	const char	*text;
	int		width;		/* text: pad to this many columns */
	bool		left;		/* text: left-aligned (else right) */
	const char	*sep;		/* text: printed before the cell, or NULL */
	const char	*cls;		/* html: class attribute, or NULL */
	int		span;		/* html: colspan when > 1 */
};

void rpt_emit_init(struct rpt_emitter *e, FILE *f, enum rpt_emit_mode mode);
/* html: <table class="cls">; text: nothing. */
void rpt_emit_table_begin(struct rpt_emitter *e, const char *cls);
void rpt_emit_table_end(struct rpt_emitter *e);
/* A row; head rows are <th> cells in html. */
void rpt_emit_row_begin(struct rpt_emitter *e, bool head);
void rpt_emit_cell(struct rpt_emitter *e, const struct rpt_emit_cell *c);
void rpt_emit_row_end(struct rpt_emitter *e);
/* A line of prose: text as is, html as <p class="note">. */
void rpt_emit_note(struct rpt_emitter *e, const char *text);

/* Escape <, >, & and " for HTML. */
void rpt_html_escape(FILE *f, const char *s);

#endif
