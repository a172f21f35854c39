// SPDX-License-Identifier: GPL-2.0
/*
 * A module that does nothing but announce itself: the payload for
 * LoadPin's module-load tests. Its name is given at build time so that
 * several copies can be loaded side by side.
 */
#include <linux/init.h>
#include <linux/module.h>

static int __init loadpin_test_mod_init(void)
{
	pr_info("%s: loaded\n", KBUILD_MODNAME);
	return 0;
}

static void __exit loadpin_test_mod_exit(void)
{
}

module_init(loadpin_test_mod_init);
module_exit(loadpin_test_mod_exit);
MODULE_DESCRIPTION("LoadPin test payload");
MODULE_LICENSE("GPL");
