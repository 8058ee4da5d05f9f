// SPDX-License-Identifier: GPL-2.0
/*
 * heatmap.c - a latency heatmap as Brendan Gregg draws them: time on x, one
 * row per slot on y (lowest latency at the bottom), colour by the count of
 * the cell, white for none.  Written as standalone SVG; every cell is a
 * <rect class="cell"> with a <title> tooltip, so the file is both a picture
 * and a table.
 */
#include <stdlib.h>
#include <string.h>

#include "kstats_tool.h"

#define LEFT	110
#define TOP	50
#define BOTTOM	60
#define RIGHT	30

/*
 * Light yellow -> orange -> dark red, by @t in (0, 1] (a cell's share of
 * the busiest one's count, or of its log); white for 0: no sample.
 */
void heat_colour(char *buf, size_t len, double t)
{
	static const int stop[3][3] = {
		{ 255, 255, 204 }, { 253, 141, 60 }, { 189, 0, 38 },
	};
	int k, c[3];
	double u;

	if (!(t > 0)) {
		snprintf(buf, len, "#ffffff");
		return;
	}
	t = t > 1 ? 1 : t;
	k = t > 0.5;
	u = k ? (t - 0.5) * 2 : t * 2;
	for (int i = 0; i < 3; i++)
		c[i] = (int)(stop[k][i] + (stop[k + 1][i] - stop[k][i]) * u + 0.5);
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* By count / max. */
static void colour(char *buf, size_t len, u64 count, u64 max)
{
	heat_colour(buf, len, count && max ? (double)count / (double)max : 0);
}

/* @s as XML (or HTML) text or an attribute's value: <, >, & and " escaped. */
void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

struct heat {
	u32 lo_slot;
	size_t nrows, ncols;
	u64 *grid, max, total;
	int cw, ch, w, h;
	const char *unit;
	unsigned int frac_bits;
};

/* The rows (every slot between the lowest and highest with a sample). */
static int heat_grid(struct heat *m, const struct heatcol *cols)
{
	u32 lo = ~0u, hi = 0;

	for (size_t c = 0; c < m->ncols; c++)
		for (size_t i = 0; i < cols[c].n; i++) {
			const struct kslot *s = &cols[c].s[i];

			if (!s->count)
				continue;
			lo = s->slot < lo ? s->slot : lo;
			hi = s->slot > hi ? s->slot : hi;
		}
	if (lo > hi)
		lo = hi = 0;	/* no samples: one empty row */
	m->lo_slot = lo;
	m->nrows = (size_t)(hi - lo) + 1;
	m->grid = calloc(m->nrows * (m->ncols ? m->ncols : 1), sizeof(u64));
	if (!m->grid)
		return -1;
	for (size_t c = 0; c < m->ncols; c++)
		for (size_t i = 0; i < cols[c].n; i++) {
			const struct kslot *s = &cols[c].s[i];
			u64 *g;

			if (!s->count)
				continue;
			g = &m->grid[c * m->nrows + (s->slot - lo)];
			*g += s->count;
			m->max = *g > m->max ? *g : m->max;
			m->total += s->count;
		}
	return 0;
}

static void heat_cells(FILE *f, const struct heat *m,
		       const struct heatcol *cols)
{
	char b1[32], b2[32], fill[16];

	fprintf(f, "<g id=\"cells\">\n");
	for (size_t c = 0; c < m->ncols; c++)
		for (size_t r = 0; r < m->nrows; r++) {
			u32 slot = m->lo_slot + (u32)r;
			u64 n = m->grid[c * m->nrows + r];

			colour(fill, sizeof(fill), n, m->max);
			fprintf(f, "<rect class=\"cell\" x=\"%d\" y=\"%d\" "
				"width=\"%d\" height=\"%d\" fill=\"%s\">"
				"<title>%.3fs-%.3fs [%s, %s): %llu</title></rect>\n",
				LEFT + m->cw * (int)c,
				TOP + m->ch * (int)(m->nrows - 1 - r), m->cw, m->ch,
				fill, cols[c].t0, cols[c].t1,
				fmt_value(b1, sizeof(b1),
					  kstats_slot_lo(slot, m->frac_bits), m->unit),
				fmt_bound(b2, sizeof(b2),
					  kstats_slot_hi(slot, m->frac_bits), m->unit),
				(unsigned long long)n);
		}
	fprintf(f, "</g>\n");
}

/* Axes: y labels every few rows (slot lo), x labels every few columns. */
static void heat_axes(FILE *f, const struct heat *m,
		      const struct heatcol *cols)
{
	int cw = m->cw, ch = m->ch, every, bottom = TOP + ch * (int)m->nrows;
	char b1[32];

	fprintf(f, "<g id=\"axes\" fill=\"#000\">\n"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n",
		LEFT - 1, TOP, LEFT - 1, bottom, LEFT - 1, bottom,
		LEFT + cw * (int)m->ncols, bottom);
	every = (14 + ch - 1) / ch;
	for (size_t r = 0; r < m->nrows; r += (size_t)every)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
			LEFT - 6, TOP + ch * (int)(m->nrows - r) - 1,
			fmt_value(b1, sizeof(b1),
				  kstats_slot_lo(m->lo_slot + (u32)r, m->frac_bits),
				  m->unit));
	every = (50 + cw - 1) / cw;
	for (size_t c = 0; c < m->ncols; c += (size_t)every)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.3g</text>\n",
			LEFT + cw * (int)c, bottom + 16, cols[c].t0);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time (s)</text>\n"
		"<text x=\"16\" y=\"%d\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 16 %d)\">%s (%s, slot lower bound)</text>\n"
		"</g>\n</svg>\n",
		LEFT + cw * (int)m->ncols / 2, m->h - 18, TOP + ch * (int)m->nrows / 2,
		TOP + ch * (int)m->nrows / 2,
		strcmp(m->unit, "ns") ? "value" : "latency", m->unit);
}

int heatmap_svg(FILE *f, const char *title, const char *unit,
		unsigned int frac_bits, const struct heatcol *cols,
		size_t ncols)
{
	struct heat m = { .ncols = ncols, .unit = unit, .frac_bits = frac_bits };

	if (heat_grid(&m, cols))
		return -1;
	m.cw = ncols ? (int)(800 / ncols) : 40;
	m.cw = m.cw < 3 ? 3 : m.cw > 40 ? 40 : m.cw;
	m.ch = (int)(400 / m.nrows);
	m.ch = m.ch < 3 ? 3 : m.ch > 20 ? 20 : m.ch;
	m.w = LEFT + m.cw * (int)ncols + RIGHT;
	m.h = TOP + m.ch * (int)m.nrows + BOTTOM;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"Verdana, sans-serif\" font-size=\"11\">\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fafafa\"/>\n"
		"<text x=\"%d\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">",
		m.w, m.h, m.w, m.h, m.w, m.h, m.w / 2);
	xml_text(f, title);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"38\" text-anchor=\"middle\" "
		"fill=\"#555\">%zu intervals, %llu samples, max %llu per cell"
		"</text>\n", m.w / 2, ncols, (unsigned long long)m.total,
		(unsigned long long)m.max);
	heat_cells(f, &m, cols);
	heat_axes(f, &m, cols);
	free(m.grid);
	return 0;
}
