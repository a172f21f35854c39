// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl digests make [-o LIST] [SOURCE...]
 * loadpinctl digests verify LIST...
 *
 * make writes a list the kernel accepts: the header, one lower-case
 * digest a line, each once, in the order first seen. Its sources are
 * arguments or, without any, standard input; each argument or line is a
 * root hash, "Root hash: HEX" (veritysetup format), a dm table line of a
 * verity target ("[NAME: ]START LEN verity ..."), or a file of such lines
 * given as @FILE. A list fed to it (the header is a comment) is merged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadpinctl.h"

struct dlist {
	char **hex;		/* in the order first seen */
	size_t n, cap, bytes;
	char **set;		/* open addressing, for "seen before?" */
	size_t setcap;
	int ret;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		lp_err("out of memory");
		exit(EX_ERROR);
	}
	return p;
}

static size_t hash(const char *s)
{
	size_t h = 14695981039346656037ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* The slot of @hex in the set: where it is, or the empty one it would take. */
static char **slot(struct dlist *l, const char *hex)
{
	size_t i = hash(hex) & (l->setcap - 1);

	while (l->set[i] && strcmp(l->set[i], hex))
		i = (i + 1) & (l->setcap - 1);
	return &l->set[i];
}

/* A list may hold thousands of digests: no quadratic duplicate search. */
static void add(struct dlist *l, const char *hex)
{
	char **s;
	size_t i;

	if (2 * (l->n + 1) > l->setcap) {
		l->setcap = l->setcap ? 2 * l->setcap : 64;
		free(l->set);
		l->set = xrealloc(NULL, l->setcap * sizeof(*l->set));
		memset(l->set, 0, l->setcap * sizeof(*l->set));
		for (i = 0; i < l->n; i++)
			*slot(l, l->hex[i]) = l->hex[i];
	}
	s = slot(l, hex);
	if (*s)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->hex = xrealloc(l->hex, l->cap * sizeof(*l->hex));
	}
	l->hex[l->n] = strdup(hex);
	if (!l->hex[l->n]) {
		lp_err("out of memory");
		exit(EX_ERROR);
	}
	*s = l->hex[l->n++];
	l->bytes += strlen(hex) + 1;
}

static void source_line(struct dlist *l, const char *where, int lineno,
			const char *line)
{
	char hex[160], err[200];
	bool warn;
	int r = lp_source_line(line, hex, sizeof(hex), &warn, err, sizeof(err));

	if (r < 0) {
		if (lineno)
			lp_err("%s:%d: %s", where, lineno, err);
		else
			lp_err("'%s': %s", where, err);
		l->ret = EX_MALFORMED;
		return;
	}
	if (warn)
		lp_err("%s:%d: warning: this verity device ignores corruption: "
		       "the kernel never trusts it, whatever the list says",
		       where, lineno);
	if (r == 1)
		add(l, hex);
}

static void source_stream(struct dlist *l, FILE *f, const char *where)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0;

	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		/* getline() keeps NUL bytes: a line with one is no text. */
		if (strlen(line) != (size_t)n - (n && !line[n - 1])) {
			lp_err("%s:%d: a NUL byte", where, lineno);
			l->ret = EX_MALFORMED;
			continue;
		}
		source_line(l, where, lineno, line);
	}
	free(line);
}

static int digests_make(int argc, char **argv)
{
	struct dlist l = { 0 };
	const char *out = NULL;
	FILE *o = stdout;
	int i = 1;
	size_t k;

	if (i + 1 < argc && !strcmp(argv[i], "-o")) {
		out = argv[i + 1];
		i += 2;
	}
	for (k = i; k < (size_t)argc; k++) {
		if (!strcmp(argv[k], "-o")) {
			lp_err("digests make: -o LIST comes first, once, with its LIST");
			return EX_USAGE;
		}
	}
	if (i >= argc)
		source_stream(&l, stdin, "stdin");
	for (; i < argc; i++) {
		if (argv[i][0] == '@') {
			FILE *f = fopen(argv[i] + 1, "r");

			if (!f) {
				lp_err("%s: %s", argv[i] + 1, strerror(errno));
				return EX_ERROR;
			}
			source_stream(&l, f, argv[i] + 1);
			fclose(f);
		} else {
			source_line(&l, argv[i], 0, argv[i]);
		}
	}
	if (l.ret)
		return l.ret;
	if (!l.n) {
		lp_err("digests make: no root hash in the input: the kernel refuses an empty list");
		return EX_MALFORMED;
	}
	if (l.bytes + strlen(LP_DIGESTS_HEADER) + 1 > LP_DIGESTS_MAX_SIZE) {
		lp_err("digests make: the list would be larger than the kernel reads (%d bytes)",
		       LP_DIGESTS_MAX_SIZE);
		return EX_MALFORMED;
	}
	if (out) {
		o = fopen(out, "w");
		if (!o) {
			lp_err("%s: %s", out, strerror(errno));
			return EX_ERROR;
		}
	}
	fprintf(o, "%s\n", LP_DIGESTS_HEADER);
	for (k = 0; k < l.n; k++)
		fprintf(o, "%s\n", l.hex[k]);
	if ((out ? fclose(o) : fflush(o)) == EOF) {
		lp_err("%s: %s", out ? out : "stdout", strerror(errno));
		return EX_ERROR;
	}
	if (out)
		fprintf(stderr, "%s: %zu digest%s\n", out, l.n, l.n == 1 ? "" : "s");
	return EX_OK;
}

/* Check LIST as the kernel would; 0 or EX_*, with the kernel's message. */
int lp_verify_file(const char *path, size_t *count, bool quiet)
{
	char err[200], *buf;
	size_t len;
	int lineno;

	buf = lp_read_file(path, LP_DIGESTS_MAX_SIZE, &len);
	if (!buf) {
		if (errno == EFBIG) {
			lp_err("%s: more than %d bytes: the kernel refuses it (EFBIG)",
			       path, LP_DIGESTS_MAX_SIZE);
			return EX_MALFORMED;
		}
		lp_err("%s: %s", path, strerror(errno));
		return EX_ERROR;
	}
	if (lp_digests_parse(buf, len, NULL, 0, count, &lineno, err,
			     sizeof(err))) {
		free(buf);
		if (lineno)
			lp_err("%s: line %d: %s", path, lineno, err);
		else
			lp_err("%s: %s", path, err);
		return EX_MALFORMED;
	}
	free(buf);
	if (!quiet)
		printf("%s: %zu digest%s, accepted by the kernel's grammar\n", path,
		       *count, *count == 1 ? "" : "s");
	return EX_OK;
}

int cmd_digests(int argc, char **argv)
{
	int i, r, worst = EX_OK;
	size_t n;

	if (argc < 2) {
		lp_err("digests: make or verify?");
		return EX_USAGE;
	}
	if (!strcmp(argv[1], "make"))
		return digests_make(argc - 1, argv + 1);
	if (strcmp(argv[1], "verify")) {
		lp_err("digests: unknown subcommand '%s'", argv[1]);
		return EX_USAGE;
	}
	if (argc < 3) {
		lp_err("digests verify: no LIST given");
		return EX_USAGE;
	}
	for (i = 2; i < argc; i++) {
		r = lp_verify_file(argv[i], &n, false);
		if (r && (!worst || r == EX_MALFORMED))
			worst = r;
	}
	return worst;
}
