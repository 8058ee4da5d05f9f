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

/* Light yellow -> orange -> dark red, by count / max. */
static void colour(char *buf, size_t len, u64 count, u64 max)
{
	static const int stop[3][3] = {
		{ 255, 255, 204 }, { 253, 141, 60 }, { 189, 0, 38 },
	};
	double t = max ? (double)count / (double)max : 0;
	int k = t > 0.5, c[3];
	double u = k ? (t - 0.5) * 2 : t * 2;

	if (!count) {
		snprintf(buf, len, "#ffffff");
		return;
	}
	for (int i = 0; i < 3; i++)
		c[i] = (int)(stop[k][i] + (stop[k + 1][i] - stop[k][i]) * u + 0.5);
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static void xml_text(FILE *f, const char *s)
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

int heatmap_svg(FILE *f, const char *title, const char *unit,
		unsigned int frac_bits, const struct heatcol *cols,
		size_t ncols)
{
	u32 lo_slot = ~0u, hi_slot = 0;
	u64 max = 0, total = 0;
	int cw, ch, w, h, every;
	size_t nrows;
	u64 *grid;
	char b1[32], b2[32], fill[16];

	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].n; i++) {
			const struct kslot *s = &cols[c].s[i];

			if (!s->count)
				continue;
			lo_slot = s->slot < lo_slot ? s->slot : lo_slot;
			hi_slot = s->slot > hi_slot ? s->slot : hi_slot;
		}
	if (lo_slot > hi_slot)
		lo_slot = hi_slot = 0;	/* no samples: one empty row */
	nrows = (size_t)(hi_slot - lo_slot) + 1;
	grid = calloc(nrows * (ncols ? ncols : 1), sizeof(*grid));
	if (!grid)
		return -1;
	for (size_t c = 0; c < ncols; c++)
		for (size_t i = 0; i < cols[c].n; i++) {
			const struct kslot *s = &cols[c].s[i];
			u64 *g;

			if (!s->count)
				continue;
			g = &grid[c * nrows + (s->slot - lo_slot)];
			*g += s->count;
			max = *g > max ? *g : max;
			total += s->count;
		}
	cw = ncols ? (int)(800 / ncols) : 40;
	cw = cw < 3 ? 3 : cw > 40 ? 40 : cw;
	ch = (int)(400 / nrows);
	ch = ch < 3 ? 3 : ch > 20 ? 20 : ch;
	w = LEFT + cw * (int)ncols + RIGHT;
	h = TOP + ch * (int)nrows + BOTTOM;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"Verdana, sans-serif\" font-size=\"11\">\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fafafa\"/>\n"
		"<text x=\"%d\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">",
		w, h, w, h, w, h, w / 2);
	xml_text(f, title);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"38\" text-anchor=\"middle\" "
		"fill=\"#555\">%zu intervals, %llu samples, max %llu per cell"
		"</text>\n", w / 2, ncols, (unsigned long long)total,
		(unsigned long long)max);

	fprintf(f, "<g id=\"cells\">\n");
	for (size_t c = 0; c < ncols; c++)
		for (size_t r = 0; r < nrows; r++) {
			u32 slot = lo_slot + (u32)r;
			u64 n = grid[c * nrows + r];

			colour(fill, sizeof(fill), n, max);
			fprintf(f, "<rect class=\"cell\" x=\"%d\" y=\"%d\" "
				"width=\"%d\" height=\"%d\" fill=\"%s\">"
				"<title>%.3fs-%.3fs [%s, %s): %llu</title></rect>\n",
				LEFT + cw * (int)c,
				TOP + ch * (int)(nrows - 1 - r), cw, ch, fill,
				cols[c].t0, cols[c].t1,
				fmt_value(b1, sizeof(b1),
					  kstats_slot_lo(slot, frac_bits), unit),
				fmt_bound(b2, sizeof(b2),
					  kstats_slot_hi(slot, frac_bits), unit),
				(unsigned long long)n);
		}
	fprintf(f, "</g>\n");

	/* Axes: y labels every few rows (slot lo), x labels every few columns. */
	fprintf(f, "<g id=\"axes\" fill=\"#000\">\n"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n",
		LEFT - 1, TOP, LEFT - 1, TOP + ch * (int)nrows, LEFT - 1,
		TOP + ch * (int)nrows, LEFT + cw * (int)ncols,
		TOP + ch * (int)nrows);
	every = (14 + ch - 1) / ch;
	for (size_t r = 0; r < nrows; r += (size_t)every)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
			LEFT - 6, TOP + ch * (int)(nrows - r) - 1,
			fmt_value(b1, sizeof(b1),
				  kstats_slot_lo(lo_slot + (u32)r, frac_bits),
				  unit));
	every = (50 + cw - 1) / cw;
	for (size_t c = 0; c < ncols; c += (size_t)every)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.3g</text>\n",
			LEFT + cw * (int)c, TOP + ch * (int)nrows + 16,
			cols[c].t0);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time (s)</text>\n"
		"<text x=\"16\" y=\"%d\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 16 %d)\">%s (%s, slot lower bound)</text>\n"
		"</g>\n</svg>\n",
		LEFT + cw * (int)ncols / 2, h - 18, TOP + ch * (int)nrows / 2,
		TOP + ch * (int)nrows / 2,
		strcmp(unit, "ns") ? "value" : "latency", unit);
	free(grid);
	return 0;
}
