// SPDX-License-Identifier: GPL-2.0
/*
 * A tiny strict JSON checker for the guest, which has no JSON tools:
 *   lpjson valid < FILE        exit 0 when stdin is one valid JSON value
 *   lpjson get PATH < FILE     print the scalar at PATH (a.b.0.c), strings
 *                              without quotes; exit 1 when absent or invalid
 *   lpjson keys PATH < FILE    print the keys of the object at PATH ("" is
 *                              the top level), one a line
 * Used by the ctl-* scenarios to check loadpinctl status --json.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *p;
static const char *want;	/* the rest of the path, NULL when found */
static int mode;		/* 1 get, 2 keys */
static int found;

static void ws(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
}

static int value(const char *path);

/* A string; its contents (escapes kept as written) into out. */
static int string(char *out, size_t len)
{
	size_t n = 0;

	if (*p != '"')
		return -1;
	p++;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return -1;
		if (*p == '\\') {
			if (!strchr("\"\\/bfnrtu", p[1]))
				return -1;
			if (p[1] == 'u') {
				int i;

				for (i = 2; i < 6; i++)
					if (!isxdigit((unsigned char)p[i]))
						return -1;
			}
			if (n + 1 < len)
				out[n++] = *p;
			p++;
		}
		if (n + 1 < len)
			out[n++] = *p;
		p++;
	}
	p++;
	out[n] = '\0';
	return 0;
}

/* Does the first component of path equal key? Sets *rest to what follows. */
static int match(const char *path, const char *key, const char **rest)
{
	size_t l;

	if (!path || !*path)
		return 0;
	l = strcspn(path, ".");
	if (strlen(key) != l || strncmp(path, key, l))
		return 0;
	*rest = path[l] ? path + l + 1 : "";
	return 1;
}

static int container(const char *path, char open, char close)
{
	char key[256];
	const char *rest;
	int i = 0;

	p++;
	ws();
	if (*p == close) {
		p++;
		return 0;
	}
	for (;; i++) {
		ws();
		if (open == '{') {
			if (string(key, sizeof(key)))
				return -1;
			if (mode == 2 && path && !*path)
				printf("%s\n", key);
			ws();
			if (*p++ != ':')
				return -1;
		} else {
			snprintf(key, sizeof(key), "%d", i);
		}
		ws();
		if (value(match(path, key, &rest) ? rest : NULL))
			return -1;
		ws();
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p++ != close)
			return -1;
		return 0;
	}
}

static int value(const char *path)
{
	const char *start = p;
	char s[4096];

	ws();
	if (*p == '{' || *p == '[') {
		if (path && !*path && mode == 2)
			found = 1;
		return container(path, *p, *p == '{' ? '}' : ']');
	}
	if (*p == '"') {
		if (string(s, sizeof(s)))
			return -1;
	} else if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) {
		p += 4;
	} else if (!strncmp(p, "false", 5)) {
		p += 5;
	} else if (*p == '-' || isdigit((unsigned char)*p)) {
		if (*p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p) || *p == '.' || *p == 'e' ||
		       *p == 'E' || *p == '+' || *p == '-')
			p++;
	} else {
		return -1;
	}
	if (path && !*path && mode == 1) {
		found = 1;
		ws();
		if (*start == '"')
			printf("%s\n", s);
		else
			printf("%.*s\n", (int)(p - start), start);
	}
	(void)want;
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf) - 1, stdin);
	const char *path = argc > 2 ? argv[2] : "";

	buf[n] = '\0';
	p = buf;
	if (argc < 2)
		return 2;
	mode = !strcmp(argv[1], "get") ? 1 : !strcmp(argv[1], "keys") ? 2 : 0;
	if (value(mode ? path : NULL))
		return fprintf(stderr, "lpjson: invalid JSON at byte %ld\n",
			       (long)(p - buf)), 1;
	ws();
	if (*p)
		return fprintf(stderr, "lpjson: trailing bytes at %ld\n",
			       (long)(p - buf)), 1;
	return mode && !found;
}
