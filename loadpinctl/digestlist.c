// SPDX-License-Identifier: GPL-2.0
/*
 * loadpinctl: the dm-verity digest list grammar and the sources
 * "digests make" reads root hashes from.
 *
 * lp_digests_parse() follows security/loadpin/verity.c step by step so
 * that "digests verify" accepts exactly what the kernel accepts; the
 * tests run it on the kernel's own KUnit cases (verity_cases.h). The
 * messages are the kernel's, with a line number where it has one.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "loadpinctl.h"

/*
 * The kernel's isspace() (lib/ctype.c): the C locale's six, plus 0xa0,
 * which its Latin-1 table marks as space. A list ending in 0xa0 is
 * accepted by the kernel, so it must be here too.
 */
static bool kspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Report a parse error at @line: the parsers' one way of failing. */
int lp_parse_error(int *lineno, int line, char *err, size_t errlen,
		   const char *fmt, ...)
{
	va_list ap;

	*lineno = line;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int lp_digests_parse(const char *buf, size_t len, struct lp_digest *out,
		     size_t max, size_t *count, int *lineno, char *err,
		     size_t errlen)
{
	size_t hlen = strlen(LP_DIGESTS_HEADER);
	const char *line = buf, *end, *nul;
	int n;

	*count = 0;
	*lineno = 0;
	if (len > LP_DIGESTS_MAX_SIZE)
		/* kernel_read_file() refuses it before the parser: EFBIG. */
		return lp_parse_error(lineno, 0, err, errlen,
			    "the list is %zu bytes, more than the kernel reads (%d)",
			    len, LP_DIGESTS_MAX_SIZE);
	/* The kernel reads the list as upstream did: a NUL ends it. */
	nul = memchr(buf, '\0', len);
	if (nul)
		len = nul - buf;
	end = buf + len;
	if (len < hlen + 1 || memcmp(buf, LP_DIGESTS_HEADER, hlen) ||
	    buf[hlen] != '\n')
		return lp_parse_error(lineno, 1, err, errlen,
			    "the first line is not '%s'", LP_DIGESTS_HEADER);

	/* White space at the very end of the list is ignored. */
	while (end > buf + hlen && kspace(end[-1]))
		end--;
	for (line = buf + hlen + 1, n = 2; line < end; n++) {
		const char *nl = memchr(line, '\n', end - line);
		size_t llen = (nl ? nl : end) - line, i;
		struct lp_digest d = { 0 };

		/* Blank lines between digests are skipped. */
		if (!llen) {
			line++;
			continue;
		}
		if (llen % 2 || llen / 2 > LP_DIGEST_MAX_BYTES)
			return lp_parse_error(lineno, n, err, errlen,
				    "a digest is 2 to %d hex digits, an even number",
				    2 * LP_DIGEST_MAX_BYTES);
		for (i = 0; i < llen; i += 2) {
			int hi = hexval(line[i]), lo = hexval(line[i + 1]);

			if (hi < 0 || lo < 0)
				return lp_parse_error(lineno, n, err, errlen,
					    "not a hex digest");
			d.data[i / 2] = hi << 4 | lo;
		}
		d.len = llen / 2;
		if (out && *count < max)
			out[*count] = d;
		(*count)++;
		line += llen + 1;
	}
	if (!*count)
		return lp_parse_error(lineno, 0, err, errlen, "the list holds no digest");
	return 0;
}

/* A root hash as the kernel takes it: 2 to 128 hex digits, even. */
static bool is_digest(const char *s, size_t len)
{
	size_t i;

	if (!len || len % 2 || len > 2 * LP_DIGEST_MAX_BYTES)
		return false;
	for (i = 0; i < len; i++)
		if (hexval((unsigned char)s[i]) < 0)
			return false;
	return true;
}

static int put_hex(const char *s, size_t len, char *hex, size_t hexlen)
{
	size_t i;

	if (len + 1 > hexlen)
		return -1;
	for (i = 0; i < len; i++)
		hex[i] = tolower((unsigned char)s[i]);
	hex[len] = '\0';
	return 1;
}

#define MAX_FIELDS 64

/* Split on blanks; returns the number of fields (at most MAX_FIELDS). */
static int split(const char *s, const char *f[], size_t flen[])
{
	int n = 0;

	while (*s && n < MAX_FIELDS) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		f[n] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		flen[n] = s - f[n];
		n++;
	}
	return n;
}

static bool field_is(const char *f, size_t flen, const char *word)
{
	return flen == strlen(word) && !memcmp(f, word, flen);
}

/*
 * A verity table line (drivers/md/dm-verity-target.c, verity_ctr()):
 *   START LEN verity VERSION DATA HASH DBS HBS NBLOCKS HASHSTART ALG ROOT
 *   SALT [#opts opt...]
 * with fields 0-1 the dm table's own. The root digest is field 11.
 */
static int table_line(const char *f[], size_t flen[], int n, char *hex,
		      size_t hexlen, bool *warn, char *err, size_t errlen)
{
	int i;

	if (n < 13) {
		snprintf(err, errlen,
			 "a verity table line has at least 13 fields, this one %d",
			 n);
		return -1;
	}
	if (!is_digest(f[11], flen[11])) {
		snprintf(err, errlen,
			 "field 12 of a verity table line is not a root digest");
		return -1;
	}
	for (i = 13; i < n; i++)
		if (field_is(f[i], flen[i], "ignore_corruption"))
			*warn = true;
	return put_hex(f[11], flen[11], hex, hexlen);
}

int lp_source_line(const char *line, char *hex, size_t hexlen, bool *warn,
		   char *err, size_t errlen)
{
	const char *f[MAX_FIELDS], *colon, *p;
	size_t flen[MAX_FIELDS];
	int n;

	*warn = false;
	while (*line == ' ' || *line == '\t')
		line++;
	n = split(line, f, flen);
	/* A CR from a file written elsewhere is not part of the hash. */
	if (n && flen[n - 1] && f[n - 1][flen[n - 1] - 1] == '\r')
		flen[n - 1]--;
	if (!n || (n == 1 && !flen[0]) || line[0] == '#')
		return 0;
	if (n == 1) {
		if (is_digest(f[0], flen[0]))
			return put_hex(f[0], flen[0], hex, hexlen);
		snprintf(err, errlen, "not a root hash (2 to 128 hex digits, an even number)");
		return -1;
	}
	/* dmsetup table prints "NAME: START LEN TARGET ..." for several devices. */
	if (n >= 4 && flen[0] > 1 && f[0][flen[0] - 1] == ':' &&
	    field_is(f[3], flen[3], "verity"))
		return table_line(f + 1, flen + 1, n - 1, hex, hexlen, warn,
				  err, errlen);
	if (n >= 3 && field_is(f[2], flen[2], "verity"))
		return table_line(f, flen, n, hex, hexlen, warn, err, errlen);
	/* Another target's table line (linear, crypt...): nothing to trust. */
	if (n >= 3 && strspn(f[0], "0123456789") == flen[0] &&
	    strspn(f[1], "0123456789") == flen[1])
		return 0;
	/* veritysetup format: "Root hash:      <hex>". */
	if (n == 3 && (flen[0] == 4 && !strncasecmp(f[0], "root", 4)) &&
	    field_is(f[1], flen[1], "hash:")) {
		if (is_digest(f[2], flen[2]))
			return put_hex(f[2], flen[2], hex, hexlen);
		snprintf(err, errlen, "the root hash is not 2 to 128 hex digits");
		return -1;
	}
	/* The rest of veritysetup's output: its header and "Key: value". */
	if (!strncmp(line, "VERITY header information", 25))
		return 0;
	colon = strchr(line, ':');
	if (colon) {
		for (p = line; p < colon; p++)
			if (!isalnum((unsigned char)*p) && *p != ' ' &&
			    *p != '-' && *p != '_')
				break;
		if (p == colon && colon > line)
			return 0;
	}
	snprintf(err, errlen,
		 "not a root hash, a veritysetup line or a verity table line");
	return -1;
}
