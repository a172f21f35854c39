// SPDX-License-Identifier: GPL-2.0
/*
 * lpdm - create or remove a read-only device-mapper device, without lvm2
 * or dmsetup in the guest.
 *
 *   lpdm create NAME "TABLE"   DM_DEV_CREATE, DM_TABLE_LOAD (read-only,
 *                              one target), DM_DEV_SUSPEND (resume);
 *                              prints the block device ("/dev/dm-N")
 *   lpdm reload NAME "TABLE"   DM_TABLE_LOAD (read-only, one target) on
 *                              an existing device, DM_DEV_SUSPEND
 *                              (suspend), DM_DEV_SUSPEND (resume): the
 *                              new table replaces the live one
 *   lpdm cycle NAME            DM_DEV_SUSPEND (suspend), DM_DEV_SUSPEND
 *                              (resume) with no table loaded: the live
 *                              table resumes again, as lvm2 does around
 *                              a snapshot
 *   lpdm remove NAME           DM_DEV_REMOVE
 *
 * TABLE is one dm table line, "START LENGTH TYPE PARAMS...", e.g.
 *   0 8192 verity 1 /dev/vdb /dev/vdc 4096 4096 1024 1 sha256 ROOT SALT
 * With LPDM_RW=1 in the environment the table is read-write, as lvm2's
 * are.
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

/* DM_TABLE_LOAD of TABLE, read-only, into NAME's inactive slot. */
static int dm_load(int ctl, const char *name, const char *table)
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
	used = sizeof(*io) + sizeof(struct dm_target_spec) + plen;
	if (used > DM_BUF_SIZE)
		return ENAMETOOLONG;
	io = dm_new(name);
	if (!io)
		return ENOMEM;
	/* verity insists on a read-only table. */
	io->flags = getenv("LPDM_RW") ? 0 : DM_READONLY_FLAG;
	io->target_count = 1;
	spec = (struct dm_target_spec *)((char *)io + io->data_start);
	spec->sector_start = start;
	spec->length = length;
	snprintf(spec->target_type, sizeof(spec->target_type), "%s", type);
	spec->next = 0;
	memcpy(spec + 1, table + n, plen);
	io->data_size = (used + 7) & ~7UL;
	e = dm_call(ctl, DM_TABLE_LOAD, io);
	if (e)
		fprintf(stderr, "lpdm: DM_TABLE_LOAD %s failed\n", name);
	free(io);
	return e;
}

/*
 * DM_DEV_SUSPEND: with @flags DM_SUSPEND_FLAG it suspends, without it
 * resumes, making a loaded table live. Prints the device on a resume.
 */
static int dm_suspend(int ctl, const char *name, unsigned int flags)
{
	struct dm_ioctl *io = dm_new(name);
	int e;

	if (!io)
		return ENOMEM;
	io->flags = flags;
	e = dm_call(ctl, DM_DEV_SUSPEND, io);
	if (e)
		fprintf(stderr, "lpdm: %s %s failed\n",
			flags ? "suspending" : "resuming", name);
	else if (!flags)
		printf("/dev/dm-%u\n", minor((dev_t)io->dev));
	free(io);
	return e;
}

static int dm_create(int ctl, const char *name, const char *table)
{
	struct dm_ioctl *io;
	int e;

	if (strlen(name) >= DM_NAME_LEN)
		return ENAMETOOLONG;
	io = dm_new(name);
	if (!io)
		return ENOMEM;
	e = dm_call(ctl, DM_DEV_CREATE, io);
	free(io);
	if (e) {
		fprintf(stderr, "lpdm: DM_DEV_CREATE %s failed\n", name);
		return e;
	}
	e = dm_load(ctl, name, table);
	if (!e)
		e = dm_suspend(ctl, name, 0);
	if (e)
		dm_remove(ctl, name);
	return e;
}

/* Replace the live table of NAME, as lvm2 and dmsetup reload do. */
static int dm_reload(int ctl, const char *name, const char *table)
{
	int e = dm_load(ctl, name, table);

	if (!e)
		e = dm_suspend(ctl, name, DM_SUSPEND_FLAG);
	if (!e)
		e = dm_suspend(ctl, name, 0);
	return e;
}

/* Suspend NAME and resume it with its live table, as lvm2 does. */
static int dm_cycle(int ctl, const char *name)
{
	int e = dm_suspend(ctl, name, DM_SUSPEND_FLAG);

	if (!e)
		e = dm_suspend(ctl, name, 0);
	return e;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int ctl, e;

	if (!((argc == 4 && (!strcmp(cmd, "create") || !strcmp(cmd, "reload"))) ||
	      (argc == 3 && (!strcmp(cmd, "remove") || !strcmp(cmd, "cycle"))))) {
		fprintf(stderr, "usage: lpdm create|reload NAME \"TABLE\" | lpdm cycle|remove NAME\n");
		return 2;
	}
	ctl = open(DM_CONTROL, O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		fprintf(stderr, "lpdm: %s: %s\n", DM_CONTROL, strerror(errno));
		return done(errno);
	}
	if (!strcmp(cmd, "create"))
		e = dm_create(ctl, argv[2], argv[3]);
	else if (!strcmp(cmd, "reload"))
		e = dm_reload(ctl, argv[2], argv[3]);
	else if (!strcmp(cmd, "cycle"))
		e = dm_cycle(ctl, argv[2]);
	else
		e = dm_remove(ctl, argv[2]);
	close(ctl);
	return done(e);
}
