// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl feed [--force] LIST, loadpinctl seal: the two ioctls on
 * /sys/kernel/security/loadpin/dm-verity (include/uapi/linux/loadpin.h).
 *
 * The interface takes one list per boot, good or bad: a list the kernel
 * refuses closes it for good. So feed checks LIST with the kernel's
 * grammar first and does not hand the kernel a list it would refuse
 * (--force does, to see the kernel's own answer). --if-present makes a
 * missing LIST no error, for the boot units. Every errno
 * securityfs.c returns is explained in the words of its cause.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/ioctl.h>

#include "loadpinctl.h"

/* Our own numbers: a distribution's <linux/loadpin.h> may lack the seal. */
#define LP_IOC_SET _IOW('L', 0x00, unsigned int)
#define LP_IOC_SEAL _IOW('L', 0x01, unsigned int)

#define DM_VERITY_FILE "/sys/kernel/security/loadpin/dm-verity"

/* Open the dm-verity file, or say why there is none. */
static int open_ctl(struct lp_status *st, int *ret)
{
	const char *path = lp_path(DM_VERITY_FILE);
	int fd;

	memset(st, 0, sizeof(*st));
	*ret = lp_load_status(st);
	if (*ret && *ret != EX_UPSTREAM)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == ENOENT) {
		if (*ret != EX_UPSTREAM)
			lp_err("%s does not exist: this kernel trusts no dm-verity device "
			       "(CONFIG_SECURITY_LOADPIN_VERITY is off)", path);
		else
			lp_err("%s does not exist either", path);
		*ret = EX_NOLOADPIN;
	} else if (errno == EACCES || errno == EPERM) {
		lp_err("%s: %s (root only)", path, strerror(errno));
		*ret = EX_ERROR;
	} else {
		lp_err("%s: %s", path, strerror(errno));
		*ret = EX_ERROR;
	}
	return -1;
}

/* Whether this process has CAP_SYS_ADMIN, which both ioctls need. */
static bool have_cap_sys_admin(void)
{
	unsigned long long eff = ~0ULL;
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return true;	/* cannot tell: blame something else */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff & (1ULL << 21);	/* CAP_SYS_ADMIN */
}

static void explain(int e, const char *list, const struct lp_status *st,
		    bool final_before, struct stat *ls)
{
	char pin[256];

	switch (e) {
	case EPERM:
		if (!have_cap_sys_admin()) {
			lp_err("refused (EPERM): the ioctl needs CAP_SYS_ADMIN, which "
			       "this process lacks; the interface is still open");
			return;
		}
		if (!list) {
			lp_err("refused: %s (EPERM)", strerror(e));
			return;
		}
		if (final_before) {
			lp_err("refused: the digest list is final already: a list was set or "
			       "refused, or the interface sealed, earlier in this boot");
			return;
		}
		if (!strcmp(st->state, "unpinned")) {
			lp_err("refused: nothing was pinned, and LoadPin refused to let %s "
			       "pin its filesystem (loadpin.root=, require_ro or the "
			       "initramfs hand-off; see 'loadpinctl check --type "
			       "security-policy %s' and the kernel log)", list, list);
			return;
		}
		if (ls) {
			char mine[32];
			size_t n = 0;
			bool on_pin = false, unsure = false;
			int i;

			snprintf(mine, sizeof(mine), "%u:%u", major(ls->st_dev),
				 minor(ls->st_dev));
			pin[0] = '\0';
			for (i = 0; i < st->npins; i++) {
				const struct lp_pin *p = &st->pin[i];

				if (strcmp(p->state, "pinned"))
					continue;
				on_pin |= !strcmp(p->dev, mine);
				unsure |= !strcmp(p->dev, "none");
				n += snprintf(pin + n, n < sizeof(pin) ? sizeof(pin) - n : 0,
					      "%s%s %s", n ? ", " : "", p->fstype, p->dev);
			}
			if (!on_pin && !unsure) {
				lp_err("refused: %s is not on the pinned filesystem (it is on %s, "
				       "the pin is %s): a list vouches for other devices, so "
				       "it must come from the pin itself", list, mine, pin);
				return;
			}
		}
		lp_err("refused (EPERM): %s is not on the pinned filesystem, or LoadPin "
		       "denied reading it; the interface is closed now", list);
		return;
	case EPROTO:
		lp_err("refused: the kernel found %s malformed (EPROTO); no dm-verity "
		       "device is trusted until reboot", list);
		return;
	case EFBIG:
		lp_err("refused: %s is larger than the kernel reads (EFBIG): %d "
		       "bytes, 4095 on upstream LoadPin", list, LP_DIGESTS_MAX_SIZE);
		return;
	case EBADF:
		lp_err("refused: the kernel could not use the list's file descriptor (EBADF)");
		return;
	case ENOTTY:
		lp_err("refused: this kernel does not know the ioctl (ENOTTY)");
		return;
	case EINVAL:
		if (!list)
			lp_err("refused (EINVAL): unknown seal flags, or a LoadPin "
			       "without the seal ioctl (upstream LoadPin)");
		else
			lp_err("refused: %s is not a regular file (EINVAL); the interface "
			       "is closed now (to close it without a list, use seal)",
			       list);
		return;
	case ETXTBSY:
		lp_err("refused: %s is open for writing elsewhere (ETXTBSY): the "
		       "kernel does not read a file being written; the interface is "
		       "closed now", list);
		return;
	case EFAULT:
		lp_err("refused: bad ioctl argument (EFAULT)");
		return;
	case ENOMEM:
		lp_err("refused: the kernel ran out of memory (ENOMEM); the interface is "
		       "closed now");
		return;
	default:
		lp_err("refused: %s: %s; the interface may be closed now",
		       list ? list : "seal", strerror(e));
	}
}

int cmd_feed(int argc, char **argv)
{
	struct lp_status st;
	bool force = false, if_present = false, final_before;
	const char *list = NULL;
	struct stat ls;
	int i, ctl, ret;
	unsigned int fd;
	size_t n = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--force"))
			force = true;
		else if (!strcmp(argv[i], "--if-present"))
			if_present = true;
		else if (!list && argv[i][0] != '-')
			list = argv[i];
		else {
			lp_err("feed: unexpected argument '%s'", argv[i]);
			return EX_USAGE;
		}
	}
	if (!list) {
		lp_err("feed: no LIST given");
		return EX_USAGE;
	}
	/* For boot scripts: no list is no error, the seal comes next. */
	if (if_present && access(list, F_OK) && errno == ENOENT) {
		printf("%s: not present, nothing fed\n", list);
		return EX_OK;
	}
	if (!force) {
		ret = lp_verify_file(list, &n, true);
		if (ret) {
			lp_err("not fed: the kernel would refuse this list and close the "
			       "interface (--force feeds it anyway)");
			return ret;
		}
	}
	ctl = open_ctl(&st, &ret);
	if (ctl < 0)
		return ret;
	final_before = st.verity_final == 1;
	i = open(list, O_RDONLY | O_CLOEXEC);
	if (i < 0) {
		lp_err("%s: %s", list, strerror(errno));
		close(ctl);
		return EX_ERROR;
	}
	fstat(i, &ls);
	fd = i;
	ret = ioctl(ctl, LP_IOC_SET, &fd);
	if (ret) {
		int e = errno;

		explain(e, list, &st, final_before, &ls);
		if (e == EPROTO)
			lp_verify_file(list, &n, true);
		close(i);
		close(ctl);
		return e == EPROTO ? EX_MALFORMED : EX_REFUSED;
	}
	close(i);
	close(ctl);
	if (!lp_load_status(&st) && st.verity_digests >= 0)
		printf("fed %s: the kernel trusts %d root digest%s; the list is final\n",
		       list, st.verity_digests, st.verity_digests == 1 ? "" : "s");
	else
		printf("fed %s\n", list);
	return EX_OK;
}

int cmd_seal(int argc, char **argv)
{
	struct lp_status st;
	unsigned int flags = 0;
	bool final_before;
	int ctl, ret;
	char *end;

	/* --flags is for testing the kernel's EINVAL: none are defined. */
	if (argc == 3 && !strcmp(argv[1], "--flags")) {
		flags = strtoul(argv[2], &end, 0);
		if (*end || !argv[2][0]) {
			lp_err("seal: --flags wants a number");
			return EX_USAGE;
		}
	} else if (argc != 1) {
		lp_err("seal: no arguments expected");
		return EX_USAGE;
	}
	ctl = open_ctl(&st, &ret);
	if (ctl < 0)
		return ret;
	final_before = st.verity_final == 1;
	ret = ioctl(ctl, LP_IOC_SEAL, &flags);
	if (ret) {
		explain(errno, NULL, &st, false, NULL);
		close(ctl);
		return EX_REFUSED;
	}
	close(ctl);
	if (final_before)
		printf("sealed: the digest list was final already (%d trusted)\n",
		       st.verity_digests);
	else
		printf("sealed: no list can be fed until reboot; no dm-verity device is trusted\n");
	return EX_OK;
}
