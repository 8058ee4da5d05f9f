// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - kstats top: every node, and every key of a family, a row: its
 * samples a second, p50, p99 and max over the last interval (the delta of
 * two reads, as watch takes it) and a sparkline of its p99 over the last
 * intervals; largest p99 first.  Full screen with keys (q s / f), or
 * --batch: COUNT plain frames, as top -b -n.  Live from the root, or from
 * saved sets: DIR DIR..., each a directory of the nodes' files.
 *
 * The screen is drawn with ANSI sequences and termios, not curses: the
 * tool is linked static for the guests, which have no terminfo database
 * for a static curses to read, and a frame needs no more than cursor
 * home, erase to the end of line and the alternate screen, which every
 * terminal since the VT100 understands.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"

#define SPARK		12	/* intervals in the sparkline */
#define TOP_INTERVAL	1.0	/* seconds, without -i */
#define NAME_W		24
#define KEY_W		20

struct row {
	char name[64];
	char *key;		/* as the file has it; NULL: a node, no family */
	char label[KEY_TEXT_MAX + 32];	/* the key as shown */
	char unit[8];
	u64 samples, p50, p99, max;
	double rate;
	u64 p99s[SPARK];	/* oldest first */
	unsigned char had[SPARK];	/* samples in that interval */
	int seen;		/* in the last frame */
};

/* The nodes of one read. */
struct set {
	struct snapshot *s;
	size_t n;
};

struct top {
	struct opts *o;
	struct set prev;
	struct row *rows;
	size_t nrows, cap;
	enum topsort sort;
	char filter[64];
	char typed[64];		/* the filter being typed after '/' */
	int typing;
	char status[1400];
	long frame;
	double secs;		/* the interval the rates are over */
	int utf8;
};

static const char *const sort_names[] = { "p99", "rate", "max" };

static void set_free(struct set *s)
{
	for (size_t i = 0; i < s->n; i++)
		snapshot_free(&s->s[i]);
	free(s->s);
	s->s = NULL;
	s->n = 0;
}

/*
 * Every node under @dir (the root, or a saved set).  A node removed
 * between the listing and its read is left out; any other error said.
 */
static int set_read(const char *dir, struct set *out)
{
	const char *live = root;
	char **names, path[PATH_MAX + 80], err[768];
	size_t n;
	int ret;

	root = dir;	/* what scan_root() lists */
	names = scan_root(&n, &ret);
	root = live;
	if (!names)
		return ret;
	out->s = calloc(n ? n : 1, sizeof(*out->s));
	out->n = 0;
	if (!out->s) {
		free_names(names, n);
		return fail("out of memory");
	}
	for (size_t i = 0; i < n && !ret; i++) {
		int r;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		r = snapshot_load(&out->s[out->n], path, err, sizeof(err));
		if (!r)
			out->n++;
		else if (r != -ENOENT)
			ret = fail("%s", err);
	}
	free_names(names, n);
	if (ret)
		set_free(out);
	return ret;
}

static const struct snapshot *set_find(const struct set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->s[i].name, name))
			return &s->s[i];
	return NULL;
}

static const struct kkey *key_find(const struct snapshot *s, const char *text)
{
	for (size_t i = 0; s && i < s->nkeys; i++)
		if (!strcmp(s->keys[i].text, text))
			return &s->keys[i];
	return NULL;
}

static struct row *row_get(struct top *t, const char *name, const char *key)
{
	struct row *r;

	for (size_t i = 0; i < t->nrows; i++) {
		r = &t->rows[i];
		if (!strcmp(r->name, name) &&
		    (r->key ? key && !strcmp(r->key, key) : !key))
			return r;
	}
	if (t->nrows == t->cap) {
		size_t cap = t->cap * 2 + 64;
		struct row *nr = realloc(t->rows, cap * sizeof(*nr));

		if (!nr)
			return NULL;
		t->rows = nr;
		t->cap = cap;
	}
	r = &t->rows[t->nrows];
	memset(r, 0, sizeof(*r));
	r->key = key ? strdup(key) : NULL;
	if (key && !r->key)
		return NULL;
	snprintf(r->name, sizeof(r->name), "%s", name);
	t->nrows++;
	return r;
}

/* The interval's delta @d (freed here) as row (@s's node, key @k). */
static int row_add(struct top *t, const struct snapshot *s,
		   const struct kkey *k, struct kslot *d, size_t n)
{
	struct row *r = d ? row_get(t, s->name, k ? k->text : NULL) : NULL;
	char buf[sizeof(r->label)];
	struct ksummary sum;

	if (!r) {
		free(d);
		return fail("out of memory");
	}
	hist_summary(d, n, &sum);
	hist_interpolate(d, n, &sum);
	free(d);
	snprintf(r->label, sizeof(r->label), "%s", k ?
		 key_label(k, census_keynames(s), buf, sizeof(buf)) : "-");
	snprintf(r->unit, sizeof(r->unit), "%s", s->unit);
	r->samples = sum.samples;
	r->p50 = sum.p50;
	r->p99 = sum.p99;
	r->max = sum.max;
	r->rate = t->secs > 0 ? (double)sum.samples / t->secs : 0;
	memmove(r->p99s, r->p99s + 1, sizeof(r->p99s) - sizeof(r->p99s[0]));
	memmove(r->had, r->had + 1, sizeof(r->had) - 1);
	r->p99s[SPARK - 1] = sum.p99;
	r->had[SPARK - 1] = sum.samples > 0;
	r->seen = 1;
	return 0;
}

/*
 * A node's rows from @cur against the previous read @prev (NULL: a node
 * new since, all of it in this interval); a family's keys each against
 * its own, a key new since likewise.
 */
static int node_rows(struct top *t, const struct snapshot *cur,
		     const struct snapshot *prev)
{
	struct kslot *d;
	size_t n = 0;
	int reset;

	if (prev && prev->frac_bits != cur->frac_bits)
		prev = NULL;	/* recreated: all of it is new */
	if (!cur->is_family) {
		d = prev ? delta(cur, prev, &n, &reset) :
			   hist_delta(cur->slots, cur->nslots, NULL, 0, &n, &reset);
		return row_add(t, cur, NULL, d, n);
	}
	for (size_t i = 0; i < cur->nkeys; i++) {
		const struct kkey *k = &cur->keys[i];
		const struct kkey *pk = key_find(prev, k->text);
		int ret;

		d = hist_delta(k->slots, k->nslots, pk ? pk->slots : NULL,
			       pk ? pk->nslots : 0, &n, &reset);
		ret = row_add(t, cur, k, d, n);
		if (ret)
			return ret;
	}
	return 0;
}

/* A new read @cur, taken @secs after the previous: the rows of a frame. */
static int frame(struct top *t, struct set *cur, double secs)
{
	size_t j = 0;
	int ret = 0;

	t->secs = secs;
	for (size_t i = 0; i < t->nrows; i++)
		t->rows[i].seen = 0;
	for (size_t i = 0; i < cur->n && !ret; i++)
		ret = node_rows(t, &cur->s[i], set_find(&t->prev, cur->s[i].name));
	/* the rows of nodes and keys gone since go with them */
	for (size_t i = 0; i < t->nrows; i++) {
		if (t->rows[i].seen)
			t->rows[j++] = t->rows[i];
		else
			free(t->rows[i].key);
	}
	t->nrows = j;
	set_free(&t->prev);
	t->prev = *cur;
	t->frame++;
	return ret;
}

static u64 sort_value(const struct top *t, const struct row *r)
{
	return t->sort == TOP_RATE ? (u64)(r->rate * 1000) :
	       t->sort == TOP_MAX ? r->max : r->p99;
}

static const struct top *sorting;

/* Largest first; rows without samples last; then by name and key. */
static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	u64 vx = sort_value(sorting, x), vy = sort_value(sorting, y);
	int c;

	if (!x->samples != !y->samples)
		return !x->samples - !y->samples;
	if (vx != vy)
		return vx < vy ? 1 : -1;
	c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->label, y->label);
}

static int shown(const struct top *t, const struct row *r)
{
	return !t->filter[0] || strstr(r->name, t->filter) ||
	       strstr(r->label, t->filter);
}

/* The p99 of the last intervals, each scaled to the largest of them. */
static void sparkline(const struct top *t, const struct row *r, FILE *f)
{
	static const char ascii[] = ".:-=+*#@";
	u64 top = 0;

	for (int i = 0; i < SPARK; i++)
		if (r->had[i] && r->p99s[i] > top)
			top = r->p99s[i];
	for (int i = 0; i < SPARK; i++) {
		int level = top ? (int)((r->p99s[i] * 7 + top - 1) / top) : 0;

		if (!r->had[i])
			fputc(' ', f);
		else if (t->utf8)	/* U+2581..U+2588, lower one to eight eighths */
			fprintf(f, "\xe2\x96%c", (char)(0x81 + level));
		else
			fputc(ascii[level], f);
	}
}

/*
 * A frame: the line "kstats top ...", the columns, then the rows shown
 * (at most @max, 0: all), each line ended with @eol.
 */
static void draw(struct top *t, FILE *f, int max, const char *eol)
{
	size_t n = 0;
	int drawn = 0;

	sorting = t;
	if (t->nrows)
		qsort(t->rows, t->nrows, sizeof(*t->rows), row_cmp);
	for (size_t i = 0; i < t->nrows; i++)
		n += shown(t, &t->rows[i]);
	fprintf(f, "kstats top frame %ld, interval %.3g s, sort %s, %zu rows",
		t->frame, t->secs, sort_names[t->sort], n);
	if (t->filter[0])
		fprintf(f, ", filter '%s'", t->filter);
	if (t->o->seen & O_CENSUS)
		fprintf(f, ", census");
	fprintf(f, "%s%-*s %-*s %11s %9s %9s %9s  P99 (last %d)%s", eol, NAME_W,
		"NAME", KEY_W, "KEY", "SAMPLES/s", "P50", "P99", "MAX", SPARK,
		eol);
	for (size_t i = 0; i < t->nrows && (!max || drawn < max); i++) {
		const struct row *r = &t->rows[i];
		char a[32], b[32], c[32];

		if (!shown(t, r))
			continue;
		if (r->samples)
			fprintf(f, "%-*.*s %-*.*s %11.1f %9s %9s %9s  ", NAME_W,
				NAME_W, r->name, KEY_W, KEY_W, r->label, r->rate,
				fmt_value(a, sizeof(a), r->p50, r->unit),
				fmt_value(b, sizeof(b), r->p99, r->unit),
				fmt_value(c, sizeof(c), r->max, r->unit));
		else
			fprintf(f, "%-*.*s %-*.*s %11.1f %9s %9s %9s  ", NAME_W,
				NAME_W, r->name, KEY_W, KEY_W, r->label, 0.0,
				"-", "-", "-");
		sparkline(t, r, f);
		fputs(eol, f);
		drawn++;
	}
}

/* f: the history rings frozen, or what the kernel answered. */
static void freeze(struct top *t)
{
	char why[1200];
	int e = control_write("freeze\n");

	if (!e)
		snprintf(t->status, sizeof(t->status), "freeze: the history rings frozen");
	else if (e < 0)
		snprintf(t->status, sizeof(t->status), "freeze: cannot write %s/_control", root);
	else
		snprintf(t->status, sizeof(t->status), "freeze: %s%s",
			 e == EINVAL ? "not supported by this kstats (no history): " : "",
			 refused_why("freeze\n", e, why, sizeof(why)));
}

/* One key pressed: 1 to quit. */
static int key(struct top *t, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];
		size_t len = strlen(t->typed);

		if (t->typing) {
			if (c == '\r' || c == '\n') {
				snprintf(t->filter, sizeof(t->filter), "%s", t->typed);
				t->typing = 0;
				t->status[0] = '\0';
			} else if (c == 0x1b) {
				t->typing = 0;	/* Esc: the filter as it was */
				t->status[0] = '\0';
				return 0;	/* the rest of an escape sequence */
			} else if ((c == 0x7f || c == '\b') && len) {
				t->typed[len - 1] = '\0';
			} else if (c > ' ' && c <= '~' && len + 1 < sizeof(t->typed)) {
				t->typed[len] = c;
				t->typed[len + 1] = '\0';
			}
			if (t->typing)
				snprintf(t->status, sizeof(t->status), "filter: %s", t->typed);
			continue;
		}
		switch (c) {
		case 'q':
			return 1;
		case 's':
			t->sort = (t->sort + 1) % 3;
			snprintf(t->status, sizeof(t->status), "sort %s", sort_names[t->sort]);
			break;
		case '/':
			t->typing = 1;
			t->typed[0] = '\0';
			snprintf(t->status, sizeof(t->status), "filter: ");
			break;
		case 'f':
			freeze(t);
			break;
		}
	}
	return 0;
}

static struct termios saved_tty;

static void screen_enter(void)
{
	struct termios raw;

	tcgetattr(STDIN_FILENO, &saved_tty);
	raw = saved_tty;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	fputs("\033[?1049h\033[?25l", stdout);	/* alternate screen, no cursor */
}

static void screen_leave(void)
{
	fputs("\033[?25h\033[?1049l", stdout);
	fflush(stdout);
	tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
}

static void screen_draw(struct top *t)
{
	struct winsize ws = { 0 };
	int h = 24, w = 80;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		h = ws.ws_row;
		w = ws.ws_col;
	}
	fputs("\033[H", stdout);
	draw(t, stdout, h > 4 ? h - 3 : 1, "\033[K\n");
	/* the status on the last line, short of its end: no scroll */
	printf("\033[J\033[%dH%.*s\033[K", h, w - 1, t->status[0] ? t->status :
	       "q quit  s sort  / filter  f freeze");
	fflush(stdout);
}

/*
 * The next read: live from the root after the interval (0 when a signal
 * stopped the wait), or the next saved set; 1 when there is none more.
 */
static int next_read(struct top *t, long idx, int wait, struct set *cur,
		     double *at)
{
	struct opts *o = t->o;
	double t0 = *at;

	if (o->nargs) {
		if (idx >= o->nargs)
			return 1;
		*at += o->interval;
		return set_read(o->args[idx], cur) ? -1 : 0;
	}
	if (wait && nap(t0 + o->interval - now()))
		return 1;
	*at = now();
	return set_read(root, cur) ? -1 : 0;
}

static int run_batch(struct top *t, double at)
{
	/* -c COUNT, else until the saved sets end, or no end */
	long want = (t->o->seen & O_COUNT) ? t->o->count : 0;

	for (long i = 1; !want || i <= want; i++) {
		struct set cur;
		double t0 = at;
		int r = next_read(t, i, 1, &cur, &at);

		if (r)
			return r < 0 ? EXIT_ERROR : 0;
		if (frame(t, &cur, at - t0))
			return EXIT_ERROR;
		if (i > 1)
			putchar('\n');
		draw(t, stdout, 0, "\n");
		if (fflush(stdout))
			return 0;	/* the reader went away: main() says so */
	}
	return 0;
}

static int run_screen(struct top *t, double at)
{
	/* saved sets: the last frame stays until q */
	long want = (t->o->seen & O_COUNT) ? t->o->count : 0, i = 1;
	double next = now() + t->o->interval;
	int ret = 0, done = 0;

	screen_enter();
	screen_draw(t);
	while (!stopping()) {
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		double due = next - now();
		int ms = done ? -1 : due > 0 ? (int)(due * 1000) + 1 : 0;
		char buf[16];

		if (poll(&p, 1, ms) > 0) {
			ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

			if (n <= 0 || key(t, buf, (size_t)n))
				break;
		} else if (!done) {
			struct set cur;
			double t0 = at;
			int r = next_read(t, i++, 0, &cur, &at);

			if (r < 0 || (!r && frame(t, &cur, at - t0))) {
				ret = EXIT_ERROR;
				break;
			}
			done = r > 0;
			next += t->o->interval;
			if (!done && want && i > want) {
				screen_draw(t);
				break;
			}
		}
		screen_draw(t);
	}
	screen_leave();
	return ret;
}

static int cmd_top(struct opts *o)
{
	struct top t = { .o = o, .sort = o->tsort };
	struct sigaction sa;
	struct set first;
	double at = 0;
	int ret;

	if (!(o->seen & O_INT))
		o->interval = TOP_INTERVAL;
	if (o->nargs == 1)
		return usage_error("top takes no DIR, or two or more: the saved sets");
	if (o->nargs && (o->seen & O_CENSUS))
		return usage_error("--census is of the live nodes: no DIR with it");
	if (!o->batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return usage_error("top needs a terminal: --batch for plain frames");
	setlocale(LC_CTYPE, "");
	t.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	/* a reader gone (top --batch | head) must not end us before the census goes */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	catch_signals();
	if ((o->seen & O_CENSUS) && (ret = census_start(o, NULL)))
		return ret;
	ret = set_read(o->nargs ? o->args[0] : root, &first);
	if (!ret) {
		t.prev = first;
		at = o->nargs ? 0 : now();
		ret = o->batch ? run_batch(&t, at) : run_screen(&t, at);
	}
	if (o->seen & O_CENSUS) {
		int r = census_stop(NULL);

		ret = ret ? ret : r;
	}
	set_free(&t.prev);
	for (size_t i = 0; i < t.nrows; i++)
		free(t.rows[i].key);
	free(t.rows);
	return ret;
}

static int set_tsort(struct opts *o, const char *a)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(a, sort_names[i])) {
			o->tsort = (enum topsort)i;
			return 0;
		}
	return usage_error("top --sort takes p99, rate or max");
}

static OPT_TRUE(o_batch, "batch", 0, batch, O_BATCH,
		"plain-text frames, no screen (with -c COUNT: COUNT of them)");
static OPT_FLAG(o_census, "census", 0, O_CENSUS,
		"start the census first, stop it on the way out");
static OPT_FN(o_tsort, "sort", 0, "p99|rate|max", set_tsort, O_TSORT, 0,
	      "the rows by p99 (default), samples/s or max");

static const struct optdef *const top_opts[] = {
	&o_int, &o_batch, &o_count, &o_census, &o_tsort, NULL,
};

const struct cmddef top_cmd = {
	.name = "top", .args = "[DIR DIR...]", .opts = top_opts, .fn = cmd_top,
	.summary = "every node and key a row: samples/s, p50, p99, max, p99 sparkline",
	.more = "  Keys: q quits, s changes the sort, / filters by name (Enter\n"
		"  applies, Esc cancels), f freezes the history rings.  DIR...:\n"
		"  saved sets (each a directory of the nodes' files), -i apart.\n",
};
