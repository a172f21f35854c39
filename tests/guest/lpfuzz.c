// SPDX-License-Identifier: GPL-2.0
/*
 * lpfuzz - throw random requests at LoadPin's securityfs interface and
 * check what comes back.
 *
 *   lpfuzz [-s SEED] [-n ROUNDS] [-t SECONDS] [-f] [-p DIR] [-a FILE] [-d FILE]
 *
 *   -s SEED     the PRNG seed (default: random); printed first as
 *               "# seed: N": the same seed replays the same requests
 *               (not the child's timing, nor which allocations fail)
 *   -n ROUNDS   how many rounds (default 2000)
 *   -t SECONDS  stop early after this long (default 90)
 *   -f          under fault injection: set this task's make-it-fail for
 *               the rounds (the caller set failslab/fail_page_alloc
 *               probabilities with task-filter), and accept ENOMEM where
 *               an allocation may fail
 *   -p DIR      a writable directory on the pinned filesystem: digest
 *               lists, empty, huge and limit-sized files, a FIFO, a
 *               directory and a file a child process keeps rewriting go
 *               there, as candidates for the one feed that counts
 *   -a FILE     a file on the pinned filesystem to finit_module(2): the
 *               load is allowed (the module loader may refuse it)
 *   -d FILE     a file elsewhere to finit_module(2) and init_module(2):
 *               denied, with loadpin.enforce=1
 *
 * Each round is one of: an ioctl with a random number (LoadPin's own two
 * from <linux/loadpin.h>, their neighbours, random ones, the VFS's) and a
 * random argument (NULL, kernel and unmapped addresses, a pointer across
 * the end of a mapping, pointers to fd numbers or to seal flags) on the
 * dm-verity or the status file;
 * a sequence of status-file reads of random sizes at random offsets, with
 * lseek and pread; a write, read or mmap where LoadPin's files refuse
 * them; a load. At one random round in the first half, the
 * "consequential" request: the one feed of the boot (a digest list, a
 * malformed one, an empty, huge or limit-sized file, a FIFO, a directory,
 * a file being rewritten, a pipe, a socket, /dev/null, /dev/zero, ...) or
 * a seal. Before it, LoadPin's ioctls only get arguments that must fail
 * without closing the interface (EFAULT, EINVAL for a bad fd or seal flags).
 * Under -f, ENOMEM is accepted wherever an allocation can fail (opening
 * and reading the status file, the one feed, loads), and nothing else:
 * never a denied load allowed, a partial list or wrong status text.
 *
 * The invariants, one TAP line each, with the seed and round of the
 * first violations as "# " lines after a "not ok".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/loadpin.h>

#include "lpresult.h"
#include "lpfault.h"

#define IOC_SET LOADPIN_IOC_SET_TRUSTED_VERITY_DIGESTS
#define IOC_SEAL LOADPIN_IOC_SEAL_TRUSTED_VERITY_DIGESTS

/* The largest digest list LoadPin reads (security/loadpin/securityfs.c). */
#define LIST_MAX (256 * 1024)
#define LIST_HEADER "# LOADPIN_TRUSTED_VERITY_ROOT_DIGESTS\n"
/* The rewritten file holds 1 to CHANGING_MAX digests. */
#define CHANGING_MAX 7

/* ------------------------------------------------------------ PRNG */

static uint64_t rng;

/* splitmix64: small, fast, and the same everywhere. */
static uint64_t rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(unsigned int n)
{
	return n ? rnd64() % n : 0;
}

/* ------------------------------------------------------ invariants */

enum inv {
	INV_PREFEED, INV_FEED, INV_FINAL, INV_OTHER_CMD, INV_READS, INV_STATUS,
	INV_REFUSE, INV_DENY, INV_ALLOW, INV_MAX
};

static const char *const inv_desc[INV_MAX] = {
	[INV_PREFEED] = "before the one feed, LoadPin's ioctls fail with EFAULT or EINVAL and leave the interface open",
	[INV_FEED] = "the one feed or seal: the whole list or an errno and no digest, and final afterwards",
	[INV_FINAL] = "once final, a set fails with EPERM and a seal succeeds (EFAULT, EINVAL on bad arguments)",
	[INV_OTHER_CMD] = "other ioctl numbers fail with EINVAL on the dm-verity file (as upstream), any fails with ENOTTY on the status file",
	[INV_READS] = "status reads of any size at any offset return exactly the status text",
	[INV_STATUS] = "the status file parses with the same keys, counters never go back, verity_digests is 0 or the list's count",
	[INV_REFUSE] = "LoadPin's files refuse writes, mmap, and reads of dm-verity",
	[INV_DENY] = "loads from outside the pinned filesystem are denied, never allowed",
	[INV_ALLOW] = "loads from the pinned filesystem are never denied",
};

#define MAX_SHOWN 5

static struct {
	long checks, bad;
	char shown[MAX_SHOWN][240];
} inv[INV_MAX];

static unsigned long long seed;
static long round_no;
static int faults;

static void check(enum inv i, int ok, const char *fmt, ...)
{
	va_list ap;
	int k;

	inv[i].checks++;
	if (ok)
		return;
	k = inv[i].bad++;
	if (k >= MAX_SHOWN)
		return;
	snprintf(inv[i].shown[k], 64, "seed %llu round %ld: ", seed, round_no);
	va_start(ap, fmt);
	vsnprintf(inv[i].shown[k] + strlen(inv[i].shown[k]),
		  sizeof(inv[i].shown[k]) - strlen(inv[i].shown[k]), fmt, ap);
	va_end(ap);
}

/* Under -f, an allocation may fail wherever one is made. */
static int nomem_ok(int e)
{
	return faults && e == ENOMEM;
}

/* ------------------------------------------------------ the model */

/* What the status file must say about the digest list. */
static int final;		/* the interface is closed */
static long digests;		/* what verity_digests must be */
static long digests_max;	/* or at most this, for the rewritten file */
static int fed;			/* the consequential request was made */

static char keys[2048];		/* the status file's keys, in order */
static struct lp_status ref;	/* the status text now */
static int ref_stale = 1;
static long counters[64];	/* allowed.* and denied.*, in order */

/* Refresh ref and check it against the model. */
static void refresh_status(void)
{
	const char *why, *p;
	char val[32];
	int e, n = 0;
	long v;

	if (!ref_stale)
		return;
	e = status_read_retry(&ref);
	if (e) {
		check(INV_STATUS, nomem_ok(e), "the status file cannot be read: %s", errname(e));
		return;
	}
	ref_stale = 0;
	why = status_malformed(&ref, keys);
	check(INV_STATUS, !why, "%s", why ? why : "");
	v = status_num(&ref, "verity_digests");
	if (digests_max)
		check(INV_STATUS, v >= 1 && v <= digests_max,
		      "verity_digests %ld, not 1..%ld", v, digests_max);
	else
		check(INV_STATUS, v == digests, "verity_digests %ld, not %ld", v, digests);
	status_str(&ref, "verity_final", val, sizeof(val));
	check(INV_STATUS, atoi(val) == final, "verity_final %s, not %d", val, final);
	/* The counters, "allowed.TYPE" and "denied.TYPE", only grow. */
	for (p = ref.text; p && *p && n < 64; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (strncmp(p, "allowed.", 8) && strncmp(p, "denied.", 7))
			continue;
		v = atol(strchr(p, ':') + 2);
		check(INV_STATUS, v >= counters[n], "counter %.30s went back from %ld to %ld",
		      p, counters[n], v);
		counters[n++] = v;
	}
}

/* -------------------------------------------------------- fd pool */

enum kind {
	K_OTHER,	/* an open file not on the pinned filesystem: EPERM */
	K_LIST,		/* a valid list on the pinned filesystem */
	K_LIMIT,	/* a valid list of exactly LIST_MAX bytes */
	K_BAD,		/* a malformed list, an empty file, a FIFO, ... */
	K_NOREAD,	/* open, but not for reading: EBADF, as finit_module(2) */
	K_HUGE,		/* LIST_MAX + 1 bytes: EFBIG */
	K_CHANGING,	/* being rewritten by the child */
	K_NOTFD,	/* not an fd fdget() takes: EINVAL, as upstream */
};

struct fdent {
	int fd;
	enum kind kind;
	long count;	/* digests, for K_LIST and K_LIMIT */
	char name[48];
};

static struct fdent pool[64];
static int npool;

static void add_fd(int fd, enum kind kind, long count, const char *name)
{
	if (fd < 0) {
		note("cannot open %s: %s", name, strerror(errno));
		return;
	}
	if (npool == 64)
		return;
	pool[npool].fd = fd;
	pool[npool].kind = kind;
	pool[npool].count = count;
	snprintf(pool[npool].name, sizeof(pool[npool].name), "%s", name);
	npool++;
}

/*
 * A digest list of COUNT digests of random size and case, sometimes with
 * white space after the last one (ignored at the end of the file). The
 * first byte of digest I is I (for COUNT up to 256): LoadPin counts a
 * digest listed twice once, and two random one-byte digests may be equal.
 */
static size_t make_list(char *buf, size_t size, long count)
{
	static const char hex[] = "0123456789abcdef0123456789ABCDEF";
	static const char *const tails[] = { "", "\n", "\n", "\n\n", " \n", "\t", "\r\n" };
	size_t n = snprintf(buf, size, LIST_HEADER);
	const char *tail;
	long i;
	int j, len, upper;

	for (i = 0; i < count && n + 140 < size; i++) {
		len = 2 * (1 + rnd(64));
		upper = rnd(4) == 0;
		for (j = 0; j < len; j++)
			buf[n + j] = hex[rnd(16) + 16 * upper];
		buf[n] = hex[(i >> 4 & 15) + 16 * upper];
		buf[n + 1] = hex[(i & 15) + 16 * upper];
		n += len;
		if (i + 1 < count)
			buf[n++] = '\n';
	}
	tail = tails[rnd(sizeof(tails) / sizeof(tails[0]))];
	memcpy(buf + n, tail, strlen(tail));
	return n + strlen(tail);
}

static int write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, buf, len) != (ssize_t)len)
		e = errno ? errno : EIO;
	close(fd);
	return e;
}

static char big[LIST_MAX + 4096];

/*
 * One line of A bytes: A - 1 hex digits and a newline (A odd, 3..129),
 * the line number I in its first 8 digits when it has that many: LoadPin
 * counts a digest listed twice once, so equal lines would not add up to
 * the count.
 */
static size_t limit_line(char *buf, size_t a, long i)
{
	char num[9];

	memset(buf, 'f', a - 1);
	if (a - 1 >= 8) {
		snprintf(num, sizeof(num), "%08x", (unsigned int)i);
		memcpy(buf, num, 8);
	}
	buf[a - 1] = '\n';
	return a;
}

/* A valid list of exactly LIMIT bytes; returns its digest count. */
static long make_limit_list(char *buf, size_t limit)
{
	size_t n = strlen(LIST_HEADER), r, a;
	long count = 0;

	memcpy(buf, LIST_HEADER, n);
	for (r = limit - n; r > 258; r -= 129, count++)
		n += limit_line(buf + n, 129, count);
	if (r > 129) {
		a = r - 129 >= 2 ? 129 : 127;
		n += limit_line(buf + n, a, count);
		r -= a;
		count++;
	}
	/* The last line: with a newline when that leaves an even digit count. */
	if (r % 2) {
		n += limit_line(buf + n, r, count);
	} else {
		memset(buf + n, 'a', r);
		n += r;
	}
	return count + 1;
}

static pid_t changer = -1;

/* The child: rewrite DIR/changing with 1..CHANGING_MAX digests, forever. */
static void start_changer(const char *path)
{
	char buf[2048];
	size_t len;
	long i;
	int fd;

	changer = fork();
	if (changer)
		return;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (i = 0;; i++) {
		len = make_list(buf, sizeof(buf), 1 + i % CHANGING_MAX);
		/* ETXTBSY while the kernel reads it: try again. */
		fd = open(path, O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0) {
			usleep(100);
			continue;
		}
		if (write(fd, buf, len) < 0)
			_exit(1);
		close(fd);
		usleep(200);
	}
}

static int closed_fd;		/* a number that is no open fd */
static int status_fd, verity_fd;
static char *guard;		/* a page followed by an unmapped one */

static void setup_pool(const char *dir)
{
	char path[512], buf[8192];
	int sv[2], p[2], fd;
	long count;
	size_t len;

	status_fd = open(LP_STATUS, O_RDONLY | O_CLOEXEC);
	verity_fd = open(LP_VERITY, O_RDONLY | O_CLOEXEC);
	add_fd(status_fd, K_OTHER, 0, "the status file");
	add_fd(verity_fd, K_OTHER, 0, "the dm-verity file itself");
	add_fd(open("/dev/null", O_RDONLY | O_CLOEXEC), K_OTHER, 0, "/dev/null");
	add_fd(open("/dev/zero", O_RDONLY | O_CLOEXEC), K_OTHER, 0, "/dev/zero");
	add_fd(open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), K_OTHER, 0, "the root directory");
	add_fd(open("/proc/self/status", O_RDONLY | O_CLOEXEC), K_OTHER, 0, "a proc file");
	add_fd(open("/", O_PATH | O_CLOEXEC), K_NOTFD, 0, "an O_PATH fd");
	if (!pipe(p)) {
		add_fd(p[0], K_OTHER, 0, "a pipe's read end");
		add_fd(p[1], K_NOREAD, 0, "a pipe's write end");
	}
	if (!socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		add_fd(sv[0], K_OTHER, 0, "a unix socket");
		close(sv[1]);
	}
	fd = memfd_create("lpfuzz", MFD_CLOEXEC);
	if (fd >= 0) {
		len = make_list(buf, sizeof(buf), 3);
		if (write(fd, buf, len) > 0)
			add_fd(fd, K_OTHER, 0, "a memfd holding a valid list");
	}
	fd = open("/tmp/lpfuzz-list", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		len = make_list(buf, sizeof(buf), 2);
		if (write(fd, buf, len) > 0) {
			close(fd);
			add_fd(open("/tmp/lpfuzz-list", O_RDONLY | O_CLOEXEC), K_OTHER, 0,
			       "a valid list off the pinned filesystem");
		}
	}

	if (dir) {
		mkdir(dir, 0755);
		for (count = 1; count <= 64; count *= 8) {
			snprintf(path, sizeof(path), "%s/list%ld", dir, count);
			len = make_list(buf, sizeof(buf), count);
			if (!write_file(path, buf, len))
				add_fd(open(path, O_RDONLY | O_CLOEXEC), K_LIST, count,
				       path + strlen(dir) + 1);
		}
		{
			static const char *const bad[] = {
				LIST_HEADER "abc\n",			/* odd */
				LIST_HEADER "0011\n  \n2233\n",		/* spaces line */
				LIST_HEADER "0011\r\n2233\n",		/* CR within */
				LIST_HEADER "0011 \n2233\n",		/* space within */
				LIST_HEADER "xyzt\n",			/* not hex */
				LIST_HEADER,				/* no digest */
				LIST_HEADER " \n\t\n",			/* white space only */
				"# LOADPIN_TRUSTED_VERITY_ROOT_DIGEST\n0011\n",
				"0011\n",				/* no header */
				"\n" LIST_HEADER "0011\n",		/* header not first */
				LIST_HEADER " 0011\n",			/* leading space */
			};
			unsigned int i;

			for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
				snprintf(path, sizeof(path), "%s/bad%u", dir, i);
				if (!write_file(path, bad[i], strlen(bad[i])))
					add_fd(open(path, O_RDONLY | O_CLOEXEC), K_BAD, 0,
					       path + strlen(dir) + 1);
			}
			/*
			 * A NUL ends a list, as upstream read it: before any
			 * digest it leaves none; after one, it hides the rest.
			 * A blank line between digests is skipped.
			 */
			snprintf(path, sizeof(path), "%s/badnul", dir);
			memcpy(buf, LIST_HEADER "\0" "0011\n", strlen(LIST_HEADER) + 6);
			if (!write_file(path, buf, strlen(LIST_HEADER) + 6))
				add_fd(open(path, O_RDONLY | O_CLOEXEC), K_BAD, 0, "badnul");
			snprintf(path, sizeof(path), "%s/nul-ends", dir);
			memcpy(buf, LIST_HEADER "0011\n\0" "zz\n", strlen(LIST_HEADER) + 9);
			if (!write_file(path, buf, strlen(LIST_HEADER) + 9))
				add_fd(open(path, O_RDONLY | O_CLOEXEC), K_LIST, 1, "nul-ends");
			snprintf(path, sizeof(path), "%s/blank-line", dir);
			if (!write_file(path, LIST_HEADER "0011\n\n2233\n",
					strlen(LIST_HEADER "0011\n\n2233\n")))
				add_fd(open(path, O_RDONLY | O_CLOEXEC), K_LIST, 2, "blank-line");
			/* And a digest of 130 hex digits. */
			snprintf(path, sizeof(path), "%s/badlong", dir);
			len = strlen(LIST_HEADER);
			memcpy(buf, LIST_HEADER, len);
			memset(buf + len, 'a', 130);
			buf[len + 130] = '\n';
			if (!write_file(path, buf, len + 131))
				add_fd(open(path, O_RDONLY | O_CLOEXEC), K_BAD, 0, "badlong");
		}
		snprintf(path, sizeof(path), "%s/empty", dir);
		if (!write_file(path, "", 0))
			add_fd(open(path, O_RDONLY | O_CLOEXEC), K_BAD, 0, "empty");
		count = make_limit_list(big, LIST_MAX);
		snprintf(path, sizeof(path), "%s/limit", dir);
		if (!write_file(path, big, LIST_MAX))
			add_fd(open(path, O_RDONLY | O_CLOEXEC), K_LIMIT, count, "limit");
		big[LIST_MAX] = '\n';
		snprintf(path, sizeof(path), "%s/huge", dir);
		if (!write_file(path, big, LIST_MAX + 1))
			add_fd(open(path, O_RDONLY | O_CLOEXEC), K_HUGE, 0, "huge");
		snprintf(path, sizeof(path), "%s/dir", dir);
		mkdir(path, 0755);
		add_fd(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), K_BAD, 0, "a directory");
		snprintf(path, sizeof(path), "%s/fifo", dir);
		mkfifo(path, 0644);
		add_fd(open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC), K_BAD, 0, "a FIFO");
		/* Its own file, held open for writing: no read may see it. */
		snprintf(path, sizeof(path), "%s/wronly", dir);
		len = make_list(buf, sizeof(buf), 2);
		if (!write_file(path, buf, len))
			add_fd(open(path, O_WRONLY | O_CLOEXEC), K_NOREAD, 0,
			       "a valid list opened write-only");
		snprintf(path, sizeof(path), "%s/changing", dir);
		len = make_list(buf, sizeof(buf), 1);
		write_file(path, buf, len);
		add_fd(open(path, O_RDONLY | O_CLOEXEC), K_CHANGING, 0, "a list being rewritten");
		start_changer(path);
	}

	/* A number that is not an open fd (lpfuzz opens fewer than 100). */
	for (closed_fd = 900; fcntl(closed_fd, F_GETFD) != -1; closed_fd++)
		;

	guard = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED)
		guard = NULL;
	else
		munmap(guard + 4096, 4096);
}

/* ------------------------------------------------------ arguments */

/* An argument an ioctl cannot read 4 bytes from. */
static unsigned long bad_pointer(void)
{
	switch (rnd(6)) {
	case 0:
		return 0;
	case 1:
		return rnd(2) ? 1 : (unsigned long)-1;
	case 2:
		return 0xffffffff81000000UL + rnd(1 << 20);	/* kernel text */
	case 3:
		return guard ? (unsigned long)guard + 4096 + rnd(4096) : 0; /* unmapped */
	case 4:
		/* Straddling the end of the page: 1 to 3 bytes readable. */
		return guard ? (unsigned long)guard + 4096 - 1 - rnd(3) : 0;
	default:
		return 3 + rnd(20);	/* an fd (or flags) passed by value */
	}
}

/* An ioctl argument. *fdval receives the fd number it points to, or -2. */
static unsigned long pick_arg(int consequential_ok, int *fdval)
{
	static unsigned int cell[4];	/* where the fd numbers go */
	unsigned int v;
	int i;

	*fdval = -2;
	if (rnd(10) < 6)
		return bad_pointer();
	/* A pointer to an fd number. */
	switch (rnd(consequential_ok ? 4 : 3)) {
	case 0:
		v = closed_fd;
		break;
	case 1:
		v = rnd(2) ? (unsigned int)-1 : INT_MAX - rnd(1000);
		break;
	case 2:
		for (i = 0; i < npool && pool[i].kind != K_NOTFD; i++)
			;
		v = i < npool ? (unsigned int)pool[i].fd : (unsigned int)closed_fd;
		break;
	default:
		v = pool[rnd(npool)].fd;
		break;
	}
	i = rnd(4);
	cell[i] = v;
	*fdval = (int)v;
	return (unsigned long)&cell[i];
}

/* Whether ARG, as the set ioctl reads it, is readable (4 bytes). */
static int arg_readable(unsigned long arg, int fdval)
{
	(void)arg;
	return fdval != -2;
}

static struct fdent *pool_find(int fd)
{
	int i;

	for (i = 0; i < npool; i++)
		if (pool[i].fd == fd)
			return &pool[i];
	return NULL;
}

/* Commands the VFS takes before the file's own ioctl (fs/ioctl.c). */
static int vfs_cmd(unsigned int cmd)
{
	unsigned int type = _IOC_TYPE(cmd);

	return cmd == FIOCLEX || cmd == FIONCLEX || cmd == FIONBIO ||
	       cmd == FIOASYNC || cmd == FIOQSIZE || cmd == FIONREAD ||
	       cmd == 1 || cmd == 2 ||		/* FIBMAP, FIGETBSZ */
	       type == 'X' || type == 0x94 || type == 'f' || type == 0x15;
}

/* A command number that is neither LoadPin's nor one the VFS acts on. */
static unsigned int random_cmd(void)
{
	unsigned int cmd;

	do {
		switch (rnd(4)) {
		case 0:		/* LoadPin's, with another direction or size */
			cmd = _IOC(rnd(4), 'L', rnd(4), rnd(3) * 4);
			break;
		case 1:
			cmd = _IOC(rnd(4), 'L', rnd(256), rnd(64));
			break;
		case 2:
			cmd = _IOC(rnd(4), rnd(256), rnd(256), rnd(1 << 14));
			break;
		default:
			cmd = (unsigned int)rnd64();
			break;
		}
	} while (cmd == IOC_SET || cmd == IOC_SEAL || vfs_cmd(cmd));
	return cmd;
}

/* VFS commands that change nothing that matters here. */
static unsigned int vfs_safe_cmd(void)
{
	static const unsigned int cmds[] = {
		FIOCLEX, FIONCLEX, FIONBIO, FIOQSIZE, FIONREAD, 2 /* FIGETBSZ */,
	};

	return cmds[rnd(sizeof(cmds) / sizeof(cmds[0]))];
}

/* ------------------------------------------------------- requests */

static long xioctl(int fd, unsigned int cmd, unsigned long arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

/* The one feed (or seal) of the boot. */
static void consequential(void)
{
	struct fdent *f;
	unsigned int fdval;
	char what[80];
	int e, i, valid = 0;

	ref_stale = 1;
	refresh_status();
	fed = 1;
	if (!npool || rnd(10) == 0) {
		unsigned int flags = 0;

		e = xioctl(verity_fd, IOC_SEAL, (unsigned long)&flags);
		note("round %ld: the one request is a seal: %s", round_no, errname(e));
		check(INV_FEED, !e, "seal: %s", errname(e));
		final = 1;
		ref_stale = 1;
		refresh_status();
		return;
	}
	/* A list that can be taken in 4 of 10, anything else in 5. */
	for (i = 0; i < npool; i++)
		valid |= pool[i].kind == K_LIST;
	valid = valid && rnd(9) < 4;
	do {
		f = &pool[rnd(npool)];
	} while (f->kind == K_NOTFD ||
		 valid != (f->kind == K_LIST || f->kind == K_LIMIT || f->kind == K_CHANGING));
	fdval = f->fd;
	e = xioctl(verity_fd, IOC_SET, (unsigned long)&fdval);
	snprintf(what, sizeof(what), "%s", f->name);
	note("round %ld: the one feed is %s: %s", round_no, what, errname(e));
	final = 1;
	switch (f->kind) {
	case K_OTHER:
		check(INV_FEED, e == EPERM, "%s: %s, not EPERM", what, errname(e));
		break;
	case K_LIST:
	case K_LIMIT:
		check(INV_FEED, !e || nomem_ok(e), "%s: %s", what, errname(e));
		if (!e)
			digests = f->count;
		break;
	case K_HUGE:
		check(INV_FEED, e == EFBIG, "%s: %s, not EFBIG", what, errname(e));
		break;
	case K_NOREAD:
		check(INV_FEED, e == EBADF, "%s: %s, not EBADF", what, errname(e));
		break;
	case K_CHANGING:
		/* Whole versions only: the kernel denies writers while it reads. */
		if (!e)
			digests_max = CHANGING_MAX;
		break;
	default:
		check(INV_FEED, e != 0, "%s was accepted", what);
		break;
	}
	ref_stale = 1;
	refresh_status();
	check(INV_FEED, status_num(&ref, "verity_final") == 1,
	      "the interface is not final after the feed");
}

/* LoadPin's set ioctl with a random argument. */
static void req_set(void)
{
	int fdval, e;
	unsigned long arg = pick_arg(final, &fdval);
	struct fdent *f = fdval >= 0 ? pool_find(fdval) : NULL;
	int open_fd = f && f->kind != K_NOTFD;

	e = xioctl(verity_fd, IOC_SET, arg);
	if (!arg_readable(arg, fdval)) {
		check(final ? INV_FINAL : INV_PREFEED, e == EFAULT,
		      "set with argument %#lx: %s, not EFAULT", arg, errname(e));
	} else if (!open_fd) {
		check(final ? INV_FINAL : INV_PREFEED, e == EINVAL,
		      "set with fd %d: %s, not EINVAL", fdval, errname(e));
	} else {
		/* Only once final does lpfuzz pass an open fd. */
		check(INV_FINAL, e == EPERM, "set with %s: %s, not EPERM", f->name, errname(e));
	}
	if (!final) {
		ref_stale = 1;
		refresh_status();
		check(INV_PREFEED, status_num(&ref, "verity_final") == 0,
		      "a failed set closed the interface");
	}
}

/*
 * LoadPin's seal ioctl with a random argument, a pointer to flags: only
 * once final with flags 0 (before, that would be the one request).
 */
static void req_seal(void)
{
	static unsigned int flags;
	unsigned long arg;
	int kind = rnd(final ? 4 : 2), want, e;

	switch (kind) {
	case 0:
		arg = bad_pointer();
		want = EFAULT;
		break;
	case 1:
		flags = rnd(2) ? 1U << rnd(32) : (unsigned int)rnd64() | 1;
		arg = (unsigned long)&flags;
		want = EINVAL;
		break;
	default:
		flags = 0;
		arg = (unsigned long)&flags;
		want = 0;
		break;
	}
	e = xioctl(verity_fd, IOC_SEAL, arg);
	check(final ? INV_FINAL : INV_PREFEED, e == want, "seal with %s: %s, not %s",
	      kind == 0 ? "a bad pointer" : kind == 1 ? "flags set" : "flags 0",
	      errname(e), errname(want));
	if (!final) {
		ref_stale = 1;
		refresh_status();
		check(INV_PREFEED, status_num(&ref, "verity_final") == 0,
		      "a failed seal closed the interface");
	}
}

static void req_ioctl(void)
{
	int fdval, on_status = rnd(4) == 0, fd = on_status ? status_fd : verity_fd;
	unsigned int cmd;
	unsigned long arg;
	int e;

	switch (rnd(on_status ? 3 : 8)) {
	case 0:
		/* The status file has no ioctl at all: not even LoadPin's. */
		if (on_status) {
			cmd = rnd(2) ? IOC_SET : IOC_SEAL;
			break;
		}
		if (rnd(2))
			req_seal();
		else
			req_set();
		return;
	case 1:
		cmd = vfs_safe_cmd();
		arg = pick_arg(0, &fdval);
		xioctl(fd, cmd, arg);
		return;
	default:
		cmd = random_cmd();
		break;
	}
	arg = pick_arg(final, &fdval);
	e = xioctl(fd, cmd, arg);
	check(INV_OTHER_CMD, e == (on_status ? ENOTTY : EINVAL),
	      "ioctl %#x on the %s file: %s, not %s", cmd,
	      on_status ? "status" : "dm-verity", errname(e),
	      on_status ? "ENOTTY" : "EINVAL");
	if (on_status && (cmd == IOC_SEAL || cmd == IOC_SET)) {
		ref_stale = 1;
		refresh_status();
	}
}

static char rbuf[16384];

/* A few reads, preads and seeks on one open of the status file. */
static void req_reads(void)
{
	long pos = 0, len, off, r;
	int fd, n, i, e, size, is_read;

	refresh_status();
	len = ref.len;
	fd = open(LP_STATUS, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		check(INV_READS, nomem_ok(errno), "open: %s", errname(errno));
		return;
	}
	n = 1 + rnd(6);
	for (i = 0; i < n; i++) {
		static const int sizes[] = { 0, 1, 2, 7, 63, 64, 100, 511, 4096, 8192 };

		size = rnd(3) ? sizes[rnd(10)] : (int)rnd(sizeof(rbuf));
		switch (rnd(5)) {
		case 0:		/* lseek */
			switch (rnd(4)) {
			case 0:
				off = rnd(len + 64);
				r = lseek(fd, off, SEEK_SET);
				break;
			case 1:
				off = (long)rnd(2 * len + 2) - len - 1;
				r = lseek(fd, off, SEEK_CUR);
				off += pos;
				break;
			case 2:
				off = -1 - rnd(100);
				r = lseek(fd, off, SEEK_SET);
				break;
			default:
				off = -1;
				r = lseek(fd, rnd(100), SEEK_END);
				break;
			}
			e = r < 0 ? errno : 0;
			if (off < 0) {
				check(INV_READS, e == EINVAL, "lseek to %ld: %s", off, errname(e));
			} else if (e) {
				/* seq_file starts over at 0 when it cannot get there. */
				check(INV_READS, nomem_ok(e), "lseek to %ld: %s", off, errname(e));
				pos = lseek(fd, 0, SEEK_CUR);
			} else {
				check(INV_READS, r == off, "lseek to %ld went to %ld", off, r);
				pos = r;
			}
			continue;
		case 1:		/* pread */
			is_read = 0;
			off = rnd(len + 64);
			r = pread(fd, rbuf, size, off);
			break;
		default:	/* read */
			is_read = 1;
			off = pos;
			r = read(fd, rbuf, size);
			break;
		}
		if (r < 0) {
			check(INV_READS, nomem_ok(errno), "read %d at %ld: %s",
			      size, off, errname(errno));
			continue;
		}
		{
			long want = off >= len ? 0 : (len - off < size ? len - off : size);

			check(INV_READS, r == want && !memcmp(rbuf, ref.text + off, r),
			      "read %d at %ld: %ld bytes%s, not %ld", size, off, r,
			      r <= want && memcmp(rbuf, ref.text + off, r) ? " that differ" : "",
			      want);
		}
		if (is_read)
			pos += r;
	}
	close(fd);
}

/* What LoadPin's files must refuse. */
static void req_refuse(void)
{
	char buf[64] = "1\n";
	void *m;
	int fd, e;

	switch (rnd(5)) {
	case 0:
		fd = open(LP_STATUS, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return;		/* refused at open: fine too */
		e = write(fd, buf, 1 + rnd(sizeof(buf) - 1)) < 0 ? errno : 0;
		check(INV_REFUSE, e != 0, "a write to the status file succeeded");
		close(fd);
		break;
	case 1:
		fd = open(LP_VERITY, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			check(INV_REFUSE, nomem_ok(errno), "open dm-verity O_RDWR: %s",
			      errname(errno));
			return;
		}
		e = write(fd, buf, 1 + rnd(sizeof(buf) - 1)) < 0 ? errno : 0;
		check(INV_REFUSE, e != 0, "a write to dm-verity succeeded");
		e = read(fd, buf, sizeof(buf)) < 0 ? errno : 0;
		check(INV_REFUSE, e != 0, "a read of dm-verity succeeded");
		close(fd);
		break;
	case 2:
		e = read(verity_fd, buf, rnd(sizeof(buf))) < 0 ? errno : 0;
		check(INV_REFUSE, e != 0, "a read of dm-verity succeeded");
		break;
	case 3:
		m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, rnd(2) ? status_fd : verity_fd, 0);
		check(INV_REFUSE, m == MAP_FAILED, "mmap of a LoadPin file succeeded");
		if (m != MAP_FAILED)
			munmap(m, 4096);
		break;
	default:
		fd = open(LP_STATUS, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return;
		e = xioctl(fd, random_cmd(), 0);
		check(INV_OTHER_CMD, e == ENOTTY, "ioctl on a new status fd: %s", errname(e));
		close(fd);
		break;
	}
}

static int allow_fd = -1, deny_fd = -1;
static char *deny_buf;
static size_t deny_len;

static void req_load(void)
{
	long e;

	ref_stale = 1;
	switch (rnd(3)) {
	case 0:
		if (allow_fd < 0)
			return;
		e = syscall(SYS_finit_module, allow_fd, "", 0) ? errno : 0;
		check(INV_ALLOW, e != EPERM && e != 0 && (e == ENOEXEC || nomem_ok(e)),
		      "finit_module from the pinned filesystem: %s", errname(e));
		break;
	case 1:
		if (deny_fd < 0)
			return;
		e = syscall(SYS_finit_module, deny_fd, "", 0) ? errno : 0;
		check(INV_DENY, e == EPERM || (e && faults),
		      "finit_module from elsewhere: %s", errname(e));
		break;
	default:
		if (!deny_buf)
			return;
		e = syscall(SYS_init_module, deny_buf, (unsigned long)deny_len, "") ? errno : 0;
		check(INV_DENY, e == EPERM || (e && faults), "init_module: %s", errname(e));
		break;
	}
}

/* ------------------------------------------------------------- main */

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *allow = NULL, *deny = NULL;
	long rounds = 2000, limit_s = 90, r0, t0, done_rounds = 0;
	int opt, i, seeded = 0, loads;
	struct stat sb;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "s:n:t:fp:a:d:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); seeded = 1; break;
		case 'n': rounds = atol(optarg); break;
		case 't': limit_s = atol(optarg); break;
		case 'f': faults = 1; break;
		case 'p': dir = optarg; break;
		case 'a': allow = optarg; break;
		case 'd': deny = optarg; break;
		default:
			fprintf(stderr, "usage: lpfuzz [-s SEED] [-n ROUNDS] [-t SECONDS] [-f] [-p DIR] [-a FILE] [-d FILE]\n");
			return 2;
		}
	}
	if (!seeded && getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (unsigned long long)time(NULL) ^ getpid();
	seed &= (1ULL << 53) - 1;	/* survives a round trip through awk */
	printf("# seed: %llu\n", seed);
	printf("# rounds: %ld, time limit: %ld s%s\n", rounds, limit_s,
	       faults ? ", under fault injection" : "");
	rng = seed;

	/* Set-up, without faults. */
	if (status_read_retry(&ref) || status_malformed(&ref, NULL)) {
		tap(0, "lpfuzz: the status file is readable at the start");
		return 1;
	}
	status_keys(&ref, keys, sizeof(keys));
	final = status_num(&ref, "verity_final") == 1;
	digests = status_num(&ref, "verity_digests");
	fed = final;
	ref_stale = 1;
	refresh_status();
	setup_pool(dir);
	if (status_fd < 0 || verity_fd < 0) {
		tap(0, "lpfuzz: LoadPin's securityfs files open");
		return 1;
	}
	if (allow)
		allow_fd = open(allow, O_RDONLY | O_CLOEXEC);
	if (deny) {
		deny_fd = open(deny, O_RDONLY | O_CLOEXEC);
		if (deny_fd >= 0 && !fstat(deny_fd, &sb) && (deny_buf = malloc(sb.st_size)) &&
		    read(deny_fd, deny_buf, sb.st_size) == sb.st_size)
			deny_len = sb.st_size;
		else
			deny_buf = NULL;
	}
	loads = allow_fd >= 0 || deny_fd >= 0;
	note("%d fds in the pool%s%s", npool, final ? "; the interface is final already" : "",
	     loads ? "; loads too" : "");
	/* Some rounds before it, so that those checks are made. */
	r0 = final ? -1 : rounds / 10 + (long)rnd(rounds * 2 / 5 + 1);

	if (faults) {
		mlockall(MCL_CURRENT | MCL_FUTURE);
		if (fi_make_it_fail(1)) {
			tap(0, "lpfuzz: make-it-fail set");
			return 1;
		}
	}
	t0 = now_ms();
	for (round_no = 0; round_no < rounds; round_no++) {
		if (now_ms() - t0 > limit_s * 1000)
			break;
		done_rounds++;
		if (round_no == r0) {
			consequential();
			continue;
		}
		switch (rnd(loads ? 10 : 8)) {
		case 0: case 1: case 2:
			req_ioctl();
			break;
		case 3:
			if (final)
				req_set();
			else
				req_ioctl();
			break;
		case 4: case 5:
			req_reads();
			break;
		case 6:
			req_refuse();
			break;
		case 7:
			refresh_status();
			break;
		default:
			req_load();
			break;
		}
	}
	if (faults && fi_make_it_fail(0))
		note("cannot clear make-it-fail");
	if (changer > 0) {
		kill(changer, SIGKILL);
		waitpid(changer, NULL, 0);
	}
	/* Fault-free, the state must still add up. */
	faults = 0;
	ref_stale = 1;
	refresh_status();
	if (fed || final) {
		int fdval = verity_fd, e = xioctl(verity_fd, IOC_SET, (unsigned long)&fdval);

		check(INV_FINAL, e == EPERM, "set at the end: %s", errname(e));
	}
	note("%ld rounds in %ld ms%s", done_rounds, now_ms() - t0,
	     done_rounds < rounds ? " (stopped at the time limit)" : "");

	for (i = 0; i < INV_MAX; i++) {
		int k;

		if (!inv[i].checks) {
			printf("ok %d lpfuzz: %s # SKIP not exercised\n", ++tap_n, inv_desc[i]);
			continue;
		}
		tap(!inv[i].bad, "lpfuzz: %s", inv_desc[i]);
		if (inv[i].bad || i == INV_FEED)
			note("%ld checks, %ld violations", inv[i].checks, inv[i].bad);
		for (k = 0; k < inv[i].bad && k < MAX_SHOWN; k++)
			note("%s", inv[i].shown[k]);
	}
	return 0;
}
