// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl: LoadPin's lines in the kernel log and its audit records.
 *
 * Reports (security/loadpin/report.c):
 *   LoadPin: <type> <op> obj="<path>" pid=<pid> cmdline="<cmdline>"
 *   LoadPin: <type> <op> obj=<marker> pid=<pid> cmdline="<cmdline>"
 *   LoadPin: N reports suppressed (counters: ...)
 * Audit (AUDIT_LOADPIN_DECISION, 1499), in the kernel log when no audit
 * daemon runs, or in audit.log / ausearch (-i) output:
 *   audit: type=1499 audit(T:S): lsm=loadpin op=kernel-module
 *     decision=denied res=0 pid=310 comm="insmod" path="/tmp/x.ko"
 *     dev="tmpfs" ino=3 state=pinned pinned_dev=254:0
 *   type=UNKNOWN[1499] msg=audit(T:S): lsm=loadpin op=... res=no ...
 * and the series' first format, still read:
 *   audit: type=1499 audit(T:S): op=denied type=kernel-module allowed=0
 *     path="/tmp/x.ko" dev=0:22 ino=3 pid=310 comm="insmod" pinned=254:0
 * Events are normalised to the first format's words.
 * Lines come as dmesg prints them ("[  1.23] ..."), as /dev/kmsg records
 * ("6,123,4567,-;..."), or bare. Path and cmdline are escaped by the
 * kernel (a '"' is \x22), so a quote always ends them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadpinctl.h"

static const char *const ops[] = {
	"pinned", "denied", "pinning-ignored", "pinning-excluded",
	"old-api-denied", "old-api-pinning-ignored", "initramfs-allowed",
	"pin-refused", NULL,
};

static bool known(const char *const *list, const char *w, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && !strncmp(*list, w, n))
			return true;
	return false;
}

static bool known_type(const char *w, size_t n)
{
	int i;

	for (i = 0; i < LP_NTYPES; i++)
		if (strlen(lp_type_names[i]) == n && !strncmp(lp_type_names[i], w, n))
			return true;
	return false;
}

/* Copy the value of " key=" in s: quoted up to the quote, else a word. */
static bool field(const char *s, const char *key, char *out, size_t len)
{
	char pat[32];
	const char *p, *e;

	snprintf(pat, sizeof(pat), "%s=", key);
	for (p = s; (p = strstr(p, pat)); p++)
		if (p == s || p[-1] == ' ')
			break;
	if (!p)
		return false;
	p += strlen(pat);
	if (*p == '"') {
		p++;
		e = strchr(p, '"');
		if (!e)
			return false;
	} else {
		/*
		 * ausearch -i unquotes values, spaces and all: a value ends
		 * where the next " key=" starts.
		 */
		for (e = p; *e && *e != '\n'; e++) {
			const char *k = e + 1;

			if (*e != ' ')
				continue;
			while ((*k >= 'a' && *k <= 'z') || *k == '_' ||
			       (*k >= '0' && *k <= '9'))
				k++;
			if (k > e + 1 && *k == '=')
				break;
		}
		/* ausearch ends its lines with a space. */
		while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
			e--;
	}
	snprintf(out, len, "%.*s", (int)(e - p), p);
	return true;
}

/* Strip "[ 1.23] " or "6,12,345,-;" and keep the time stamp. */
static const char *strip_prefix(const char *line, struct lp_event *ev)
{
	const char *p = line, *semi;

	if (*p == '[') {
		const char *e = strchr(p, ']');

		if (e) {
			snprintf(ev->when, sizeof(ev->when), "%.*s", (int)(e - p + 1), p);
			p = e + 1;
			while (*p == ' ')
				p++;
		}
		return p;
	}
	semi = strchr(p, ';');
	if (semi && p[0] >= '0' && p[0] <= '9' &&
	    strspn(p, "0123456789,-+cx") == (size_t)(semi - p)) {
		const char *c1 = strchr(p, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
		const char *c3 = c2 ? strchr(c2 + 1, ',') : NULL;

		if (c2 && c3 && c3 < semi) {
			unsigned long long us = strtoull(c2 + 1, NULL, 10);

			snprintf(ev->when, sizeof(ev->when), "[%5llu.%06llu]",
				 us / 1000000, us % 1000000);
		}
		return semi + 1;
	}
	return p;
}

static int audit_line(const char *p, struct lp_event *ev)
{
	const char *rec = strstr(p, "type=1499 ");

	if (!rec)
		rec = strstr(p, "type=UNKNOWN[1499] ");
	if (!rec)
		rec = strstr(p, "type=LOADPIN_DECISION ");
	if (!rec)
		return 0;
	rec = strstr(rec, "op=");
	if (!rec)
		return 0;
	ev->kind = LP_EV_AUDIT;
	if (field(rec, "decision", ev->op, sizeof(ev->op))) {
		char res[8] = "", state[16] = "";

		field(rec, "op", ev->type, sizeof(ev->type));
		field(rec, "res", res, sizeof(res));
		/* ausearch -i writes res= as yes or no. */
		snprintf(ev->allowed, sizeof(ev->allowed), "%s",
			 !strcmp(res, "yes") ? "1" : !strcmp(res, "no") ? "0" : res);
		field(rec, "state", state, sizeof(state));
		if (!strcmp(state, "pinned"))
			field(rec, "pinned_dev", ev->pinned, sizeof(ev->pinned));
		else
			snprintf(ev->pinned, sizeof(ev->pinned), "%s",
				 !strcmp(state, "gone") ? "gone" : "none");
	} else {
		field(rec, "op", ev->op, sizeof(ev->op));
		field(rec, "type", ev->type, sizeof(ev->type));
		field(rec, "allowed", ev->allowed, sizeof(ev->allowed));
		field(rec, "pinned", ev->pinned, sizeof(ev->pinned));
	}
	field(rec, "path", ev->obj, sizeof(ev->obj));
	field(rec, "comm", ev->comm, sizeof(ev->comm));
	{
		char pid[32];

		ev->pid = field(rec, "pid", pid, sizeof(pid)) ? atol(pid) : -1;
	}
	snprintf(ev->text, sizeof(ev->text), "%s", rec);
	ev->text[strcspn(ev->text, "\n")] = '\0';
	return ev->kind;
}

int lp_log_line(const char *line, struct lp_event *ev)
{
	const char *p, *t, *o, *sp;
	char num[32];

	memset(ev, 0, sizeof(*ev));
	ev->pid = -1;
	p = strip_prefix(line, ev);
	if (audit_line(p, ev))
		return ev->kind;
	t = strstr(p, "LoadPin: ");
	if (!t)
		return LP_EV_NONE;
	t += 9;
	/* "N reports suppressed" */
	if (sscanf(t, "%ld reports suppresse%1[d]", &ev->suppressed, num) == 2 &&
	    ev->suppressed >= 0) {
		ev->kind = LP_EV_SUPPRESSED;
		return ev->kind;
	}
	sp = strchr(t, ' ');
	o = sp ? sp + 1 : NULL;
	if (sp && known_type(t, sp - t))
		sp = strchr(o, ' ');
	else
		sp = NULL;
	if (sp && known(ops, o, sp - o) && !strncmp(sp + 1, "obj=", 4)) {
		ev->kind = LP_EV_DECISION;
		snprintf(ev->type, sizeof(ev->type), "%.*s", (int)(o - 1 - t), t);
		snprintf(ev->op, sizeof(ev->op), "%.*s", (int)(sp - o), o);
		if (!field(sp + 1, "obj", ev->obj, sizeof(ev->obj)))
			ev->obj[0] = '\0';
		ev->pid = field(sp + 1, "pid", num, sizeof(num)) ? atol(num) : -1;
		field(sp + 1, "cmdline", ev->cmdline, sizeof(ev->cmdline));
		return ev->kind;
	}
	ev->kind = LP_EV_OTHER;
	snprintf(ev->text, sizeof(ev->text), "%s", t);
	ev->text[strcspn(ev->text, "\n")] = '\0';
	return ev->kind;
}
