// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl check FILE...: what the kernel would decide if it loaded
 * FILE now, and why.
 *
 * The facts the kernel's hooks gather (security/loadpin/hooks.c,
 * loadpin_check()) are rebuilt from the status file, stat(2),
 * /proc/self/mountinfo, /sys/dev/block and, for dm-verity devices, the
 * device-mapper table (DM_TABLE_STATUS); then decide() is
 * security/loadpin/decide.c's loadpin_decide(), rule for rule. Where user
 * space cannot see a fact (which digests the kernel trusts, the
 * superblock of a pin without a block device), the answer says so and
 * the exit status is EX_UNSURE.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/dm-ioctl.h>

#include "loadpinctl.h"

enum verdict { V_ALLOW, V_PIN, V_EXCLUDED, V_IGNORED, V_DENY, V_INITRAMFS,
	       V_PIN_REFUSED };

static const char *const verdict_words[] = {
	[V_ALLOW] = "allowed",
	[V_PIN] = "would pin",
	[V_EXCLUDED] = "allowed (excluded)",
	[V_IGNORED] = "allowed (not enforcing: reported as pinning-ignored)",
	[V_DENY] = "denied",
	[V_INITRAMFS] = "allowed (initramfs hand-off: reported as initramfs-allowed)",
	[V_PIN_REFUSED] = "denied (pin-refused)",
};

/* What the hooks would know about the load (struct loadpin_load). */
struct facts {
	bool excluded, enforce, require_ro;
	const char *initramfs;	/* pin, handoff, invalid */
	bool handoff_over, root_configured;
	enum { S_UNPINNED, S_PINNED, S_GONE } state;
	bool on_pinned_fs, on_trusted_verity, on_initramfs, on_root_device;
	bool fs_writable;
};

struct fileinfo {
	unsigned int maj, min;
	char fstype[64], mnt[512], opts[512];
	char name[64];		/* kernel name of the block device */
	bool bdev;
};

static char why[2048];		/* the reason the verdict rests on */
static char unsure[512];	/* non-empty: what we could not see */
static const char *wwhy = "";	/* why fs_writable() said writable */
static const char *digests_path = "/etc/loadpin/verity-digests";

static bool decide_allows(enum verdict v)
{
	return v != V_DENY && v != V_PIN_REFUSED;
}

/* security/loadpin/decide.c, loadpin_decide(), for a load with a file. */
static enum verdict decide(const struct facts *f)
{
	enum verdict refuse = f->enforce ? V_DENY : V_IGNORED;

	if (f->excluded)
		return V_EXCLUDED;
	switch (f->state) {
	case S_PINNED:
		if (f->on_pinned_fs)
			return f->require_ro && f->fs_writable ? refuse : V_ALLOW;
		return f->on_trusted_verity ? V_ALLOW : refuse;
	case S_GONE:
		return refuse;
	case S_UNPINNED:
		break;
	}
	if (f->on_initramfs) {
		if (!strcmp(f->initramfs, "handoff"))
			return f->handoff_over ? refuse : V_INITRAMFS;
		if (!strcmp(f->initramfs, "invalid"))
			return refuse;
	}
	if (f->root_configured && !f->on_root_device)
		return refuse;
	if (f->require_ro && f->fs_writable)
		return f->enforce ? V_PIN_REFUSED : V_IGNORED;
	return V_PIN;
}

static void unescape_octal(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] &&
		    s[3]) {
			*d++ = (s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0');
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/*
 * The mount a load of @path would go through: the kernel judges
 * file->f_path.mnt->mnt_sb, the superblock of the mount, which st_dev
 * does not always tell (overlayfs reports a lower layer's device for a
 * file not copied up). So: the longest mount point that is a prefix of
 * the resolved path, the last one mounted on top when several are; its
 * maj:min is its superblock's. Falls back to st_dev when the path
 * cannot be resolved.
 */
static int find_mount(struct fileinfo *fi, const char *path)
{
	char *buf = lp_read_file(lp_path("/proc/self/mountinfo"), 16 << 20, NULL);
	char *line, *save, want[32], *rp = realpath(path, NULL);
	size_t best = 0;
	int found = -1;

	if (!buf) {
		free(rp);
		return -1;
	}
	snprintf(want, sizeof(want), "%u:%u", fi->maj, fi->min);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char dev[32], mnt[512], fstype[64], opts[512] = "", *sep;
		size_t l;

		if (sscanf(line, "%*s %*s %31s %*s %511s", dev, mnt) != 2)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s %*s %511s", fstype, opts) < 1)
			continue;
		unescape_octal(mnt);
		l = strlen(mnt);
		if (rp) {
			if (strncmp(rp, mnt, l) ||
			    (l > 1 && rp[l] != '/' && rp[l] != '\0'))
				continue;
			if (l < best)
				continue;
			best = l;
		} else if (strcmp(dev, want) || !found) {
			continue;
		}
		if (lp_parse_devt(dev, &fi->maj, &fi->min))
			continue;
		snprintf(fi->fstype, sizeof(fi->fstype), "%s", fstype);
		snprintf(fi->opts, sizeof(fi->opts), "%s", opts);
		snprintf(fi->mnt, sizeof(fi->mnt), "%s", mnt);
		found = 0;
	}
	free(buf);
	free(rp);
	return found;
}

/*
 * An ext3/ext4 filesystem with an external journal writes to a second
 * device, so the kernel counts it as writable (hooks.c, fs_is_writable()).
 * mountinfo does not show the journal; the superblock does: has_journal
 * with no journal inode. Returns 1, 0, or -1 when it cannot be read.
 */
static int ext4_external_journal(const struct fileinfo *fi)
{
	unsigned char sb[1024];
	char dev[128];
	int fd, ok;

	snprintf(dev, sizeof(dev), "/dev/%s", fi->name);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = pread(fd, sb, sizeof(sb), 1024) == sizeof(sb);
	close(fd);
	if (!ok || sb[0x38] != 0x53 || sb[0x39] != 0xef)
		return -1;
	/* s_feature_compat & HAS_JOURNAL, s_journal_inum (little endian) */
	return (sb[0x5c] & 0x4) && !(sb[0xe0] | sb[0xe1] | sb[0xe2] | sb[0xe3]);
}

/* hooks.c, fs_is_writable(): may the filesystem's contents change? */
static bool fs_writable(const struct fileinfo *fi, bool whole)
{
	int ro;

	if (!fi->bdev) {
		wwhy = " (no block device)";
		return true;
	}
	ro = lp_dev_ro(fi->maj, fi->min);
	if (ro < 0) {
		snprintf(unsure, sizeof(unsure),
			 "cannot read /sys/dev/block/%u:%u/ro", fi->maj, fi->min);
		return true;
	}
	if (!ro) {
		wwhy = " (its device is writable)";
		return true;
	}
	/* The pinned filesystem's other devices were judged when pinned. */
	if (!whole)
		return false;
	if (strstr(fi->opts, "logdev=") || strstr(fi->opts, "rtdev=")) {
		wwhy = " (it writes to a log or realtime device as well)";
		return true;
	}
	if (!strcmp(fi->fstype, "ext4") || !strcmp(fi->fstype, "ext3")) {
		int ext = ext4_external_journal(fi);

		if (ext < 0)
			snprintf(unsure, sizeof(unsure),
				 "cannot read the superblock of /dev/%s to look for an external journal",
				 fi->name);
		if (ext == 1)
			wwhy = " (its journal is on another device)";
		return ext == 1;
	}
	return false;
}

/* The verity root digest of dm device maj:min, or why there is none. */
static int dm_verity_root(const struct fileinfo *fi, char *hex, size_t hexlen,
			  char *err, size_t errlen)
{
	union {
		struct dm_ioctl io;
		char buf[16384];
	} u;
	struct dm_target_spec *spec;
	char line[8192], *params;
	const char *mode = "";
	bool warn;
	int ctl, r;

	memset(&u, 0, sizeof(u));
	u.io.version[0] = DM_VERSION_MAJOR;
	u.io.data_size = sizeof(u);
	u.io.data_start = sizeof(struct dm_ioctl);
	u.io.flags = DM_STATUS_TABLE_FLAG;
	u.io.dev = makedev(fi->maj, fi->min);
	ctl = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		snprintf(err, errlen, "cannot open /dev/mapper/control: %s",
			 strerror(errno));
		return -1;
	}
	r = ioctl(ctl, DM_TABLE_STATUS, &u.io);
	close(ctl);
	if (r) {
		snprintf(err, errlen, "DM_TABLE_STATUS: %s", strerror(errno));
		return -1;
	}
	if (u.io.flags & DM_BUFFER_FULL_FLAG) {
		snprintf(err, errlen, "the dm table is too large to read");
		return -1;
	}
	if (u.io.target_count != 1) {
		snprintf(err, errlen, "its table has %u targets, not one verity target",
			 u.io.target_count);
		return 0;
	}
	spec = (struct dm_target_spec *)(u.buf + u.io.data_start);
	params = (char *)(spec + 1);
	u.buf[sizeof(u.buf) - 1] = '\0';
	if (strncmp(spec->target_type, "verity", DM_MAX_TYPE_NAME)) {
		snprintf(err, errlen, "its target is %.16s, not verity",
			 spec->target_type);
		return 0;
	}
	snprintf(line, sizeof(line), "0 1 verity %s", params);
	if (lp_source_line(line, hex, hexlen, &warn, err, errlen) != 1)
		return -1;
	/* dm-verity-loadpin.c trusts the EIO, restart and panic modes only. */
	for (params = strtok(line, " "); params; params = strtok(NULL, " "))
		if (!strcmp(params, "ignore_corruption") ||
		    !strcmp(params, "restart_on_corruption") ||
		    !strcmp(params, "panic_on_corruption"))
			mode = !strcmp(params, "ignore_corruption") ?
			       "ignore_corruption" : "";
	if (*mode) {
		snprintf(err, errlen,
			 "its verity target ignores corruption, which is never trusted");
		return 0;
	}
	return 1;
}

static int digest_cmp(const void *a, const void *b)
{
	const struct lp_digest *x = a, *y = b;

	if (x->len != y->len)
		return x->len - y->len;
	return memcmp(x->data, y->data, x->len);
}

/*
 * dm_verity_loadpin_is_bdev_trusted(): a single verity target in an
 * enforcing mode whose root digest is in the trusted list. The kernel
 * does not show its list, only how many distinct digests it holds; the
 * list is taken from --digests (default /etc/loadpin/verity-digests) and
 * must hold as many distinct digests as the kernel trusts.
 */
static bool trusted_verity(const struct lp_status *st, const struct fileinfo *fi,
			   char *note, size_t nlen)
{
	struct lp_digest *d = NULL, key = { 0 };
	char hex[160], err[256], *buf, lerr[128];
	size_t len, n, i, distinct;
	bool found;
	int r, lineno;

	note[0] = '\0';
	if (!fi->bdev || !fi->name[0] || strncmp(fi->name, "dm-", 3))
		return false;
	if (st->verity_digests <= 0) {
		snprintf(note, nlen, "; no dm-verity digest is trusted");
		return false;
	}
	r = dm_verity_root(fi, hex, sizeof(hex), err, sizeof(err));
	if (r < 0) {
		snprintf(unsure, sizeof(unsure),
			 "cannot read the dm table of %s: %s", fi->name, err);
		return false;
	}
	if (!r) {
		snprintf(note, nlen, "; %s is not trusted: %s", fi->name, err);
		return false;
	}
	buf = lp_read_file(digests_path, LP_DIGESTS_MAX_SIZE, &len);
	if (!buf) {
		snprintf(unsure, sizeof(unsure),
			 "the kernel trusts %d digest(s) but does not show them; "
			 "%s: %s (give the fed list with --digests)",
			 st->verity_digests, digests_path, strerror(errno));
		return false;
	}
	/* Once to count, once to fill. */
	r = lp_digests_parse(buf, len, NULL, 0, &n, &lineno, lerr, sizeof(lerr));
	if (!r) {
		d = calloc(n, sizeof(*d));
		r = !d || lp_digests_parse(buf, len, d, n, &n, &lineno, lerr,
					   sizeof(lerr));
	}
	free(buf);
	distinct = 0;
	if (!r) {
		qsort(d, n, sizeof(*d), digest_cmp);
		for (i = 0; i < n; i++)
			distinct += !i || digest_cmp(&d[i - 1], &d[i]);
	}
	if (r || (int)distinct != st->verity_digests) {
		snprintf(unsure, sizeof(unsure),
			 "%s is not the list the kernel trusts (%d digests)",
			 digests_path, st->verity_digests);
		free(d);
		return false;
	}
	key.len = strlen(hex) / 2;
	for (i = 0; i < key.len; i++)
		sscanf(hex + 2 * i, "%2hhx", &key.data[i]);
	found = bsearch(&key, d, n, sizeof(*d), digest_cmp) != NULL;
	free(d);
	if (found)
		snprintf(note, nlen, "dm-verity device %s whose root digest is trusted (%s)",
			 fi->name, digests_path);
	else
		snprintf(note, nlen, "; %s's root digest %.16s... is not in %s",
			 fi->name, hex, digests_path);
	return found;
}

static void pin_desc(const struct lp_pin *p, char *buf, size_t len)
{
	unsigned int maj, min;
	char name[64] = "";

	if (!strcmp(p->dev, "none")) {
		snprintf(buf, len, "%s without a block device", p->fstype);
		return;
	}
	if (p->devname[0])
		snprintf(name, sizeof(name), "%s", p->devname);
	else if (!lp_parse_devt(p->dev, &maj, &min))
		lp_devname(maj, min, name, sizeof(name));
	snprintf(buf, len, "%s on %s (%s)", p->fstype, name[0] ? name : "?",
		 p->dev);
}

static void file_desc(const struct fileinfo *fi, char *buf, size_t len)
{
	if (fi->bdev)
		snprintf(buf, len, "%s on %s (%u:%u)", fi->fstype, fi->name,
			 fi->maj, fi->min);
	else
		snprintf(buf, len, "%s (%u:%u, no block device)", fi->fstype,
			 fi->maj, fi->min);
}

/* Entry @i of loadpin.root= (a comma-separated list), or "" */
static void root_spec(const struct lp_status *st, int i, char *out, size_t len)
{
	const char *p = st->root;
	size_t l;

	for (; i > 0 && p; i--) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	if (!p) {
		out[0] = '\0';
		return;
	}
	l = strcspn(p, ",");
	snprintf(out, len, "%.*s", (int)l, p);
}

/* Whether an unresolved entry may resolve to this device at this load. */
static bool root_candidate(const char *spec, const struct fileinfo *fi)
{
	char p[80], *u, *v;
	bool m;

	/* Names, labels and UUIDs only match devices on a bus. */
	if (lp_dev_stacked(fi->maj, fi->min) == 1)
		return false;
	if (!strncmp(spec, "/dev/", 5))
		return !strcmp(spec + 5, fi->name);
	if (!strncmp(spec, "PARTLABEL=", 10)) {
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/uevent", fi->maj,
			 fi->min);
		u = lp_read_file(lp_path(p), 65536, NULL);
		if (u) {
			v = strstr(u, "PARTNAME=");
			if (v)
				v[9 + strcspn(v + 9, "\n")] = '\0';
			m = v && !strcmp(v + 9, spec + 10);
			free(u);
			if (!m)
				return false;
		}
	}
	/* PARTUUID= (or a label not shown): sysfs does not tell. */
	snprintf(unsure, sizeof(unsure),
		 "loadpin.root=%s is not resolved yet: whether %s resolves it "
		 "depends on the devices matching it", spec, fi->name);
	return true;
}

/*
 * hooks.c, root_entry_of(): the loadpin.root= entry naming the file's
 * device, resolving unresolved entries on the way, or -1.
 */
static int root_entry_of(const struct lp_status *st, const struct fileinfo *fi)
{
	char want[32], spec[128];
	int i;

	if (!fi->bdev || !strcmp(st->root, "invalid"))
		return -1;
	snprintf(want, sizeof(want), "%u:%u", fi->maj, fi->min);
	for (i = 0; i < st->nroot_dev; i++) {
		if (!strcmp(st->root_dev[i], want))
			return i;
		if (!strcmp(st->root_dev[i], "-")) {
			root_spec(st, i, spec, sizeof(spec));
			if (spec[0] && root_candidate(spec, fi))
				return i;
		}
	}
	return -1;
}

/* root_dev as the status file has it, "-" for none. */
static const char *root_devs(const struct lp_status *st, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < st->nroot_dev; i++)
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
			      i ? "," : "", st->root_dev[i]);
	return buf[0] ? buf : "-";
}

/* The pinned filesystems, for a reason: "ext4 on vda (254:0)". */
static void pins_desc(const struct lp_status *st, char *buf, size_t len)
{
	char one[128];
	size_t n = 0;
	int i, k = 0;

	buf[0] = '\0';
	for (i = 0; i < st->npins; i++) {
		if (strcmp(st->pin[i].state, "pinned"))
			continue;
		pin_desc(&st->pin[i], one, sizeof(one));
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
			      k++ ? " and " : "", one);
	}
	if (!k)
		snprintf(buf, len, "nothing");
}

static int check_one(const struct lp_status *st, const char *path, int type)
{
	struct facts f = { 0 };
	struct fileinfo fi = { 0 };
	char fdesc[256], pdesc[512], note[512] = "", want[32], first[80];
	const char *state;
	struct stat s;
	enum verdict v;
	int i, entry;

	why[0] = unsure[0] = '\0';
	wwhy = "";
	if (stat(path, &s)) {
		lp_err("%s: %s", path, strerror(errno));
		return EX_ERROR;
	}
	fi.maj = major(s.st_dev);
	fi.min = minor(s.st_dev);
	if (!S_ISREG(s.st_mode)) {
		/* kernel_read_file() reads regular files only (EINVAL). */
		lp_err("%s: not a regular file: the kernel would not read it", path);
		return EX_ERROR;
	}
	if (find_mount(&fi, path)) {
		lp_err("%s: its mount (%u:%u) is not in /proc/self/mountinfo",
		       path, fi.maj, fi.min);
		return EX_ERROR;
	}
	/* Anonymous device numbers (major 0) belong to filesystems without one. */
	fi.bdev = fi.maj != 0;
	if (fi.bdev && !lp_devname(fi.maj, fi.min, fi.name, sizeof(fi.name)))
		snprintf(fi.name, sizeof(fi.name), "%u:%u", fi.maj, fi.min);
	if (!strcmp(fi.fstype, "btrfs"))
		snprintf(unsure, sizeof(unsure),
			 "btrfs shows an anonymous device number: its block devices are not known here");
	file_desc(&fi, fdesc, sizeof(fdesc));

	f.excluded = st->excluded[type];
	f.enforce = st->enforce;
	f.require_ro = st->require_ro == 1;
	f.initramfs = st->initramfs;
	f.root_configured = strcmp(st->root, "any");
	pins_desc(st, pdesc, sizeof(pdesc));

	/* hooks.c, pin_of(): is the file on a pinned filesystem? */
	snprintf(want, sizeof(want), "%u:%u", fi.maj, fi.min);
	for (i = 0; i < st->npins; i++) {
		const struct lp_pin *p = &st->pin[i];

		if (strcmp(p->state, "pinned"))
			continue;
		if (!strcmp(p->dev, want)) {
			f.on_pinned_fs = true;
			pin_desc(p, pdesc, sizeof(pdesc));
		} else if (!strcmp(p->dev, "none") && !fi.bdev &&
			   !strcmp(p->fstype, fi.fstype)) {
			snprintf(unsure, sizeof(unsure),
				 "the pin is a %s without a block device: its superblock "
				 "cannot be told from this %s's", p->fstype, fi.fstype);
		}
	}
	/*
	 * A load is judged against the pin it could take: its
	 * loadpin.root= entry's, or the only one without loadpin.root=; a
	 * load that can take none against all of them (the state key).
	 */
	entry = f.on_pinned_fs || !f.root_configured ? -1 :
		root_entry_of(st, &fi);
	state = f.on_pinned_fs ? "pinned" : st->state;
	if (entry >= 0) {
		f.on_root_device = true;
		if (entry < st->npins && st->multi)
			state = st->pin[entry].state;
	}
	f.state = !strcmp(state, "pinned") ? S_PINNED :
		  !strcmp(state, "gone") ? S_GONE : S_UNPINNED;

	if (f.state == S_PINNED) {
		if (f.on_pinned_fs)
			f.fs_writable = fs_writable(&fi, false);
		else if (!f.excluded)
			f.on_trusted_verity = trusted_verity(st, &fi, note,
							     sizeof(note));
	} else if (f.state == S_UNPINNED) {
		f.on_initramfs = !strcmp(fi.fstype, "rootfs");
		f.handoff_over = !strcmp(st->initramfs, "handoff") &&
				 st->initramfs_trusted != 1;
		if (!f.excluded && (!f.root_configured || f.on_root_device))
			f.fs_writable = fs_writable(&fi, true);
	}
	v = decide(&f);
	/* With several pins, a first load may come while others are taken. */
	if (strcmp(st->state, "unpinned") && entry >= 0)
		snprintf(first, sizeof(first),
			 "the pin of loadpin.root= entry %d is not taken yet", entry);
	else
		snprintf(first, sizeof(first), "nothing pinned yet");

	/* The reason, in the kernel's order of rules. */
	if (f.excluded)
		snprintf(why, sizeof(why), "%s loads are excluded (loadpin.exclude=)",
			 lp_type_names[type]);
	else if (f.state == S_GONE && f.on_root_device)
		snprintf(why, sizeof(why),
			 "the pin of %s is gone (unmounted while enforcing): loads from it are refused",
			 fdesc);
	else if (f.state == S_GONE)
		snprintf(why, sizeof(why),
			 "the pinned filesystem is gone (unmounted while enforcing): every load is refused");
	else if (f.state == S_PINNED && f.on_pinned_fs)
		snprintf(why, sizeof(why), "%s is the pinned filesystem%s", pdesc,
			 f.require_ro && f.fs_writable ?
			 ", but its device is writable now and loadpin.require_ro=1" :
			 f.fs_writable ? " (writable now)" : "");
	else if (f.state == S_PINNED && f.on_trusted_verity)
		snprintf(why, sizeof(why), "%s", note);
	else if (f.state == S_PINNED)
		snprintf(why, sizeof(why), "%s is %s, the pin%s %s%s", fi.mnt,
			 fdesc, strstr(pdesc, " and ") ? "s are" : " is", pdesc,
			 note);
	else if (f.on_initramfs && !strcmp(f.initramfs, "handoff"))
		snprintf(why, sizeof(why), f.handoff_over ?
			 "the initramfs hand-off is over: the initramfs is foreign" :
			 "the initramfs is trusted until the hand-off ends; nothing is pinned");
	else if (f.on_initramfs && !strcmp(f.initramfs, "invalid"))
		snprintf(why, sizeof(why),
			 "loadpin.initramfs= did not parse: loads from the initramfs are refused");
	else if (f.root_configured && !f.on_root_device)
		snprintf(why, sizeof(why),
			 "nothing pinned yet and only loadpin.root=%s (%s) may be pinned; this is %s",
			 st->root, root_devs(st, note, sizeof(note)), fdesc);
	else if (f.require_ro && f.fs_writable)
		snprintf(why, sizeof(why),
			 "%s, but %s is writable and loadpin.require_ro=1%s",
			 first, fdesc, wwhy);
	else
		snprintf(why, sizeof(why), "%s and this is a %s %s%s", first,
			 f.fs_writable ? "writable" : "read-only", fdesc, wwhy);

	/* Excluded, or not enforcing: allowed whatever we could not see. */
	if (unsure[0] && (f.excluded || !f.enforce)) {
		printf("%s: %s: %s [%s; allowed either way]\n", path,
		       verdict_words[v], why, unsure);
		unsure[0] = '\0';
	} else {
		printf("%s: %s: %s", path, verdict_words[v], why);
		if (unsure[0])
			printf(" [not sure: %s]", unsure);
		putchar('\n');
	}
	if (f.state == S_UNPINNED && !f.on_initramfs &&
	    !strcmp(st->initramfs, "handoff") && st->initramfs_trusted == 1)
		printf("%s: note: this load would end the initramfs hand-off\n",
		       path);
	if (unsure[0])
		return EX_UNSURE;
	return decide_allows(v) ? EX_OK : EX_DENIED;
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "digests", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct lp_status st;
	int type = lp_type_index("kernel-module"), c, ret, worst = EX_OK, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:d:", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			type = lp_type_index(optarg);
			if (type < 0) {
				lp_err("check: unknown type '%s' (one of: unknown, firmware, "
				       "kernel-module, kexec-image, kexec-initramfs, "
				       "security-policy, x509-certificate)", optarg);
				return EX_USAGE;
			}
			break;
		case 'd':
			digests_path = optarg;
			break;
		default:
			return EX_USAGE;
		}
	}
	if (optind >= argc) {
		lp_err("check: no FILE given");
		return EX_USAGE;
	}
	ret = lp_load_status(&st);
	if (ret)
		return ret;
	for (; optind < argc; optind++) {
		r = check_one(&st, argv[optind], type);
		/* A denial outranks doubt, which outranks a plain allow. */
		if (r == EX_DENIED || (r == EX_UNSURE && worst != EX_DENIED) ||
		    (r == EX_ERROR && worst == EX_OK))
			worst = r;
	}
	return worst;
}
