// SPDX-License-Identifier: GPL-2.0
/*
 * kfuzz: bad input, faults and access checks of kstats' debugfs files, for
 * the reliability stage (tests/reliability/).  Static, libc only.
 *
 *   kfuzz corpus CORPUS FILE|nodes   replay a corpus (tests/corpus/)
 *                                    against FILE or every distribution file
 *   kfuzz random SEED N SECONDS      seeded random writes to _control and the
 *                                    distribution files: N writes or SECONDS
 *   kfuzz limits                     new NAME until ENOSPC, then remove them
 *   kfuzz failnth MAX FILE CMD [UNDO]  write CMD with the 1st, 2nd, ...
 *                                    allocation of the write failing
 *                                    (/proc/thread-self/fail-nth), MAX at most
 *   kfuzz failload MAX MODULE.ko NAME  the same for loading a module
 *   kfuzz asuser UID FILE            open FILE for reading, then for writing,
 *                                    as UID: prints two results
 *
 * Every write must return its full length or fail with an errno of the
 * file's list (allowed()); anything else is counted as unexpected, printed
 * as a TAP diagnostic ("# ..."), and makes the exit status 1.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
				       ENOMEM, EOPNOTSUPP, EILSEQ, EBUSY, 0 };
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

static int list_nodes(char **files)
{
	DIR *d = opendir(KS);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < MAXFILES) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "_control"))
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

/* Reads of FILE in 1-byte and odd-sized chunks, with seeks back. */
static void read_small(const char *file)
{
	char b[97], *volatile bad = NULL;
	int fd = open(file, O_RDONLY), i;

	if (fd < 0)
		return;
	for (i = 0; i < 300 && read(fd, b, 1) == 1; i++)
		;
	lseek(fd, 7, SEEK_SET);
	while (read(fd, b, sizeof(b)) > 0)
		;
	lseek(fd, 0, SEEK_SET);
	if (read(fd, b, 0) < 0 || read(fd, bad, 10) >= 0) {
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

static const char *const words[] = {
	"new", "remove", "trace", "all", "bits", "clock", "max", "name",
	"start", "end", "mech", "maxactive", "gap", "ktime", "local", "tsc",
	"none", "fprobe", "kretprobe", "stop", "reset", "NEW", "Trace",
	"fz0", "fz1", "fz2", "fz0.gap", "_control", "..", ".", "a/b", "fz/..",
	"0", "1", "3", "5", "6", "-1", "4294967296", "18446744073709551615",
	"18446744073709551616", "0x10", "010", "1e3", "+3", "tp:", "tp::",
	"tp:raw_syscalls:sys_enter", "tp:sched:sched_switch", "tp:x:y",
	"__do_sys_getppid", "__do_sys_getppid+1", "__do_sys_getppid+0x4",
	"__do_sys_getppid+999999", "kstats_new", "kprobe_int3_handler",
	"no_such_fn", "vfs_*", "\xc3\xa9t\xc3\xa9", "\xff\xfe",
};

#define PICK(a) (a[rn(sizeof(a) / sizeof(a[0]))])

/* A command of the grammar with random (often bad) values. */
static size_t gen_cmd(char *b, size_t max)
{
	static const char *const verbs[] = { "new", "new", "trace", "remove" };
	static const char *const names[] = { "fz0", "fz1", "fz2", "fz0.gap",
		"__x64_sys_getppid", "tp:raw_syscalls:sys_enter",
		"tp:sched:sched_switch", "all", "kstats_new", "nope_fn" };
	static const char *const keys[] = { "bits", "clock", "max", "name",
		"mech", "maxactive", "gap", "start", "end" };
	static const char *const vals[] = { "0", "3", "5", "6", "-1", "none",
		"local", "ktime", "tsc", "kretprobe", "fprobe", "fz1", "fz2",
		"1000", "0x10", "18446744073709551615", "__x64_sys_getppid",
		"__x64_sys_getppid+4", "tp:raw_syscalls:sys_exit" };
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
	printf(", %ld unexpected\n", n_unexpected);
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
 * @op with its i-th allocation failing, for i = 1, 2, ... until it runs
 * without reaching the i-th (at most @max): each failure must be -ENOMEM,
 * or success if the failed allocation was optional, and @undo must work
 * after each success.  The fault must hit the command, not the open: the
 * ops arm fail-nth themselves, after the open, from the count in *arg.
 */
static int failnth_ops(int max, const char *what, int (*op)(const void *),
		       int (*undo)(const void *), const void *undo_arg)
{
	int i, e, left, faults = 0, nomem = 0, okays = 0;
	double t0 = now();

	for (i = 1; i <= max; i++) {
		e = op(&i);
		left = set_fail_nth(-1);
		set_fail_nth(0);
		if (left > 0) {
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
	printf("# kfuzz failnth '%s': %d faults injected in %.1f s: %d ENOMEM, %d absorbed (ok), %ld unexpected%s\n",
	       what, faults, now() - t0, nomem, okays, n_unexpected,
	       i > max ? ", stopped at the limit" : "");
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
	if (argc == 2 && !strcmp(argv[1], "limits"))
		return limits();
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "failnth")) {
		fn_file = argv[3];
		fn_cmd = argv[4];
		fn_undo = argc == 6 ? argv[5] : NULL;
		return failnth_ops(atoi(argv[2]), fn_cmd, op_write,
				   fn_undo ? op_undo : NULL, NULL);
	}
	if (argc == 5 && !strcmp(argv[1], "failload")) {
		fn_mod = argv[3];
		return failnth_ops(atoi(argv[2]), fn_mod, op_load, op_unload,
				   argv[4]);
	}
	if (argc == 4 && !strcmp(argv[1], "asuser"))
		return asuser(atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: see the comment at the top of kfuzz.c\n");
	return 2;
}
