#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: set up, build, boot every scenario; the last line is
# "N passed, N failed, N skipped" and the exit status is 1 on any failure.
set -uo pipefail
. "$(dirname "$0")/common.sh"

pass=0 fail=0 skip=0
step() {	# step NAME CMD...: a set-up step that counts as one test
	local name=$1
	shift
	if "$@"; then
		echo "PASS setup: $name"
		pass=$((pass + 1))
	else
		echo "FAIL setup: $name"
		fail=$((fail + 1))
		return 1
	fi
}
quiet() {	# quiet CMD...: CMD without its standard output (stderr stays)
	"$@" >/dev/null
}
tally() {	# tally CMD...: pass CMD's lines through, adding its "# counts:" to ours
	local line
	while IFS= read -r line; do
		case "$line" in
		"# counts: "*) set -- ${line#\# counts: }
			pass=$((pass + $1)) fail=$((fail + $2)) skip=$((skip + $3)) ;;
		*) echo "$line" ;;
		esac
	done < <("$@")
}
suite() {	# suite ARGS...: run.py
	tally python3 "$TOP/tests/run.py" --no-summary "$@"
}
finish() {
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" = 0 ]
	exit
}

start=$(date +%s)
last=$start
lap() {		# lap PHASE: how long PHASE took, for the README's figures
	local now
	now=$(date +%s)
	echo "# time: $1 $((now - last))s (at $((now - start))s)"
	last=$now
}
step "dependencies installed" "$TOP/scripts/deps.sh" || finish
step "series applies to the pristine tree" "$TOP/scripts/tree.sh" || finish
step "kernel builds" quiet "$TOP/scripts/kernel.sh" main || finish
step "guest programs and initramfs build" quiet "$TOP/scripts/guest.sh" -n main || finish
lap "set-up, main kernel and guest"
# deps.sh and make demo in a clean Debian 12 root, so that nothing this
# machine has can hide a missing package. After the main kernel, so that
# its compiles can hit the shared ccache. Skipped (a pass) when its last
# run passed with the same inputs; LOADPIN_CLEANROOT=0 leaves it out.
if [ "${LOADPIN_CLEANROOT:-1}" != 0 ]; then
	step "deps.sh and make demo pass in a clean Debian 12 root" "$TOP/scripts/cleanroot.sh"
	lap "clean root"
fi
tally "$TOP/scripts/lint.sh" --counts
lap lint
# The kernel without LoadPin, built whole (cached per series). The lean and
# bare variants rebuild most of the kernel (about 4.5 minutes each, cold):
# make matrix runs them. LOADPIN_MATRIX=all runs them here too, 0 none.
case "${LOADPIN_MATRIX:-no-loadpin}" in
0) ;;
all) tally "$TOP/scripts/matrix.sh" --counts ;;
*) tally "$TOP/scripts/matrix.sh" --counts ${LOADPIN_MATRIX:-no-loadpin} ;;
esac
# loadpinctl's host tests: its parsers (on the kernel's digest-list
# cases), exit statuses against fake trees, a bounded fuzz under ASan.
# Its log --audit test reads ausearch's output: unpack ausearch first,
# or a fresh clone would skip that test.
step "audit's ausearch unpacked from Debian's auditd package" \
	"$TOP/tests/ausearch.sh" --unpack
step "loadpinctl and its tests build" quiet make -s -C "$TOP/loadpinctl" SRC="$SRC" \
	loadpinctl tests/unit tests/fuzz &&
	tally "$TOP/loadpinctl/tests/run.sh" --counts
lap "matrix and loadpinctl"
suite --build main ${LOADPIN_SCENARIOS:-}
lap "main kernel scenarios"
# A real Debian 12 system on the kernel packaged with make deb (make
# system runs every system scenario). Not by default: the package's
# kernel is a build of its own, about 13 minutes more on a cold cache,
# which the 40-minute cold budget does not hold (2 minutes warm).
# LOADPIN_SYSTEM=1 runs the smallest scenario, LOADPIN_SYSTEM=all all.
case "${LOADPIN_SYSTEM:-0}" in
0) ;;
all) tally "$TOP/system/system.sh" --no-summary ;;
*) tally "$TOP/system/system.sh" --no-summary --no-baseline sys-verity ;;
esac
# The audit scenario's records, parsed by audit's own ausearch.
case " ${LOADPIN_SCENARIOS:-audit} " in
*" audit "*) tally "$TOP/tests/ausearch.sh" --counts main ;;
esac
# The debug kernel (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, UBSAN, kmemleak,
# fault injection on LoadPin's allocations) is part of every make check:
# a kernel build of its own (about 9 minutes cold on 2 cores, 15 s warm)
# that boots, with panic_on_warn=1 and a kernel report failing the boot,
# LoadPin's own tests (KUnit, kselftests), the fault-injection and
# fuzzing scenarios (which run only there), the races and the attacks:
# DEBUG_SET, about 3 minutes. Its lines say "debug:". LOADPIN_DEBUG=1
# (make check-full) boots every scenario there; LOADPIN_DEBUG=0 (make
# check-main) none.
DEBUG_SET='kunit kselftest-* fault-* fuzz-* race-* attack-*'
# make check-full's sanitizer runs boot again only the scenarios whose
# inputs changed since their last pass there: the kernel image, the
# initramfs (reproducible), the scenario, the runner, QEMU (run.py
# --reuse-passes; each one reused is one skip). make check's DEBUG_SET
# and the main kernel boot every time. LOADPIN_RERUN=1 boots them all.
reuse=--reuse-passes
[ "${LOADPIN_RERUN:-0}" = 0 ] || reuse=
if [ "${LOADPIN_DEBUG:-set}" != 0 ]; then
	step "debug kernel builds" quiet "$TOP/scripts/kernel.sh" debug &&
	step "debug guest programs and initramfs build" quiet "$TOP/scripts/guest.sh" -n debug &&
	if [ "${LOADPIN_DEBUG:-set}" = 1 ]; then
		suite --build debug --cmdline panic_on_warn=1 --timeout-factor 3 $reuse ${LOADPIN_SCENARIOS:-}
	else
		set -f	# DEBUG_SET's patterns are run.py's, not the shell's
		suite --build debug --cmdline panic_on_warn=1 --timeout-factor 3 ${LOADPIN_SCENARIOS:-$DEBUG_SET}
		set +f
	fi
	lap "debug kernel"
fi
# The race kernel (KCSAN, strict) runs the concurrency scenarios. Only data
# races with a frame in LoadPin fail.
if [ "${LOADPIN_KCSAN:-0}" != 0 ]; then
	step "KCSAN kernel builds" quiet "$TOP/scripts/kernel.sh" kcsan &&
	step "KCSAN guest programs and initramfs build" quiet "$TOP/scripts/guest.sh" -n kcsan &&
	suite --build kcsan --timeout-factor 3 $reuse 'race-*'
	lap "KCSAN kernel"
fi
echo "# make check took $(( $(date +%s) - start ))s"
finish
