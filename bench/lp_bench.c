// SPDX-License-Identifier: GPL-2.0
/*
 * lp_bench - time security_kernel_read_file() from inside the kernel
 *
 * Loaded with finit_module(2) from the pinned filesystem, it opens
 * @allow (a file there) and/or @deny (a file elsewhere) and calls
 * security_kernel_read_file() on them in tight loops, the way
 * kernel_read_file() does before reading a module or firmware. It prints
 * one line per figure:
 *
 *   lp_bench: allow ns_per_call=N.NN calls=N rounds=N
 *   lp_bench: deny start
 *   lp_bench: deny ns_per_call=N.NN calls=N denied=N slab_peak_kib=N
 *
 * The allow figure is the median of @rounds rounds of @calls calls. The
 * deny figure is one round of @denials calls (what a flood costs),
 * with the peak growth of unreclaimable slab memory sampled after every
 * call. Init then fails with -ECANCELED so that the module never stays.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kernel_read_file.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/sort.h>
#include <linux/vmstat.h>

static char *allow;
module_param(allow, charp, 0);
MODULE_PARM_DESC(allow, "a file on the pinned filesystem");
static char *deny;
module_param(deny, charp, 0);
MODULE_PARM_DESC(deny, "a file on another filesystem");
static unsigned int calls = 100000;
module_param(calls, uint, 0);
MODULE_PARM_DESC(calls, "calls per allow round");
static unsigned int rounds = 7;
module_param(rounds, uint, 0);
MODULE_PARM_DESC(rounds, "allow rounds (the median is printed)");
static unsigned int denials = 10000;
module_param(denials, uint, 0);
MODULE_PARM_DESC(denials, "denied calls");

#define MAX_ROUNDS 31

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void print_ns(const char *what, u64 ns, unsigned int n, const char *rest)
{
	/* Hundredths of a nanosecond per call, without floating point. */
	u64 centi = div_u64(ns * 100, n);

	pr_info("%s ns_per_call=%llu.%02llu calls=%u %s\n", what,
		div_u64(centi, 100), centi % 100, n, rest);
}

static int bench_allow(void)
{
	u64 times[MAX_ROUNDS];
	struct file *file;
	unsigned int r, i;
	char rest[32];
	int err = 0;

	file = filp_open(allow, O_RDONLY, 0);
	if (IS_ERR(file)) {
		pr_err("cannot open %s: %ld\n", allow, PTR_ERR(file));
		return PTR_ERR(file);
	}
	rounds = clamp(rounds, 1U, (unsigned int)MAX_ROUNDS);
	/* Warm up (and pin, on a fresh boot). */
	for (i = 0; i < 1000 && !err; i++)
		err = security_kernel_read_file(file, READING_FIRMWARE, true);
	for (r = 0; r < rounds && !err; r++) {
		u64 start = ktime_get_ns();

		for (i = 0; i < calls; i++)
			err |= security_kernel_read_file(file, READING_FIRMWARE, true);
		times[r] = ktime_get_ns() - start;
		cond_resched();
	}
	fput(file);
	if (err) {
		pr_err("%s was denied (%d): is it on the pinned filesystem?\n",
		       allow, err);
		return err;
	}
	sort(times, rounds, sizeof(times[0]), cmp_u64, NULL);
	snprintf(rest, sizeof(rest), "rounds=%u", rounds);
	print_ns("allow", times[rounds / 2], calls, rest);
	return 0;
}

static unsigned long slab_kib(void)
{
	return global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B) <<
		(PAGE_SHIFT - 10);
}

static int bench_deny(void)
{
	unsigned long base, peak = 0;
	unsigned int i, denied = 0;
	struct file *file;
	char rest[64];
	u64 start, ns;

	file = filp_open(deny, O_RDONLY, 0);
	if (IS_ERR(file)) {
		pr_err("cannot open %s: %ld\n", deny, PTR_ERR(file));
		return PTR_ERR(file);
	}
	/* The records between this one and the result are the flood's. */
	pr_info("deny start\n");
	base = slab_kib();
	start = ktime_get_ns();
	for (i = 0; i < denials; i++) {
		if (security_kernel_read_file(file, READING_FIRMWARE, true))
			denied++;
		peak = max(peak, slab_kib());
	}
	ns = ktime_get_ns() - start;
	fput(file);
	snprintf(rest, sizeof(rest), "denied=%u slab_peak_kib=%lu", denied,
		 peak > base ? peak - base : 0);
	print_ns("deny", ns, max(denials, 1U), rest);
	return 0;
}

static int __init lp_bench_init(void)
{
	int err = 0;

	if (allow)
		err = bench_allow();
	if (!err && deny)
		err = bench_deny();
	return err ?: -ECANCELED;
}
module_init(lp_bench_init);

MODULE_DESCRIPTION("Time LoadPin's kernel_read_file hook");
MODULE_LICENSE("GPL");
