# SPDX-License-Identifier: GPL-2.0
# LoadPin, done right: the patch series, its kernel builds and its tests.
# Everything runs as root on Debian 12; see README.md.

S := scripts

.PHONY: all deps tree kernel guest check check-main demo refresh lint help
all: check

help:
	@echo "make demo     build the patched kernel and show LoadPin in QEMU"
	@echo "make check    build and run every test; last line: N passed, N failed"
	@echo "make check-main  the same without the debug kernel"
	@echo "make lint     checkpatch, git am, W=1, sparse, kernel-doc"
	@echo "make kernel   build the patched kernel (last line: bzImage path)"
	@echo "make refresh  export the commits of the kernel tree into patches/"

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

# The same without the debug kernel: quicker while developing.
check-main:
	@LOADPIN_DEBUG=0 $(S)/check.sh

demo:
	@$(S)/demo.sh

refresh:
	@$(S)/refresh.sh

lint: tree
	@$(S)/lint.sh
