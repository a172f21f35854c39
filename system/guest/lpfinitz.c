// SPDX-License-Identifier: GPL-2.0
/*
 * lpfinitz - finit_module(2) of a compressed module with
 * MODULE_INIT_COMPRESSED_FILE: the kernel reads the file itself
 * (LoadPin sees it) and decompresses it (CONFIG_MODULE_DECOMPRESS). This
 * is what kmod 31 and later do; Debian 12's kmod 30 decompresses in user
 * space and calls init_module(2) instead. Prints "ok" or the errno name.
 *
 *   lpfinitz PATH
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "lpresult.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

int main(int argc, char **argv)
{
	int fd, e = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: lpfinitz MODULE.ko.xz\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return done(errno);
	if (syscall(SYS_finit_module, fd, "", MODULE_INIT_COMPRESSED_FILE))
		e = errno;
	close(fd);
	return done(e);
}
