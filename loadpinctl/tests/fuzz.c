// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded fuzz test of loadpinctl's parsers, built with ASan and UBSan:
 * random mutations (flipped, inserted, deleted bytes, truncations,
 * spliced lines) of valid status files, digest lists, make's sources and
 * log lines, for a fixed number of rounds or seconds, whichever ends
 * first. No libFuzzer: only libc. Usage: fuzz [ROUNDS [SECONDS [SEED]]].
 * Prints TAP: one line per parser; a sanitizer report aborts the run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loadpinctl.h"

static uint32_t state;

static uint32_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 17;
	state ^= state << 5;
	return state;
}

static const char *const status_seeds[] = {
	"enforce: 1\nstate: pinned\npinned_dev: 254:0\npinned_fstype: ext4\n"
	"pinned_writable: 0\nroot: any\ninitramfs: handoff\ninitramfs_trusted: 0\n"
	"require_ro: 0\nexcluded: kexec-image,kexec-initramfs\nverity_digests: 1\n"
	"verity_final: 1\nparam_errors: 0\nallowed.firmware: 2\ndenied.firmware: 1\n"
	"allowed.kernel-module: 7\ndenied.kernel-module: 3\nroot_dev: -\n",
	"enforce: 1\nstate: pinned\npinned_dev: 254:0\npinned_fstype: ext4\n"
	"pinned_writable: 0\nroot: /dev/vda,/dev/vdb\ninitramfs: pin\n"
	"initramfs_trusted: 0\nrequire_ro: 0\nexcluded: none\nverity_digests: 0\n"
	"verity_final: 0\nparam_errors: 0\nroot_dev: 254:0,254:16,-\npins: 3\n"
	"pin0: 254:0 ext4 ro pinned vda\npin1: 254:16 squashfs ro gone vdb\n"
	"pin2: - - - unpinned -\n",
};

static const char *const list_seeds[] = {
	LP_DIGESTS_HEADER "\n00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n0a0b\n",
	LP_DIGESTS_HEADER "\nAABBCCDD\nff\n \t\r\n",
};

static const char *const line_seeds[] = {
	"0 32768 verity 1 /dev/vdb /dev/vdc 4096 4096 4096 1 sha256 0011223344556677 8899 1 ignore_corruption",
	"vgood: 0 32768 verity 1 254:16 254:32 4096 4096 4096 1 sha256 aabb -",
	"Root hash:      00112233445566778899aabbccddeeff",
	"[    3.141592] LoadPin: kernel-module denied obj=\"/tmp/lp_b.ko\" pid=123 cmdline=\"lpctl finit /tmp/lp_b.ko\"",
	"5,812,3141592,-;LoadPin: 12 reports suppressed (counters: x)",
	"audit: type=1499 audit(1.2:3): op=denied type=kernel-module allowed=0 path=\"/x\" dev=0:22 ino=3 pid=310 comm=\"insmod\" pinned=254:0",
};

static const char alphabet[] = "0123456789abcdefABCDEF :,.-_\n\r\t#\"=\\[]<>\0\xff\xa0";

static size_t mutate(char *buf, size_t len, size_t max)
{
	int edits = 1 + rnd() % 6, i;

	if (rnd() % 16 == 0) {
		len = rnd() % max;
		for (i = 0; i < (int)len; i++)
			buf[i] = rnd();
		return len;
	}
	for (i = 0; i < edits && len; i++) {
		size_t at = rnd() % len, l2;
		char c = alphabet[rnd() % (sizeof(alphabet) - 1)];

		switch (rnd() % 5) {
		case 0:
			buf[at] = c;
			break;
		case 1:
			if (len < max) {
				memmove(buf + at + 1, buf + at, len - at);
				buf[at] = c;
				len++;
			}
			break;
		case 2:
			memmove(buf + at, buf + at + 1, len - at - 1);
			len--;
			break;
		case 3:
			len = at;
			break;
		case 4:	/* repeat a stretch: long lines, many keys */
			l2 = rnd() % (len - at + 1);
			if (len + l2 <= max) {
				memmove(buf + at + l2, buf + at, len - at);
				len += l2;
			}
			break;
		}
	}
	return len;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 200000;
	double secs = argc > 2 ? atof(argv[2]) : 20;
	const size_t max = 8192;
	long r, done = 0, acc[3] = { 0 }, bad = 0;
	struct lp_status *st = malloc(sizeof(*st));
	struct lp_digest d[8];
	struct lp_event ev;
	char *buf = malloc(max + 1), *heap, err[256], hex[160];
	clock_t start = clock();
	size_t len, count, k;
	int line, which;
	bool warn;

	state = argc > 3 ? strtoul(argv[3], NULL, 0) : 0x10ad914;
	printf("# seed %#x, at most %ld rounds or %.0f s\n", state, rounds, secs);
	for (r = 0; r < rounds; r++) {
		if ((r & 1023) == 0 &&
		    (double)(clock() - start) / CLOCKS_PER_SEC > secs)
			break;
		which = r % 3;
		if (which == 0) {
			const char *s = status_seeds[rnd() % 2];

			len = strlen(s);
			memcpy(buf, s, len);
		} else if (which == 1) {
			const char *s = list_seeds[rnd() % 2];

			len = strlen(s);
			memcpy(buf, s, len);
		} else {
			const char *s = line_seeds[rnd() % 6];

			len = strlen(s);
			memcpy(buf, s, len);
		}
		len = mutate(buf, len, max);
		/* An exact-size heap copy: ASan sees any read past the end. */
		heap = malloc(len + 1);
		memcpy(heap, buf, len);
		if (which == 0) {
			if (!lp_status_parse(heap, len, st, &line, err, sizeof(err))) {
				acc[0]++;
				if (st->enforce < 0 || !st->state[0] || st->npins > LP_MAX_PINS)
					bad++;
			}
		} else if (which == 1) {
			if (!lp_digests_parse(heap, len, d, 8, &count, &line, err,
					      sizeof(err))) {
				acc[1]++;
				if (!count || memcmp(heap, LP_DIGESTS_HEADER "\n",
						     sizeof(LP_DIGESTS_HEADER)))
					bad++;
				for (k = 0; k < count && k < 8; k++)
					if (d[k].len < 1 || d[k].len > 64)
						bad++;
			}
		} else {
			heap[len] = '\0';
			if (lp_source_line(heap, hex, sizeof(hex), &warn, err,
					   sizeof(err)) == 1) {
				acc[2]++;
				if (strlen(hex) % 2 || !strlen(hex) || strlen(hex) > 128)
					bad++;
			}
			lp_log_line(heap, &ev);
		}
		free(heap);
		done++;
	}
	printf("# %ld rounds in %.1f s: accepted %ld status files, %ld lists, %ld sources\n",
	       done, (double)(clock() - start) / CLOCKS_PER_SEC, acc[0], acc[1], acc[2]);
	printf("%sok 1 fuzz: status file parser (%ld accepted, invariants hold)\n",
	       bad || !acc[0] ? "not " : "", acc[0]);
	printf("%sok 2 fuzz: digest list parser (%ld accepted, invariants hold)\n",
	       bad || !acc[1] ? "not " : "", acc[1]);
	printf("%sok 3 fuzz: digest sources and log lines (%ld accepted)\n",
	       bad || !acc[2] ? "not " : "", acc[2]);
	printf("%sok 4 fuzz: at least 10000 rounds ran (%ld)\n",
	       done < 10000 ? "not " : "", done);
	printf("1..4\n");
	free(buf);
	free(st);
	return bad != 0;
}
