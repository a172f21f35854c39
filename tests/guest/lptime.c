// SPDX-License-Identifier: GPL-2.0
/*
 * lptime - time real loads end to end, for make bench
 *
 *   lptime fw PATH N       N request_firmware() loads of PATH through
 *                          test_firmware
 *   lptime module PATH N   N finit_module(2) loads of the module PATH,
 *                          each followed by delete_module(2)
 *   lptime kmsg-seq [TEXT] the sequence number of the last kernel log
 *                          record (containing TEXT): differences count
 *                          records the log buffer no longer holds
 *
 * Loads print "lptime: WHAT per_sec=N.N us_per_load=N.N loads=N" and exit
 * 0, or print the first error and exit 1: a load that fails is not timed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lpio.h"
#include "lpresult.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int load_module(const char *path, const char *name)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int e = 0;

	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		e = errno;
	close(fd);
	if (!e && syscall(SYS_delete_module, name, O_NONBLOCK))
		e = errno;
	return e;
}

/* Sequence number of the last record containing @needle, or -1. */
static long long last_seq(const char *needle)
{
	long long seq = -1;
	char rec[8192];
	ssize_t len;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	while ((len = read(fd, rec, sizeof(rec) - 1)) != 0) {
		char *msg;

		if (len < 0) {
			if (errno == EPIPE)
				continue;
			break;
		}
		rec[len] = '\0';
		msg = strchr(rec, ';');
		if (msg && strstr(msg, needle))
			seq = strtoll(strchr(rec, ',') + 1, NULL, 10);
	}
	close(fd);
	return seq;
}

int main(int argc, char **argv)
{
	char *d1, *d2, *dir, *base, name[256], *dot;
	double start, secs;
	long i, n;
	int e = 0;

	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "kmsg-seq")) {
		long long seq = last_seq(argc == 3 ? argv[2] : "");

		if (seq < 0) {
			fprintf(stderr, "lptime: no record '%s'\n", argc == 3 ? argv[2] : "");
			return 1;
		}
		printf("%lld\n", seq);
		return 0;
	}
	if (argc != 4 || (strcmp(argv[1], "fw") && strcmp(argv[1], "module"))) {
		fprintf(stderr, "usage: lptime fw|module PATH N | kmsg-seq [TEXT]\n");
		return 2;
	}
	n = atol(argv[3]);
	if (n <= 0) {
		fprintf(stderr, "lptime: N must be positive\n");
		return 2;
	}
	d1 = strdup(argv[2]);
	d2 = strdup(argv[2]);
	dir = dirname(d1);
	base = basename(d2);
	snprintf(name, sizeof(name), "%s", base);
	dot = strstr(name, ".ko");
	if (dot)
		*dot = '\0';
	if (!strcmp(argv[1], "fw"))
		e = write_str(FW_PATH_PARAM, dir);

	start = now();
	for (i = 0; i < n && !e; i++)
		e = !strcmp(argv[1], "fw") ? write_str(FW_SYSFS, base) :
					    load_module(argv[2], name);
	secs = now() - start;
	if (e) {
		printf("lptime: %s load %ld of %s failed: %s\n", argv[1], i,
		       argv[2], errname(e));
		return 1;
	}
	printf("lptime: %s per_sec=%.1f us_per_load=%.1f loads=%ld\n", argv[1],
	       n / secs, secs * 1e6 / n, n);
	return 0;
}
