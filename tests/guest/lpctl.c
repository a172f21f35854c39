// SPDX-License-Identifier: GPL-2.0
/*
 * lpctl - perform one kernel file load and print what the kernel said.
 *
 * Each command makes exactly one request that goes through LoadPin's hooks
 * and prints one word on its last line: "ok" or the errno name. The exit
 * status is 0 or the errno, so guest scripts can assert on either.
 *
 *   lpctl finit PATH [PARAMS]   finit_module(2) (kernel_read_file hook)
 *   lpctl init PATH [PARAMS]    init_module(2) from a buffer (load_data)
 *   lpctl rmmod NAME            delete_module(2)
 *   lpctl fw PATH               request_firmware() of PATH via test_firmware
 *   lpctl kexec KERNEL [INITRD] kexec_file_load(2), then unload again
 *   lpctl kexec-memfd KERNEL    kexec_file_load(2) with the initrd in a memfd
 *   lpctl verity FILE           LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS
 *   lpctl verity-noread FILE    the same with FILE open for neither reading
 *                               nor writing (access mode 3)
 *   lpctl seal [FLAGS]          LOADPIN_IOC_SEAL_TRUSTED_VERITY_DIGESTS
 *   lpctl ioctl NUMBER          any ioctl number on the dm-verity file, no
 *                               argument (0x4c01 is LOOP_CLR_FD)
 *   lpctl read PATH             print PATH (securityfs/status files)
 *   lpctl write PATH VAL        write VAL to PATH (a sysctl, say)
 *   lpctl nocap-write PATH VAL  drop every capability, stay uid 0, write VAL
 *   lpctl nocap CMD ARG...      drop every capability, stay uid 0, run the
 *                               lpctl command CMD
 *   lpctl delpart DISK N        BLKPG_DEL_PARTITION of partition N of DISK
 *   lpctl loop-change-fd LOOP FILE
 *                               LOOP_CHANGE_FD: read-only LOOP reads FILE
 *                               (of the same size) from then on
 *   lpctl move-as UID SRC DST   mount(SRC, DST, MS_MOVE) as UID (and GID),
 *                               no supplementary groups
 *   lpctl cros-feed open|fopen LIST
 *                               the digest feed of ChromeOS's chromeos_startup
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <grp.h>
#include <libgen.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/blkpg.h>
#include <linux/capability.h>
#include <linux/kexec.h>
#include <linux/loop.h>

#include "lpio.h"
#include "lpresult.h"


static int do_finit(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int e = 0;

	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		e = errno;
	close(fd);
	return e;
}

static int do_init(const char *path, const char *params)
{
	struct stat st;
	void *buf;
	int fd, e = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		return errno;
	buf = malloc(st.st_size);
	if (!buf || read(fd, buf, st.st_size) != st.st_size)
		return EIO;
	if (syscall(SYS_init_module, buf, (unsigned long)st.st_size, params))
		e = errno;
	free(buf);
	close(fd);
	return e;
}

/*
 * request_firmware() walks several directories and returns the error of
 * the last one, so a LoadPin denial on the first surfaces as -ENOENT. The
 * firmware loader logs each non-ENOENT failure; read that from /dev/kmsg
 * to report what happened to the file asked for.
 */
static int do_fw(const char *path)
{
	char *d1 = strdup(path), *d2 = strdup(path);
	char *dir = dirname(d1), *base = basename(d2);
	char rec[1024], needle[600];
	int kmsg, e;
	ssize_t n;

	e = write_str(FW_PATH_PARAM, dir);
	if (e)
		return e;
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
	e = write_str(FW_SYSFS, base);
	if (e && kmsg >= 0) {
		snprintf(needle, sizeof(needle), "loading %s/%s failed with error -", dir, base);
		while ((n = read(kmsg, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
			char *p;

			if (n <= 0)
				continue;
			rec[n] = '\0';
			p = strstr(rec, needle);
			if (p) {
				e = atoi(p + strlen(needle));
				break;
			}
		}
	}
	if (kmsg >= 0)
		close(kmsg);
	return e;
}

static int do_kexec(const char *kernel, const char *initrd, int memfd_initrd)
{
	const char cmdline[] = "console=ttyS0";
	unsigned long flags = 0;
	int kfd, ifd = -1, e = 0;

	kfd = open(kernel, O_RDONLY | O_CLOEXEC);
	if (kfd < 0)
		return errno;
	if (memfd_initrd) {
		static const char data[4096];

		ifd = memfd_create("lpctl-initrd", MFD_CLOEXEC);
		if (ifd < 0 || write(ifd, data, sizeof(data)) != sizeof(data))
			return errno;
	} else if (initrd) {
		ifd = open(initrd, O_RDONLY | O_CLOEXEC);
		if (ifd < 0)
			return errno;
	} else {
		flags |= KEXEC_FILE_NO_INITRAMFS;
	}
	if (syscall(SYS_kexec_file_load, kfd, ifd, sizeof(cmdline), cmdline, flags))
		e = errno;
	else
		syscall(SYS_kexec_file_load, -1, -1, 0, NULL, KEXEC_FILE_UNLOAD);
	close(kfd);
	if (ifd >= 0)
		close(ifd);
	return e;
}


/* One ioctl on LoadPin's dm-verity file. */
static int verity_ioctl(unsigned long cmd, void *arg)
{
	int sfs, e = 0;

	sfs = open("/sys/kernel/security/loadpin/dm-verity", O_RDONLY | O_CLOEXEC);
	if (sfs < 0)
		return errno;
	if (ioctl(sfs, cmd, arg))
		e = errno;
	close(sfs);
	return e;
}

static int do_verity(const char *path, int mode)
{
	unsigned int fd = open(path, mode | O_CLOEXEC);
	int e;

	if ((int)fd < 0)
		return errno;
	e = verity_ioctl(LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS, &fd);
	close(fd);
	return e;
}

static int do_seal(const char *flags)
{
	unsigned int f = flags ? strtoul(flags, NULL, 0) : 0;

	return verity_ioctl(LOADPIN_IOC_SEAL_TRUSTED_VERITY_DIGESTS, &f);
}

static int do_read(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(fd);
	return n < 0 ? errno : 0;
}

/* Become a uid 0 without capabilities: what a capability check refuses. */
static int drop_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	return syscall(SYS_capset, &hdr, data) ? errno : 0;
}

static int do_nocap_write(const char *path, const char *val)
{
	int e = drop_caps();

	return e ? e : write_str(path, val);
}

/* An unprivileged user's mount --move: what may_mount() refuses. */
static int do_move_as(const char *uid, const char *src, const char *dst)
{
	uid_t id = strtoul(uid, NULL, 0);

	if (setgroups(0, NULL) || setgid(id) || setuid(id))
		return errno;
	return mount(src, dst, NULL, MS_MOVE, NULL) ? errno : 0;
}

/* Delete a partition, as delpart(8) does: its number is free again. */
static int do_delpart(const char *disk, const char *partno)
{
	struct blkpg_partition part = { .pno = atoi(partno) };
	struct blkpg_ioctl_arg arg = {
		.op = BLKPG_DEL_PARTITION,
		.datalen = sizeof(part),
		.data = &part,
	};
	int fd = open(disk, O_RDONLY | O_CLOEXEC);
	int e = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, BLKPG, &arg))
		e = errno;
	close(fd);
	return e;
}

/* Swap the file under a bound read-only loop device, as live CDs did. */
static int do_loop_change_fd(const char *loop, const char *path)
{
	int lfd = open(loop, O_RDONLY | O_CLOEXEC);
	int fd, e = 0;

	if (lfd < 0)
		return errno;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		close(lfd);
		return e;
	}
	if (ioctl(lfd, LOOP_CHANGE_FD, fd))
		e = errno;
	close(fd);
	close(lfd);
	return e;
}

/*
 * ChromeOS's SetupLoadPinVerityDigests() (platform2, init/startup/
 * security_manager.cc), call for call: the interface opened write-only
 * (older code) or with fopen(path, "w") (newer code), the list opened
 * without following links, /dev/null in its place when it is missing
 * (which closes the interface), and the set ioctl given a pointer to
 * the descriptor.
 */
static int do_cros_feed(const char *how, const char *list)
{
	const char *ctl_path = "/sys/kernel/security/loadpin/dm-verity";
	unsigned int ufd;
	int ctl, fd, e = 0;

	if (!strcmp(how, "fopen"))
		ctl = open(ctl_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	else
		ctl = open(ctl_path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (ctl < 0)
		return errno;
	fd = open(list, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		fd = open("/dev/null", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		close(ctl);
		return e;
	}
	ufd = fd;
	if (ioctl(ctl, LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS, &ufd))
		e = errno;
	close(fd);
	close(ctl);
	return e;
}

static int run(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	const char *a = argc > 2 ? argv[2] : NULL;
	const char *b = argc > 3 ? argv[3] : NULL;

	if (!strcmp(cmd, "seal"))
		return done(do_seal(a));
	if (!a) {
		fprintf(stderr, "usage: lpctl finit|init|rmmod|fw|kexec|kexec-memfd|verity|seal|read|write|nocap-write|nocap|delpart ARG...\n");
		return 2;
	}
	if (!strcmp(cmd, "finit"))
		return done(do_finit(a, b ? b : ""));
	if (!strcmp(cmd, "init"))
		return done(do_init(a, b ? b : ""));
	if (!strcmp(cmd, "rmmod"))
		return done(syscall(SYS_delete_module, a, O_NONBLOCK) ? errno : 0);
	if (!strcmp(cmd, "fw"))
		return done(do_fw(a));
	if (!strcmp(cmd, "kexec"))
		return done(do_kexec(a, b, 0));
	if (!strcmp(cmd, "kexec-memfd"))
		return done(do_kexec(a, NULL, 1));
	if (!strcmp(cmd, "verity"))
		return done(do_verity(a, O_RDONLY));
	/* Mode 3 asks for read and write permission and grants neither. */
	if (!strcmp(cmd, "verity-noread"))
		return done(do_verity(a, O_ACCMODE));
	if (!strcmp(cmd, "ioctl"))
		return done(verity_ioctl(strtoul(a, NULL, 0), NULL));
	if (!strcmp(cmd, "cros-feed") && b)
		return done(do_cros_feed(a, b));
	if (!strcmp(cmd, "write") && b)
		return done(write_str(a, b));
	if (!strcmp(cmd, "nocap-write") && b)
		return done(do_nocap_write(a, b));
	if (!strcmp(cmd, "nocap")) {
		int e = drop_caps();

		return e ? done(e) : run(argc - 1, argv + 1);
	}
	if (!strcmp(cmd, "delpart") && b)
		return done(do_delpart(a, b));
	if (!strcmp(cmd, "loop-change-fd") && b)
		return done(do_loop_change_fd(a, b));
	if (!strcmp(cmd, "move-as") && b && argc > 4)
		return done(do_move_as(a, b, argv[4]));
	if (!strcmp(cmd, "read")) {
		int e = do_read(a);

		return e ? done(e) : 0;
	}
	fprintf(stderr, "lpctl: unknown command '%s'\n", cmd);
	return 2;
}

int main(int argc, char **argv)
{
	return run(argc, argv);
}
