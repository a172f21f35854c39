// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl log [--input FILE] [--audit FILE] [--all]: LoadPin's
 * decisions, one line each, from /dev/kmsg (read without blocking) or
 * FILE (dmesg output, kmsg records), and from audit records (the kernel
 * log's, or FILE: audit.log or ausearch output). The rate limit's
 * "N reports suppressed" lines are summed up at the end; the status
 * file's counters stay the exact numbers.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loadpinctl.h"

struct tally {
	unsigned long decisions, audit, summaries, suppressed;
	unsigned long by_op[16];
};

static const char *const op_order[] = {
	"pinned", "denied", "pin-refused", "old-api-denied", "pinning-ignored",
	"old-api-pinning-ignored", "pinning-excluded", "initramfs-allowed",
};
#define NOPS ARRAY_SIZE(op_order)

static bool show_all;

static void count_op(struct tally *t, const char *op)
{
	size_t i;

	for (i = 0; i < NOPS; i++)
		if (!strcmp(op, op_order[i]))
			t->by_op[i]++;
}

static void one_line(struct tally *t, const char *line)
{
	struct lp_event ev;

	switch (lp_log_line(line, &ev)) {
	case LP_EV_DECISION:
		t->decisions++;
		count_op(t, ev.op);
		printf("%s%s%-24s %-17s %s%s%s pid=%ld cmdline=\"%s\"\n", ev.when,
		       ev.when[0] ? " " : "", ev.op, ev.type,
		       ev.obj[0] == '<' ? "" : "\"", ev.obj,
		       ev.obj[0] == '<' ? "" : "\"", ev.pid, ev.cmdline);
		break;
	case LP_EV_SUPPRESSED:
		t->summaries++;
		t->suppressed += ev.suppressed;
		printf("%s%s(%ld reports suppressed by the rate limit)\n", ev.when,
		       ev.when[0] ? " " : "", ev.suppressed);
		break;
	case LP_EV_AUDIT:
		t->audit++;
		printf("%s%saudit %-18s %-17s allowed=%s%s%s%s pid=%ld comm=\"%s\" pinned=%s\n",
		       ev.when, ev.when[0] ? " " : "", ev.op, ev.type, ev.allowed,
		       ev.obj[0] ? " path=\"" : "", ev.obj, ev.obj[0] ? "\"" : "",
		       ev.pid, ev.comm, ev.pinned);
		break;
	case LP_EV_OTHER:
		if (show_all)
			printf("%s%s# %s\n", ev.when, ev.when[0] ? " " : "", ev.text);
		break;
	default:
		break;
	}
}

static int read_stream(struct tally *t, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, f) >= 0) {
		/* kmsg dictionary lines (" SUBSYSTEM=...") are no messages. */
		if (line[0] == ' ')
			continue;
		one_line(t, line);
	}
	free(line);
	return ferror(f) ? -1 : 0;
}

static int read_kmsg(struct tally *t)
{
	char rec[8192];
	ssize_t n;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		lp_err("/dev/kmsg: %s (give a saved log with --input)",
		       strerror(errno));
		return EX_ERROR;
	}
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0) {
			/* Overwritten records: go on with the next one. */
			if (errno == EPIPE || errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			lp_err("/dev/kmsg: %s", strerror(errno));
			close(fd);
			return EX_ERROR;
		}
		if (!n)
			break;
		rec[n] = '\0';
		/* A record's continuation lines are its dictionary. */
		rec[strcspn(rec, "\n")] = '\0';
		one_line(t, rec);
	}
	close(fd);
	return EX_OK;
}

int cmd_log(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "audit", required_argument, NULL, 'a' },
		{ "all", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = NULL, *audit = NULL;
	struct tally t = { 0 };
	int c, ret = EX_OK;
	size_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:a:A", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'a':
			audit = optarg;
			break;
		case 'A':
			show_all = true;
			break;
		default:
			return EX_USAGE;
		}
	}
	if (optind < argc) {
		lp_err("log: unexpected argument '%s'", argv[optind]);
		return EX_USAGE;
	}
	if (input) {
		FILE *f = strcmp(input, "-") ? fopen(input, "r") : stdin;

		if (!f) {
			lp_err("%s: %s", input, strerror(errno));
			return EX_ERROR;
		}
		read_stream(&t, f);
		if (f != stdin)
			fclose(f);
	} else if (!audit) {
		ret = read_kmsg(&t);
		if (ret)
			return ret;
	}
	if (audit) {
		FILE *f = strcmp(audit, "-") ? fopen(audit, "r") : stdin;

		if (!f) {
			lp_err("%s: %s", audit, strerror(errno));
			return EX_ERROR;
		}
		read_stream(&t, f);
		if (f != stdin)
			fclose(f);
	}
	printf("summary: %lu decision%s logged", t.decisions,
	       t.decisions == 1 ? "" : "s");
	for (i = 0; i < NOPS; i++)
		if (t.by_op[i])
			printf(", %lu %s", t.by_op[i], op_order[i]);
	printf("; %lu suppressed by the rate limit (%lu summar%s)",
	       t.suppressed, t.summaries, t.summaries == 1 ? "y" : "ies");
	if (t.audit)
		printf("; %lu audit record%s", t.audit, t.audit == 1 ? "" : "s");
	printf("; exact counts: loadpinctl status\n");
	return ret;
}
