# SPDX-License-Identifier: GPL-2.0
# LoadPin, done right: the patch series, its kernel builds and its tests.
# Everything runs as root on Debian 12; see README.md.

S := scripts

.PHONY: all deps tree kernel guest check check-full check-main demo refresh lint help \
	matrix compare bench cleanroot deb system
all: check

help:
	@echo "make demo     build the patched kernel and show LoadPin in QEMU"
	@echo "make check    build and run every test; last line: N passed, N failed"
	@echo "make check-full  make check, with every scenario on the debug kernel,"
	@echo "              the KCSAN kernel, every matrix variant and every"
	@echo "              Debian system scenario"
	@echo "make check-main  make check without the matrix or the clean root"
	@echo "make lint     checkpatch, git am, W=1, sparse, kernel-doc, coccicheck,"
	@echo "              every patch builds"
	@echo "make matrix   build the kernel in every configs/matrix/ variant"
	@echo "make compare  the scenarios on upstream LoadPin and on the series, as a table"
	@echo "make bench    the cost of pinning: no LoadPin, upstream, the series"
	@echo "make kernel   build the patched kernel (last line: bzImage path)"
	@echo "make cleanroot  deps.sh and make demo in a clean Debian 12 root"
	@echo "make refresh  export the commits of the kernel tree into patches/"
	@echo "make deb      the patched kernel as Debian packages (out/deb/main/)"
	@echo "make system   boot a real Debian 12 system on it: every system scenario"

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

kernel: tree
	@$(S)/kernel.sh main

guest: kernel
	@$(S)/guest.sh -n main

check:
	@$(S)/check.sh

# Everything: make check plus every scenario on the debug kernel (make
# check boots a set of them), the race scenarios on the KCSAN kernel,
# the lean and bare matrix variants and every system scenario. About an
# hour cold on 2 cores, 13 minutes more for the Debian packages' kernel.
check-full:
	@LOADPIN_DEBUG=1 LOADPIN_KCSAN=1 LOADPIN_MATRIX=all LOADPIN_SYSTEM=all $(S)/check.sh

# make check without the matrix or the clean root: quicker while
# developing.
check-main:
	@LOADPIN_DEBUG=0 LOADPIN_KCSAN=0 LOADPIN_MATRIX=0 LOADPIN_CLEANROOT=0 $(S)/check.sh

matrix: tree
	@$(S)/matrix.sh

compare: tree
	@$(S)/compare.sh

bench: tree
	@$(S)/bench.sh

demo:
	@$(S)/demo.sh

# deps.sh and make demo in a minimal Debian 12 root (skipped when the same
# inputs passed before; scripts/cleanroot.sh --force reruns it).
cleanroot:
	@$(S)/cleanroot.sh

refresh:
	@$(S)/refresh.sh

lint: tree
	@$(S)/lint.sh

# The kernel as Debian packages (out/deb/main/), and a real Debian 12
# system booted on it in QEMU (system/, README "System tests").
deb: tree
	@system/deb.sh main

system: tree
	@system/system.sh
