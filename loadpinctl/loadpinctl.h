/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loadpinctl: the operator's tool for LoadPin. Shared declarations.
 *
 * The parsers (status file, digest lists, digest sources, kernel log
 * lines) take buffers and never touch the system, so that the host tests
 * and the fuzz driver can run them; the commands do the I/O.
 */
#ifndef LOADPINCTL_H
#define LOADPINCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses: documented in loadpinctl.8, tested in tests/exit.sh. */
enum {
	EX_OK = 0,		/* done; check: every FILE allowed or would pin */
	EX_DENIED = 1,		/* check: a FILE would be denied */
	EX_USAGE = 2,		/* bad command line */
	EX_NOSECFS = 3,		/* securityfs is not mounted */
	EX_NOLOADPIN = 4,	/* LoadPin is not active in this kernel */
	EX_UPSTREAM = 5,	/* LoadPin without a status file (upstream) */
	EX_MALFORMED = 6,	/* malformed input: list, status file, source */
	EX_REFUSED = 7,		/* the kernel refused a feed or seal */
	EX_UNSURE = 8,		/* check: the answer depends on what we cannot see */
	EX_ERROR = 9,		/* any other error (missing file, I/O) */
};

/* The kernel's limits (security/loadpin/securityfs.c, verity.c). */
#define LP_DIGESTS_MAX_SIZE (256 * 1024)
#define LP_DIGEST_MAX_BYTES 64
#define LP_DIGESTS_HEADER "# LOADPIN_TRUSTED_VERITY_ROOT_DIGESTS"

/* The kernel's read types (include/linux/kernel_read_file.h), in order. */
#define LP_NTYPES 7
extern const char *const lp_type_names[LP_NTYPES];
int lp_type_index(const char *name);

/* ---- status file (statusfile.c) ---- */

#define LP_MAX_PINS 16
#define LP_MAX_KEYS 128

struct lp_pin {
	char dev[32];		/* "254:0", "none" or "-" */
	char fstype[32];
	int writable;		/* 1, 0, -1 unknown */
	char state[16];		/* pinned, gone, unpinned */
	char devname[64];	/* from pin<i> lines; "" when not given */
};

struct lp_kv {
	char key[64];
	char value[256];
};

struct lp_status {
	int enforce;		/* -1 when the key is missing */
	char state[16];
	struct lp_pin pin[LP_MAX_PINS];
	int npins;		/* 1 in the single-pin format when pinned */
	bool multi;		/* the file has "pins:" */
	char root[128];
	char root_dev[LP_MAX_PINS][32];
	int nroot_dev;
	char initramfs[16];
	int initramfs_trusted;
	int require_ro;
	bool excluded[LP_NTYPES];
	int verity_digests;	/* -1: "disabled" */
	int verity_final;
	unsigned long param_errors;
	unsigned long allowed[LP_NTYPES], denied[LP_NTYPES];
	struct lp_kv kv[LP_MAX_KEYS];	/* every line, unknown keys included */
	int nkv;
};

/*
 * Parse a status file. Returns 0, or -1 with *lineno set and err filled
 * (a line that is not "key: value", a known key whose value is not what
 * the kernel writes, a required key missing).
 */
int lp_status_parse(const char *buf, size_t len, struct lp_status *st,
		    int *lineno, char *err, size_t errlen);

/* ---- digest lists (digestlist.c) ---- */

struct lp_digest {
	unsigned char len;
	unsigned char data[LP_DIGEST_MAX_BYTES];
};

/*
 * The kernel's grammar, exactly (security/loadpin/verity.c). Returns 0
 * with *count digests (the first ones stored in out[0..max-1], out may be
 * NULL), or -1 with *lineno (0 for the whole file) and err. *len0 gets the
 * byte length of the first digest.
 */
int lp_digests_parse(const char *buf, size_t len, struct lp_digest *out,
		     size_t max, size_t *count, int *lineno, char *err,
		     size_t errlen);

/*
 * One line of input to "digests make": a bare hex root hash, a
 * veritysetup "Root hash:" line, a dm table line of a verity target
 * (optionally "NAME: " first, as dmsetup table prints it). Returns 1 with
 * the digest in hex (lower case) in hex[], 0 for a line to skip (blank,
 * comment, other veritysetup output), -1 with err for anything else.
 * *warn is set for a verity table the kernel never trusts
 * (ignore_corruption).
 */
int lp_source_line(const char *line, char *hex, size_t hexlen, bool *warn,
		   char *err, size_t errlen);

/* ---- kernel log (logparse.c) ---- */

struct lp_event {
	enum { LP_EV_NONE, LP_EV_DECISION, LP_EV_SUPPRESSED, LP_EV_AUDIT,
	       LP_EV_OTHER } kind;
	char type[32];
	char op[32];
	char obj[512];
	long pid;
	char cmdline[512];
	long suppressed;
	char text[600];		/* LP_EV_OTHER, and the audit fields */
	char allowed[4];
	char pinned[32];
	char comm[64];
	char when[40];		/* the line's time stamp as given, or "" */
};

/* Classify one log line (dmesg, /dev/kmsg record or audit text). */
int lp_log_line(const char *line, struct lp_event *ev);

/* ---- system (sys.c) ---- */

/* The path P under $LOADPINCTL_SYSFS_ROOT (for tests), in a static ring. */
const char *lp_path(const char *p);
/* Read a whole file, NUL-terminated; NULL with errno. */
char *lp_read_file(const char *path, size_t max, size_t *len);
int lp_parse_error(int *lineno, int line, char *err, size_t errlen,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Read and parse the status file, or print why not and return EX_*. */
int lp_load_status(struct lp_status *st);
/* The kernel's name of block device maj:min ("vda"), or NULL. */
const char *lp_devname(unsigned int maj, unsigned int min, char *buf,
		       size_t len);
/* /sys/dev/block/M:m/ro: 1, 0, or -1 when unknown. */
int lp_dev_ro(unsigned int maj, unsigned int min);
/* Whether the device has no parent (under /sys/devices/virtual). */
int lp_dev_stacked(unsigned int maj, unsigned int min);
int lp_parse_devt(const char *s, unsigned int *maj, unsigned int *min);

extern const char *lp_prog;
void lp_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* digests.c: check LIST with the kernel's grammar; prints why not. */
int lp_verify_file(const char *path, size_t *count, bool quiet);

/* ---- commands ---- */
int cmd_status(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_digests(int argc, char **argv);
int cmd_feed(int argc, char **argv);
int cmd_seal(int argc, char **argv);
int cmd_log(int argc, char **argv);

#endif /* LOADPINCTL_H */
