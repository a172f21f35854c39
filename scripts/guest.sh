#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build what runs inside the guest against a built kernel:
#   guest.sh [-n NAME] [-s SRC] [-t TESTSRC]
# the test modules (lp_a..lp_d.ko, lp_bench.ko), lpctl, the LoadPin
# selftests of TESTSRC (default: SRC; make compare runs the series'
# selftests on the unpatched tree), and the busybox initramfs holding them
# and every scenario's guest script. Outputs go to $OUT/guest/NAME/.
set -euo pipefail
. "$(dirname "$0")/common.sh"

src=$SRC
testsrc=
name=main
while [ $# -gt 0 ]; do
	case "$1" in
	-n) name=$2; shift 2 ;;
	-s) src=$2; shift 2 ;;
	-t) testsrc=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
obj=$CACHE/build/$name
dst=$OUT/guest/$name
[ -f "$obj/arch/x86/boot/bzImage" ] || die "no kernel built in $obj"
mkdir -p "$dst"
CC="ccache gcc"
command -v ccache >/dev/null || CC=gcc

# Test modules: one payload under four names.
if grep -q '^CONFIG_MODULES=y' "$obj/.config"; then
	mkdir -p "$dst/module"
	: > "$dst/module/Kbuild.new"
	for m in lp_a lp_b lp_c lp_d lp_bench; do
		c=$TOP/tests/module/loadpin_test_mod.c
		[ $m = lp_bench ] && c=$TOP/bench/lp_bench.c
		cmp -s "$c" "$dst/module/$m.c" || cp "$c" "$dst/module/$m.c"
		echo "obj-m += $m.o" >> "$dst/module/Kbuild.new"
	done
	mv "$dst/module/Kbuild.new" "$dst/module/Kbuild"
	make -s -C "$src" O="$obj" M="$dst/module" CC="$CC" -j"$JOBS" modules >/dev/null ||
		die "test module build failed"
fi

# UAPI headers of this tree, for the selftests.
make -s -C "$src" O="$obj" headers_install INSTALL_HDR_PATH="$dst/hdr" >/dev/null

testsrc=${testsrc:-$src}
cflags=(-static -O2 -Wall
	-isystem "$dst/hdr/include" -I "$testsrc/tools/testing/selftests")
mkdir -p "$dst/bin"
for t in "$TOP"/tests/guest/*.c; do
	$CC "${cflags[@]}" -o "$dst/bin/$(basename "$t" .c)" "$t" -lpthread ||
		die "$t failed to build"
done
# loadpinctl (loadpinctl/), the operator's tool, built like the programs
# above; its systemd unit and initramfs-tools scripts go along for the
# ctl-* scenarios to run by hand.
$CC "${cflags[@]}" -D_GNU_SOURCE -o "$dst/bin/loadpinctl" "$TOP"/loadpinctl/*.c ||
	die "loadpinctl failed to build"
for t in "$testsrc"/tools/testing/selftests/loadpin/*_test.c \
	 "$testsrc"/tools/testing/selftests/lsm/lsm_*_test.c; do
	[ -f "$t" ] || continue
	b=$(basename "$t" .c)
	extra=()
	case "$t" in */lsm/*) extra=("$testsrc/tools/testing/selftests/lsm/common.c") ;; esac
	$CC "${cflags[@]}" -o "$dst/bin/$b" "$t" "${extra[@]}" -lpthread ||
		die "selftest $b failed to build"
done

# The LoadPin kselftests built and installed the kselftest way, their test
# modules with them, for run_kselftest.sh in the guest (busybox has no make).
# Their modules build in the source tree (like livepatch's): one guest build
# at a time, as check.sh, compare.sh and bench.sh run them.
# Cleaned first: kbuild keeps a module's .mod.o built against another
# kernel's config (its flags and its dependencies' dates can agree), and a
# module with another kernel's struct module fails to load with ENOEXEC.
rm -rf "$dst/kselftest"
ksft_mods=$testsrc/tools/testing/selftests/loadpin/test_modules
if [ -f "$ksft_mods/Makefile" ] && grep -q '^CONFIG_MODULES=y' "$obj/.config"; then
	make -s -C "$ksft_mods" KDIR="$obj" clean >/dev/null ||
		die "the LoadPin kselftests' modules failed to clean"
	make -s -C "$testsrc/tools/testing/selftests" O="$dst/kselftest-build" \
		TARGETS=loadpin KDIR="$obj" CC="$CC" USERLDFLAGS=-static \
		KHDR_INCLUDES="-isystem $dst/hdr/include" \
		KSFT_INSTALL_PATH="$dst/kselftest" install >/dev/null ||
		die "the LoadPin kselftests failed to build"
	# Each must carry this kernel's struct module, as our own lp_a does.
	this_module_size() { readelf -S -W "$1" | awk '/this_module/ { print $6; exit }'; }
	want=$(this_module_size "$dst/module/lp_a.ko")
	for ko in "$dst"/kselftest/loadpin/test_modules/*.ko; do
		got=$(this_module_size "$ko")
		[ "$got" = "$want" ] ||
			die "$ko was built against another kernel (struct module 0x$got, not 0x$want)"
	done
fi

# The initramfs.
root=$dst/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,mnt,tests/scenarios,payload}
cp /bin/busybox "$root/bin/busybox"
install -m 0755 "$TOP/tests/guest/init" "$root/init"
cp "$TOP/tests/guest/lib.sh" "$root/tests/lib.sh"
mkdir -p "$root/usr/share/loadpinctl"
cp -r "$TOP/loadpinctl/systemd" "$TOP/loadpinctl/initramfs-tools" "$root/usr/share/loadpinctl/"
cp "$TOP/bench/guest.sh" "$root/tests/bench.sh"
cp "$TOP/bench/verity.sh" "$root/tests/bench-verity.sh"
cp "$dst"/bin/* "$root/bin/"
[ -d "$dst/kselftest" ] && cp -a "$dst/kselftest" "$root/kselftest"
python3 "$TOP/tests/run.py" --extract-guest "$root/tests/scenarios"
"$TOP/scripts/payload.sh" "$dst" "$root/payload"
# Reproducible: the same files make the same image, byte for byte (run.py
# keys the debug and KCSAN kernels' passes on it). Not compressed: the
# guest then unpacks it about 0.4 s sooner a boot (1.1 s on the debug
# kernel), and QEMU reads 15 MB from the page cache either way.
find "$root" -exec touch -h -d @0 {} +
rm -f "$dst/initramfs.cpio.gz"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --reproducible --quiet) \
	> "$dst/initramfs.cpio"
echo "$dst/initramfs.cpio"
