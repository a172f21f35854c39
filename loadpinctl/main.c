// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl: the operator's tool for LoadPin (see loadpinctl.8).
 */
#include <stdio.h>
#include <string.h>

#include "loadpinctl.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: loadpinctl status [--json]\n"
		"       loadpinctl check [--type TYPE] [--digests LIST] FILE...\n"
		"       loadpinctl digests make [-o LIST] [ROOTHASH|LINE|@FILE...]\n"
		"       loadpinctl digests verify LIST...\n"
		"       loadpinctl feed [--force] [--if-present] LIST\n"
		"       loadpinctl seal\n"
		"       loadpinctl log [--input FILE] [--audit FILE] [--all]\n"
		"exit: 0 ok, 1 denied, 2 usage, 3 no securityfs, 4 no LoadPin,\n"
		"      5 upstream LoadPin, 6 malformed input, 7 kernel refused,\n"
		"      8 check cannot tell, 9 other error (loadpinctl(8))\n");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "status", cmd_status }, { "check", cmd_check },
		{ "digests", cmd_digests }, { "feed", cmd_feed },
		{ "seal", cmd_seal }, { "log", cmd_log },
	};
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EX_OK;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	lp_err("unknown command '%s'", argv[1]);
	usage(stderr);
	return EX_USAGE;
}
