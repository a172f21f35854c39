/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by lpfault and lpfuzz: LoadPin's status file as text, the kernel's
 * fault-injection knobs (Documentation/fault-injection/fault-injection.rst)
 * and TAP output.
 */
#ifndef LPFAULT_H
#define LPFAULT_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>

#include "lpio.h"

#define LP_STATUS "/sys/kernel/security/loadpin/status"
#define LP_VERITY "/sys/kernel/security/loadpin/dm-verity"
#define LP_ENFORCE "/proc/sys/kernel/loadpin/enforce"
#define DEBUGFS "/sys/kernel/debug"
#define STATUS_MAX 8192

/* ---------------------------------------------------------------- TAP */

static int tap_n;

static inline void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline void note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* ------------------------------------------------------- status file */

struct lp_status {
	char text[STATUS_MAX];
	size_t len;
};

/* Open, read to the end and close the status file: 0 or the errno. */
static inline int status_read(struct lp_status *st)
{
	ssize_t n;
	int fd, e = 0;

	st->len = 0;
	fd = open(LP_STATUS, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	while (st->len < sizeof(st->text) - 1) {
		n = read(fd, st->text + st->len, sizeof(st->text) - 1 - st->len);
		if (n < 0) {
			e = errno;
			break;
		}
		if (!n)
			break;
		st->len += n;
	}
	st->text[st->len] = '\0';
	close(fd);
	return e;
}

/* A status read with faults off, retried: the state as it is. */
static inline int status_read_retry(struct lp_status *st)
{
	int i, e = 0;

	for (i = 0; i < 100; i++) {
		e = status_read(st);
		if (e != ENOMEM && e != EINTR)
			break;
	}
	return e;
}

/* The value of KEY ("key: value" lines) into BUF; 0 or -1 when absent. */
static inline int status_str(const struct lp_status *st, const char *key,
		      char *buf, size_t size)
{
	size_t klen = strlen(key);
	const char *p = st->text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':' && p[klen + 1] == ' ') {
			const char *v = p + klen + 2, *nl = strchr(v, '\n');
			size_t vlen = nl ? (size_t)(nl - v) : strlen(v);

			if (vlen >= size)
				vlen = size - 1;
			memcpy(buf, v, vlen);
			buf[vlen] = '\0';
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* The numeric value of KEY, or -1. */
static inline long status_num(const struct lp_status *st, const char *key)
{
	char buf[64], *end;
	long v;

	if (status_str(st, key, buf, sizeof(buf)) || !buf[0])
		return -1;
	v = strtol(buf, &end, 10);
	return *end ? -1 : v;
}

/*
 * Whether the text is a whole status file: "key: value" lines, each
 * ending in a newline, each value one printable token (a pin<n> line's
 * fields are separated by single spaces), the keys exactly KEYS (a list "k1 k2 ... " of a
 * read made before; NULL to skip that). Returns NULL or what is wrong,
 * in a static buffer.
 */
static inline const char *status_malformed(const struct lp_status *st, const char *keys)
{
	static char why[160];
	const char *p = st->text, *k = keys;
	bool pin_line;
	int line = 0;

	if (!st->len)
		return "empty";
	if (st->text[st->len - 1] != '\n')
		return "no newline at the end";
	while (*p) {
		const char *colon = strchr(p, ':'), *nl = strchr(p, '\n'), *c;

		line++;
		if (!colon || colon > nl || colon == p || colon[1] != ' ' ||
		    colon + 2 >= nl) {
			snprintf(why, sizeof(why), "line %d is not 'key: value'", line);
			return why;
		}
		for (c = p; c < colon; c++)
			if (!(*c >= 'a' && *c <= 'z') && !(*c >= '0' && *c <= '9') &&
			    *c != '_' && *c != '.' && *c != '-') {
				snprintf(why, sizeof(why), "line %d: bad key", line);
				return why;
			}
		/* One token, but "pin<n>: dev fstype ro|rw state name". */
		pin_line = !strncmp(p, "pin", 3) && p[3] >= '0' && p[3] <= '9';
		for (c = colon + 2; c < nl; c++)
			if ((unsigned char)*c < (pin_line ? 0x20 : 0x21) ||
			    (unsigned char)*c > 0x7e) {
				snprintf(why, sizeof(why), "line %d: bad value", line);
				return why;
			}
		if (k) {
			size_t klen = colon - p;

			if (strncmp(k, p, klen) || k[klen] != ' ') {
				snprintf(why, sizeof(why), "line %d: key '%.*s' out of order",
					 line, (int)klen, p);
				return why;
			}
			k += klen + 1;
		}
		p = nl + 1;
	}
	if (k && *k) {
		snprintf(why, sizeof(why), "key '%.40s' missing", k);
		return why;
	}
	return NULL;
}

/* The keys of ST as "k1 k2 ... ", for status_malformed(). */
static inline void status_keys(const struct lp_status *st, char *keys, size_t size)
{
	const char *p = st->text;
	size_t n = 0;

	keys[0] = '\0';
	while (*p) {
		const char *colon = strchr(p, ':'), *nl = strchr(p, '\n');

		if (!colon || !nl || colon > nl)
			break;
		if (n + (colon - p) + 2 > size)
			break;
		memcpy(keys + n, p, colon - p);
		n += colon - p;
		keys[n++] = ' ';
		keys[n] = '\0';
		p = nl + 1;
	}
}

/* ----------------------------------------------------- fault injection */

/* Write VAL to DEBUGFS/ATTR/KNOB: 0 or the errno. */
static inline int fi_set(const char *attr, const char *knob, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), DEBUGFS "/%s/%s", attr, knob);
	return write_str(path, val);
}

static inline void debugfs_mount(void)
{
	if (access(DEBUGFS "/failslab", F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
}

/*
 * /proc/thread-self/fail-nth: writing N makes the Nth injectable call of
 * this thread fail (every capability counts: failslab, fail_page_alloc,
 * each after its own filters); reading gives 0 once that happened, or
 * what was left of N. Open it before the operation: the open allocates.
 */
static inline int fi_nth_open(void)
{
	return open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
}

static inline int fi_nth_set(int fd, unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return write(fd, buf, len) == len ? 0 : errno;
}

/* What is left of N: 0 when the fault was injected. -1 on error. */
static inline long fi_nth_get(int fd)
{
	char buf[16];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* make-it-fail of this task: failures with task-filter=Y hit only it. */
static inline int fi_make_it_fail(int on)
{
	int i, e = 0;

	/* Under injected faults the open itself may fail: retry. */
	for (i = 0; i < 1000; i++) {
		e = write_str("/proc/thread-self/make-it-fail", on ? "1" : "0");
		if (e != ENOMEM)
			break;
	}
	return e;
}

/* Where "lpfault setup" keeps the ranges it looked up: "NAME START END". */
#define SYM_CACHE "/tmp/lpfault.syms"

/*
 * The address ranges of the text symbols NAMES[0..N) in /proc/kallsyms:
 * from each one's address to the next higher one. Reading kallsyms takes
 * seconds on a debug kernel under TCG: one pass for all. Returns how many
 * were found.
 */
static inline int sym_ranges(const char *const *names, int n,
			     unsigned long *start, unsigned long *end)
{
	char line[512], sym[256], type;
	unsigned long a;
	int i, found = 0, open_ranges = 0;
	FILE *f = fopen("/proc/kallsyms", "re");

	for (i = 0; i < n; i++)
		start[i] = end[i] = 0;
	if (!f)
		return 0;
	/* Sorted by address: a range ends at the next higher address. */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &a, &type, sym) != 3)
			continue;
		if (open_ranges)
			for (i = 0; i < n; i++)
				if (start[i] && !end[i] && a > start[i]) {
					end[i] = a;
					open_ranges--;
					found++;
				}
		if (type != 't' && type != 'T')
			continue;
		for (i = 0; i < n; i++)
			if (!start[i] && a && !strcmp(sym, names[i])) {
				start[i] = a;
				open_ranges++;
			}
		if (found == n)
			break;
	}
	fclose(f);
	return found;
}

/* The range of NAME: from the cache, else from /proc/kallsyms. 0 or ENOENT. */
static inline int sym_range(const char *name, unsigned long *start, unsigned long *end)
{
	char line[512], sym[256];
	FILE *f = fopen(SYM_CACHE, "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %lx %lx", sym, start, end) == 3 &&
		    !strcmp(sym, name)) {
			fclose(f);
			return 0;
		}
	if (f)
		fclose(f);
	return sym_ranges(&name, 1, start, end) == 1 ? 0 : ENOENT;
}

#endif
