// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_export.c - kstats export: Prometheus text or JSON of distributions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void write_json(FILE *f, const struct snapshot *s, size_t n,
		       const char *host)
{
	fprintf(f, "{\"host\": ");
	json_string(f, host);
	fprintf(f, ", \"distributions\": [");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n", i ? "," : "");
		json_snapshot(f, &s[i], 2);
	}
	fprintf(f, "]}\n");
}

static void write_any(FILE *f, const struct opts *o, const struct snapshot *s,
		      size_t n)
{
	char host[256];

	if (strcmp(o->format, "json")) {	/* Prometheus adds instance */
		export_prometheus(f, s, n, o->host, o->buckets);
		return;
	}
	if (o->host)
		snprintf(host, sizeof(host), "%s", o->host);
	else if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	write_json(f, s, n, host);
}

/*
 * -o FILE: a temporary file in FILE's directory, renamed over FILE once
 * wholly written, so that a reader (node_exporter's textfile collector)
 * sees the old file or the new one, never a part.
 */
static int write_file(const struct opts *o, const struct snapshot *s,
		      size_t n)
{
	char tmp[PATH_MAX];
	int fd, e = 0;
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", o->out) >= (int)sizeof(tmp))
		return fail("%s: name too long", o->out);
	fd = mkstemp(tmp);
	if (fd < 0)
		return fail("cannot write %s: %s", o->out, strerror(errno));
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
	} else {
		write_any(f, o, s, n);
		if (fflush(f) || ferror(f) || fchmod(fd, 0644) || fsync(fd))
			e = errno ? errno : EIO;
		if (fclose(f) && !e)
			e = errno;
	}
	if (!e && rename(tmp, o->out))
		e = errno;
	if (e) {
		unlink(tmp);
		return fail("writing %s failed: %s", o->out, strerror(e));
	}
	return 0;
}

static size_t load_all(struct opts *o, struct snapshot *s, char **names,
		       size_t n, int *ret)
{
	size_t ok = 0;

	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX + 64];

		if (names)
			snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		if (!load(names ? path : o->args[i], &s[ok]))
			ok++;
		else
			*ret = EXIT_ERROR;
	}
	return ok;
}

static int cmd_export(struct opts *o)
{
	struct snapshot *s;
	char **names = NULL;
	size_t n = (size_t)o->nargs, ok;
	int ret = 0;

	if (!n) {
		names = scan_root(&n, &ret);
		if (!names)
			return ret;
	}
	s = calloc(n ? n : 1, sizeof(*s));
	if (!s) {
		free_names(names, n);
		return fail("out of memory");
	}
	ok = load_all(o, s, names, n, &ret);
	if (!ret && o->out && strcmp(o->out, "-"))
		ret = write_file(o, s, ok);
	else if (!ret)
		write_any(stdout, o, s, ok);
	for (size_t i = 0; i < ok; i++)
		snapshot_free(&s[i]);
	free(s);
	free_names(names, n);
	return ret;
}

static int set_format(struct opts *o, const char *a)
{
	if (strcmp(a, "prometheus") && strcmp(a, "json"))
		return usage_error("--format is prometheus or json");
	o->format = a;
	return 0;
}

static const struct optdef o_format = {
	.name = "format", .arg = "prometheus|json", .kind = K_FN,
	.set = set_format, .help = "the output's format (default prometheus)",
	.bit = O_FORMAT, .def = "prometheus",
};
static OPT_STR(o_host, "host", 0, "H", host, O_HOST, 0,
	       "the host label (Prometheus), host (JSON)");
static const struct optdef o_buckets = {
	.name = "buckets", .arg = "N", .kind = K_UINT, .off = OPT_FIELD(buckets),
	.lo = 2, .hi = 100000, .bad = "--buckets takes a count from 2 to 100000",
	.help = "at most N buckets, +Inf included (64)",
	.bit = O_BUCKETS, .def = OPT_Q(EXPORT_BUCKETS),
};
static OPT_STR(o_export_out, "output", 'o', "FILE", out, O_OUT, 0,
	       "write FILE whole, then rename it (- stdout)");

static const struct optdef *const export_opts[] = {
	&o_format, &o_host, &o_buckets, &o_export_out, NULL,
};

const struct cmddef export_cmd = {
	.name = "export", .args = "[NAME|FILE...]", .opts = export_opts,
	.fn = cmd_export,
	.summary = "Prometheus text or JSON of distributions",
};
