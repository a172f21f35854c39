#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The configuration matrix: the patched kernel built whole for every
# configs/matrix/*.config on top of base.config and loadpin.config:
#   lean        no KUnit, no audit, no sysctl, LoadPin's verity off
#   bare        no modules, no device mapper, no securityfs, enforcing
#   no-loadpin  LoadPin not built
# The main kernel is the fourth corner (everything on). Options are
# grouped so that each is off in some variant for three builds, not nine.
# A variant passes when the kernel builds, the build prints no warning
# from a file the series touches, a variant with LoadPin boots without a
# LoadPin error (boot_check), and those files rebuild warning-free at
# W=1 with sparse (C=1).
#
#   matrix.sh [--counts] [VARIANT...]
#
# Each variant's output directory starts as a copy of the main build, so
# its first build only recompiles what its options change. A variant that
# passed is not built again until the series or its fragments change.
set -uo pipefail
. "$(dirname "$0")/common.sh"

counts=0
[ "${1:-}" = "--counts" ] && { counts=1; shift; }
[ -f "$CACHE/build/main/vmlinux" ] || "$TOP/scripts/kernel.sh" main >/dev/null || exit 1
CC="ccache gcc"
command -v ccache >/dev/null || CC=gcc
c=$TOP/configs
pass=0 fail=0
result() {	# result PASS|FAIL NAME [WHY]
	local line="$1 matrix: $2"
	[ -n "${3:-}" ] && line+="  -- $3"
	echo "$line"
	[ "$1" = PASS ] && pass=$((pass + 1)) || fail=$((fail + 1))
}

# The C files the series adds or changes, as kbuild object targets.
ours=$(git -C "$SRC" diff --name-only --diff-filter=d pristine HEAD -- '*.c' |
       grep -v '^tools/' | sed 's/\.c$/.o/')

# A variant with LoadPin boots (the main guest's initramfs, its status
# scenario) without LoadPin saying it cannot do something: a kernel
# without securityfs has no interface to offer, which is no error.
boot_check() {	# boot_check VARIANT OBJ: prints why on failure
	local log=$2/boot-console.log initrd=$OUT/guest/main/initramfs.cpio
	[ -f "$initrd" ] || { echo "no $initrd (scripts/guest.sh -n main)"; return 1; }
	rm -f "$log"
	timeout 120 "${LOADPIN_QEMU:-qemu-system-x86_64}" -accel "${LOADPIN_QEMU_ACCEL:-tcg}" \
		-m 512 -nodefaults -display none -no-reboot \
		-kernel "$2/arch/x86/boot/bzImage" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 lptest=status" \
		-serial "file:$log" -serial null < /dev/null > /dev/null 2>&1
	grep -q 'LoadPin: ready to pin' "$log" || { echo "LoadPin did not start"; return 1; }
	! grep -E -m1 'LoadPin: .*(cannot|failed)' "$log"
}

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=($(cd "$c/matrix" && ls *.config | sed 's/\.config$//'))
for v in "${variants[@]}"; do
	frag=$c/matrix/$v.config
	[ -f "$frag" ] || { result FAIL "$v" "no $frag"; continue; }
	obj=$CACHE/build/matrix-$v
	if [ ! -f "$obj/.config" ]; then
		rm -rf "$obj"
		cp -a "$CACHE/build/main" "$obj"
		rm -f "$obj/.frags" "$obj"/.passed*
	fi
	stamp=$(cat "$c/base.config" "$c/loadpin.config" "$frag" | sha256sum | cut -c1-16)
	stamp="$(series_hash) $stamp"
	if [ "$(cat "$obj/.passed" 2>/dev/null)" = "$stamp" ]; then
		result PASS "$v builds; our files are W=1 and sparse clean" "(cached)"
		[ "$v" = no-loadpin ] || result PASS "$v boots without a LoadPin error" "(cached)"
		continue
	fi
	rm -f "$obj/.passed"
	if ! "$TOP/scripts/build.sh" -n "matrix-$v" "$c/base.config" "$c/loadpin.config" \
		"$frag" -- all >/dev/null 2>"$obj/build.err"; then
		result FAIL "$v" "build failed: $(grep -m1 -E 'error' "$obj/build.err")"
		continue
	fi
	# Warnings in files we touch, from the normal build...
	warn=$(grep -E 'warning:' "$obj/build.log" | grep -F -f <(echo "$ours" | sed 's/\.o$//') || true)
	# ...and from rebuilding them at W=1 with sparse (the changed flags
	# make kbuild recompile them). Objects this configuration leaves out
	# are skipped: the copied main build may still hold them, so ask the
	# archives the kernel was linked from.
	members=$( { ar t "$obj/vmlinux.a"; ar t "$obj/lib/lib.a"; } 2>/dev/null |
		sed -E "s|^/.*/build/[^/]+/||")
	built=()
	for o in $ours; do
		grep -qxF "$o" <<< "$members" && built+=("$o")
	done
	if [ ${#built[@]} -gt 0 ]; then
		w1=$(make -s -C "$SRC" O="$obj" CC="$CC" -j"$JOBS" W=1 C=1 \
			"${built[@]}" 2>&1 | grep -E 'warning:|error:' || true)
		warn+=$w1
	fi
	if [ -n "$warn" ]; then
		echo "$warn" | head -5 | sed 's/^/# /'
		result FAIL "$v builds; our files are W=1 and sparse clean" \
			"$(echo "$warn" | wc -l) warnings"
		continue
	fi
	result PASS "$v builds; our files are W=1 and sparse clean" \
		"${#built[@]} of our objects built"
	if [ "$v" != no-loadpin ]; then
		if why=$(boot_check "$v" "$obj"); then
			result PASS "$v boots without a LoadPin error"
		else
			result FAIL "$v boots without a LoadPin error" "$why"
			continue
		fi
	fi
	echo "$stamp" > "$obj/.passed"
done
if [ $counts = 1 ]; then
	echo "# counts: $pass $fail 0"
else
	echo "$pass passed, $fail failed"
fi
[ $fail = 0 ]
