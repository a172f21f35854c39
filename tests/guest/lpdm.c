// SPDX-License-Identifier: GPL-2.0
/*
 * lpdm - create or remove a read-only device-mapper device, without lvm2
 * or dmsetup in the guest.
 *
 *   lpdm create NAME "TABLE"   DM_DEV_CREATE, DM_TABLE_LOAD (read-only,
 *                              one target), DM_DEV_SUSPEND (resume);
 *                              prints the block device ("/dev/dm-N")
 *   lpdm remove NAME           DM_DEV_REMOVE
 *
 * TABLE is one dm table line, "START LENGTH TYPE PARAMS...", e.g.
 *   0 8192 verity 1 /dev/vdb /dev/vdc 4096 4096 1024 1 sha256 ROOT SALT
 * Like lpctl, the last line printed is "ok" or the errno name of the call
 * that failed, and the exit status is 0 or that errno. A create that
 * fails after DM_DEV_CREATE removes the device again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <linux/dm-ioctl.h>

#include "lpresult.h"

#define DM_CONTROL "/dev/mapper/control"
/* Room for the target spec and a long verity parameter line. */
#define DM_BUF_SIZE 16384

/* A dm_ioctl header for device NAME, followed by DM_BUF_SIZE of data. */
static struct dm_ioctl *dm_new(const char *name)
{
	struct dm_ioctl *io = calloc(1, DM_BUF_SIZE);

	if (!io)
		return NULL;
	io->version[0] = DM_VERSION_MAJOR;
	io->version[1] = DM_VERSION_MINOR;
	io->version[2] = DM_VERSION_PATCHLEVEL;
	io->data_size = DM_BUF_SIZE;
	io->data_start = sizeof(*io);
	snprintf(io->name, sizeof(io->name), "%s", name);
	return io;
}

static int dm_call(int ctl, unsigned long cmd, struct dm_ioctl *io)
{
	return ioctl(ctl, cmd, io) ? errno : 0;
}

static int dm_remove(int ctl, const char *name)
{
	struct dm_ioctl *io = dm_new(name);
	int e;

	if (!io)
		return ENOMEM;
	e = dm_call(ctl, DM_DEV_REMOVE, io);
	free(io);
	return e;
}

static int dm_create(int ctl, const char *name, const char *table)
{
	unsigned long long start, length;
	struct dm_target_spec *spec;
	struct dm_ioctl *io;
	char type[DM_MAX_TYPE_NAME];
	size_t plen, used;
	int n = -1, e;

	if (sscanf(table, "%llu %llu %15s %n", &start, &length, type, &n) != 3 ||
	    n < 0) {
		fprintf(stderr, "lpdm: bad table line: %s\n", table);
		return EINVAL;
	}
	plen = strlen(table + n) + 1;
	used = sizeof(*io) + sizeof(*spec) + plen;
	if (used > DM_BUF_SIZE || strlen(name) >= DM_NAME_LEN)
		return ENAMETOOLONG;

	io = dm_new(name);
	if (!io)
		return ENOMEM;
	e = dm_call(ctl, DM_DEV_CREATE, io);
	if (e) {
		fprintf(stderr, "lpdm: DM_DEV_CREATE %s failed\n", name);
		free(io);
		return e;
	}

	free(io);
	io = dm_new(name);
	if (!io)
		return ENOMEM;
	/* verity insists on a read-only table. */
	io->flags = DM_READONLY_FLAG;
	io->target_count = 1;
	spec = (struct dm_target_spec *)((char *)io + io->data_start);
	spec->sector_start = start;
	spec->length = length;
	snprintf(spec->target_type, sizeof(spec->target_type), "%s", type);
	spec->next = 0;
	memcpy(spec + 1, table + n, plen);
	io->data_size = (used + 7) & ~7UL;
	e = dm_call(ctl, DM_TABLE_LOAD, io);
	if (e) {
		fprintf(stderr, "lpdm: DM_TABLE_LOAD %s failed\n", name);
		goto remove;
	}

	free(io);
	io = dm_new(name);
	if (!io)
		return ENOMEM;
	/* DM_DEV_SUSPEND without DM_SUSPEND_FLAG resumes: the table goes live. */
	e = dm_call(ctl, DM_DEV_SUSPEND, io);
	if (e) {
		fprintf(stderr, "lpdm: resuming %s failed\n", name);
		goto remove;
	}
	printf("/dev/dm-%u\n", minor((dev_t)io->dev));
	free(io);
	return 0;

remove:
	free(io);
	dm_remove(ctl, name);
	return e;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int ctl, e;

	if (!((argc == 4 && !strcmp(cmd, "create")) ||
	      (argc == 3 && !strcmp(cmd, "remove")))) {
		fprintf(stderr, "usage: lpdm create NAME \"TABLE\" | lpdm remove NAME\n");
		return 2;
	}
	ctl = open(DM_CONTROL, O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		fprintf(stderr, "lpdm: %s: %s\n", DM_CONTROL, strerror(errno));
		return done(errno);
	}
	if (!strcmp(cmd, "create"))
		e = dm_create(ctl, argv[2], argv[3]);
	else
		e = dm_remove(ctl, argv[2]);
	close(ctl);
	return done(e);
}
