// SPDX-License-Identifier: GPL-2.0
/*
 * child.c - `kstats trace ... -- COMMAND [ARGS]`: COMMAND is started
 * before the node is made and held before its exec until the node
 * records, so that the node's filter can name it (its process, or with
 * --follow a cgroup v2 made for it, which its children are born in) and
 * none of its work is missed: "pid N" counts the process and its threads
 * alone, "cgroup PATH" every task of the cgroup, however busy the
 * machine.  The trace ends when COMMAND exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* Whether @name is a program to run: a path, or found in $PATH. */
static int runnable(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return !access(name, X_OK);
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? path : ".", name);
		if (!access(buf, X_OK))
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/* The cgroup2 mount's directory in @mnt: 0, or -1 when there is none. */
int cgroup2_mount(char *mnt, size_t mlen)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - cgroup2 "), *p = line;

		if (!sep)
			continue;
		for (int i = 0; i < 4 && p; i++) {	/* the 5th field */
			p = strchr(p, ' ');
			p = p ? p + 1 : NULL;
		}
		if (!p)
			continue;
		snprintf(mnt, mlen, "%.*s", (int)strcspn(p, " "), p);
		found = 1;
	}
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

/*
 * The cgroup2 mount's directory in @mnt, and this process's cgroup, from
 * that root, in @own ("/" or "/user.slice/..."); -1 when there is none.
 */
static int cgroup2_where(char *mnt, size_t mlen, char *own, size_t olen)
{
	char line[4096];
	FILE *f = cgroup2_mount(mnt, mlen) ? NULL : fopen("/proc/self/cgroup", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			if (strlen(line + 3) < olen)
				memcpy(own, line + 3, strlen(line + 3) + 1);
			else
				break;
			found = 1;
		}
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

/* Write @text to the file @dir/@name. */
static int write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	int fd, r;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	r = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return r;
}

/* --follow: a cgroup v2 for COMMAND, under the tool's own, and COMMAND in it. */
static int make_cgroup(struct child *c)
{
	char mnt[1024], own[2048], pid[32];

	if (cgroup2_where(mnt, sizeof(mnt), own, sizeof(own)))
		return fail("--follow needs cgroup v2 mounted (mount -t cgroup2 none /sys/fs/cgroup)");
	snprintf(c->home, sizeof(c->home), "%s%s", mnt, own);
	snprintf(c->cgroup, sizeof(c->cgroup), "%s/kstats-%d",
		 strcmp(own, "/") ? own : "", (int)getpid());
	snprintf(c->dir, sizeof(c->dir), "%s%s/kstats-%d", mnt,
		 strcmp(own, "/") ? own : "", (int)getpid());
	if (mkdir(c->dir, 0755)) {
		int e = errno;

		c->dir[0] = '\0';
		return fail("--follow: cannot make the cgroup %s: %s", c->cgroup,
			    strerror(e));
	}
	snprintf(pid, sizeof(pid), "%d", (int)c->pid);
	if (write_file(c->dir, "cgroup.procs", pid))
		return fail("--follow: cannot move COMMAND into %s: %s", c->cgroup,
			    strerror(errno));
	return 0;
}

/**
 * child_start() - fork COMMAND, held before its exec
 * @c: where its state goes
 * @argv: COMMAND and its arguments, NULL-terminated
 * @follow: in a cgroup v2 of its own (c->cgroup), for its children too
 *
 * Return: 0, or the exit status with the reason printed.
 */
int child_start(struct child *c, char *const *argv, int follow)
{
	int go[2], err[2];
	char b;

	memset(c, 0, sizeof(*c));
	c->pid = -1;
	c->go = c->err = -1;
	if (!runnable(argv[0]))
		return fail("'%s': no such program (in $PATH)", argv[0]);
	if (pipe2(go, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return fail("pipe: %s", strerror(errno));
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0)
		return fail("fork: %s", strerror(errno));
	if (!c->pid) {
		sigset_t none;
		int e;

		/* as it would be started: no signal blocked nor ignored */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
		close(go[1]);
		close(err[0]);
		if (read(go[0], &b, 1) != 1)
			_exit(127);	/* the tool gave up */
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	c->go = go[1];
	c->err = err[0];
	c->argv0 = argv[0];
	if (follow && make_cgroup(c))
		return EXIT_ERROR;
	return 0;
}

/**
 * child_release() - let COMMAND exec, once the node records
 * @c: the child
 *
 * Return: 0, or the exit status with the reason printed (its exec failed).
 */
int child_release(struct child *c)
{
	ssize_t n;
	int e = 0;

	if (write(c->go, "x", 1) != 1)
		return fail("cannot start COMMAND: %s", strerror(errno));
	close(c->go);
	c->go = -1;
	do {
		n = read(c->err, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(c->err);
	c->err = -1;
	if (n > 0)
		return fail("'%s': %s", c->argv0, strerror(e));
	return 0;
}

/* Whether COMMAND has exited (reaped then). */
int child_exited(struct child *c)
{
	if (c->reaped)
		return 1;
	if (c->pid > 0 && waitpid(c->pid, &c->status, WNOHANG) == c->pid)
		c->reaped = 1;
	return c->reaped;
}

/* Move the tasks left in COMMAND's cgroup back to the tool's, remove it. */
static void drop_cgroup(struct child *c)
{
	char path[sizeof(c->dir) + 16], pid[32];

	for (int round = 0; round < 100; round++) {
		FILE *f;
		int left = 0;

		snprintf(path, sizeof(path), "%s/cgroup.procs", c->dir);
		f = fopen(path, "r");
		while (f && fgets(pid, sizeof(pid), f)) {
			pid[strcspn(pid, "\n")] = '\0';
			left++;
			write_file(c->home, "cgroup.procs", pid);
		}
		if (f)
			fclose(f);
		if (!rmdir(c->dir) || errno == ENOENT)
			return;
		if (!left)
			usleep(10000);	/* a task exiting still counted */
	}
	fprintf(stderr, "kstats: the cgroup %s is left: %s\n", c->cgroup,
		strerror(errno));
}

/**
 * child_end() - COMMAND's end: asked to (SIGTERM) if the trace ended
 * first, reaped, its cgroup removed
 * @c: the child, or one never started (c->pid -1)
 *
 * Return: COMMAND's exit status, or -1.
 */
int child_end(struct child *c)
{
	if (c->go >= 0) {
		close(c->go);	/* never released: it exits */
		c->go = -1;
	}
	if (c->err >= 0) {
		close(c->err);
		c->err = -1;
	}
	if (c->pid > 0 && !child_exited(c)) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		kill(c->pid, SIGTERM);
		for (int i = 0; i < 100 && !child_exited(c); i++)
			nanosleep(&ts, NULL);
		if (!child_exited(c)) {
			kill(c->pid, SIGKILL);
			c->reaped = waitpid(c->pid, &c->status, 0) == c->pid;
		}
	}
	if (c->dir[0])
		drop_cgroup(c);
	c->dir[0] = '\0';
	if (!c->reaped)
		return -1;
	return WIFEXITED(c->status) ? WEXITSTATUS(c->status) :
	       128 + WTERMSIG(c->status);
}
