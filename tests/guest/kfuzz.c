// SPDX-License-Identifier: GPL-2.0
/*
 * kfuzz: bad input, faults and access checks of kstats' debugfs files, for
 * the reliability stage (tests/reliability/).  Static, libc only.
 *
 *   kfuzz corpus CORPUS FILE|nodes   replay a corpus (tests/corpus/)
 *                                    against FILE or every distribution file
 *   kfuzz random SEED N SECONDS      seeded random writes to _control and the
 *                                    distribution files: N writes or SECONDS;
 *                                    3 iterations in 10 open a random file
 *                                    in a random mode for random lseek,
 *                                    read, pread and pwrite calls instead
 *                                    (counted apart from the N writes)
 *   kfuzz fileops FILE|nodes|all     every open mode (O_RDONLY, O_WRONLY,
 *                                    O_RDWR, with O_APPEND, O_TRUNC, both)
 *                                    of FILE, every distribution file, or
 *                                    those and _control; on each fd lseek
 *                                    with every whence and odd offsets,
 *                                    short and partial reads, pread, pwrite
 *                                    and valid writes (see fo_exercise())
 *   kfuzz limits                     new NAME until ENOSPC, then remove them
 *   kfuzz failnth MAX FILE CMD [UNDO]  write CMD with the 1st, 2nd, ...
 *                                    allocation of the write failing
 *                                    (/proc/thread-self/fail-nth), MAX at most;
 *                                    FIRST-MAX instead of MAX starts at the
 *                                    FIRST (a long run in parts)
 *   kfuzz failload MAX MODULE.ko NAME  the same for loading a module; also
 *                                    last-N: its last N allocations (those
 *                                    of its init), counted by a load first
 *   kfuzz asuser UID FILE            open FILE for reading, then for writing,
 *                                    as UID: prints two results
 *
 * Every write must return its full length or fail with an errno of the
 * file's list (allowed()); anything else is counted as unexpected, printed
 * as a TAP diagnostic ("# ..."), and makes the exit status 1.  The same for
 * the other calls of fileops and random, whose expected results are listed
 * above fo_seek(): a value consistent with the call (the offset asked for,
 * the bytes a sequential read of the same fd gave) or a listed errno.
 *
 * Corpus lines: "EXPECT CASE".  CASE is the bytes to write, with \n \t \r
 * \0 \s (space) \\ \| \xHH escapes, \e (nothing: an empty case), \@N
 * (repeat the previous byte up to N bytes in all) and unescaped | splitting
 * it into several write() calls on one open file.  EXPECT is ok, an errno
 * name or "any" (any allowed result), one per piece separated by commas
 * (the last one repeats).
 * Lines starting with # and empty lines are skipped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define KS "/sys/kernel/debug/kstats"
#define CONTROL KS "/_control"
#define MAXPIECES 16
#define MAXFILES 512

static long n_writes, n_unexpected;
static long n_errno[256];

/* The errnos each file may return; everything else is a bug. */
static int allowed(const char *file, int e)
{
	static const int control[] = { EINVAL, ENOENT, EEXIST, EPERM, ENOSPC,
				       ENOMEM, EOPNOTSUPP, EILSEQ, EBUSY,
				       EALREADY, 0 };
	static const int node[] = { EINVAL, ENOMEM, 0 };
	const int *l = strstr(file, "_control") ? control : node;

	for (; *l; l++)
		if (*l == e)
			return 1;
	return 0;
}

static const char *rname(int e)
{
	const char *n = e ? strerrorname_np(e) : "ok";

	return n ? n : "E?";
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Printable form of a case for the diagnostics, cut at 60 bytes. */
static const char *show(const char *b, size_t len)
{
	static char out[256];
	size_t i, o = 0;

	for (i = 0; i < len && i < 60; i++) {
		unsigned char c = b[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = c;
		else
			o += sprintf(out + o, "\\x%02x", c);
	}
	if (len > 60)
		o += sprintf(out + o, "...(%zu bytes)", len);
	out[o] = 0;
	return out;
}

/* One write(); returns 0 or the errno, counts it. */
static int do_write(int fd, const char *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);
	int e = n < 0 ? errno : 0;

	n_writes++;
	if (!e && (size_t)n != len)
		e = -1;		/* a short write: never expected */
	n_errno[e > 0 && e < 256 ? e : 0]++;
	return e;
}

static void unexpected(const char *file, const char *what, int got,
		       const char *want, const char *buf, size_t len)
{
	n_unexpected++;
	printf("# unexpected: %s: %s: got %s want %s: '%s'\n", file, what,
	       got < 0 ? "short write" : rname(got), want, show(buf, len));
}

/* Decode one corpus case into @out; piece boundaries into @cut. */
static size_t decode(const char *s, char *out, size_t max, size_t *cut,
		     int *npieces)
{
	size_t o = 0;

	*npieces = 0;
	for (; *s && o < max; s++) {
		char c = *s;

		if (c == '|') {
			if (*npieces < MAXPIECES - 1)
				cut[(*npieces)++] = o;
			continue;
		}
		if (c == '\\' && s[1]) {
			unsigned int v;
			long rep;
			char *end;

			switch (*++s) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case '0': c = '\0'; break;
			case 's': c = ' '; break;
			case 'e': continue;	/* nothing: "\\e" is an empty case */
			case 'x':
				if (sscanf(s + 1, "%2x", &v) == 1)
					s += 2;
				c = (char)v;
				break;
			case '@':
				rep = strtol(s + 1, &end, 10);
				s = end - 1;
				while (o && (size_t)rep > o && o < max)
					out[o] = out[o - 1], o++;
				continue;
			default: c = *s; break;
			}
		}
		out[o++] = c;
	}
	cut[(*npieces)++] = o;
	return o;
}

/*
 * The distribution files: not _control, nor _errors (the log of refusals),
 * nor the directory _history.
 */
static int list_nodes(char **files)
{
	DIR *d = opendir(KS);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < MAXFILES) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "_control") ||
		    !strcmp(e->d_name, "_errors") || !strcmp(e->d_name, "_history"))
			continue;
		if (asprintf(&files[n], KS "/%s", e->d_name) > 0)
			n++;
	}
	closedir(d);
	return n;
}

/* Replay one decoded case on @file: one open, one write per piece. */
static void replay(const char *file, int line, char *expect, const char *buf,
		   const size_t *cut, int npieces)
{
	char want[MAXPIECES][32], what[64], *tok, *save;
	int i, nwant = 0, fd;
	size_t start = 0;

	for (tok = strtok_r(expect, ",", &save); tok && nwant < MAXPIECES;
	     tok = strtok_r(NULL, ",", &save))
		snprintf(want[nwant++], sizeof(want[0]), "%s", tok);
	fd = open(file, O_WRONLY);
	if (fd < 0) {
		printf("# cannot open %s: %s\n", file, rname(errno));
		n_unexpected++;
		return;
	}
	for (i = 0; i < npieces; i++) {
		const char *w = want[i < nwant ? i : nwant - 1];
		size_t len = cut[i] - start;
		int e = do_write(fd, buf + start, len);

		snprintf(what, sizeof(what), "line %d piece %d", line, i + 1);
		if (e < 0 || (!strcmp(w, "any") ? e && !allowed(file, e) :
			      strcmp(w, rname(e))))
			unexpected(file, what, e, w, buf + start, len);
		start = cut[i];
	}
	close(fd);
}

/*
 * Reads of FILE in 1-byte and odd-sized chunks, with seeks back; a read
 * to NULL fails, but at the end of an empty file (an empty _errors),
 * where there is nothing to copy.
 */
static void read_small(const char *file)
{
	char b[97], *volatile bad = NULL;
	int fd = open(file, O_RDONLY), i;
	ssize_t r;

	if (fd < 0)
		return;
	for (i = 0; i < 300 && read(fd, b, 1) == 1; i++)
		;
	lseek(fd, 7, SEEK_SET);
	while (read(fd, b, sizeof(b)) > 0)
		;
	lseek(fd, 0, SEEK_SET);
	r = read(fd, bad, 10);
	if (read(fd, b, 0) < 0 || (r >= 0 && (r || i))) {
		printf("# %s: a read of 0 bytes failed or one to NULL did not\n",
		       file);
		n_unexpected++;
	}
	close(fd);
}

/* Writes that no corpus line can express: bad pointers, read-only fds. */
static void builtin_cases(const char *file)
{
	int fd = open(file, O_WRONLY), e;

	if (fd >= 0) {
		e = do_write(fd, (const char *)8, 10);
		if (e != EFAULT)
			unexpected(file, "write from a bad pointer", e, "EFAULT", "", 0);
		close(fd);
	}
	fd = open(file, O_RDONLY);
	if (fd >= 0) {
		e = do_write(fd, "stop", 4);
		if (e != EBADF)
			unexpected(file, "write to a read-only fd", e, "EBADF", "stop", 4);
		close(fd);
	}
	read_small(file);
}

static int corpus(const char *path, const char *target)
{
	static char buf[1 << 20];
	char *files[MAXFILES], *line = NULL;
	size_t cap = 0, cut[MAXPIECES];
	int nfiles, i, lineno = 0, ncases = 0, np;
	FILE *f = fopen(path, "r");
	double t0 = now();

	if (!f) {
		perror(path);
		return 2;
	}
	if (!strcmp(target, "nodes")) {
		nfiles = list_nodes(files);
	} else {
		files[0] = strdup(target);
		nfiles = 1;
	}
	while (getline(&line, &cap, f) > 0) {
		char *sp, expect[128];

		lineno++;
		line[strcspn(line, "\n")] = 0;
		sp = strchr(line, ' ');
		if (!line[0] || line[0] == '#' || !sp)
			continue;
		snprintf(expect, sizeof(expect), "%.*s", (int)(sp - line), line);
		decode(sp + 1, buf, sizeof(buf), cut, &np);
		ncases++;
		for (i = 0; i < nfiles; i++) {
			char e[128];

			memcpy(e, expect, sizeof(e));
			replay(files[i], lineno, e, buf, cut, np);
		}
	}
	for (i = 0; i < nfiles; i++) {
		builtin_cases(files[i]);
		ncases += i ? 0 : 3;
	}
	fclose(f);
	free(line);
	printf("# kfuzz corpus %s: %d cases on %d files, %ld writes in %.1f s, %ld unexpected\n",
	       path, ncases, nfiles, n_writes, now() - t0, n_unexpected);
	return n_unexpected ? 1 : 0;
}

/*
 * File operations: open modes, lseek, read, pread, pwrite.  The expected
 * results are those of a seq_file (fs/seq_file.c) behind debugfs' proxy:
 *   lseek   SEEK_SET/SEEK_CUR to an offset >= 0 returns it, past the end
 *           included; a negative one and SEEK_END (or any other whence)
 *           give EINVAL; a failed lseek leaves the position where it was.
 *           A fd that cannot read may refuse any lseek (EINVAL, ESPIPE)
 *   read    the bytes of the open's snapshot from the position on, 0 at or
 *           past the end; EINVAL if position + count overflows; EBADF on a
 *           fd not open for reading
 *   pread   the same at its offset, without moving the position; a
 *           negative offset is EINVAL before anything else
 *   pwrite  EINVAL for a negative offset, else ESPIPE (seq_open() clears
 *           FMODE_PWRITE); a file without it may also take the write
 *   open    O_TRUNC is accepted and truncates nothing (trunc_check()):
 *           debugfs files have size 0 and kstats prints from its own
 *           state; it needs write permission, even with O_RDONLY
 * Every fd that can read is first read whole, sequentially: its snapshot
 * (one open, one snapshot), against which every later read is compared.
 */
enum { OP_OPEN, OP_SEEK, OP_READ, OP_PREAD, OP_PWRITE, OP_WRITE, NOPS };
static const char *const op_names[NOPS] = {
	"open", "lseek", "read", "pread", "pwrite", "write" };
static long op_res[NOPS][256];	/* results by errno, 0 = success */
static long n_files, n_opens, n_seeks, n_reads, n_preads, n_pwrites;
static int fo_printed;	/* unexpected results printed so far */

#define BIG (1LL << 20)
static const long long offsets[] = { 0, 1, 7, -1, -4096, 4095, BIG,
				     LLONG_MAX, LLONG_MIN };
static const long long poffsets[] = { 0, 5, -1, -4096, 4095, BIG,
				      LLONG_MAX, LLONG_MIN };
static const size_t chunks[] = { 1, 7, 97, 4096 };
static const int whences[] = { SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA,
			       SEEK_HOLE, 99 };
#define NELEM(a) (sizeof(a) / sizeof(a[0]))

/* One open file under test. */
struct fo {
	const char *file;
	int fd, flags, rd, wr, node;
	long long pos;		/* the fd's position, as we expect it */
	char *ref;		/* what a sequential read of the fd gave */
	size_t len;
	int have_ref;		/* ref is still what the fd shows */
};

static const char *mode_name(int flags)
{
	static char b[64];
	int acc = flags & O_ACCMODE;

	snprintf(b, sizeof(b), "%s%s%s", acc == O_RDONLY ? "O_RDONLY" :
		 acc == O_WRONLY ? "O_WRONLY" : "O_RDWR",
		 flags & O_APPEND ? "|O_APPEND" : "",
		 flags & O_TRUNC ? "|O_TRUNC" : "");
	return b;
}

static int one_of(int e, const int *l)
{
	for (; *l; l++)
		if (*l == e)
			return 1;
	return 0;
}

static void fo_note(int op, int e)
{
	op_res[op][e > 0 && e < 256 ? e : 0]++;
}

static void __attribute__((format(printf, 2, 3)))
fo_bad(const struct fo *f, const char *fmt, ...)
{
	va_list ap;

	n_unexpected++;
	if (++fo_printed > 100)	/* a broken module: the count says enough */
		return;
	printf("# unexpected: %s (%s, pos %lld): ", f->file,
	       mode_name(f->flags), f->pos);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * The bytes @n that a read of @want bytes at @at returned in @b must be the
 * snapshot's from @at on: nothing lost, nothing repeated.
 */
static void fo_check_bytes(struct fo *f, const char *what, long long at,
			   const char *b, ssize_t n, size_t want)
{
	if ((size_t)n > want) {
		fo_bad(f, "%s of %zu at %lld returned %zd", what, want, at, n);
		return;
	}
	if (!f->have_ref)
		return;
	if (at >= (long long)f->len) {
		if (n)
			fo_bad(f, "%s at %lld, past the end (%zu), returned %zd",
			       what, at, f->len, n);
	} else if (!n) {
		fo_bad(f, "%s at %lld returned 0 before the end (%zu)", what,
		       at, f->len);
	} else if ((size_t)(at + n) > f->len ||
		   memcmp(b, f->ref + at, n)) {
		fo_bad(f, "%s of %zu at %lld: %zd bytes that differ from the sequential read",
		       what, want, at, n);
	}
}

/* lseek; returns the new position or -1. */
static long long fo_seek(struct fo *f, long long off, int whence)
{
	long long want = -1, r;
	int e, known = 1;

	n_seeks++;
	if (whence == SEEK_SET)
		want = off;
	else if (whence == SEEK_CUR)
		known = !__builtin_add_overflow(f->pos, off, &want);
	else
		known = 0;
	r = lseek(f->fd, off, whence);
	e = r < 0 ? errno : 0;
	fo_note(OP_SEEK, e);
	if (r >= 0) {
		/* SEEK_END has nothing to compare with: any offset >= 0 */
		if (whence <= SEEK_CUR && (!known || want < 0 || r != want))
			fo_bad(f, "lseek(%lld, %d) returned %lld", off, whence, r);
		f->pos = r;
		return r;
	}
	if (e != EINVAL && e != ESPIPE)
		fo_bad(f, "lseek(%lld, %d): %s", off, whence, rname(e));
	/* seq_lseek() refuses only negative offsets and whences it lacks */
	else if (f->rd && whence <= SEEK_CUR && known && want >= 0)
		fo_bad(f, "lseek(%lld, %d) to %lld: %s", off, whence, want,
		       rname(e));
	return -1;
}

/* read() of @want bytes, checked against the snapshot; returns its result. */
static ssize_t fo_read(struct fo *f, char *b, size_t want)
{
	ssize_t n;
	int e;

	n_reads++;
	n = read(f->fd, b, want);
	e = n < 0 ? errno : 0;
	fo_note(OP_READ, e);
	if (!f->rd) {
		if (e != EBADF)
			fo_bad(f, "read on a fd without read access: %s",
			       n < 0 ? rname(e) : "success");
		return n;
	}
	if (n < 0) {
		long long end;

		if (e != EINVAL ||
		    !__builtin_add_overflow(f->pos, (long long)want, &end))
			fo_bad(f, "read of %zu: %s", want, rname(e));
		return n;
	}
	fo_check_bytes(f, "read", f->pos, b, n, want);
	f->pos += n;
	return n;
}

/* pread() of @want bytes at @off, checked; returns its result. */
static ssize_t fo_pread(struct fo *f, char *b, size_t want, long long off)
{
	long long end;
	ssize_t n;
	int e;

	n_preads++;
	n = pread(f->fd, b, want, off);
	e = n < 0 ? errno : 0;
	fo_note(OP_PREAD, e);
	if (off < 0) {
		if (e != EINVAL)
			fo_bad(f, "pread at %lld: %s, want EINVAL", off,
			       n < 0 ? rname(e) : "success");
	} else if (!f->rd) {
		if (e != EBADF)
			fo_bad(f, "pread on a fd without read access: %s",
			       n < 0 ? rname(e) : "success");
	} else if (n < 0) {
		if (e != EINVAL ||
		    !__builtin_add_overflow(off, (long long)want, &end))
			fo_bad(f, "pread of %zu at %lld: %s", want, off, rname(e));
	} else {
		fo_check_bytes(f, "pread", off, b, n, want);
	}
	return n;
}

static void fo_pwrite(struct fo *f, const char *b, size_t len, long long off)
{
	static const int ok_neg[] = { EINVAL, 0 };
	static const int ok_any[] = { EINVAL, ESPIPE, EBADF, 0 };
	ssize_t n;
	int e;

	n_pwrites++;
	n = pwrite(f->fd, b, len, off);
	e = n < 0 ? errno : 0;
	fo_note(OP_PWRITE, e);
	if (off < 0 && e != EINVAL) {
		fo_bad(f, "pwrite at %lld: %s, want EINVAL", off,
		       n < 0 ? rname(e) : "success");
	} else if (n >= 0) {
		/* not a seq_file after all: a command that ran */
		if (!f->wr || (size_t)n != len)
			fo_bad(f, "pwrite of %zu at %lld returned %zd", len,
			       off, n);
		f->have_ref = 0;
	} else if (!one_of(e, off < 0 ? ok_neg : ok_any) &&
		   !(f->wr && allowed(f->file, e))) {
		fo_bad(f, "pwrite '%s' at %lld: %s", show(b, len), off,
		       rname(e));
	} else if (e == EBADF && f->wr) {
		fo_bad(f, "pwrite at %lld on a writable fd: EBADF", off);
	}
}

/* write() of @s, which must give @want (0: its full length) on a writable fd. */
static void fo_write(struct fo *f, const char *s, int want)
{
	int e = do_write(f->fd, s, strlen(s));

	fo_note(OP_WRITE, e);
	if (!f->wr)
		want = EBADF;
	if (e != want)
		fo_bad(f, "write '%s': %s, want %s", s,
		       e < 0 ? "short write" : rname(e), rname(want));
}

/*
 * Read the fd whole from its start into f->ref, then again, from 0, in odd
 * chunks that step back now and then, and once more with pread: the same
 * bytes each time.
 */
static void fo_snapshot(struct fo *f)
{
	static const size_t odd[] = { 1, 7, 97, 13, 4096, 2, 61 };
	char b[4096], *copy;
	size_t cap = 0, i;
	ssize_t n;

	f->len = 0;
	f->have_ref = 0;
	for (;;) {
		n_reads++;
		n = read(f->fd, b, sizeof(b));
		fo_note(OP_READ, n < 0 ? errno : 0);
		if (n <= 0)
			break;
		if (f->len + n + 1 > cap) {	/* + 1: a NUL for strstr() */
			cap = 2 * (f->len + n + 1);
			f->ref = realloc(f->ref, cap);
		}
		memcpy(f->ref + f->len, b, n);
		f->len += n;
		f->ref[f->len] = 0;
	}
	f->pos = f->len;
	if (n < 0 || !f->len) {
		fo_bad(f, "sequential read: %s after %zu bytes",
		       n < 0 ? rname(errno) : "nothing", f->len);
		return;
	}
	f->have_ref = 1;
	if (fo_seek(f, 0, SEEK_SET) != 0) {
		f->have_ref = 0;
		return;
	}
	/* fo_read() compares each piece; copy checks that all came */
	copy = calloc(1, f->len);
	for (i = 0; f->pos < (long long)f->len && i < 100000; i++) {
		long long at = f->pos;

		n = fo_read(f, b, odd[i % NELEM(odd)]);
		if (n <= 0)
			break;
		memcpy(copy + at, b, n);
		if (i % 3 == 1) {	/* back into what was just read */
			if (fo_seek(f, -(n + 1) / 2, SEEK_CUR) < 0)
				break;
		} else if (i % 5 == 4) {	/* to where we are already */
			if (fo_seek(f, at + n, SEEK_SET) < 0)
				break;
		}
	}
	fo_read(f, b, 1);	/* at the end: 0 */
	if (memcmp(copy, f->ref, f->len))
		fo_bad(f, "a re-read in chunks from 0 differs from the sequential read");
	memset(copy, 0, f->len);
	for (i = 0; i < f->len; i += n) {
		n = fo_pread(f, b, odd[i % NELEM(odd)], i);
		if (n <= 0)
			break;	/* reported */
		memcpy(copy + i, b, n);
	}
	if (memcmp(copy, f->ref, f->len))
		fo_bad(f, "a read by pread() differs from the sequential read");
	free(copy);
	/* pread moved nothing: the position is still the end */
	fo_read(f, b, 7);
}

/* May the permission bits in @mode open with @flags? */
static int mode_allows(mode_t mode, int flags)
{
	int acc = flags & O_ACCMODE;

	if (acc != O_WRONLY && !(mode & S_IRUSR))
		return 0;
	if ((acc != O_RDONLY || flags & O_TRUNC) && !(mode & S_IWUSR))
		return 0;
	return 1;
}

/* open() with the check of its result; -1 when it (rightly) failed. */
static int fo_open(struct fo *f, const char *file, int flags, int must)
{
	static const int refused[] = { EACCES, EPERM, 0 };
	int e;

	memset(f, 0, sizeof(*f));
	f->file = file;
	f->flags = flags;
	f->node = !strstr(file, "_control");
	f->rd = (flags & O_ACCMODE) != O_WRONLY;
	f->wr = (flags & O_ACCMODE) != O_RDONLY;
	n_opens++;
	f->fd = open(file, flags);
	e = f->fd < 0 ? errno : 0;
	fo_note(OP_OPEN, e);
	if (e && (must || !one_of(e, refused)))
		fo_bad(f, "open: %s", rname(e));
	return f->fd;
}

static void fo_close(struct fo *f)
{
	close(f->fd);
	free(f->ref);
	f->ref = NULL;
}

/* Every seek, pread and pwrite of the lists on one open fd. */
static void fo_exercise(struct fo *f)
{
	const char *cmd = f->node ? "reset" : "remove kfuzz_nonexistent";
	char b[4096];
	size_t w, o, k = 0;
	long long base;

	if (f->rd)
		fo_snapshot(f);
	for (w = 0; w < NELEM(whences); w++) {
		for (o = 0; o < NELEM(offsets); o++) {
			/* from the start and from the middle */
			for (base = 0; base <= 5; base += 5) {
				fo_seek(f, base, SEEK_SET);
				fo_seek(f, offsets[o], whences[w]);
				if (!f->rd)
					continue;
				fo_read(f, b, chunks[k++ % NELEM(chunks)]);
			}
		}
	}
	/* partial reads: a piece, back to where it started, the piece again */
	if (f->rd) {
		for (o = 0; o < NELEM(chunks); o++) {
			fo_seek(f, 3, SEEK_SET);
			fo_read(f, b, chunks[o]);
			fo_seek(f, 3, SEEK_SET);
			fo_read(f, b, chunks[(o + 1) % NELEM(chunks)]);
		}
	}
	for (o = 0; o < NELEM(poffsets); o++) {
		for (k = 0; k < NELEM(chunks); k++)
			fo_pread(f, b, chunks[k], poffsets[o]);
		fo_pwrite(f, cmd, strlen(cmd), poffsets[o]);
	}
	fo_pread(f, b, 97, f->len);
	fo_pread(f, b, 97, f->len ? f->len - 1 : 0);
	if (f->node) {
		/* a stopped distribution would stay so: start comes last */
		fo_write(f, "reset", 0);
		fo_write(f, "stop", 0);
		fo_write(f, "start", 0);
	} else {
		fo_write(f, cmd, ENOENT);
	}
	/* and the fd still reads after the writes */
	if (fo_seek(f, 0, SEEK_SET) == 0 && f->rd &&
	    fo_read(f, b, sizeof(b)) == 0)
		fo_bad(f, "nothing to read after the writes");
}

/* The "samples N" of a distribution's header line, or -1. */
static long long header_samples(const struct fo *f)
{
	const char *p = f->have_ref ? strstr(f->ref, " samples ") : NULL;

	return p ? strtoll(p + 9, NULL, 10) : -1;
}

/*
 * O_TRUNC on a debugfs file: the VFS truncates it to its size, 0, through
 * debugfs' setattr; kstats' own state must stay what it was.  _control
 * must list the same, a distribution keep its samples (a trace node may
 * only gain some).
 */
static void trunc_check(const char *file)
{
	struct fo a, t, b;
	long long sa, sb;

	if (fo_open(&a, file, O_RDONLY, 0) < 0)
		return;
	fo_snapshot(&a);
	if (fo_open(&t, file, O_WRONLY | O_TRUNC, 0) >= 0)
		fo_close(&t);
	if (fo_open(&b, file, O_RDONLY, 0) >= 0) {
		fo_snapshot(&b);
		sa = header_samples(&a);
		sb = header_samples(&b);
		if (a.node ? sa < 0 || sb < sa :
		    a.len != b.len || memcmp(a.ref, b.ref, a.len))
			fo_bad(&t, "O_TRUNC changed the file: samples %lld then %lld, %zu then %zu bytes",
			       sa, sb, a.len, b.len);
		fo_close(&b);
	}
	fo_close(&a);
}

static void fileops_one(const char *file)
{
	static const int extra[] = { 0, O_APPEND, O_TRUNC, O_APPEND | O_TRUNC };
	static const int acc[] = { O_RDONLY, O_WRONLY, O_RDWR };
	struct stat st;
	struct fo f;
	size_t a, x;

	n_files++;
	if (stat(file, &st)) {
		printf("# cannot stat %s: %s\n", file, rname(errno));
		n_unexpected++;
		return;
	}
	trunc_check(file);	/* before fo_exercise() resets the counts */
	for (a = 0; a < NELEM(acc); a++) {
		for (x = 0; x < NELEM(extra); x++) {
			int flags = acc[a] | extra[x];
			/* root opens what the bits allow; the rest may fail */
			int must = !geteuid() && mode_allows(st.st_mode, flags);

			if (fo_open(&f, file, flags, must) < 0)
				continue;
			fo_exercise(&f);
			fo_close(&f);
		}
	}
}

/* What each call returned, for the log: "lseek ok 900 EINVAL 600; ..." */
static void print_results(const char *what)
{
	int op, e;

	printf("# kfuzz %s results:", what);
	for (op = 0; op < NOPS; op++) {
		long calls = 0;

		for (e = 0; e < 256; e++)
			calls += op_res[op][e];
		if (!calls)
			continue;
		printf("%s %s", op ? ";" : "", op_names[op]);
		for (e = 0; e < 256; e++)
			if (op_res[op][e])
				printf(" %s %ld", rname(e), op_res[op][e]);
	}
	printf("\n");
}

static int fileops(const char *target)
{
	char *files[MAXFILES];
	int nfiles = 0, i;
	double t0 = now();

	if (!strcmp(target, "all"))
		files[nfiles++] = strdup(CONTROL);
	if (!strcmp(target, "all") || !strcmp(target, "nodes"))
		nfiles += list_nodes(files + nfiles);
	else
		files[nfiles++] = strdup(target);
	for (i = 0; i < nfiles; i++) {
		fileops_one(files[i]);
		free(files[i]);
	}
	print_results("fileops");
	printf("# kfuzz fileops: %ld files, %ld opens, %ld seeks, %ld reads, %ld preads, %ld pwrites, %ld writes, %ld unexpected (%.1f s)\n",
	       n_files, n_opens, n_seeks, n_reads, n_preads, n_pwrites,
	       n_writes, n_unexpected, now() - t0);
	return n_unexpected ? 1 : 0;
}

/* xorshift64*: the same seed gives the same writes. */
static unsigned long long rng_state;

static unsigned long long rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned int rn(unsigned int n)
{
	return n ? (unsigned int)(rnd() % n) : 0;
}

/* getppid()'s system call wrapper and kprobes' breakpoint handler here */
#if defined(__aarch64__)
#define SYS_GETPPID "__arm64_sys_getppid"
#define KPROBE_HANDLER "kprobe_brk_handler"
#else
#define SYS_GETPPID "__x64_sys_getppid"
#define KPROBE_HANDLER "kprobe_int3_handler"
#endif

static const char *const words[] = {
	"new", "remove", "trace", "all", "bits", "clock", "max", "name",
	"start", "end", "mech", "maxactive", "gap", "ktime", "local", "tsc",
	"cycles", "none", "direct", "fprobe", "kretprobe", "stop", "reset", "NEW", "Trace",
	"fz0", "fz1", "fz2", "fz0.gap", "_control", "..", ".", "a/b", "fz/..",
	"0", "1", "3", "5", "6", "-1", "4294967296", "18446744073709551615",
	"18446744073709551616", "0x10", "010", "1e3", "+3", "tp:", "tp::",
	"tp:raw_syscalls:sys_enter", "tp:sched:sched_switch", "tp:x:y",
	"__do_sys_getppid", "__do_sys_getppid+1", "__do_sys_getppid+0x4",
	"__do_sys_getppid+999999", "kstats_new", KPROBE_HANDLER,
	"no_such_fn", "vfs_*", "\xc3\xa9t\xc3\xa9", "\xff\xfe",
	"value", "pid", "tid", "comm", "cpu", "if", "ret", "arg0", "arg11",
	"arg12", "arg3+0:8", "ret+0:8", "arg0-8:s4", "==", "&", ">=", "<",
	"by", "max", "65537", "caller", "stack", "cgroup", "/", "func",
	"kstats_bench_*", "vfs_read,vfs_write", "a,,b",
	"history", "freeze", "thaw", "trigger", "above", "after", "_history",
};

#define PICK(a) (a[rn(sizeof(a) / sizeof(a[0]))])

/* A command of the grammar with random (often bad) values. */
static size_t gen_cmd(char *b, size_t max)
{
	static const char *const verbs[] = { "new", "new", "trace", "remove",
		"trigger" };
	static const char *const names[] = { "fz0", "fz1", "fz2", "fz0.gap",
		SYS_GETPPID, "tp:raw_syscalls:sys_enter",
		"tp:sched:sched_switch", "all", "kstats_new", "nope_fn" };
	static const char *const keys[] = { "bits", "clock", "max", "name",
		"mech", "maxactive", "gap", "start", "end", "value", "value",
		"pid", "tid", "comm", "cpu", "if ret ==", "if arg0+0:8 &",
		"if arg1 <", "by", "by comm max", "by arg0 max", "slow", "top",
		"keep", "stack", "by caller", "by stack", "by cgroup", "cgroup",
		"by func", "history 10000000", "history 0", "above", "after" };
	static const char *const vals[] = { "0", "3", "5", "6", "-1", "none",
		"local", "ktime", "tsc", "cycles", "direct", "kretprobe", "fprobe", "fz1",
		"fz2",
		"1000", "0x10", "18446744073709551615", SYS_GETPPID,
		SYS_GETPPID "+4", "tp:raw_syscalls:sys_exit", "ret",
		"ret:s4", "arg0", "arg1+0:8", "arg0+0:8+8:8+16:8+0:s2",
		"ret+0:8", "arg0-4096:8", "arg0+0x7fffffff:1", "arg5:s1",
		"arg12", "arg0+0:3", "kfuzz", "-0x7fffffffffffffff", "/",
		"/kstats-fuzz-none", "33" };
	int o, i, n = rn(4);

	o = snprintf(b, max, "%s %s", PICK(verbs), PICK(names));
	for (i = 0; i < n; i++)
		o += snprintf(b + o, max - o, " %s %s", PICK(keys), PICK(vals));
	return o;
}

static size_t gen(char *b, size_t max)
{
	size_t o = 0;
	int i, n = rn(9);

	if (rn(3) == 0)
		return gen_cmd(b, max);

	if (!rn(60)) {		/* huge: over a page */
		size_t len = 4097 + rn(20000);

		for (o = 0; o < len && o < max; o++)
			b[o] = rn(4) ? 'a' + rn(26) : ' ';
		return o;
	}
	for (i = 0; i < n && o < max - 64; i++) {
		if (rn(6)) {
			o += snprintf(b + o, max - o, "%s", PICK(words));
		} else {
			int j, l = 1 + rn(8);

			for (j = 0; j < l; j++)
				b[o++] = (char)rn(256);
		}
		b[o++] = " \t\n "[rn(4)];
	}
	if (o && !rn(3))
		o--;		/* no trailing separator */
	if (o && !rn(10))
		b[rn(o)] = (char)rn(256);	/* a byte flipped, NUL included */
	return o;
}

/*
 * One open of a random file with a random mode, then random seeks, reads
 * (short ones, and partial ones read again), preads and pwrites, checked
 * as in fileops.  No write(): those are random_fuzz()'s, bounded by N.
 */
static void fileops_random(char **files, int nfiles)
{
	static const int acc[] = { O_RDONLY, O_WRONLY, O_RDWR };
	static char b[32768];
	const char *file = nfiles && rn(2) ? files[rn(nfiles)] : CONTROL;
	int flags = acc[rn(3)] | (rn(3) ? 0 : O_APPEND) | (rn(3) ? 0 : O_TRUNC);
	struct stat st;
	long long off;
	struct fo f;
	size_t len;
	int i, n;

	if (stat(file, &st))
		return;		/* removed by a random write meanwhile */
	if (fo_open(&f, file, flags,
		    !geteuid() && mode_allows(st.st_mode, flags)) < 0)
		return;
	if (f.rd && rn(4))
		fo_snapshot(&f);
	for (i = 0, n = 1 + rn(16); i < n; i++) {
		switch (rn(8)) {
		case 0:
		case 1:
			off = rn(2) ? offsets[rn(NELEM(offsets))] :
			      (long long)rn(f.len + 64) - (rn(4) ? 0 : 32);
			fo_seek(&f, off, rn(4) ? whences[rn(3)] :
				whences[rn(NELEM(whences))]);
			break;
		case 2:
		case 3:
		case 4:
			fo_read(&f, b, rn(2) ? chunks[rn(NELEM(chunks))] :
				1 + rn(300));
			break;
		case 5:		/* a piece, back, a piece again */
			off = f.pos;
			fo_read(&f, b, 1 + rn(200));
			fo_seek(&f, off, SEEK_SET);
			fo_read(&f, b, 1 + rn(200));
			break;
		case 6:
			off = rn(2) ? poffsets[rn(NELEM(poffsets))] :
			      (long long)rn(f.len + 64);
			fo_pread(&f, b, rn(2) ? chunks[rn(NELEM(chunks))] :
				 1 + rn(300), off);
			break;
		default:
			len = gen(b, 4096);
			fo_pwrite(&f, b, len, poffsets[rn(NELEM(poffsets))]);
			break;
		}
	}
	fo_close(&f);
}

static int random_fuzz(unsigned long long seed, long n, double seconds)
{
	static char buf[32768];
	char *files[MAXFILES];
	int nfiles = 0, i, ok = 0;
	double t0 = now();
	long w;

	rng_state = seed ? seed : 1;
	for (w = 0; n_writes < n && now() - t0 < seconds; w++) {
		const char *file = CONTROL;
		size_t len = gen(buf, sizeof(buf)), start = 0, cut;
		int fd, e;

		if (!(w % 64)) {	/* the files come and go */
			while (nfiles)
				free(files[--nfiles]);
			nfiles = list_nodes(files);
		}
		if (rn(10) < 3) {	/* not a write: see fileops_random() */
			fileops_random(files, nfiles);
			continue;
		}
		if (nfiles && rn(10) < 3)
			file = files[rn(nfiles)];
		fd = open(file, O_WRONLY);
		if (fd < 0)
			continue;	/* removed meanwhile */
		/*
		 * Mostly one write, sometimes a command split in pieces; the
		 * last command may be cut short to keep to N writes.
		 */
		for (i = rn(8) ? 1 : 2 + rn(3); i > 0 && n_writes < n; i--) {
			cut = i == 1 ? len : start + rn(len - start + 1);
			e = do_write(fd, buf + start, cut - start);
			if (!e)
				ok++;
			else if (e < 0 || !allowed(file, e))
				unexpected(file, "random write", e, "a listed errno",
					   buf + start, cut - start);
			start = cut;
		}
		close(fd);
	}
	while (nfiles)
		free(files[--nfiles]);
	printf("# kfuzz random: seed %llu, %ld writes in %.1f s (at most %ld, %.0f s), %d ok",
	       seed, n_writes, now() - t0, n, seconds, ok);
	for (i = 1; i < 256; i++)
		if (n_errno[i])
			printf(", %s %ld", rname(i), n_errno[i]);
	printf(", and %ld opens, %ld seeks, %ld reads, %ld preads, %ld pwrites, %ld unexpected\n",
	       n_opens, n_seeks, n_reads, n_preads, n_pwrites, n_unexpected);
	print_results("random");
	return n_unexpected ? 1 : 0;
}

static int write_str(const char *file, const char *s)
{
	int fd = open(file, O_WRONLY), e;

	if (fd < 0)
		return errno;
	e = do_write(fd, s, strlen(s));
	close(fd);
	return e;
}

static int limits(void)
{
	char cmd[64];
	int i, made = 0, e = 0;

	for (i = 0; i < 400; i++) {
		snprintf(cmd, sizeof(cmd), "new lim%d bits 0 max 1", i);
		e = write_str(CONTROL, cmd);
		if (e)
			break;
		made++;
	}
	printf("# kfuzz limits: %d made, then %s\n", made, rname(e));
	for (i = 0; i < made; i++) {
		snprintf(cmd, sizeof(cmd), "remove lim%d", i);
		if (write_str(CONTROL, cmd))
			n_unexpected++;
	}
	return e == ENOSPC && !n_unexpected ? 0 : 1;
}

static int set_fail_nth(int n)
{
	char b[16];
	int fd = open("/proc/thread-self/fail-nth", O_RDWR), r;

	if (fd < 0)
		return -1;
	snprintf(b, sizeof(b), "%d", n);
	if (n >= 0) {
		r = write(fd, b, strlen(b)) < 0 ? -1 : 0;
	} else {
		ssize_t l = read(fd, b, sizeof(b) - 1);

		b[l > 0 ? l : 0] = 0;
		r = atoi(b);
	}
	close(fd);
	return r;
}

static const char *fn_file, *fn_cmd, *fn_undo, *fn_mod;

static int op_write(const void *arg)
{
	int fd = open(fn_file, O_WRONLY), e;

	if (fd < 0)
		return errno;
	set_fail_nth(*(const int *)arg);
	e = do_write(fd, fn_cmd, strlen(fn_cmd));
	close(fd);
	return e;
}

static int op_undo(const void *arg)
{
	(void)arg;
	return write_str(CONTROL, fn_undo);
}

static int op_load(const void *arg)
{
	int fd = open(fn_mod, O_RDONLY), e = 0;

	if (fd < 0)
		return errno;
	set_fail_nth(*(const int *)arg);
	if (syscall(SYS_finit_module, fd, "", 0))
		e = errno;
	close(fd);
	return e;
}

static int op_unload(const void *arg)
{
	return syscall(SYS_delete_module, (const char *)arg, O_NONBLOCK) ? errno : 0;
}

/*
 * How many allocations @op makes, when none fails: fail-nth armed far
 * ahead counts them down.  Reading the count back opens the file, which
 * allocates too: that much is measured alone and taken off.  Negative (an
 * errno) if @op or @undo fails.
 */
static int count_allocs(int (*op)(const void *), int (*undo)(const void *),
			const void *undo_arg)
{
	const int far = 1 << 30;
	int reading, left, e;

	set_fail_nth(far);
	reading = far - set_fail_nth(-1);
	set_fail_nth(0);
	e = op(&far);
	left = set_fail_nth(-1);
	set_fail_nth(0);
	if (e)
		return -e;
	if (undo && undo(undo_arg))
		return -EIO;
	return far - left - reading;
}

/*
 * @op with its i-th allocation failing, for i = first, first + 1, ... (of
 * @range, "MAX", "FIRST-MAX", or "last-N": the last N that a load without
 * faults makes, where a module's init makes its own after hundreds of the
 * loader's) until it runs without reaching the i-th (at most MAX): each
 * failure must be -ENOMEM, or success if the failed allocation was
 * optional, and @undo must work after each success.  The fault must hit
 * the command, not the open: the ops arm fail-nth themselves, after the
 * open, from the count in *arg.
 */
static int failnth_ops(const char *range, const char *what,
		       int (*op)(const void *), int (*undo)(const void *),
		       const void *undo_arg)
{
	int i, e, left, first = 1, max, n, faults = 0, nomem = 0, okays = 0;
	double t0 = now();

	if (sscanf(range, "last-%d", &n) == 1) {
		/*
		 * The first load after boot makes more (caches made on first
		 * use): the smaller of two counts.
		 */
		max = count_allocs(op, undo, undo_arg);
		i = count_allocs(op, undo, undo_arg);
		if (i < max)
			max = i;
		if (max < 0) {
			unexpected(what, "no fault (counting)", -max, "ok", "", 0);
			return 1;
		}
		first = max - n + 1 > 1 ? max - n + 1 : 1;
		printf("# kfuzz failnth '%s': %d allocations without faults\n",
		       what, max);
		max += 8;	/* a later load may make a few more */
	} else if (sscanf(range, "%d-%d", &first, &max) != 2) {
		/* MAX, or FIRST-MAX */
		first = 1;
		max = atoi(range);
	}
	for (i = first; i <= max; i++) {
		e = op(&i);
		left = set_fail_nth(-1);
		set_fail_nth(0);
		/*
		 * Not reached: left over (> 0), or -1, spent on the open that
		 * reads it back, after @op.
		 */
		if (left != 0) {
			if (e)
				unexpected(what, "no fault", e, "ok", "", 0);
			else if (undo && undo(undo_arg))
				n_unexpected++;
			break;
		}
		faults++;
		if (e == ENOMEM) {
			nomem++;
		} else if (!e) {
			okays++;
		} else {
			char w[32];

			snprintf(w, sizeof(w), "fault %d", i);
			unexpected(what, w, e, "ENOMEM", "", 0);
		}
		if (!e && undo && undo(undo_arg)) {
			printf("# %s: undo failed after fault %d\n", what, i);
			n_unexpected++;
		}
	}
	printf("# kfuzz failnth '%s': %d faults injected in %.1f s: %d ENOMEM, %d absorbed (ok), %ld unexpected%s (allocations %d-%d)\n",
	       what, faults, now() - t0, nomem, okays, n_unexpected,
	       i > max ? ", stopped at the limit" : "", first,
	       i > max ? max : i - 1);
	return n_unexpected ? 1 : 0;
}

static int asuser(int uid, const char *file)
{
	int fd, r, w;

	if (setgid(uid) || setuid(uid)) {
		perror("setuid");
		return 2;
	}
	fd = open(file, O_RDONLY);
	r = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	fd = open(file, O_WRONLY);
	w = fd < 0 ? errno : 0;
	if (fd >= 0) {
		w = do_write(fd, "remove all", 10);
		close(fd);
	}
	printf("read %s write %s\n", rname(r), rname(w));
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "corpus"))
		return corpus(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "random"))
		return random_fuzz(strtoull(argv[2], NULL, 0), atol(argv[3]),
				   atof(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "fileops"))
		return fileops(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "limits"))
		return limits();
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "failnth")) {
		fn_file = argv[3];
		fn_cmd = argv[4];
		fn_undo = argc == 6 ? argv[5] : NULL;
		return failnth_ops(argv[2], fn_cmd, op_write,
				   fn_undo ? op_undo : NULL, NULL);
	}
	if (argc == 5 && !strcmp(argv[1], "failload")) {
		fn_mod = argv[3];
		return failnth_ops(argv[2], fn_mod, op_load, op_unload,
				   argv[4]);
	}
	if (argc == 4 && !strcmp(argv[1], "asuser"))
		return asuser(atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: see the comment at the top of kfuzz.c\n");
	return 2;
}
