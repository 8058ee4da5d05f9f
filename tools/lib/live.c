// SPDX-License-Identifier: GPL-2.0
/*
 * live.c - the live side: errors (and the options a subcommand allows),
 * finding distributions under debugfs (or --root), _control writes, signals
 * and naps.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define DEBUGFS		"/sys/kernel/debug"
#define DEBUGFS_MAGIC	0x64626720
#define LOCKDOWN_FILE	"/sys/kernel/security/lockdown"

const char *root = KSTATS_ROOT;
static volatile sig_atomic_t stop_now;

int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("kstats: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERROR;
}

int usage_error(const char *what)
{
	fprintf(stderr, "kstats: %s (kstats --help for usage)\n", what);
	return EXIT_ERROR;
}

/* A usage error of subcommand @c: "(kstats help CMD for usage)". */
int usage_error_for(const struct cmddef *c, const char *fmt, ...)
{
	va_list ap;

	fputs("kstats: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (c && strcmp(c->name, "kstats"))
		fprintf(stderr, " (kstats help %s for usage)\n", c->name);
	else
		fprintf(stderr, " (kstats --help for usage)\n");
	return EXIT_ERROR;
}

/*
 * The lockdown mode in force ("integrity" or "confidentiality"), from the
 * bracketed word of securityfs' lockdown file; NULL if none or unknown.
 */
static const char *lockdown_mode(char *buf, size_t len)
{
	char line[128], *lb, *rb;
	FILE *f = fopen(LOCKDOWN_FILE, "r");

	if (!f)
		return NULL;
	lb = fgets(line, sizeof(line), f) ? strchr(line, '[') : NULL;
	fclose(f);
	rb = lb ? strchr(lb, ']') : NULL;
	if (!rb)
		return NULL;
	*rb = '\0';
	if (!strcmp(lb + 1, "none"))
		return NULL;
	snprintf(buf, len, "%s", lb + 1);
	return buf;
}

/*
 * PATH refused with EACCES or EPERM.  Root gets EPERM from debugfs only
 * when the kernel is locked down, which no change of user can fix.
 */
int access_error(const char *path, int err)
{
	char mode[32];

	if (err == EPERM && !geteuid()) {
		if (lockdown_mode(mode, sizeof(mode)))
			return fail("%s: the kernel is locked down (%s): debugfs "
				    "refuses access even to root on this boot",
				    path, mode);
		return fail("%s: operation not permitted, even to root: is the "
			    "kernel locked down? (see dmesg and " LOCKDOWN_FILE
			    ")", path);
	}
	return fail("permission denied on %s: run as root (debugfs is "
		    "readable by root only)", path);
}

/* Why the distribution directory cannot be used, with the fix. */
static const char *root_reason(int err, char *buf, size_t len)
{
	struct statfs sf;

	if (strcmp(root, KSTATS_ROOT))
		snprintf(buf, len, "%s: %s: check --root", root, strerror(err));
	else if (statfs(DEBUGFS, &sf) || sf.f_type != DEBUGFS_MAGIC)
		snprintf(buf, len, "debugfs is not mounted on " DEBUGFS
			 ": mount -t debugfs none " DEBUGFS);
	else
		snprintf(buf, len, "the kstats module is not loaded (no "
			 KSTATS_ROOT "): modprobe kstats, or insmod kstats.ko");
	return buf;
}

static int root_error(int err)
{
	char why[PATH_MAX + 128];

	if (err == EACCES || err == EPERM)
		return access_error(root, err);
	return fail("%s", root_reason(err, why, sizeof(why)));
}

int root_ok(void)
{
	struct stat st;

	if (stat(root, &st))
		return root_error(errno);
	if (!S_ISDIR(st.st_mode))
		return fail("%s is not a directory: check --root", root);
	return 0;
}

/*
 * NAME|FILE: a path with a '/' is a file; otherwise the distribution under
 * the root if there is one, else a file of that name in this directory.
 */
int resolve(const char *arg, char *path, size_t len)
{
	struct stat st;
	int err;

	if (strchr(arg, '/') || !valid_name(arg)) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	snprintf(path, len, "%s/%s", root, arg);
	if (!stat(path, &st))
		return 0;
	err = errno;
	if (!stat(arg, &st)) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	if (err != ENOENT)
		return root_error(err);
	if (stat(root, &st)) {	/* the file first: a misspelled name */
		char why[PATH_MAX + 128];

		err = errno;
		if (err == EACCES || err == EPERM)
			return access_error(root, err);
		return fail("%s: no such file (nor a distribution: %s)", arg,
			    root_reason(err, why, sizeof(why)));
	}
	return fail("no distribution '%s' in %s and no file '%s': see "
		    "'kstats list'", arg, root, arg);
}

/*
 * What a load of @path that returned @r (0 or -errno: snapshot_load,
 * history_load) says, @err its parser's words: 0, or the error.
 */
int load_error(const char *path, int r, const char *err)
{
	if (r == -EACCES || r == -EPERM)
		return access_error(path, -r);
	if (r == -ENOENT)
		return fail("%s: no such file", path);
	if (r == -EINVAL)
		return fail("%s (see Documentation/format.rst)",
			    err);
	if (r)
		return fail("%s", err);
	return 0;
}

int load(const char *arg, struct snapshot *s)
{
	char path[PATH_MAX + 64], err[768];

	if (resolve(arg, path, sizeof(path)))
		return EXIT_ERROR;
	return load_error(path, snapshot_load(s, path, err, sizeof(err)), err);
}

/* --- live helpers ------------------------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
	stop_now = 1;
}

void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Sleep @secs unless a signal asks to stop; returns -1 when stopped. */
int nap(double secs)
{
	struct timespec ts = { .tv_sec = (time_t)secs,
			       .tv_nsec = (long)((secs - floor(secs)) * 1e9) };

	while (!stop_now && nanosleep(&ts, &ts) && errno == EINTR)
		;
	return stop_now ? -1 : 0;
}

/* Whether a signal asked to stop (catch_signals()). */
int stopping(void)
{
	return stop_now;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * @cmd as _errors shows a command: its trailing newline and blanks
 * dropped, every byte outside '!'..'~' a space, its first 512 bytes.
 */
static void errors_form(const char *cmd, char *out, size_t len)
{
	size_t n = strlen(cmd), i;

	while (n && (cmd[n - 1] == '\n' || cmd[n - 1] == ' ' || cmd[n - 1] == '\t'))
		n--;
	n = n > 512 ? 512 : n;
	for (i = 0; i < n && i + 1 < len; i++)
		out[i] = cmd[i] >= '!' && cmd[i] <= '~' ? cmd[i] : ' ';
	out[i] = '\0';
}

/*
 * Why the kernel refused @cmd, from the last entry of _errors whose
 * command it is (format.rst: "[T] LOC: error: REASON", "  Command: CMD",
 * a caret under the word): "LOC: REASON" in @why, the caret's line in
 * @caret.  0, or -1 when _errors has none (a kstats without it).
 */
int refusal(const char *cmd, char *why, size_t wlen, char *caret, size_t clen)
{
	char path[PATH_MAX], want[520], line[1024], head[1024] = "";
	int found = -1, expect = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/_errors", root);
	f = fopen(path, "r");
	if (!f)
		return -1;
	errors_form(cmd, want, sizeof(want));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '[') {
			snprintf(head, sizeof(head), "%s", line);
			expect = 1;
		} else if (expect == 1 && !strncmp(line, "  Command: ", 11)) {
			expect = !strcmp(line + 11, want) ? 2 : 0;
		} else if (expect == 2) {
			const char *e = strstr(head, "] "), *r = e ? strstr(e, ": error: ") : NULL;

			if (r) {
				snprintf(why, wlen, "%.*s: %s", (int)(r - e - 2), e + 2,
					 r + 9);
				snprintf(caret, clen, "%s", line);
				found = 0;
			}
			expect = 0;
		} else {
			expect = 0;
		}
	}
	fclose(f);
	return found;
}

/* _control at @path could not be opened: why, with the fix. */
static void open_error(const char *path, int e)
{
	struct stat st;

	if (e == ENOENT && stat(root, &st))
		root_error(errno);
	else if (e == EACCES || e == EPERM)
		access_error(path, e);
	else if (e == ENOENT)
		fail("%s: no such file: is the kstats module loaded?", path);
	else
		root_error(e);
}

/*
 * @cmd written to _control: 0, the errno of a refused write (nothing
 * said: the caller decides whether a refusal is an error), or -1 when
 * _control cannot be opened (said).
 */
int control_write(const char *cmd)
{
	char path[PATH_MAX];
	size_t len = strlen(cmd);
	int fd, e;

	snprintf(path, sizeof(path), "%s/_control", root);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0) {
		open_error(path, errno);
		return -1;
	}
	errno = 0;
	e = write(fd, cmd, len) == (ssize_t)len ? 0 : errno ? errno : EIO;
	close(fd);
	return e;
}

/*
 * Why @cmd was refused with @err, in @buf: the reason of its entry in
 * _errors, else the errno's text.
 */
const char *refused_why(const char *cmd, int err, char *buf, size_t len)
{
	char why[1100], caret[1100];

	if (!refusal(cmd, why, sizeof(why), caret, sizeof(caret)))
		snprintf(buf, len, "%s (%s)", why, strerror(err));
	else
		snprintf(buf, len, "%s", strerror(err));
	return buf;
}

int control(const char *cmd)
{
	char path[PATH_MAX], why[1100], caret[1100];
	size_t len = strlen(cmd);
	int e = control_write(cmd);

	if (e <= 0)
		return e ? EXIT_ERROR : 0;
	snprintf(path, sizeof(path), "%s/_control", root);
	if (!refusal(cmd, why, sizeof(why), caret, sizeof(caret))) {
		char shown[520];

		errors_form(cmd, shown, sizeof(shown));
		fprintf(stderr, "kstats: %s (%s)\n  Command: %s\n%s\n", why,
			strerror(e), shown, caret);
		return EXIT_ERROR;
	}
	if (e == EEXIST)
		return fail("'%.*s': a distribution of that name exists: "
			    "remove it with echo remove NAME > %s",
			    (int)len - 1, cmd, path);
	return fail("'%.*s' refused by %s: %s (the kernel log says why: "
		    "dmesg | tail)", (int)len - 1, cmd, path, strerror(e));
}

/* ROOT/_history as @dir, or the error of why there is none. */
int history_dir(char *dir, size_t len)
{
	struct stat st;
	int ret = root_ok();

	if (ret)
		return ret;
	snprintf(dir, len, "%s/" HISTORY_DIR, root);
	if (!stat(dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	if (errno == EACCES || errno == EPERM)
		return access_error(dir, errno);
	if (errno == ENOENT)
		return fail("%s: no such directory: no history here (a kstats "
			    "module without histories, or a --root without "
			    HISTORY_DIR "/)", dir);
	return fail("%s: %s", dir, strerror(errno ? errno : ENOTDIR));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names of the regular files of @dir (but _control and _errors),
 * sorted; NULL with errno set if it cannot be read.
 */
char **dir_files(const char *dir, size_t *n)
{
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	d = opendir(dir);
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char path[PATH_MAX + 256];
		struct stat st;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "_control") ||
		    !strcmp(e->d_name, "_errors"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;	/* directories of saved files, ... */
		if (*n == cap) {
			char **nn = realloc(names, (cap = cap * 2 + 16) * sizeof(*nn));

			if (!nn)
				break;
			names = nn;
		}
		names[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_str);
	return names ? names : calloc(1, sizeof(char *));
}

/* The names of the distributions under the root, sorted; NULL on error. */
char **scan_root(size_t *n, int *ret)
{
	char **names;

	*n = 0;
	*ret = root_ok();
	if (*ret)
		return NULL;
	names = dir_files(root, n);
	if (!names)
		*ret = root_error(errno);
	return names;
}

void free_names(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}
