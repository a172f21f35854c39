// SPDX-License-Identifier: GPL-2.0
/*
 * lpfault - fail LoadPin's allocations one at a time (the debug kernel's
 * fault injection, Documentation/fault-injection/fault-injection.rst).
 *
 * Set-up (debugfs knobs of failslab and fail_page_alloc):
 *   lpfault setup [SYMBOL...]       both: verbose 1, probability 0,
 *                                   interval 1, times -1, task-filter Y,
 *                                   ignore-gfp-wait N (GFP_KERNEL counts),
 *                                   fail_page_alloc min-order 0, and the
 *                                   stack filter rejecting vmalloc; looks
 *                                   up the SYMBOLs for "range" in the same
 *                                   pass of /proc/kallsyms (slow)
 *   lpfault knob ATTR KNOB VALUE    one knob; ATTR "all" for both
 *   lpfault range ATTR require|reject SYMBOL|-
 *                                   the stack filter range: the text of
 *                                   SYMBOL (/proc/kallsyms), or none
 * ("knob" and "range" print "ok" or the errno name last, as lpctl does.)
 *
 * vmalloc reports its failures with a stack dump (warn_alloc()), which
 * fails the boot in tests/run.py: "setup" keeps injected faults out of
 * __vmalloc_node_range_noprof(). Failures elsewhere are silent.
 *
 * Loops (the syzkaller technique): for N = 1, 2, ... write N to
 * /proc/thread-self/fail-nth, do the operation, read fail-nth back, and
 * check the invariant; stop at the first N the operation did not reach
 * (fail-nth still positive), whose result must be the fault-free one.
 *   lpfault status [MAX]            open, read and close the status file:
 *                                   complete and exact, or an errno
 *   lpfault load PATH deny|allow [MAX]
 *                                   finit_module(2): a denied load is never
 *                                   allowed (and counted); an allowed one
 *                                   never denied
 *   lpfault initmod PATH [MAX]      init_module(2) of PATH's bytes, which
 *                                   LoadPin denies when enforcing
 *   lpfault pin DEV DIR FILE [MAX]  mount DEV read-only on DIR, finit_module
 *                                   of DIR/FILE (pins DEV), unmount: needs
 *                                   loadpin.enforce=0, so that the next
 *                                   load pins again
 * A denial reported by a loop must reach the kernel log: when LoadPin's
 * report rate limit swallows one, the loop waits it out and retries N.
 *
 * One shot (the digest list can be set once per boot):
 *   lpfault feed LIST COUNT N [RESULT]
 *                                   LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS
 *                                   of LIST (COUNT digests) with fail-nth N
 *                                   (0: none): the whole list or an errno
 *                                   with no digest, the interface final
 *                                   either way; RESULT ("ok" or an errno
 *                                   name) when given
 *
 * Output is TAP ("ok N ..." / "not ok N ...", "# " notes), for the
 * scenarios' selftest helper. MAX bounds a loop (default 400).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <linux/loadpin.h>

#include "lpresult.h"
#include "lpfault.h"

#ifndef LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS
#define LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS _IOW('L', 0x00, unsigned int)
#endif

#define MAX_DEFAULT 400
#define MAX_SHOWN 5

/* ------------------------------------------------------------- set-up */

static const char *const attrs[] = { "failslab", "fail_page_alloc" };

static int knob(const char *attr, const char *name, const char *val)
{
	int i, e;

	if (strcmp(attr, "all")) {
		e = fi_set(attr, name, val);
		if (e)
			fprintf(stderr, "lpfault: %s/%s = %s: %s\n", attr, name, val,
				strerror(e));
		return e;
	}
	for (i = 0; i < 2; i++) {
		e = knob(attrs[i], name, val);
		if (e)
			return e;
	}
	return 0;
}

static int range(const char *attr, const char *which, const char *sym)
{
	char key[32], val[32];
	unsigned long s = 0, e = 0;
	int err;

	if (strcmp(which, "require") && strcmp(which, "reject"))
		return EINVAL;
	if (strcmp(sym, "-")) {
		err = sym_range(sym, &s, &e);
		if (err) {
			fprintf(stderr, "lpfault: no text symbol %s in /proc/kallsyms\n", sym);
			return err;
		}
		printf("# %s %s: %s [%#lx, %#lx)\n", attr, which, sym, s, e);
	} else if (!strcmp(which, "require")) {
		e = ~0UL;	/* the default: anywhere */
	}
	snprintf(key, sizeof(key), "%s-start", which);
	snprintf(val, sizeof(val), "%#lx", s);
	err = knob(attr, key, val);
	snprintf(key, sizeof(key), "%s-end", which);
	snprintf(val, sizeof(val), "%#lx", e);
	return err ? err : knob(attr, key, val);
}

/* Look the symbols up in one pass of /proc/kallsyms, for "range". */
static int cache_syms(const char *const *names, int n)
{
	unsigned long start[16], end[16];
	FILE *f;
	int i;

	if (n > 16)
		return E2BIG;
	sym_ranges(names, n, start, end);
	f = fopen(SYM_CACHE, "we");
	if (!f)
		return errno;
	for (i = 0; i < n; i++)
		if (end[i])
			fprintf(f, "%s %#lx %#lx\n", names[i], start[i], end[i]);
		else
			printf("# no text symbol %s in /proc/kallsyms\n", names[i]);
	return fclose(f) ? errno : 0;
}

static int setup(const char *const *syms, int nsyms)
{
	const char *names[16] = { "__vmalloc_node_range_noprof" };
	static const char *const knobs[][2] = {
		{ "verbose", "1" }, { "probability", "0" }, { "interval", "1" },
		{ "times", "-1" }, { "space", "0" }, { "task-filter", "Y" },
		{ "ignore-gfp-wait", "N" }, { "stacktrace-depth", "32" },
	};
	size_t i;
	int e;

	if (nsyms > 15)
		return E2BIG;
	memcpy(names + 1, syms, nsyms * sizeof(*syms));
	e = cache_syms(names, nsyms + 1);
	if (e)
		return e;
	debugfs_mount();
	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		e = knob("all", knobs[i][0], knobs[i][1]);
		if (e)
			return e;
	}
	e = knob("fail_page_alloc", "min-order", "0");
	if (!e)
		e = range("all", "require", "-");
	if (!e)
		e = range("all", "reject", "__vmalloc_node_range_noprof");
	return e;
}

/* ------------------------------------------------------------ helpers */

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Open /dev/kmsg at its end: what the kernel logs from now on. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Whether a record logged since kmsg_open() contains NEEDLE. */
static int kmsg_has(int fd, const char *needle)
{
	char rec[2048];
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (n <= 0)
			return 0;
		rec[n] = '\0';
		if (strstr(rec, needle))
			return 1;
	}
}

static int read_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st))
		return errno;
	*buf = malloc(st.st_size ? st.st_size : 1);
	if (!*buf || read(fd, *buf, st.st_size) != st.st_size) {
		close(fd);
		return EIO;
	}
	*len = st.st_size;
	close(fd);
	return 0;
}

/* ------------------------------------------------------------- a loop */

struct loop {
	const char *what;		/* for the TAP lines */
	int max;
	/* Outcomes of the faulted runs: errno (0 for ok) -> count. */
	int counts[256];
	int points;			/* fault points the operation reached */
	int last;			/* the fault-free result */
	int violations;
	char shown[MAX_SHOWN][200];
	int retries;			/* reports swallowed by the rate limit */
};

static void violation(struct loop *l, int n, const char *fmt, ...)
{
	va_list ap;
	int i = l->violations++;

	if (i >= MAX_SHOWN)
		return;
	snprintf(l->shown[i], 20, "N=%d: ", n);
	va_start(ap, fmt);
	vsnprintf(l->shown[i] + strlen(l->shown[i]),
		  sizeof(l->shown[i]) - strlen(l->shown[i]), fmt, ap);
	va_end(ap);
}

static void outcomes(const struct loop *l)
{
	char buf[512] = "";
	size_t n = 0;
	int e;

	for (e = 0; e < 256; e++)
		if (l->counts[e])
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s x%d",
				      n ? ", " : "", errname(e), l->counts[e]);
	note("%s: %d fault points (%s), %d retried after the report rate limit; fault-free: %s",
	     l->what, l->points, n ? buf : "none", l->retries, errname(l->last));
}

static void verdict(struct loop *l, const char *desc, int finished)
{
	int i;

	outcomes(l);
	tap(!l->violations, "%s", desc);
	for (i = 0; i < l->violations && i < MAX_SHOWN; i++)
		note("%s", l->shown[i]);
	tap(finished, "%s: every fault point tried within %d", l->what, l->max);
}

/* ------------------------------------------------- the status file */

static int loop_status(int max)
{
	struct loop l = { .what = "status read", .max = max };
	struct lp_status ref, st;
	int nth = fi_nth_open(), n, e, finished = 0;
	long left;

	if (nth < 0 || status_read_retry(&ref)) {
		tap(0, "status read: set-up");
		return 1;
	}
	for (n = 1; n <= max; n++) {
		fi_nth_set(nth, n);
		e = status_read(&st);
		left = fi_nth_get(nth);
		fi_nth_set(nth, 0);
		if (left < 0) {
			violation(&l, n, "cannot read fail-nth back");
			break;
		}
		/* Whatever came back is the status text, up to an error. */
		if (st.len > ref.len || memcmp(st.text, ref.text, st.len))
			violation(&l, n, "%s after %zu bytes that differ from the status text",
				  errname(e), st.len);
		else if (!e && st.len != ref.len)
			violation(&l, n, "ok after %zu of %zu bytes", st.len, ref.len);
		if (left > 0) {
			l.last = e;
			if (e)
				violation(&l, n, "%s without a fault", errname(e));
			finished = 1;
			break;
		}
		l.points++;
		l.counts[e & 255]++;
	}
	close(nth);
	verdict(&l, "status read under fail-nth: the whole text or an errno", finished);
	return l.violations || !finished;
}

/* ------------------------------------------------------------ loads */

enum load_kind { LOAD_DENY, LOAD_ALLOW, LOAD_INITMOD };

static int do_load(enum load_kind kind, int fd, const char *buf, size_t len)
{
	long r;

	if (kind == LOAD_INITMOD)
		r = syscall(SYS_init_module, buf, (unsigned long)len, "");
	else
		r = syscall(SYS_finit_module, fd, "", 0);
	return r ? errno : 0;
}

static int loop_load(const char *path, enum load_kind kind, int max)
{
	struct loop l = { .max = max };
	const char *needle = kind == LOAD_INITMOD ? "LoadPin: kernel-module old-api-denied" :
			     "LoadPin: kernel-module denied";
	const char *key = kind == LOAD_ALLOW ? "allowed.kernel-module" :
			  "denied.kernel-module";
	struct lp_status st;
	int nth = fi_nth_open(), fd = -1, kmsg, n, e, finished = 0, retried = 0;
	char what[160], *buf = NULL;
	size_t len = 0;
	long left, before, after;

	snprintf(what, sizeof(what), "%s %s",
		 kind == LOAD_INITMOD ? "init_module of" :
		 kind == LOAD_DENY ? "denied finit_module of" : "allowed finit_module of",
		 path);
	l.what = what;
	if (kind == LOAD_INITMOD)
		e = read_file(path, &buf, &len);
	else
		e = (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 ? errno : 0;
	if (nth < 0 || e) {
		tap(0, "%s: set-up: %s", what, errname(e));
		return 1;
	}
	for (n = 1; n <= max; n++) {
		if (status_read_retry(&st))
			break;
		before = status_num(&st, key);
		kmsg = kmsg_open();
		fi_nth_set(nth, n);
		e = do_load(kind, fd, buf, len);
		left = fi_nth_get(nth);
		fi_nth_set(nth, 0);
		if (left < 0) {
			violation(&l, n, "cannot read fail-nth back");
			close(kmsg);
			break;
		}
		if (status_read_retry(&st)) {
			violation(&l, n, "the status file cannot be read afterwards");
			close(kmsg);
			break;
		}
		after = status_num(&st, key);
		if (kind != LOAD_ALLOW) {
			if (!e)
				violation(&l, n, "the denied load was allowed");
			else if (e == EPERM && after != before + 1)
				violation(&l, n, "EPERM but %s went from %ld to %ld",
					  key, before, after);
			else if (e == EPERM && !kmsg_has(kmsg, needle)) {
				if (retried == n) {
					violation(&l, n, "the denial was not reported, even after waiting");
				} else {
					/* The rate limit (10 in 5 s) swallowed the report. */
					close(kmsg);
					l.retries++;
					retried = n;
					sleep(6);
					n--;
					continue;
				}
			}
		} else if (e == EPERM) {
			violation(&l, n, "the allowed load was denied");
		}
		close(kmsg);
		if (left > 0) {
			l.last = e;
			if (kind != LOAD_ALLOW && e != EPERM)
				violation(&l, n, "%s without a fault, not EPERM", errname(e));
			finished = 1;
			break;
		}
		l.points++;
		l.counts[e & 255]++;
	}
	close(nth);
	if (fd >= 0)
		close(fd);
	free(buf);
	verdict(&l, kind == LOAD_ALLOW ?
		"an allowed load under fail-nth is never denied" :
		"a denied load under fail-nth is never allowed and always counted",
		finished);
	return l.violations || !finished;
}

/* ------------------------------------------------------------- pins */

/* Wait up to 10 s for the status file's state to be WANT. */
static int wait_state(const char *want, char *got, size_t size)
{
	struct lp_status st;
	int i;

	for (i = 0; i < 500; i++) {
		if (!status_read_retry(&st) && !status_str(&st, "state", got, size) &&
		    !strcmp(got, want))
			return 0;
		usleep(20000);
	}
	return -1;
}

static int loop_pin(const char *dev, const char *dir, const char *file, int max)
{
	struct loop l = { .what = "pinning finit_module", .max = max };
	char path[512], state[32], devstr[32], want_dev[32];
	struct lp_status st;
	struct stat sb;
	int nth = fi_nth_open(), fd, n, e, finished = 0;
	long left;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (nth < 0 || stat(dev, &sb) || !S_ISBLK(sb.st_mode)) {
		tap(0, "pinning finit_module: set-up (%s a block device?)", dev);
		return 1;
	}
	snprintf(want_dev, sizeof(want_dev), "%u:%u", major(sb.st_rdev), minor(sb.st_rdev));
	for (n = 1; n <= max; n++) {
		if (wait_state("unpinned", state, sizeof(state))) {
			violation(&l, n, "state '%s', not unpinned (loadpin.enforce=0?)", state);
			break;
		}
		if (mount(dev, dir, "ext4", MS_RDONLY, NULL)) {
			violation(&l, n, "mount %s: %s", dev, errname(errno));
			break;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			violation(&l, n, "open %s: %s", path, errname(errno));
			umount(dir);
			break;
		}
		fi_nth_set(nth, n);
		e = do_load(LOAD_ALLOW, fd, NULL, 0);
		left = fi_nth_get(nth);
		fi_nth_set(nth, 0);
		close(fd);
		if (status_read_retry(&st) || status_str(&st, "state", state, sizeof(state))) {
			violation(&l, n, "the status file cannot be read afterwards");
			umount(dir);
			break;
		}
		status_str(&st, "pinned_dev", devstr, sizeof(devstr));
		/* A load the module loader saw went through LoadPin: pinned. */
		if (e == ENOEXEC && strcmp(state, "pinned"))
			violation(&l, n, "ENOEXEC but the state is %s", state);
		else if (!strcmp(state, "pinned") && strcmp(devstr, want_dev))
			violation(&l, n, "pinned to %s, not %s", devstr, want_dev);
		else if (strcmp(state, "pinned") && strcmp(state, "unpinned"))
			violation(&l, n, "state %s", state);
		else if (e == EPERM || !e)
			violation(&l, n, "%s from the filesystem being pinned", errname(e));
		if (umount(dir)) {
			violation(&l, n, "umount %s: %s", dir, errname(errno));
			break;
		}
		if (left < 0) {
			violation(&l, n, "cannot read fail-nth back");
			break;
		}
		if (left > 0) {
			l.last = e;
			if (e != ENOEXEC)
				violation(&l, n, "%s without a fault, not ENOEXEC", errname(e));
			finished = 1;
			break;
		}
		l.points++;
		l.counts[e & 255]++;
	}
	close(nth);
	verdict(&l, "a pinning load under fail-nth pins the right filesystem or none",
		finished);
	return l.violations || !finished;
}

/* ------------------------------------------------------------- feed */

static int feed(const char *list, long count, unsigned int n, const char *want)
{
	char path_buf[4096], final[16];
	struct lp_status st;
	int nth = fi_nth_open(), lfd, vfd, e, e2, bad = 0;
	unsigned int ufd;
	long left = -1, digests;

	lfd = open(list, O_RDONLY | O_CLOEXEC);
	vfd = open(LP_VERITY, O_RDONLY | O_CLOEXEC);
	if (nth < 0 || lfd < 0 || vfd < 0 || status_read_retry(&st)) {
		tap(0, "feed: set-up");
		return 1;
	}
	status_str(&st, "verity_final", final, sizeof(final));
	if (strcmp(final, "0")) {
		tap(0, "feed: the interface is still open before the feed");
		return 1;
	}
	/* In the page cache: no readahead allocation in the count. */
	while (read(lfd, path_buf, sizeof(path_buf)) > 0)
		;
	ufd = lfd;
	if (n)
		fi_nth_set(nth, n);
	e = ioctl(vfd, LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS, &ufd) ? errno : 0;
	if (n) {
		left = fi_nth_get(nth);
		fi_nth_set(nth, 0);
	}
	note("feed of %s with fail-nth %u: %s, the fault %s", list, n, errname(e),
	     !n ? "not asked for" : left == 0 ? "injected" : "not reached");
	status_read_retry(&st);
	digests = status_num(&st, "verity_digests");
	status_str(&st, "verity_final", final, sizeof(final));
	note("verity_digests: %ld, verity_final: %s", digests, final);
	if (e ? digests != 0 : digests != count) {
		bad = 1;
		tap(0, "a feed under a fault publishes the whole list or nothing");
		note("%s with %ld of %ld digests published", errname(e), digests, count);
	} else {
		tap(1, "a feed under a fault publishes the whole list or nothing");
	}
	if (want) {
		tap(!strcmp(errname(e), want), "the feed's result is %s", want);
		bad |= strcmp(errname(e), want) != 0;
	}
	e2 = ioctl(vfd, LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS, &ufd) ? errno : 0;
	tap(!strcmp(final, "1") && e2 == EPERM,
	    "the interface is final after the feed: another one fails with EPERM");
	if (strcmp(final, "1") || e2 != EPERM) {
		note("verity_final %s, the second feed: %s", final, errname(e2));
		bad = 1;
	}
	close(lfd);
	close(vfd);
	close(nth);
	return bad;
}

/* ------------------------------------------------------------- main */

static int usage(void)
{
	fprintf(stderr,
		"usage: lpfault setup [SYM...] | knob ATTR KNOB VALUE | range ATTR require|reject SYM|-\n"
		"       lpfault status [MAX] | load PATH deny|allow [MAX] | initmod PATH [MAX]\n"
		"       lpfault pin DEV DIR FILE [MAX] | feed LIST COUNT N [RESULT]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	struct timespec t0;
	int r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!strcmp(cmd, "setup")) {
		r = setup((const char *const *)argv + 2, argc - 2);
		tap(!r, "fault injection set up: %s", r ? strerror(r) : "ok");
		return !!r;
	}
	if (!strcmp(cmd, "knob") && argc == 5)
		return done(knob(argv[2], argv[3], argv[4]));
	if (!strcmp(cmd, "range") && argc == 5)
		return done(range(argv[2], argv[3], argv[4]));
	if (!strcmp(cmd, "status") && argc <= 3)
		r = loop_status(argc > 2 ? atoi(argv[2]) : MAX_DEFAULT);
	else if (!strcmp(cmd, "load") && (argc == 4 || argc == 5) &&
		 (!strcmp(argv[3], "deny") || !strcmp(argv[3], "allow")))
		r = loop_load(argv[2], strcmp(argv[3], "deny") ? LOAD_ALLOW : LOAD_DENY,
			      argc > 4 ? atoi(argv[4]) : MAX_DEFAULT);
	else if (!strcmp(cmd, "initmod") && (argc == 3 || argc == 4))
		r = loop_load(argv[2], LOAD_INITMOD, argc > 3 ? atoi(argv[3]) : MAX_DEFAULT);
	else if (!strcmp(cmd, "pin") && (argc == 5 || argc == 6))
		r = loop_pin(argv[2], argv[3], argv[4], argc > 5 ? atoi(argv[5]) : MAX_DEFAULT);
	else if (!strcmp(cmd, "feed") && (argc == 5 || argc == 6))
		r = feed(argv[2], atol(argv[3]), strtoul(argv[4], NULL, 0),
			 argc > 5 ? argv[5] : NULL);
	else
		return usage();
	note("%s took %ld ms", cmd, elapsed_ms(&t0));
	return r;
}
