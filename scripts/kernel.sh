#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kernel.sh NAME: build one of the named kernel configurations.
#   main      the series' LoadPin with everything the tests need
#   debug     main plus KASAN, lockdep, DEBUG_ATOMIC_SLEEP, UBSAN, kmemleak
set -euo pipefail
. "$(dirname "$0")/common.sh"
c=$TOP/configs
case "${1:-main}" in
main) exec "$TOP/scripts/build.sh" -n main "$c/base.config" "$c/loadpin.config" ;;
debug) exec "$TOP/scripts/build.sh" -n debug "$c/base.config" "$c/loadpin.config" "$c/debug.config" ;;
*) die "unknown kernel configuration '$1'" ;;
esac
