// SPDX-License-Identifier: GPL-2.0
/*
 * Provoke Yama ptrace decisions from the guest.
 *
 *   yama_ptrace attach|seize|traceme
 *
 * First drops CAP_SYS_PTRACE from the bounding, inheritable, permitted and
 * effective sets, so Yama's "admin-only" scope (2) applies to root too.
 *
 * attach, seize: fork a target that re-executes this program as
 *   "yama_ptrace" "wait" "a\"b\nc" and waits, then fork a sibling (not an
 *   ancestor of the target) that tries PTRACE_ATTACH or PTRACE_SEIZE on it.
 *   Prints "MODE target=PID tracer=PID result=R".
 * traceme: fork a child that re-executes this program as
 *   "yama_ptrace" "traceme-child" "a\"b\nc" and calls PTRACE_TRACEME.
 *   Prints "traceme tracee=PID parent=PID result=R".
 *
 * R is "ok" or the errno name (EPERM, ...). The command line of the tracer
 * (attach, seize) and of the parent (traceme) is the one this program was
 * started with. Exits 0 when the steps ran, whatever R is; 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "lpresult.h"

#define ODD_ARG "a\"b\nc"

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "yama_ptrace: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void drop_cap_sys_ptrace(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int i = CAP_TO_INDEX(CAP_SYS_PTRACE);
	__u32 bit = CAP_TO_MASK(CAP_SYS_PTRACE);

	if (prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0))
		die("PR_CAPBSET_DROP");
	if (syscall(SYS_capget, &hdr, data))
		die("capget");
	data[i].effective &= ~bit;
	data[i].permitted &= ~bit;
	data[i].inheritable &= ~bit;
	if (syscall(SYS_capset, &hdr, data))
		die("capset");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0))
		die("PR_CAP_AMBIENT_CLEAR_ALL");
}

/* Re-execute ourselves as "yama_ptrace ROLE a\"b\nc". */
static void __attribute__((noreturn)) reexec(const char *role)
{
	char *argv[] = { "yama_ptrace", (char *)role, ODD_ARG, NULL };

	execv("/proc/self/exe", argv);
	die("execv");
}

static int wait_exit(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int do_attach(int seize)
{
	int ready[2], res[2], err;
	pid_t target, tracer;
	char c;

	if (pipe(ready) || pipe(res))
		die("pipe");

	target = fork();
	if (target < 0)
		die("fork");
	if (!target) {
		/* The target tells us on fd 3 once it has exec'ed. */
		if (dup2(ready[1], 3) != 3)
			die("dup2");
		reexec("wait");
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		fprintf(stderr, "yama_ptrace: target did not start\n");
		return 1;
	}

	tracer = fork();
	if (tracer < 0)
		die("fork");
	if (!tracer) {
		long r;

		if (seize)
			r = ptrace(PTRACE_SEIZE, target, NULL, NULL);
		else
			r = ptrace(PTRACE_ATTACH, target, NULL, NULL);
		err = r ? errno : 0;
		if (write(res[1], &err, sizeof(err)) != sizeof(err))
			_exit(1);
		/* Exiting detaches if the attach worked. */
		_exit(0);
	}
	if (wait_exit(tracer))
		return 1;
	if (read(res[0], &err, sizeof(err)) != sizeof(err))
		die("read");

	kill(target, SIGKILL);
	wait_exit(target);

	printf("%s target=%d tracer=%d result=%s\n", seize ? "seize" : "attach",
	       target, tracer, errname(err));
	return 0;
}

static int do_traceme(void)
{
	int res[2], err, ret;
	pid_t child;

	if (pipe(res))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		if (dup2(res[1], 3) != 3)
			die("dup2");
		reexec("traceme-child");
	}
	close(res[1]);
	if (read(res[0], &err, sizeof(err)) != sizeof(err)) {
		fprintf(stderr, "yama_ptrace: no result from the child\n");
		return 1;
	}
	ret = wait_exit(child);
	if (ret) {
		fprintf(stderr, "yama_ptrace: child exited with %d\n", ret);
		return 1;
	}
	printf("traceme tracee=%d parent=%d result=%s\n", child, getpid(),
	       errname(err));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "wait")) {
		char c = 'R';

		if (write(3, &c, 1) != 1)
			return 1;
		close(3);
		for (;;)
			pause();
	}
	if (argc == 3 && !strcmp(argv[1], "traceme-child")) {
		int err = ptrace(PTRACE_TRACEME, 0, NULL, NULL) ? errno : 0;

		return write(3, &err, sizeof(err)) == sizeof(err) ? 0 : 1;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: yama_ptrace attach|seize|traceme\n");
		return 1;
	}

	setvbuf(stdout, NULL, _IONBF, 0);
	drop_cap_sys_ptrace();
	if (!strcmp(argv[1], "attach"))
		return do_attach(0);
	if (!strcmp(argv[1], "seize"))
		return do_attach(1);
	if (!strcmp(argv[1], "traceme"))
		return do_traceme();
	fprintf(stderr, "yama_ptrace: unknown mode %s\n", argv[1]);
	return 1;
}
