// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl: the parser of /sys/kernel/security/loadpin/status.
 *
 * One "key: value" per line (Documentation/admin-guide/LSM/LoadPin.rst).
 * Keys are only ever added at the end, so unknown keys are kept (for
 * --json) but otherwise ignored. Since loadpin.root= takes several
 * devices the file ends in "pins: N" and one "pin<i>: <maj:min|none>
 * <fstype> <ro|rw> <pinned|gone> <devname|->" line per pin ("- - -
 * unpinned -" before its first load), and root_dev is a list with one
 * entry ("-" while unresolved) per loadpin.root= device; the single-pin
 * keys describe the first pinned filesystem. A file without "pins" (the
 * first release) describes its one pin with the single-pin keys.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "loadpinctl.h"

const char *const lp_type_names[LP_NTYPES] = {
	"unknown", "firmware", "kernel-module", "kexec-image",
	"kexec-initramfs", "security-policy", "x509-certificate",
};

int lp_type_index(const char *name)
{
	int i;

	for (i = 0; i < LP_NTYPES; i++)
		if (!strcmp(name, lp_type_names[i]))
			return i;
	return -1;
}


static int parse_bool(const char *v)
{
	if (!strcmp(v, "0"))
		return 0;
	if (!strcmp(v, "1"))
		return 1;
	return -2;
}

static int parse_ulong(const char *v, unsigned long *out)
{
	char *end;

	if (!*v || *v == '-' || *v == '+' || *v == ' ')
		return -1;
	errno = 0;
	*out = strtoul(v, &end, 10);
	return errno || *end ? -1 : 0;
}

static bool is_devt(const char *v)
{
	unsigned int a, b;

	return lp_parse_devt(v, &a, &b) == 0;
}

static bool copy(char *dst, size_t len, const char *v)
{
	if (strlen(v) >= len)
		return false;
	strcpy(dst, v);
	return true;
}

/* "pin<i>: <maj:min|none> <fstype> <ro|rw> <pinned|gone> <devname>" */
static int parse_pin_line(struct lp_pin *p, const char *v)
{
	char dev[32], fstype[32], rw[8], state[16], name[64];
	int n, used = 0;

	n = sscanf(v, "%31s %31s %7s %15s %n", dev, fstype, rw, state, &used);
	if (n != 4)
		return -1;
	if (!strcmp(state, "unpinned")) {
		if (strcmp(dev, "-") || strcmp(fstype, "-") || strcmp(rw, "-") ||
		    strcmp(v + used, "-"))
			return -1;
		strcpy(p->dev, "-");
		strcpy(p->fstype, "-");
		p->writable = -1;
		strcpy(p->state, state);
		p->devname[0] = '\0';
		return 0;
	}
	if (strcmp(dev, "none") && !is_devt(dev))
		return -1;
	if (strcmp(rw, "ro") && strcmp(rw, "rw"))
		return -1;
	if (strcmp(state, "pinned") && strcmp(state, "gone"))
		return -1;
	/* "-" (or nothing) for a filesystem without a device. */
	if (!copy(name, sizeof(name), v + used) || strchr(name, ' '))
		return -1;
	if (!strcmp(name, "-"))
		name[0] = '\0';
	strcpy(p->dev, dev);
	strcpy(p->fstype, fstype);
	p->writable = !strcmp(rw, "rw");
	strcpy(p->state, state);
	strcpy(p->devname, name);
	return 0;
}

static int parse_root_dev(struct lp_status *st, const char *v)
{
	char buf[256], *tok, *save;

	/*
	 * One entry per loadpin.root= device, "-" while unresolved, "gone"
	 * once the device it resolved to went away.
	 */
	st->nroot_dev = 0;
	if (!copy(buf, sizeof(buf), v) || !*v || v[strlen(v) - 1] == ',' ||
	    *v == ',' || strstr(v, ",,"))
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if ((strcmp(tok, "-") && strcmp(tok, "gone") && !is_devt(tok)) ||
		    st->nroot_dev >= LP_MAX_PINS)
			return -1;
		strcpy(st->root_dev[st->nroot_dev++], tok);
	}
	return 0;
}

static int parse_excluded(struct lp_status *st, const char *v)
{
	char buf[256], *tok, *save;
	int i;

	memset(st->excluded, 0, sizeof(st->excluded));
	if (!strcmp(v, "none"))
		return 0;
	if (!copy(buf, sizeof(buf), v))
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		i = lp_type_index(tok);
		/* A type a newer kernel knows: not ours to judge. */
		if (i >= 0)
			st->excluded[i] = true;
	}
	return 0;
}

/* Returns 0, 1 when the key is unknown, -1 when its value is malformed. */
static int parse_key(struct lp_status *st, const char *k, const char *v)
{
	unsigned long u;
	int i;

	if (!strcmp(k, "enforce"))
		return (st->enforce = parse_bool(v)) < 0 ? -1 : 0;
	if (!strcmp(k, "state")) {
		if (strcmp(v, "unpinned") && strcmp(v, "pinned") &&
		    strcmp(v, "gone"))
			return -1;
		strcpy(st->state, v);
		return 0;
	}
	if (!strcmp(k, "pinned_dev")) {
		if (strcmp(v, "-") && strcmp(v, "none") && !is_devt(v))
			return -1;
		strcpy(st->pin[0].dev, v);
		return 0;
	}
	if (!strcmp(k, "pinned_fstype"))
		return copy(st->pin[0].fstype, sizeof(st->pin[0].fstype), v) ?
		       0 : -1;
	if (!strcmp(k, "pinned_writable")) {
		if (!strcmp(v, "-")) {
			st->pin[0].writable = -1;
			return 0;
		}
		return (st->pin[0].writable = parse_bool(v)) < 0 ? -1 : 0;
	}
	if (!strcmp(k, "root"))
		return copy(st->root, sizeof(st->root), v) ? 0 : -1;
	if (!strcmp(k, "initramfs")) {
		if (strcmp(v, "pin") && strcmp(v, "handoff") &&
		    strcmp(v, "invalid"))
			return -1;
		strcpy(st->initramfs, v);
		return 0;
	}
	if (!strcmp(k, "initramfs_trusted"))
		return (st->initramfs_trusted = parse_bool(v)) < 0 ? -1 : 0;
	if (!strcmp(k, "require_ro"))
		return (st->require_ro = parse_bool(v)) < 0 ? -1 : 0;
	if (!strcmp(k, "excluded"))
		return parse_excluded(st, v);
	if (!strcmp(k, "verity_digests")) {
		if (!strcmp(v, "disabled")) {
			st->verity_digests = -1;
			return 0;
		}
		if (parse_ulong(v, &u) || u > 1000000)
			return -1;
		st->verity_digests = u;
		return 0;
	}
	if (!strcmp(k, "verity_final"))
		return (st->verity_final = parse_bool(v)) < 0 ? -1 : 0;
	if (!strcmp(k, "param_errors"))
		return parse_ulong(v, &st->param_errors);
	if (!strncmp(k, "allowed.", 8) || !strncmp(k, "denied.", 7)) {
		bool allowed = k[0] == 'a';

		i = lp_type_index(k + (allowed ? 8 : 7));
		if (i < 0)
			return 1;
		if (parse_ulong(v, &u))
			return -1;
		(allowed ? st->allowed : st->denied)[i] = u;
		return 0;
	}
	if (!strcmp(k, "root_dev"))
		return parse_root_dev(st, v);
	if (!strcmp(k, "pins")) {
		if (parse_ulong(v, &u) || !u || u > LP_MAX_PINS)
			return -1;
		st->multi = true;
		st->npins = u;
		return 0;
	}
	if (!strncmp(k, "pin", 3) && k[3] >= '0' && k[3] <= '9') {
		if (parse_ulong(k + 3, &u))
			return 1;
		if (!st->multi || u >= (unsigned long)st->npins)
			return -1;
		return parse_pin_line(&st->pin[u], v);
	}
	return 1;
}

int lp_status_parse(const char *buf, size_t len, struct lp_status *st,
		    int *lineno, char *err, size_t errlen)
{
	static const char *const required[] = {
		"enforce", "state", "pinned_dev", "pinned_fstype",
		"pinned_writable", "root", "initramfs", "require_ro",
		"excluded", "verity_digests", "verity_final",
	};
	const char *p = buf, *end = buf + len;
	char line[512];
	int n = 0, i, j;

	memset(st, 0, sizeof(*st));
	st->enforce = -1;
	st->initramfs_trusted = -1;
	st->require_ro = -1;
	st->verity_final = -1;
	*lineno = 0;
	if (memchr(buf, '\0', len))
		return lp_parse_error(lineno, 0, err, errlen, "a NUL byte in the status file");
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t llen = (nl ? nl : end) - p;
		char *colon;
		struct lp_kv *kv;
		int r;

		n++;
		if (llen >= sizeof(line))
			return lp_parse_error(lineno, n, err, errlen, "line too long");
		memcpy(line, p, llen);
		line[llen] = '\0';
		p += llen + 1;
		colon = strstr(line, ": ");
		if (!colon || colon == line)
			return lp_parse_error(lineno, n, err, errlen,
				   "not a 'key: value' line");
		*colon = '\0';
		if (strlen(line) >= sizeof(kv->key) ||
		    strlen(colon + 2) >= sizeof(kv->value))
			return lp_parse_error(lineno, n, err, errlen, "key or value too long");
		for (j = 0; j < st->nkv; j++)
			if (!strcmp(st->kv[j].key, line))
				return lp_parse_error(lineno, n, err, errlen,
					   "key '%s' given twice", line);
		if (st->nkv >= LP_MAX_KEYS)
			return lp_parse_error(lineno, n, err, errlen, "too many keys");
		kv = &st->kv[st->nkv++];
		strcpy(kv->key, line);
		strcpy(kv->value, colon + 2);
		r = parse_key(st, kv->key, kv->value);
		if (r < 0)
			return lp_parse_error(lineno, n, err, errlen,
				   "unexpected value for %s: '%s'", kv->key,
				   kv->value);
	}
	for (i = 0; i < (int)ARRAY_SIZE(required); i++) {
		for (j = 0; j < st->nkv; j++)
			if (!strcmp(st->kv[j].key, required[i]))
				break;
		if (j == st->nkv)
			return lp_parse_error(lineno, 0, err, errlen, "key '%s' missing",
				   required[i]);
	}
	if (st->multi) {
		for (i = 0; i < st->npins; i++)
			if (!st->pin[i].state[0])
				return lp_parse_error(lineno, 0, err, errlen,
					   "pins: %d but no line pin%d", st->npins,
					   i);
	} else {
		/* The first release: one pin, told by the single-pin keys. */
		st->npins = 1;
		strcpy(st->pin[0].state, st->state);
	}
	return 0;
}
