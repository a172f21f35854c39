// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl status [--json]: the status file in words, or as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loadpinctl.h"

/* The pin's device: its kernel name and whether it is read-only now. */
static void describe_dev(const char *dev, char *name, size_t nlen, int *ro)
{
	unsigned int maj, min;

	*ro = -1;
	name[0] = '\0';
	if (lp_parse_devt(dev, &maj, &min))
		return;
	if (!lp_devname(maj, min, name, nlen))
		name[0] = '\0';
	*ro = lp_dev_ro(maj, min);
}

static bool sysctl_present(void)
{
	return !access(lp_path("/proc/sys/kernel/loadpin/enforce"), F_OK);
}

/*
 * Whether kernel.loadpin.enforce may go to 0 (hooks.c, proc_enforce()):
 * yes when not enforcing; otherwise only while the pin was writable when
 * pinned and without require_ro. The status file shows the pin writable
 * also when a read-only pin became writable later, which does not unlock
 * the sysctl: that case is named rather than guessed.
 */
static const char *switch_off(const struct lp_status *st, bool *maybe)
{
	*maybe = false;
	if (!sysctl_present())
		return "no: the kernel has no kernel.loadpin.enforce sysctl";
	bool pinned = false, gone = false, ro = false;
	int i;

	if (!st->enforce)
		return "yes (not enforcing now)";
	if (st->require_ro == 1)
		return "no: loadpin.require_ro=1";
	/* Off only when no pin is gone, one is there, none was read-only. */
	for (i = 0; i < st->npins; i++) {
		if (!strcmp(st->pin[i].state, "gone"))
			gone = true;
		if (!strcmp(st->pin[i].state, "pinned")) {
			pinned = true;
			ro |= st->pin[i].writable != 1;
		}
	}
	if (gone || !strcmp(st->state, "gone"))
		return "no: the pinned filesystem is gone";
	if (!pinned)
		return "no: nothing is pinned yet";
	if (ro)
		return "no: the pinned filesystem was read-only when pinned";
	*maybe = true;
	return "yes, with sysctl kernel.loadpin.enforce=0, unless a pin was "
	       "read-only when pinned and became writable since";
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_bool_or_null(int v)
{
	fputs(v < 0 ? "null" : v ? "true" : "false", stdout);
}

static void print_json(const struct lp_status *st)
{
	char name[64];
	bool maybe;
	int i, ro;

	printf("{\"enforce\":");
	json_bool_or_null(st->enforce);
	printf(",\"state\":");
	json_str(st->state);
	printf(",\"pins\":[");
	for (i = 0; i < st->npins; i++) {
		const struct lp_pin *p = &st->pin[i];

		describe_dev(p->dev, name, sizeof(name), &ro);
		printf("%s{\"dev\":", i ? "," : "");
		json_str(p->dev);
		printf(",\"devname\":");
		json_str(p->devname[0] ? p->devname : name);
		printf(",\"fstype\":");
		json_str(p->fstype);
		printf(",\"state\":");
		json_str(p->state);
		printf(",\"writable\":");
		json_bool_or_null(p->writable);
		printf(",\"device_read_only_now\":");
		json_bool_or_null(ro);
		putchar('}');
	}
	printf("],\"can_switch_off\":");
	switch_off(st, &maybe);
	fputs(maybe ? "\"maybe\"" : !st->enforce ? "true" : "false", stdout);
	printf(",\"root\":");
	json_str(st->root);
	printf(",\"root_dev\":[");
	for (i = 0; i < st->nroot_dev; i++) {
		printf("%s", i ? "," : "");
		json_str(st->root_dev[i]);
	}
	printf("],\"initramfs\":");
	json_str(st->initramfs);
	printf(",\"initramfs_trusted\":");
	json_bool_or_null(st->initramfs_trusted);
	printf(",\"require_ro\":");
	json_bool_or_null(st->require_ro);
	printf(",\"excluded\":[");
	for (i = 0, ro = 0; i < LP_NTYPES; i++)
		if (st->excluded[i]) {
			printf("%s", ro++ ? "," : "");
			json_str(lp_type_names[i]);
		}
	printf("],\"verity\":{\"enabled\":%s,\"digests\":",
	       st->verity_digests < 0 ? "false" : "true");
	if (st->verity_digests < 0)
		printf("null");
	else
		printf("%d", st->verity_digests);
	printf(",\"final\":");
	json_bool_or_null(st->verity_final);
	printf("},\"param_errors\":%lu,\"counters\":{", st->param_errors);
	for (i = 0; i < LP_NTYPES; i++) {
		printf("%s", i ? "," : "");
		json_str(lp_type_names[i]);
		printf(":{\"allowed\":%lu,\"denied\":%lu}", st->allowed[i],
		       st->denied[i]);
	}
	/* Everything as the kernel wrote it, keys unknown to us included. */
	printf("},\"raw\":{");
	for (i = 0; i < st->nkv; i++) {
		printf("%s", i ? "," : "");
		json_str(st->kv[i].key);
		putchar(':');
		json_str(st->kv[i].value);
	}
	printf("}}\n");
}

static void print_pin(const struct lp_pin *p, int i, int n)
{
	char name[64];
	int ro;

	describe_dev(p->dev, name, sizeof(name), &ro);
	if (p->devname[0])
		snprintf(name, sizeof(name), "%s", p->devname);
	printf("pinned:      ");
	if (n > 1)
		printf("[%d] ", i);
	if (!strcmp(p->state, "unpinned")) {
		printf("not yet: the first load from its device pins it\n");
		return;
	}
	if (!strcmp(p->state, "gone")) {
		printf("%s on %s (%s), gone\n", p->fstype, name[0] ? name : "?",
		       p->dev);
		return;
	}
	if (!strcmp(p->dev, "none"))
		printf("%s without a block device (counts as writable)\n",
		       p->fstype);
	else
		printf("%s on %s (%s), %s%s\n", p->fstype,
		       name[0] ? name : "?", p->dev,
		       p->writable == 1 ? "writable" : "read-only",
		       ro == 1 ? "; device read-only now" :
		       ro == 0 ? "; device writable now" : "");
}

static void print_human(const struct lp_status *st)
{
	unsigned long allowed = 0, denied = 0;
	bool maybe, any = false;
	int i;

	printf("enforcing:   %s\n", st->enforce ? "yes" :
	       "no (loads that would be denied are allowed and reported)");
	printf("switch off:  %s\n", switch_off(st, &maybe));
	if (!strcmp(st->state, "unpinned") && st->npins <= 1)
		printf("pinned:      nothing yet: the next load that may pin "
		       "pins its filesystem\n");
	else if (!strcmp(st->state, "gone") && !st->multi)
		printf("pinned:      gone: the pinned filesystem was unmounted "
		       "while enforcing; every load is denied until reboot\n");
	else
		for (i = 0; i < st->npins; i++)
			print_pin(&st->pin[i], i, st->npins);
	printf("root:        %s", !strcmp(st->root, "any") ?
	       "any device may be pinned" : !strcmp(st->root, "invalid") ?
	       "loadpin.root= did not parse: nothing can be pinned" : st->root);
	if (strcmp(st->root, "any") && strcmp(st->root, "invalid")) {
		for (i = 0; i < st->nroot_dev; i++)
			printf("%s%s", i ? ", " : " (is ", !strcmp(st->root_dev[i], "-") ?
			       "not resolved yet" : !strcmp(st->root_dev[i], "gone") ?
			       "gone: its device went away" : st->root_dev[i]);
		if (st->nroot_dev)
			printf(")");
	}
	printf("\ninitramfs:   %s\n", !strcmp(st->initramfs, "pin") ?
	       "pin (treated like any filesystem)" :
	       !strcmp(st->initramfs, "invalid") ?
	       "invalid loadpin.initramfs=: loads from it are denied" :
	       st->initramfs_trusted == 1 ? "handoff: trusted until the hand-off ends" :
	       "handoff: the hand-off is over, the initramfs is foreign");
	printf("require_ro:  %s\n", st->require_ro == 1 ?
	       "yes: writable filesystems are never pinned" : "no");
	printf("excluded:    ");
	for (i = 0; i < LP_NTYPES; i++)
		if (st->excluded[i]) {
			printf("%s%s", any ? ", " : "", lp_type_names[i]);
			any = true;
		}
	printf("%s\n", any ? "" : "none");
	if (st->verity_digests < 0)
		printf("dm-verity:   not built in (CONFIG_SECURITY_LOADPIN_VERITY)\n");
	else
		printf("dm-verity:   %d trusted root digest%s, list %s\n",
		       st->verity_digests, st->verity_digests == 1 ? "" : "s",
		       st->verity_final == 1 ?
		       "final (set, refused or sealed)" :
		       "still open: anyone with root can feed one (loadpinctl seal)");
	if (st->param_errors)
		printf("boot params: %lu did not parse (see the kernel log)\n",
		       st->param_errors);
	printf("loads:       %-18s %8s %8s\n", "type", "allowed", "denied");
	for (i = 0; i < LP_NTYPES; i++) {
		allowed += st->allowed[i];
		denied += st->denied[i];
		if (st->allowed[i] || st->denied[i])
			printf("             %-18s %8lu %8lu\n", lp_type_names[i],
			       st->allowed[i], st->denied[i]);
	}
	printf("             %-18s %8lu %8lu\n", "total", allowed, denied);
}

int cmd_status(int argc, char **argv)
{
	struct lp_status st;
	bool json = false;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else {
			lp_err("status: unknown argument '%s'", argv[i]);
			return EX_USAGE;
		}
	}
	ret = lp_load_status(&st);
	if (ret)
		return ret;
	if (json)
		print_json(&st);
	else
		print_human(&st);
	return EX_OK;
}
