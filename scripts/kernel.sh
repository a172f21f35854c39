#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kernel.sh NAME: build one of the named kernel configurations.
#   main      the series' LoadPin with everything the tests need
#   debug     main plus KASAN, lockdep, DEBUG_ATOMIC_SLEEP, UBSAN, kmemleak,
#             fault injection (failslab, fail_page_alloc, fail-nth)
#   kcsan     main plus KCSAN (strict) and lockdep, for the race scenarios
#   upstream  the unpatched tree with its own LoadPin (make compare, bench)
set -euo pipefail
. "$(dirname "$0")/common.sh"
c=$TOP/configs
case "${1:-main}" in
main) exec "$TOP/scripts/build.sh" -n main "$c/base.config" "$c/loadpin.config" ;;
debug) exec "$TOP/scripts/build.sh" -n debug "$c/base.config" "$c/loadpin.config" "$c/debug.config" ;;
kcsan) exec "$TOP/scripts/build.sh" -n kcsan "$c/base.config" "$c/loadpin.config" "$c/kcsan.config" ;;
upstream)
	"$TOP/scripts/tree.sh" --upstream
	exec "$TOP/scripts/build.sh" -s "$UPSTREAM_SRC" -n upstream "$c/base.config" "$c/upstream.config" ;;
*) die "unknown kernel configuration '$1'" ;;
esac
