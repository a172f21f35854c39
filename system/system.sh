#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make system: the kernel as Debian packages (the series' and, for the
# comparison scenario, the unpatched tree's), the Debian 12 root and its
# images, then every system scenario (or those matching the arguments,
# name globs) with the boots without LoadPin that the boot time is
# compared with. The last line is "N passed, N failed, N skipped".
#
#   system/system.sh [--no-baseline] [--no-summary] [PATTERN...]
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

opts=() pats=()
for a; do
	case "$a" in
	--*) opts+=("$a") ;;
	*) pats+=("$a") ;;
	esac
done
builds=$(python3 "$TOP/system/run.py" --list "${pats[@]}" | awk '{ print $2 }' | sort -u)
[ -n "$builds" ] || die "no system scenario matches ${pats[*]}"
fail=0
for b in $builds; do
	t=$(date +%s)
	if "$TOP/system/deb.sh" "$b" >/dev/null; then
		echo "# make deb ($b): $(( $(date +%s) - t ))s"
	else
		echo "FAIL system: make deb ($b)"
		fail=1
	fi
done
if [ $fail = 1 ]; then
	case " ${opts[*]} " in
	*" --no-summary "*) echo "# counts: 0 1 0" ;;
	*) echo "0 passed, 1 failed, 0 skipped" ;;
	esac
	exit 1
fi
exec python3 "$TOP/system/run.py" "${opts[@]}" "${pats[@]}"
