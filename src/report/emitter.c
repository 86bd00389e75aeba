/* SPDX-License-Identifier: MIT */
/*
 * emitter.c — tables as aligned text or HTML (emitter.h).
 */
#include <string.h>

#include "report/emitter.h"

void rpt_html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void rpt_emit_init(struct rpt_emitter *e, FILE *f, enum rpt_emit_mode mode)
{
	e->f = f;
	e->mode = mode;
	e->head = false;
}

void rpt_emit_table_begin(struct rpt_emitter *e, const char *cls)
{
	if (e->mode != RPT_EMIT_HTML)
		return;
	fputs("<table", e->f);
	if (cls)
		fprintf(e->f, " class=\"%s\"", cls);
	fputs(">\n", e->f);
}

void rpt_emit_table_end(struct rpt_emitter *e)
{
	if (e->mode == RPT_EMIT_HTML)
		fputs("</table>\n", e->f);
}

void rpt_emit_row_begin(struct rpt_emitter *e, bool head)
{
	e->head = head;
	if (e->mode == RPT_EMIT_HTML)
		fputs("<tr>", e->f);
}

void rpt_emit_cell(struct rpt_emitter *e, const struct rpt_emit_cell *c)
{
	int pad = c->width - (int)strlen(c->text);

	if (e->mode == RPT_EMIT_HTML) {
		fputs(e->head ? "<th" : "<td", e->f);
		if (c->cls)
			fprintf(e->f, " class=\"%s\"", c->cls);
		if (c->span > 1)
			fprintf(e->f, " colspan=\"%d\"", c->span);
		fputc('>', e->f);
		rpt_html_escape(e->f, c->text);
		fputs(e->head ? "</th>" : "</td>", e->f);
		return;
	}
	if (c->sep)
		fputs(c->sep, e->f);
	for (; !c->left && pad > 0; pad--)
		fputc(' ', e->f);
	fputs(c->text, e->f);
	for (; c->left && pad > 0; pad--)
		fputc(' ', e->f);
}

void rpt_emit_row_end(struct rpt_emitter *e)
{
	fputs(e->mode == RPT_EMIT_HTML ? "</tr>\n" : "\n", e->f);
}

void rpt_emit_note(struct rpt_emitter *e, const char *text)
{
	if (e->mode == RPT_EMIT_HTML) {
		fputs("<p class=\"note\">", e->f);
		rpt_html_escape(e->f, text);
		fputs("</p>\n", e->f);
	} else {
		fputs(text, e->f);
		fputc('\n', e->f);
	}
}
