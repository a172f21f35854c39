// SPDX-License-Identifier: GPL-2.0
/*
 * lpflood - finit_module(2) one file N times as fast as possible.
 *
 *   lpflood N PATH
 *
 * Prints "denied=<count of EPERM> other=<count of anything else>
 * seconds=<wall time>" and, last, "EPERM" when every load was denied with
 * EPERM, "EOTHER" otherwise. For flood tests of LoadPin's reporting.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long i, n, denied = 0, other = 0;
	struct timespec a, b;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: lpflood N PATH\n");
		return 2;
	}
	n = atol(argv[1]);
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[2]);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		if (syscall(SYS_finit_module, fd, "", 0) == 0)
			other++;
		else if (errno == EPERM)
			denied++;
		else
			other++;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("denied=%ld other=%ld seconds=%.3f\n", denied, other,
	       (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	printf("%s\n", denied == n ? "EPERM" : "EOTHER");
	return denied == n ? 0 : 1;
}
