/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result word the guest programs print last: "ok" or the errno name,
 * which tests/guest/lib.sh's expect() compares.
 */
#ifndef LPRESULT_H
#define LPRESULT_H

/* strerrorname_np() needs _GNU_SOURCE before the first include. */
#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before including lpresult.h"
#endif

#include <stdio.h>
#include <string.h>

static inline const char *errname(int e)
{
	const char *name = e ? strerrorname_np(e) : "ok";

	return name ? name : "EOTHER";
}

/* Print the result word for @e and return @e, for "return done(e);". */
static inline int done(int e)
{
	printf("%s\n", errname(e));
	return e;
}

#endif
