#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fill a directory with the files the tests load: payload.sh GUESTDIR DEST
#   firmware/lp-test.bin   a firmware blob for test_firmware
#   modules/lp_?.ko        the test modules (when modules are built)
#   modules/lp_bench.ko    the benchmark module (bench/lp_bench.c)
set -euo pipefail
src=$1 dst=$2
mkdir -p "$dst/firmware" "$dst/modules"
# Mount points, for scenarios that switch_root into a payload disk.
mkdir -p "$dst/dev" "$dst/proc" "$dst/sys" "$dst/tmp"
# Fixed content: images built twice are identical.
printf 'loadpin test firmware %04d\n' $(seq 1 64) > "$dst/firmware/lp-test.bin"
for m in "$src"/module/lp_?.ko "$src"/module/lp_bench.ko; do
	[ -f "$m" ] && cp "$m" "$dst/modules/"
done
exit 0
