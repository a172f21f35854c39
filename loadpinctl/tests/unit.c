// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of loadpinctl's parsers, TAP on stdout. Built with ASan and
 * UBSan. The digest-list cases are the kernel's KUnit cases, included
 * from the kernel tree (security/loadpin/verity_cases.h), not copied.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadpinctl.h"

static int n, failed;

static void ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", cond ? "" : "not ", ++n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failed += !cond;
}

/* ---- status file ---- */

#define COUNTERS \
	"allowed.unknown: 0\ndenied.unknown: 0\n" \
	"allowed.firmware: 2\ndenied.firmware: 1\n" \
	"allowed.kernel-module: 7\ndenied.kernel-module: 3\n" \
	"allowed.kexec-image: 0\ndenied.kexec-image: 0\n" \
	"allowed.kexec-initramfs: 0\ndenied.kexec-initramfs: 0\n" \
	"allowed.security-policy: 1\ndenied.security-policy: 0\n" \
	"allowed.x509-certificate: 0\ndenied.x509-certificate: 0\n"

static const char st_pinned[] =
	"enforce: 1\nstate: pinned\npinned_dev: 254:0\npinned_fstype: ext4\n"
	"pinned_writable: 0\nroot: any\ninitramfs: handoff\ninitramfs_trusted: 0\n"
	"require_ro: 0\nexcluded: kexec-image,kexec-initramfs\nverity_digests: 1\n"
	"verity_final: 1\nparam_errors: 0\n" COUNTERS "root_dev: -\n";

static const char st_unpinned[] =
	"enforce: 0\nstate: unpinned\npinned_dev: -\npinned_fstype: -\n"
	"pinned_writable: -\nroot: /dev/vdb\ninitramfs: pin\ninitramfs_trusted: 0\n"
	"require_ro: 1\nexcluded: none\nverity_digests: disabled\n"
	"verity_final: 1\nparam_errors: 2\n" COUNTERS "root_dev: 254:16\n";

/*
 * Several pins (loadpin.root= with a list), as securityfs.c writes them:
 * "pins" and "pin<i>" at the end, root_dev one entry per device.
 */
static const char st_multi[] =
	"enforce: 1\nstate: pinned\npinned_dev: 254:0\npinned_fstype: ext4\n"
	"pinned_writable: 0\nroot: /dev/vda,/dev/vdb,/dev/vdc,PARTLABEL=x\ninitramfs: pin\n"
	"initramfs_trusted: 0\nrequire_ro: 0\nexcluded: none\nverity_digests: 0\n"
	"verity_final: 0\nparam_errors: 0\n" COUNTERS
	"root_dev: 254:0,254:16,254:32,-\npins: 4\n"
	"pin0: 254:0 ext4 ro pinned vda\npin1: 254:16 squashfs ro gone vdb\n"
	"pin2: none tmpfs rw pinned -\npin3: - - - unpinned -\n";

static void test_status(void)
{
	struct lp_status st;
	char err[256], buf[4096];
	int line, r;

	r = lp_status_parse(st_pinned, strlen(st_pinned), &st, &line, err, sizeof(err));
	ok(!r, "status: single pin parses (%s)", r ? err : "ok");
	ok(st.enforce == 1 && !strcmp(st.state, "pinned") && st.npins == 1 &&
	   !strcmp(st.pin[0].dev, "254:0") && !strcmp(st.pin[0].fstype, "ext4") &&
	   st.pin[0].writable == 0, "status: the pin's fields");
	ok(st.excluded[3] && st.excluded[4] && !st.excluded[2],
	   "status: excluded kexec-image,kexec-initramfs");
	ok(st.allowed[2] == 7 && st.denied[2] == 3 && st.denied[1] == 1,
	   "status: counters");
	ok(st.verity_digests == 1 && st.verity_final == 1 && st.nroot_dev == 1 &&
	   !strcmp(st.root_dev[0], "-") &&
	   !strcmp(st.initramfs, "handoff") && st.initramfs_trusted == 0,
	   "status: verity, root_dev -, initramfs");

	r = lp_status_parse(st_unpinned, strlen(st_unpinned), &st, &line, err, sizeof(err));
	ok(!r && st.enforce == 0 && st.npins == 1 &&
	   !strcmp(st.pin[0].state, "unpinned") && st.require_ro == 1 &&
	   st.verity_digests == -1 && st.param_errors == 2 && st.nroot_dev == 1 &&
	   !strcmp(st.root_dev[0], "254:16") && !strcmp(st.root, "/dev/vdb"),
	   "status: unpinned, verity disabled, root_dev resolved");

	r = lp_status_parse(st_multi, strlen(st_multi), &st, &line, err, sizeof(err));
	ok(!r, "status: multi-pin format parses (%s)", r ? err : "ok");
	ok(st.multi && st.npins == 4 && !strcmp(st.pin[1].dev, "254:16") &&
	   !strcmp(st.pin[1].state, "gone") && !strcmp(st.pin[1].devname, "vdb") &&
	   !strcmp(st.pin[2].dev, "none") && st.pin[2].writable == 1 &&
	   !st.pin[2].devname[0] && !strcmp(st.pin[0].devname, "vda") &&
	   !strcmp(st.pin[3].state, "unpinned") && !strcmp(st.pin[3].dev, "-"),
	   "status: the four pins, one unpinned");
	ok(st.nroot_dev == 4 && !strcmp(st.root_dev[1], "254:16") &&
	   !strcmp(st.root_dev[3], "-"), "status: root_dev as a list, one unresolved");

	snprintf(buf, sizeof(buf), "%s", st_multi);
	memcpy(strstr(buf, "pin3: - - - unpinned -"), "pin3: - - - unpinned x", 22);
	r = lp_status_parse(buf, strlen(buf), &st, &line, err, sizeof(err));
	ok(r, "status: an unpinned pin line must be '- - - unpinned -'");
	snprintf(buf, sizeof(buf), "%s", st_multi);
	memcpy(strstr(buf, "254:32,-"), "254:32,,", 8);
	r = lp_status_parse(buf, strlen(buf), &st, &line, err, sizeof(err));
	ok(r, "status: an empty root_dev entry is malformed");

	snprintf(buf, sizeof(buf), "%sfuture_key: 42\nanother.one: a b c\n", st_pinned);
	r = lp_status_parse(buf, strlen(buf), &st, &line, err, sizeof(err));
	ok(!r && st.nkv == 30 && !strcmp(st.kv[29].value, "a b c"),
	   "status: unknown keys at the end are kept and ignored");
	snprintf(buf, sizeof(buf), "%sallowed.new-type: 5\n", st_pinned);
	r = lp_status_parse(buf, strlen(buf), &st, &line, err, sizeof(err));
	ok(!r, "status: a counter of an unknown type is ignored");
	snprintf(buf, sizeof(buf), "%.*s", (int)(strstr(st_pinned, "excluded") - st_pinned),
		 st_pinned);
	strcat(buf, "excluded: kernel-module,future-type\nverity_digests: 0\nverity_final: 0\n");
	r = lp_status_parse(buf, strlen(buf), &st, &line, err, sizeof(err));
	ok(!r && st.excluded[2], "status: an unknown excluded type is ignored");

	/* Malformed files: each names its line. */
	r = lp_status_parse("enforce: 1\nstate pinned\n", 24, &st, &line, err, sizeof(err));
	ok(r && line == 2, "status: a line without ': ' fails at line 2 (%d: %s)", line, err);
	snprintf(buf, sizeof(buf), "%s", st_pinned);
	memcpy(strstr(buf, "enforce: 1"), "enforce: 7", 10);
	r = lp_status_parse(buf, strlen(buf), &st, &line, err, sizeof(err));
	ok(r && line == 1, "status: enforce: 7 is malformed (%s)", err);
	r = lp_status_parse(st_pinned + 11, strlen(st_pinned + 11), &st, &line, err, sizeof(err));
	ok(r && line == 0 && strstr(err, "enforce"), "status: a missing key is named (%s)", err);
	snprintf(buf, sizeof(buf), "%sstate: pinned\n", st_pinned);
	r = lp_status_parse(buf, strlen(buf), &st, &line, err, sizeof(err));
	ok(r && line == 29, "status: a key given twice fails (%d)", line);
	snprintf(buf, sizeof(buf), "%spins: 2\npin0: 254:0 ext4 ro pinned vda\n", st_pinned);
	r = lp_status_parse(buf, strlen(buf), &st, &line, err, sizeof(err));
	ok(r, "status: pins: 2 with one pin line fails (%s)", err);
	snprintf(buf, sizeof(buf), "%spins: 1\npin0: 254:0 ext4 maybe pinned vda\n", st_pinned);
	r = lp_status_parse(buf, strlen(buf), &st, &line, err, sizeof(err));
	ok(r && line == 30, "status: a pin line with a bad ro|rw fails (%d)", line);
	r = lp_status_parse("", 0, &st, &line, err, sizeof(err));
	ok(r, "status: an empty file fails");
	r = lp_status_parse("enforce: 1\0\n", 12, &st, &line, err, sizeof(err));
	ok(r, "status: a NUL byte fails");
}

/* ---- digest lists ---- */

struct vcase {
	const char *name, *data;
	size_t len;		/* bytes of data: it may hold NUL bytes */
	int ret, count;
	unsigned int len0;
};

#ifdef HAVE_VERITY_CASES_H
#define LOADPIN_VERITY_CASE(name, data, ret, count, len0) \
	{ name, data, sizeof(data) - 1, ret, count, len0 },
static const struct vcase vcases[] = {
#include "verity_cases.h"
};
#define NVCASES ARRAY_SIZE(vcases)
#endif

static void test_verity_cases(void)
{
#ifdef HAVE_VERITY_CASES_H
	struct lp_digest d[8];
	char err[256];
	size_t i, count;
	int line, r;

	for (i = 0; i < NVCASES; i++) {
		const struct vcase *c = &vcases[i];

		r = lp_digests_parse(c->data, c->len, d, 8, &count,
				     &line, err, sizeof(err));
		ok((r ? -EPROTO : 0) == c->ret &&
		   (r ? 0 : (int)count) == c->count &&
		   (!c->count || d[0].len == c->len0),
		   "verity_cases.h: %s (kernel: %s, %d digests)", c->name,
		   c->ret ? "EPROTO" : "ok", c->count);
	}
	ok(NVCASES >= 20, "verity_cases.h: %zu shared cases", (size_t)NVCASES);
#else
	printf("ok %d verity_cases.h: the kernel's cases # SKIP "
	       "security/loadpin/verity_cases.h is not in the kernel tree yet\n", ++n);
#endif
}

#define HDR LP_DIGESTS_HEADER "\n"
#define D32 "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

static void test_digests(void)
{
	static const char two[] = HDR "0102ff\nA0b1\n";
	struct lp_digest d[4];
	char err[256], *big;
	size_t count, i;
	int line, r;

	r = lp_digests_parse(two, strlen(two), d, 4, &count, &line, err, sizeof(err));
	ok(!r && count == 2 && d[0].len == 3 && d[0].data[2] == 0xff &&
	   d[1].len == 2 && d[1].data[0] == 0xa0 && d[1].data[1] == 0xb1,
	   "digests: values as the kernel's test_parse_verity_values");
	r = lp_digests_parse(HDR "aa\0bb\n", sizeof(HDR) + 5, d, 4, &count, &line,
			     err, sizeof(err));
	ok(!r && count == 1 && d[0].len == 1 && d[0].data[0] == 0xaa,
	   "digests: a NUL ends the list, as in the kernel");
	r = lp_digests_parse(HDR D32 "\n0g\n", strlen(HDR D32 "\n0g\n"), d, 4, &count,
			     &line, err, sizeof(err));
	ok(r && line == 3 && !strcmp(err, "not a hex digest"),
	   "digests: 'line 3: not a hex digest' as the kernel says it");
	r = lp_digests_parse(HDR "abc\n", strlen(HDR "abc\n"), d, 4, &count, &line,
			     err, sizeof(err));
	ok(r && line == 2 && !strcmp(err, "a digest is 2 to 128 hex digits, an even number"),
	   "digests: odd length: the kernel's message at line 2");
	r = lp_digests_parse(HDR D32 "\n\xa0", strlen(HDR D32 "\n\xa0"), d, 4, &count,
			     &line, err, sizeof(err));
	ok(!r && count == 1, "digests: a trailing 0xa0 is white space to the kernel");
	r = lp_digests_parse(HDR D32 "\v\f", strlen(HDR D32 "\v\f"), d, 4, &count,
			     &line, err, sizeof(err));
	ok(!r && count == 1, "digests: trailing \\v\\f are white space");
	r = lp_digests_parse(HDR "\n", strlen(HDR "\n"), d, 4, &count, &line, err,
			     sizeof(err));
	ok(r && line == 0 && !strcmp(err, "the list holds no digest"),
	   "digests: header and a blank line: no digest");

	/* 256 KiB is read; a byte more is refused (EFBIG in the kernel). */
	big = malloc(LP_DIGESTS_MAX_SIZE + 2);
	memcpy(big, HDR, strlen(HDR));
	for (i = strlen(HDR); i < LP_DIGESTS_MAX_SIZE; i += 3)
		memcpy(big + i, "ab\n", 3);
	for (i = LP_DIGESTS_MAX_SIZE - 1; big[i - 1] != '\n'; i--)
		big[i - 1] = ' ';
	for (i = LP_DIGESTS_MAX_SIZE; i > 0 && big[i - 1] != '\n'; i--)
		;
	memset(big + i, ' ', LP_DIGESTS_MAX_SIZE - i);
	r = lp_digests_parse(big, LP_DIGESTS_MAX_SIZE, NULL, 0, &count, &line, err,
			     sizeof(err));
	ok(!r && count > 80000, "digests: a 256 KiB list is accepted (%zu digests)", count);
	big[LP_DIGESTS_MAX_SIZE] = ' ';
	r = lp_digests_parse(big, LP_DIGESTS_MAX_SIZE + 1, NULL, 0, &count, &line,
			     err, sizeof(err));
	ok(r, "digests: 256 KiB + 1 is refused (%s)", err);
	free(big);
}

/* ---- digests make's sources ---- */

static void test_sources(void)
{
	static const struct {
		const char *line;
		int ret;
		const char *hex;
		bool warn;
	} c[] = {
		{ D32, 1, D32, false },
		{ "  AABBccdd\r", 1, "aabbccdd", false },
		{ "abc", -1, NULL, false },
		{ "", 0, NULL, false },
		{ "# LOADPIN_TRUSTED_VERITY_ROOT_DIGESTS", 0, NULL, false },
		{ "Root hash:      " D32, 1, D32, false },
		{ "Root hash:      xyz", -1, NULL, false },
		{ "VERITY header information for /tmp/h", 0, NULL, false },
		{ "UUID:            2b3ee38a-6a0f-4a1e-8f8e-7e4a2c3b7f10", 0, NULL, false },
		{ "Salt:            " D32, 0, NULL, false },
		{ "Hash algorithm:  sha256", 0, NULL, false },
		{ "0 32768 verity 1 /dev/vdb /dev/vdc 4096 4096 4096 1 sha256 "
		  D32 D32 "00 " D32, -1, NULL, false },
		{ "0 32768 verity 1 /dev/vdb /dev/vdc 4096 4096 4096 1 sha256 "
		  D32 " " D32, 1, D32, false },
		{ "vgood: 0 32768 verity 1 254:16 254:32 4096 4096 4096 1 sha256 "
		  D32 " -", 1, D32, false },
		{ "0 32768 verity 1 DATA HASH 4096 4096 4096 1 sha256 " D32 " " D32
		  " 1 ignore_corruption", 1, D32, true },
		{ "0 32768 verity 1 DATA HASH", -1, NULL, false },
		{ "root: 0 2048 linear 8:1 0", 0, NULL, false },
		{ "0 2048 linear 8:1 0", 0, NULL, false },
		{ "hello world", -1, NULL, false },
	};
	char hex[160], err[200];
	bool warn;
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		r = lp_source_line(c[i].line, hex, sizeof(hex), &warn, err, sizeof(err));
		ok(r == c[i].ret && (r != 1 || !strcmp(hex, c[i].hex)) &&
		   warn == c[i].warn, "source line %zu: '%.40s' -> %d%s", i,
		   c[i].line, c[i].ret, r < 0 ? "" : "");
	}
}

/* ---- kernel log ---- */

static void test_log(void)
{
	struct lp_event e;
	int k;

	k = lp_log_line("[    3.141592] LoadPin: kernel-module denied obj=\"/tmp/lp_b.ko\" "
			"pid=123 cmdline=\"lpctl finit /tmp/lp_b.ko\"", &e);
	ok(k == LP_EV_DECISION && !strcmp(e.type, "kernel-module") &&
	   !strcmp(e.op, "denied") && !strcmp(e.obj, "/tmp/lp_b.ko") && e.pid == 123 &&
	   !strcmp(e.cmdline, "lpctl finit /tmp/lp_b.ko") &&
	   !strcmp(e.when, "[    3.141592]"), "log: a dmesg decision line");
	k = lp_log_line("5,812,3141592,-;LoadPin: kernel-module old-api-denied obj=<unknown> "
			"pid=7 cmdline=\"insmod x\"", &e);
	ok(k == LP_EV_DECISION && !strcmp(e.op, "old-api-denied") &&
	   !strcmp(e.obj, "<unknown>") && e.pid == 7 && !strcmp(e.when, "[    3.141592]"),
	   "log: a kmsg record, obj=<unknown>");
	k = lp_log_line("LoadPin: firmware pinning-ignored obj=\"/a b\\x22c\" pid=1 cmdline=\"x\"", &e);
	ok(k == LP_EV_DECISION && !strcmp(e.obj, "/a b\\x22c"), "log: an escaped path");
	k = lp_log_line("[ 9.0] LoadPin: 9990 reports suppressed (counters: /sys/kernel/security/loadpin/status)", &e);
	ok(k == LP_EV_SUPPRESSED && e.suppressed == 9990, "log: a suppressed summary");
	k = lp_log_line("[ 1.0] LoadPin: vda (254:0): read-only", &e);
	ok(k == LP_EV_OTHER && !strcmp(e.text, "vda (254:0): read-only"),
	   "log: the pin record is another LoadPin line");
	k = lp_log_line("[ 2.0] audit: type=1499 audit(1764770000.123:45): op=denied "
			"type=kernel-module allowed=0 path=\"/tmp/x.ko\" dev=0:22 ino=3 "
			"pid=310 comm=\"insmod\" pinned=254:0", &e);
	ok(k == LP_EV_AUDIT && !strcmp(e.op, "denied") && !strcmp(e.type, "kernel-module") &&
	   !strcmp(e.obj, "/tmp/x.ko") && e.pid == 310 && !strcmp(e.comm, "insmod") &&
	   !strcmp(e.pinned, "254:0") && !strcmp(e.allowed, "0"),
	   "log: an audit record in the kernel log");
	k = lp_log_line("type=UNKNOWN[1499] msg=audit(1764770000.123:46): op=old-api-denied "
			"type=firmware allowed=0 pid=9 comm=\"udevd\" pinned=none", &e);
	ok(k == LP_EV_AUDIT && !strcmp(e.op, "old-api-denied") && !e.obj[0] &&
	   !strcmp(e.pinned, "none"), "log: an audit.log record without a path");
	k = lp_log_line("[ 2.0] audit: type=1499 audit(1764770000.123:47): lsm=loadpin "
			"op=kernel-module decision=denied res=0 pid=310 comm=\"insmod\" "
			"path=\"/tmp/x.ko\" dev=\"tmpfs\" ino=3 state=pinned pinned_dev=254:0", &e);
	ok(k == LP_EV_AUDIT && !strcmp(e.op, "denied") && !strcmp(e.type, "kernel-module") &&
	   !strcmp(e.allowed, "0") && !strcmp(e.obj, "/tmp/x.ko") && e.pid == 310 &&
	   !strcmp(e.comm, "insmod") && !strcmp(e.pinned, "254:0"),
	   "log: the lsm=loadpin audit record (op is the type, decision the verdict)");
	k = lp_log_line("type=UNKNOWN[1499] msg=audit(12/03/2026 16:00:00.123:48) : lsm=loadpin "
			"op=firmware decision=pinned res=yes pid=9 comm=udevd path=/lib/a /fw.bin "
			"dev=ext4 ino=12 state=pinned pinned_dev=254:0", &e);
	ok(k == LP_EV_AUDIT && !strcmp(e.op, "pinned") && !strcmp(e.allowed, "1") &&
	   !strcmp(e.obj, "/lib/a /fw.bin") && !strcmp(e.comm, "udevd"),
	   "log: ausearch -i output (res=yes, unquoted fields, a path with a space)");
	k = lp_log_line("type=UNKNOWN[1499] msg=audit(1.2:49): lsm=loadpin op=kernel-module "
			"decision=old-api-denied res=0 pid=9 comm=\"m\" state=gone \n", &e);
	ok(k == LP_EV_AUDIT && !strcmp(e.pinned, "gone") && !e.obj[0],
	   "log: an audit record without a file, the pin gone");
	k = lp_log_line("[ 1.0] EXT4-fs (vda): mounted filesystem", &e);
	ok(k == LP_EV_NONE, "log: other lines are not LoadPin's");
	k = lp_log_line("LoadPin: kernel-module denied", &e);
	ok(k == LP_EV_OTHER, "log: a truncated report is not a decision");
}

int main(void)
{
	test_status();
	test_verity_cases();
	test_digests();
	test_sources();
	test_log();
	printf("1..%d\n", n);
	return failed != 0;
}
