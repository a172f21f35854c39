// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl: what the commands read from the system, and where.
 *
 * Every /sys and /proc path goes through lp_path(), which puts
 * $LOADPINCTL_SYSFS_ROOT in front: the host tests point it at fake trees
 * to see each exit status without a LoadPin kernel. It is for testing
 * only; nothing in a fake tree can reach the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loadpinctl.h"

const char *lp_prog = "loadpinctl";

void lp_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", lp_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *lp_path(const char *p)
{
	static char ring[4][PATH_MAX];
	static int next;
	const char *root = getenv("LOADPINCTL_SYSFS_ROOT");
	char *buf = ring[next++ % 4];

	if (!root || !*root)
		return p;
	snprintf(buf, PATH_MAX, "%s%s", root, p);
	return buf;
}

char *lp_read_file(const char *path, size_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = NULL, *nb;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		if (n + 1 >= cap || !buf) {
			if (buf)
				cap *= 2;
			nb = realloc(buf, cap);
			if (!nb)
				goto fail;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (!r)
			break;
		n += r;
		if (n > max) {
			errno = EFBIG;
			goto fail;
		}
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	r = errno;
	free(buf);
	close(fd);
	errno = r;
	return NULL;
}

static bool exists(const char *p)
{
	struct stat s;

	return !stat(lp_path(p), &s);
}

int lp_load_status(struct lp_status *st)
{
	const char *path = lp_path("/sys/kernel/security/loadpin/status");
	char err[256], *buf;
	size_t len;
	int lineno, ret;

	buf = lp_read_file(path, 1 << 20, &len);
	if (!buf) {
		int e = errno;

		if (e != ENOENT) {
			lp_err("cannot read %s: %s", path, strerror(e));
			return EX_ERROR;
		}
		if (exists("/sys/kernel/security/loadpin")) {
			lp_err("this kernel's LoadPin has no status file (upstream LoadPin?): "
			       "nothing to report beyond the dm-verity ioctl");
			return EX_UPSTREAM;
		}
		if (exists("/sys/kernel/security/lsm")) {
			char *lsm = lp_read_file(lp_path("/sys/kernel/security/lsm"),
						 4096, NULL);

			lp_err("LoadPin is not active in this kernel (active LSMs: %s)",
			       lsm && *lsm ? lsm : "none");
			free(lsm);
			return EX_NOLOADPIN;
		}
		lp_err("securityfs is not mounted on /sys/kernel/security "
		       "(mount -t securityfs securityfs /sys/kernel/security)");
		return EX_NOSECFS;
	}
	ret = lp_status_parse(buf, len, st, &lineno, err, sizeof(err));
	free(buf);
	if (ret) {
		if (lineno)
			lp_err("%s: line %d: %s", path, lineno, err);
		else
			lp_err("%s: %s", path, err);
		return EX_MALFORMED;
	}
	return EX_OK;
}

int lp_parse_devt(const char *s, unsigned int *maj, unsigned int *min)
{
	char *end;
	unsigned long a, b;

	if (*s < '0' || *s > '9')
		return -1;
	a = strtoul(s, &end, 10);
	if (*end != ':' || end[1] < '0' || end[1] > '9')
		return -1;
	b = strtoul(end + 1, &end, 10);
	if (*end || a > 0xfff || b > 0xfffff)
		return -1;
	*maj = a;
	*min = b;
	return 0;
}

const char *lp_devname(unsigned int maj, unsigned int min, char *buf,
		       size_t len)
{
	char p[64], *u, *v;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/uevent", maj, min);
	u = lp_read_file(lp_path(p), 65536, NULL);
	if (!u)
		return NULL;
	v = strstr(u, "DEVNAME=");
	if (!v || (v != u && v[-1] != '\n')) {
		free(u);
		return NULL;
	}
	v += 8;
	v[strcspn(v, "\n")] = '\0';
	snprintf(buf, len, "%s", v);
	free(u);
	return buf;
}

int lp_dev_ro(unsigned int maj, unsigned int min)
{
	char p[64], *v;
	int ro;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/ro", maj, min);
	v = lp_read_file(lp_path(p), 64, NULL);
	if (!v)
		return -1;
	ro = v[0] == '1' ? 1 : v[0] == '0' ? 0 : -1;
	free(v);
	return ro;
}

int lp_dev_stacked(unsigned int maj, unsigned int min)
{
	char p[64], target[PATH_MAX];
	ssize_t n;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", maj, min);
	n = readlink(lp_path(p), target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	return strstr(target, "/devices/virtual/") != NULL;
}
